package bench

import (
	"errors"
	"fmt"
	"strings"
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

// armSpec is an implementation that bench can time.
type armSpec struct {
	name string
	doc  string
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

var armSpecs = []armSpec{
	{name: "cpu", doc: "batchlas on the CPU device, through the public API", setup: setupCPU},
	{name: "gonum", doc: "gonum v0.17.0 LAPACK/BLAS, one call per matrix in a loop on one goroutine (float64 only)",
		setup: func(cfg *Config, op *Op, in any) (runner, string, error) { return setupGonum(op, in, 1) }},
	{name: "gonum-par", doc: "as gonum, with the matrices spread over GOMAXPROCS goroutines",
		setup: func(cfg *Config, op *Op, in any) (runner, string, error) { return setupGonum(op, in, 0) }},
	{name: "native", doc: "batchlas's own GPU kernels (none routed yet: skipped)", setup: func(*Config, *Op, any) (runner, string, error) {
		return nil, "", skipf("no native GPU tier is routed yet; the GPU runs the vendor arm")
	}},
	{name: "vendor", doc: "cuBLAS/cuSOLVER batched calls on the GPU named by -device", setup: setupVendor},
}

func lookupArm(name string) *armSpec {
	for i := range armSpecs {
		if armSpecs[i].name == name {
			return &armSpecs[i]
		}
	}
	return nil
}

// ArmHelp describes the arms, one per line.
func ArmHelp() string {
	var b strings.Builder
	for _, a := range armSpecs {
		fmt.Fprintf(&b, "  %-10s %s\n", a.name, a.doc)
	}
	return b.String()
}

// ArmNames lists the arms, comma separated.
func ArmNames() string {
	names := make([]string, len(armSpecs))
	for i, a := range armSpecs {
		names[i] = a.name
	}
	return strings.Join(names, ", ")
}

// setupVendor runs the op through the public API on the GPU, which today
// always takes the cuBLAS/cuSOLVER path (no native GPU tier is routed yet).
func setupVendor(cfg *Config, op *Op, in any) (runner, string, error) {
	r, desc, err := setupNative(cfg, op, in)
	if err != nil {
		return nil, "", err
	}
	return r, desc + ", cuBLAS/cuSOLVER", nil
}
