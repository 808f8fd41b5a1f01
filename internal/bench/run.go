package bench

import (
	"fmt"
	"io"
	"math"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/batchlas/batchlas/internal/core"
)

// Config is one `batchlas bench` invocation.
type Config struct {
	Op     string        // an op name, see Ops
	Dtype  string        // float32, float64, complex64 or complex128
	N      int           // matrix order
	Batch  int           // matrices per call
	NRHS   int           // right-hand sides; 0 means the op's default
	Arms   []string      // arms in order; ratios are taken against earlier ones
	Device string        // the device of the GPU arms, or cpu:N for the cpu arm
	Count  int           // repetitions per arm
	Time   time.Duration // target time of one repetition
	Seed   uint64

	// Command is echoed in the header, so a result file says how it was made.
	Command string
	// Progress, when set, is called as set-up and repetitions finish.
	Progress func(done, total int)
}

// UsageError is a bad value in a Config: the command line is wrong.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

var deviceSpec = regexp.MustCompile(`^(auto|cpu(:[1-9][0-9]*)?|(cuda|gpu)(:[0-9]+)?)$`)

// Validate checks the config without running anything.
func (c *Config) Validate() error {
	if LookupOp(c.Op) == nil {
		return usagef("unknown op %q (want one of %s)", c.Op, OpNames())
	}
	if !slices.Contains(Dtypes, c.Dtype) {
		return usagef("unknown dtype %q (want one of %s)", c.Dtype, strings.Join(Dtypes, ", "))
	}
	if len(c.Arms) == 0 {
		return usagef("no arms given (want some of %s)", ArmNames())
	}
	for i, a := range c.Arms {
		if lookupArm(a) == nil {
			return usagef("unknown arm %q (want some of %s)", a, ArmNames())
		}
		if slices.Contains(c.Arms[:i], a) {
			return usagef("arm %q is given twice", a)
		}
	}
	if c.Device != "" && !deviceSpec.MatchString(strings.ToLower(c.Device)) {
		return usagef("-device %q: want auto, cpu, cpu:N, cuda or cuda:N", c.Device)
	}
	switch {
	case c.N < 1:
		return usagef("-n %d: want at least 1", c.N)
	case c.Batch < 1:
		return usagef("-batch %d: want at least 1", c.Batch)
	case c.NRHS < 0:
		return usagef("-nrhs %d: must not be negative", c.NRHS)
	case c.Count < 1:
		return usagef("-count %d: want at least 1", c.Count)
	case c.Time <= 0:
		return usagef("-time %v: want a positive duration", c.Time)
	}
	return nil
}

// Outcome is what a run found.
type Outcome struct {
	Failed  []string // arms whose check failed or that broke while running
	Skipped []string // arms that could not run, with the reason printed
}

// armState is one arm during a run.
type armState struct {
	spec    *armSpec
	r       runner
	about   string
	calls   int       // per repetition
	times   []float64 // ns per call, one per repetition
	dead    bool
	skipped bool
}

// Run generates the case, times every arm and writes the results to w.
// The error is for what prevents running at all; failed and skipped arms
// are in the outcome and in the output.
func Run(cfg Config, w io.Writer) (Outcome, error) {
	if err := cfg.Validate(); err != nil {
		return Outcome{}, err
	}
	switch cfg.Dtype {
	case "float32":
		return run[float32](cfg, w)
	case "float64":
		return run[float64](cfg, w)
	case "complex64":
		return run[complex64](cfg, w)
	default:
		return run[complex128](cfg, w)
	}
}

