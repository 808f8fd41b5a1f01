package bench

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/batchlas/batchlas/internal/route"
)

// runner is one arm set up for one case: it owns its copies of the operands.
type runner interface {
	// restore puts back the operands the op overwrites (outside the timer).
	restore() error
	// call runs the op once on the whole batch and waits for it.
	call() error
	// snapshot returns the outputs of the last call for matrices idx and
	// the info of every matrix (nil for ops without info).
	snapshot(idx []int) ([]result, []int32, error)
	// release frees what the runner holds.
	release()
}

// result is the output of one matrix, widened to complex128 and laid out
// column-major; fields the op does not write are nil.
type result struct {
	a, b, c []complex128
	pivots  []int32 // 1-based, as LAPACK
}

// armSpec is an implementation that bench can time: one of the fixed arms
// (cpu, gonum, gonum-par) or a routing pin.
type armSpec struct {
	name string
	doc  string
	// pin is the route pin passed to every call of a public-API arm ("auto"
	// for the cpu arm); "" for the gonum arms.
	pin string
	// gpu reports that the arm runs on the GPU named by Config.Device.
	gpu bool
	// setup prepares the arm for a case (in is an *inputs[T]) and returns a
	// description for the header, or a *SkipError saying why it cannot run.
	setup func(cfg *Config, op *Op, in any) (runner, string, error)
}

// SkipError says why an arm cannot run a case; bench reports it and carries
// on with the other arms.
type SkipError struct{ Reason string }

func (e *SkipError) Error() string { return e.Reason }

func skipf(format string, args ...any) error {
	return &SkipError{Reason: fmt.Sprintf(format, args...)}
}

// asSkip reports whether err means the arm cannot run (rather than that it
// ran wrongly).
func asSkip(err error) (*SkipError, bool) {
	var s *SkipError
	if errors.As(err, &s) {
		return s, true
	}
	return nil, false
}

// armSpecs are the fixed arms; every other arm name is a routing pin.
var armSpecs = []armSpec{
	{name: "cpu", doc: "batchlas on the CPU device through the public API, routing auto (the tables pick the CPU driver)",
		pin: "auto", setup: func(cfg *Config, op *Op, in any) (runner, string, error) { return setupCPU(cfg, op, in, "auto") }},
	{name: "gonum", doc: "gonum v0.17.0 LAPACK/BLAS, one call per matrix in a loop on one goroutine (float64 only)",
		setup: func(cfg *Config, op *Op, in any) (runner, string, error) { return setupGonum(op, in, 1) }},
	{name: "gonum-par", doc: "as gonum, with the matrices spread over GOMAXPROCS goroutines",
		setup: func(cfg *Config, op *Op, in any) (runner, string, error) { return setupGonum(op, in, 0) }},
}

// lookupArm returns the arm called name: a fixed arm, or a pin arm made for
// a valid pin spelling (see pinArm); nil and the reason otherwise.
func lookupArm(name string) (*armSpec, error) {
	for i := range armSpecs {
		if armSpecs[i].name == name {
			return &armSpecs[i], nil
		}
	}
	return pinArm(name)
}

// pinArm makes the arm that runs the op through the public API with
// batchlas.Route(pin) on every call: on the CPU device for a cpu candidate
// (cpu:blocked, cpu:unblocked), on the GPU named by -device for anything
// else (auto, native, vendor, native:tiny ...). The spelling is checked with
// route.ParsePin, and a candidate must belong to some op, so that a typo is
// a usage error rather than a SKIP on every case.
func pinArm(pin string) (*armSpec, error) {
	p, err := route.ParsePin(pin)
	if err != nil || pin == "" || strings.TrimSpace(pin) != pin {
		return nil, fmt.Errorf("not a fixed arm (%s) nor a route pin", fixedArmNames())
	}
	if name, ok := p.Candidate(); ok && !slices.Contains(candidateNames(), name) {
		return nil, fmt.Errorf("no op has the candidate %q (candidates: %s)", name, strings.Join(candidateNames(), ", "))
	}
	a := &armSpec{name: pin, pin: pin, gpu: true}
	kind, _ := p.Kind()
	switch {
	case p.Auto():
		a.doc = "routing auto on the GPU: the GPU's tables choose"
	case kind == route.CPU:
		a.gpu = false
		a.doc = "the cpu candidate " + pin + " on the CPU device"
	default:
		if _, isCandidate := p.Candidate(); isCandidate {
			a.doc = "the candidate " + pin + " on the GPU"
		} else {
			a.doc = "the fastest " + pin + " candidate on the GPU, by its tables"
		}
	}
	a.doc += fmt.Sprintf(", batchlas.Route(%q) on every call", pin)
	a.setup = func(cfg *Config, op *Op, in any) (runner, string, error) {
		if a.gpu {
			return setupGPU(cfg, op, in, pin)
		}
		return setupCPU(cfg, op, in, pin)
	}
	return a, nil
}

// candidateNames lists every candidate spelling of the routed ops, in the
// ops' order, once each.
func candidateNames() []string {
	var names []string
	for _, op := range route.Builtin() {
		for _, c := range op.Candidates {
			if !slices.Contains(names, c.Name) {
				names = append(names, c.Name)
			}
		}
	}
	return names
}

func fixedArmNames() string {
	names := make([]string, len(armSpecs))
	for i, a := range armSpecs {
		names[i] = a.name
	}
	return strings.Join(names, ", ")
}

// ArmHelp describes the arms, one per line.
func ArmHelp() string {
	var b strings.Builder
	for _, a := range armSpecs {
		fmt.Fprintf(&b, "  %-12s %s\n", a.name, a.doc)
	}
	fmt.Fprintf(&b, "  %-12s %s\n", "auto", "the GPU named by -device, routing auto (its tables choose)")
	fmt.Fprintf(&b, "  %-12s %s\n", "native", "the GPU, the fastest native kernel tier by the tables")
	fmt.Fprintf(&b, "  %-12s %s\n", "vendor", "the GPU, cuBLAS/cuSOLVER")
	fmt.Fprintf(&b, "  %-12s %s\n", "CANDIDATE", "one candidate: "+strings.Join(withoutVendor(candidateNames()), ", ")+";")
	fmt.Fprintf(&b, "  %-12s %s\n", "", "cpu:* on the CPU device, the others on the GPU")
	fmt.Fprintf(&b, "  Every arm but gonum runs through the public API with batchlas.Route(ARM) on\n")
	fmt.Fprintf(&b, "  every call (cpu: Route(\"auto\") on the CPU device); a pin that cannot run a\n")
	fmt.Fprintf(&b, "  case is reported as SKIP with the reason.\n")
	return b.String()
}

// ArmNames lists the fixed arms and the pin forms, comma separated.
func ArmNames() string {
	return fixedArmNames() + ", or a route pin: auto, native, vendor, " + strings.Join(withoutVendor(candidateNames()), ", ")
}

func withoutVendor(names []string) []string {
	return slices.DeleteFunc(slices.Clone(names), func(s string) bool { return s == "vendor" || s == "cpu" })
}