func run[T core.Scalar](cfg Config, w io.Writer) (Outcome, error) {
	op := LookupOp(cfg.Op)
	nrhs := cfg.NRHS
	if !op.RHS {
		nrhs = 0
	} else if nrhs == 0 {
		nrhs = op.DefaultNRHS(cfg.N)
	}
	var out Outcome
	steps, total := 0, len(cfg.Arms)*(cfg.Count+1)+1
	progress := func() {
		steps++
		if cfg.Progress != nil {
			cfg.Progress(steps, total)
		}
	}

	in := generate[T](op, cfg.N, nrhs, cfg.Batch, cfg.Seed)
	progress()
	name := benchName(op, cfg, nrhs)
	hdr := header{cfg: cfg, op: op, nrhs: nrhs, distinct: in.distinct}
	idx := checkIndices(cfg.Batch)

	arms := make([]*armState, len(cfg.Arms))
	for i, a := range cfg.Arms {
		arms[i] = &armState{spec: lookupArm(a)}
	}
	defer func() {
		for _, a := range arms {
			if a.r != nil {
				a.r.release()
			}
		}
	}()

	// Set up every arm, warm it up and check it, then decide how many calls
	// a repetition takes.
	var notes []string
	for _, a := range arms {
		r, about, err := a.spec.setup(&cfg, op, in)
		if err == nil {
			a.r, a.about = r, about
			a.calls, err = calibrate(r, cfg.Time)
			if err != nil {
				err = unsupportedAsSkip(err)
			}
		}
		if err == nil {
			err = verify(a.r, op, in, idx)
		}
		switch s, isSkip := asSkip(err); {
		case isSkip:
			a.dead, a.skipped = true, true
			notes = append(notes, fmt.Sprintf("--- SKIP: %s: %s", fullName(name, a.spec.name), s.Reason))
			out.Skipped = append(out.Skipped, a.spec.name)
		case err != nil:
			a.dead = true
			notes = append(notes, fmt.Sprintf("--- FAIL: %s: %v", fullName(name, a.spec.name), err))
			out.Failed = append(out.Failed, a.spec.name)
		}
		progress()
	}
	hdr.write(w, arms)
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}

	width := 0
	for _, a := range arms {
		width = max(width, len(fullName(name, a.spec.name)))
	}
	elem := int(sizeOfElem[T]())
	flops := op.Flops(cfg.N, nrhs, core.IsComplex[T]()) * float64(cfg.Batch)
	bytes := op.Bytes(cfg.N, nrhs, elem) * float64(cfg.Batch)

	for range cfg.Count {
		for _, a := range arms {
			if a.dead {
				progress()
				continue
			}
			ns, err := timeRepetition(a.r, a.calls)
			if err == nil {
				err = verify(a.r, op, in, idx)
			}
			if err != nil {
				a.dead = true
				fmt.Fprintf(w, "--- FAIL: %s: %v\n", fullName(name, a.spec.name), err)
				out.Failed = append(out.Failed, a.spec.name)
				progress()
				continue
			}
			a.times = append(a.times, ns)
			fmt.Fprintln(w, resultLine(fullName(name, a.spec.name), width, a.calls, ns, bytes, flops))
			progress()
		}
	}

	for i, first := range arms {
		for _, second := range arms[i+1:] {
			fmt.Fprintln(w, ratioLine(first, second))
		}
	}
	return out, nil
}

func sizeOfElem[T core.Scalar]() uintptr {
	var z T
	switch any(z).(type) {
	case float32:
		return 4
	case float64, complex64:
		return 8
	}
	return 16
}

// checkIndices are the first, middle and last matrix.
func checkIndices(count int) []int {
	idx := []int{0, count / 2, count - 1}
	slices.Sort(idx)
	return slices.Compact(idx)
}

// calibrate warms the arm up with one call and returns the number of calls
// that makes a repetition last about target (at least one).
func calibrate(r runner, target time.Duration) (int, error) {
	if _, err := timeRepetition(r, 1); err != nil {
		return 0, err
	}
	calls := 1
	for {
		ns, err := timeRepetition(r, calls)
		if err != nil {
			return 0, err
		}
		elapsed := ns * float64(calls)
		if elapsed >= float64(target)/10 || calls >= 1e9 {
			n := float64(target) / ns
			return int(max(1, min(1e9, math.Round(n)))), nil
		}
		// Aim a little past a tenth of the target, growing at most 100× a step.
		next := 1.2 * float64(target) / 10 / max(ns, 1)
		calls = int(max(float64(calls+1), min(next, 100*float64(calls))))
	}
}

// deviceTimer is a runner that can time a call on its device (a GPU).
type deviceTimer interface {
	deviceTime() (d time.Duration, onDevice bool, err error)
}

// timeRepetition makes calls calls, each after restoring the inputs
// outside the timer, and returns the mean nanoseconds of a call.
//
// It collects garbage first, outside the timer: the untimed checks between
// repetitions leave garbage on a heap holding every arm's copies, and a
// collection starting inside the next arm's timed calls cost the cpu arm at
// n = 8 half its speed (13.5 against 6.7 ms with GOGC=off, 2 cores).
func timeRepetition(r runner, calls int) (float64, error) {
	runtime.GC()
	var total time.Duration
	for range calls {
		if err := r.restore(); err != nil {
			return 0, err
		}
		if dt, ok := r.(deviceTimer); ok {
			d, onDevice, err := dt.deviceTime()
			if err != nil {
				return 0, err
			}
			if onDevice {
				total += d
				continue
			}
		}
		start := time.Now()
		err := r.call()
		total += time.Since(start)
		if err != nil {
			return 0, err
		}
	}
	return float64(total.Nanoseconds()) / float64(calls), nil
}

// verify checks the last call's outputs against the reference.
func verify[T core.Scalar](r runner, op *Op, in *inputs[T], idx []int) error {
	outs, info, err := r.snapshot(idx)
	if err != nil {
		return err
	}
	var bad []string
	failed := 0
	for i, v := range info {
		if v != 0 {
			if failed == 0 {
				bad = append(bad, fmt.Sprintf("info[%d] = %d", i, v))
			}
			failed++
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d matrices report failure (%s) on well-conditioned input", failed, len(info), bad[0])
	}
	eps := core.Eps[T]()
	for k, i := range idx {
		res := checkMatrix(op, in, i, outs[k], eps)
		if !res.ok() {
			return fmt.Errorf("matrix #%d: %v", i, res)
		}
	}
	return nil
}

// Names and lines in the Go benchmark format.

func benchName(op *Op, cfg Config, nrhs int) string {
	s := fmt.Sprintf("Benchmark%s/dtype=%s/n=%d", op.Title, cfg.Dtype, cfg.N)
	if op.RHS {
		s += fmt.Sprintf("/nrhs=%d", nrhs)
	}
	return s + fmt.Sprintf("/batch=%d", cfg.Batch)
}

// fullName adds the arm and, as go test does, the GOMAXPROCS suffix when it
// is not 1; benchstat reads the suffix as the .gomaxprocs key.
func fullName(name, arm string) string {
	s := name + "/arm=" + arm
	if p := runtime.GOMAXPROCS(0); p != 1 {
		s += fmt.Sprintf("-%d", p)
	}
	return s
}

func resultLine(name string, width, calls int, nsPerCall, bytes, flops float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-*s\t%8d\t", width, name, calls)
	b.WriteString(pretty(nsPerCall, "ns/op"))
	fmt.Fprintf(&b, "\t%8.2f MB/s", bytes/nsPerCall*1e3)
	b.WriteString("\t" + pretty(flops/nsPerCall, "GFLOP/s"))
	return b.String()
}

// pretty formats a value as the testing package does: fewer decimals for
// larger numbers, so columns line up.
func pretty(x float64, unit string) string {
	var format string
	switch y := math.Abs(x); {
	case y == 0 || y >= 999.95:
		format = "%10.0f %s"
	case y >= 99.995:
		format = "%12.1f %s"
	case y >= 9.9995:
		format = "%13.2f %s"
	case y >= 0.99995:
		format = "%14.3f %s"
	case y >= 0.099995:
		format = "%15.4f %s"
	default:
		format = "%16.5f %s"
	}
	return fmt.Sprintf(format, x, unit)
}

// ratioLine is the median time of the second arm over the first's.
func ratioLine(first, second *armState) string {
	label := second.spec.name + "/" + first.spec.name
	for _, a := range []*armState{first, second} {
		if len(a.times) == 0 {
			why := "failed"
			if a.skipped {
				why = "skipped"
			}
			return fmt.Sprintf("ratio %s n/a (%s %s)", label, a.spec.name, why)
		}
	}
	return fmt.Sprintf("ratio %s %.2f", label, median(second.times)/median(first.times))
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
