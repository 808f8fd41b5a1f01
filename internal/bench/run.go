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

// Config is one `batchlas bench` invocation: one case (Op, N, Batch, NRHS)
// or, with Suite, a named list of cases.
type Config struct {
	Op     string        // an op name, see Ops
	Dtype  string        // float32, float64, complex64 or complex128
	N      int           // matrix order
	Batch  int           // matrices per call
	NRHS   int           // right-hand sides; 0 means the op's default
	Arms   []string      // arms in order (see ArmHelp); ratios are taken against earlier ones
	Device string        // the device of the GPU arms, or cpu:N for the cpu arms
	Count  int           // repetitions per arm
	Time   time.Duration // target time of one repetition
	Seed   uint64
	// Inputs picks potrf's input family: "" the usual ones (see Ops),
	// generated and checked on the host; "gpumode" GPU MODE's dense cond-2
	// matrices, formed and checked as the cholesky-gpumode suite does
	// (above n = 1024 on the GPU, so the host does O(n²) work per matrix
	// instead of O(n³)), on Uplo's triangle. Tune uses it to reach large
	// orders.
	Inputs string
	// Uplo is the triangle potrf factors and potrs and posv read: "L" (or
	// "") or "U" (GPU MODE's own form with Inputs "gpumode"). Every other
	// op times Lower only.
	Uplo string

	// Suite names a list of cases to run instead of one (see Suites). Op,
	// N, Batch and NRHS must then be zero; Dtype "" takes the suite's
	// default and no Arms its default arms for the device.
	Suite string
	// Cases, with a suite, is a regular expression that picks the cases
	// whose names (Case.Name, "potrf/n=32/batch=4096") it matches.
	Cases string

	// Command is echoed in the header, so a result file says how it was made.
	Command string
	// Progress, when set, is called as set-up and repetitions finish. With
	// a suite, total grows as each case starts.
	Progress func(done, total int)

	// batchDivisor, when above 1, divides the batch of every suite case
	// (at least 1 matrix remains): tests run the suites' machinery on
	// small data with it.
	batchDivisor int
	// wrapGM, when set, wraps each cholesky-gpumode runner (a gmRunner[T]):
	// tests break an arm on purpose with it.
	wrapGM func(arm string, r any) any
}

// UsageError is a bad value in a Config: the command line is wrong.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

var deviceSpec = regexp.MustCompile(`^(auto|cpu(:[1-9][0-9]*)?|(cuda|gpu)(:[0-9]+)?)$`)

// maxElements bounds the elements of one operand of a case: 2³⁴ (128 GiB
// of complex64) is past any host bench runs on, and keeps n·n·batch far
// from overflowing int.
const maxElements = 1 << 34

// Validate checks the config without running anything.
func (c *Config) Validate() error {
	switch c.Inputs {
	case "":
	case "gpumode":
		switch {
		case c.Suite != "":
			return usagef("-inputs gpumode is for one potrf case; suite %s picks its own inputs", c.Suite)
		case c.Op != "potrf":
			return usagef("-inputs gpumode is for potrf, not %s", c.Op)
		case c.Dtype != "float32" && c.Dtype != "float64":
			return usagef("-inputs gpumode is for float32 and float64, not %s", c.Dtype)
		}
	default:
		return usagef("-inputs %q: want gpumode or nothing", c.Inputs)
	}
	switch {
	case c.Uplo != "" && c.Uplo != "L" && c.Uplo != "U":
		return usagef("-uplo %q: want L or U", c.Uplo)
	case c.Uplo == "U" && c.Suite == "" && !TimesUpper(c.Op):
		return usagef("-uplo U is for %s (bench times every other op on Lower), not %s", strings.Join(uploOps, ", "), c.Op)
	}
	if c.Suite != "" {
		if err := c.validateSuite(); err != nil {
			return err
		}
	} else {
		if c.Cases != "" {
			return usagef("-cases %q needs -suite", c.Cases)
		}
		if LookupOp(c.Op) == nil {
			return usagef("unknown op %q (want one of %s)", c.Op, OpNames())
		}
		if !slices.Contains(Dtypes, c.Dtype) {
			return usagef("unknown dtype %q (want one of %s)", c.Dtype, strings.Join(Dtypes, ", "))
		}
		if len(c.Arms) == 0 {
			return usagef("no arms given (want some of %s)", ArmNames())
		}
		switch {
		case c.N < 1:
			return usagef("-n %d: want at least 1", c.N)
		case c.Batch < 1:
			return usagef("-batch %d: want at least 1", c.Batch)
		case c.NRHS < 0:
			return usagef("-nrhs %d: must not be negative", c.NRHS)
		case c.NRHS > 0 && !LookupOp(c.Op).RHS:
			return usagef("-nrhs %d: %s has no right-hand side", c.NRHS, c.Op)
		case float64(c.N)*float64(max(c.N, c.NRHS))*float64(c.Batch) > maxElements:
			// make would panic or the host run out of memory long before.
			return usagef("-n %d -nrhs %d -batch %d: %.3g elements an operand, more than bench makes (%.3g)",
				c.N, c.NRHS, c.Batch, float64(c.N)*float64(max(c.N, c.NRHS))*float64(c.Batch), float64(maxElements))
		}
	}
	for i, a := range c.Arms {
		if _, err := lookupArm(a); err != nil {
			return usagef("unknown arm %q: %v (want some of %s)", a, err, ArmNames())
		}
		if slices.Contains(c.Arms[:i], a) {
			return usagef("arm %q is given twice", a)
		}
	}
	if c.Device != "" && !deviceSpec.MatchString(strings.ToLower(c.Device)) {
		return usagef("-device %q: want auto, cpu, cpu:N, cuda or cuda:N", c.Device)
	}
	switch {
	case c.Count < 1:
		return usagef("-count %d: want at least 1", c.Count)
	case c.Time <= 0:
		return usagef("-time %v: want a positive duration", c.Time)
	}
	return nil
}

// Outcome is what a run found.
type Outcome struct {
	Failed  []string // arms whose check failed or that broke while running (in any case of a suite)
	Skipped []string // arms that could not run, with the reason printed (in every case of a suite)
	// Arms has one entry per arm of the Config, in its order. For a suite,
	// NsPerCall is the geometric mean of the arm's times over the cases it
	// passed (the last row of the suite's table), Failed says it failed at
	// least one case and Skipped is set when it ran none.
	Arms []ArmResult
	// Cases has one entry per case of a suite, in order; nil for one case.
	Cases []CaseOutcome
}

// ArmResult is one arm's result. Only an arm that passed every check has a
// time: NsPerCall is 0 for a failed or skipped arm.
type ArmResult struct {
	Arm       string
	NsPerCall float64 // the median over repetitions of ns per whole-batch call
	Failed    bool    // a check failed, or the arm broke while running
	Skipped   string  // why the arm could not run; "" if it ran
}

// CaseOutcome is one case of a suite and each arm's result on it.
type CaseOutcome struct {
	Case Case
	Arms []ArmResult // one per arm, in the Config's order
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

	skipReason string
}

// Run generates the case, times every arm and writes the results to w; with
// Suite set it does so for each case of the suite and ends with a table.
// The error is for what prevents running at all; failed and skipped arms
// are in the outcome and in the output.
func Run(cfg Config, w io.Writer) (Outcome, error) {
	if err := cfg.Validate(); err != nil {
		return Outcome{}, err
	}
	if cfg.Suite != "" {
		return runSuite(cfg, w)
	}
	if cfg.Inputs == "gpumode" {
		return runGPUModeInputs(cfg, w)
	}
	arms := make([]*armSpec, len(cfg.Arms))
	for i, a := range cfg.Arms {
		arms[i], _ = lookupArm(a)
	}
	prog := &progress{report: cfg.Progress}
	res := runCaseOf(cfg, arms, w, caseOptions{env: true, ref: -1}, prog)
	out := Outcome{Arms: res}
	out.Failed, out.Skipped = failedSkipped(res)
	return out, nil
}

// caseOptions say how runCase writes a case.
type caseOptions struct {
	env bool // write the environment lines first
	ref int  // write the ratios of every arm to arm ref only; -1: of every pair
}

// runCaseOf runs one case of the bench timing with the element type of
// cfg.Dtype.
func runCaseOf(cfg Config, arms []*armSpec, w io.Writer, o caseOptions, prog *progress) []ArmResult {
	switch cfg.Dtype {
	case "float32":
		return runCase[float32](cfg, arms, w, o, prog)
	case "float64":
		return runCase[float64](cfg, arms, w, o, prog)
	case "complex64":
		return runCase[complex64](cfg, arms, w, o, prog)
	default:
		return runCase[complex128](cfg, arms, w, o, prog)
	}
}

// failedSkipped lists the arms of res that failed and that skipped.
func failedSkipped(res []ArmResult) (failed, skipped []string) {
	for _, r := range res {
		switch {
		case r.Failed:
			failed = append(failed, r.Arm)
		case r.Skipped != "":
			skipped = append(skipped, r.Arm)
		}
	}
	return failed, skipped
}

// progress counts steps done out of a total that may grow.
type progress struct {
	done, total int
	report      func(done, total int)
}

func (p *progress) add(steps int) {
	p.total += steps
	if p.report != nil {
		p.report(p.done, p.total)
	}
}

func (p *progress) step() {
	p.done++
	if p.report != nil {
		p.report(p.done, p.total)
	}
}

// runCase times one case with the bench timing: it writes the header, the
// results and the ratios, and returns each arm's result.
func runCase[T core.Scalar](cfg Config, specs []*armSpec, w io.Writer, o caseOptions, prog *progress) []ArmResult {
	op := LookupOp(cfg.Op)
	nrhs := cfg.NRHS
	if !op.RHS {
		nrhs = 0
	} else if nrhs == 0 {
		nrhs = op.DefaultNRHS(cfg.N)
	}
	prog.add(len(specs)*(cfg.Count+1) + 1)

	in := generate[T](op, cfg.N, nrhs, cfg.Batch, cfg.Seed)
	uplo := core.Lower
	if cfg.Uplo == "U" {
		uplo = core.Upper
	}
	in.setTriangle(op, uplo)
	prog.step()
	name := benchName(op, cfg, nrhs)
	hdr := header{cfg: cfg, op: op, nrhs: nrhs, distinct: in.distinct}
	idx := checkIndices(cfg.Batch)

	arms := make([]*armState, len(specs))
	for i, a := range specs {
		arms[i] = &armState{spec: a}
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
			a.dead, a.skipped, a.skipReason = true, true, s.Reason
			notes = append(notes, fmt.Sprintf("--- SKIP: %s: %s", fullName(name, a.spec.name), s.Reason))
		case err != nil:
			a.dead = true
			notes = append(notes, fmt.Sprintf("--- FAIL: %s: %v", fullName(name, a.spec.name), err))
		}
		prog.step()
	}
	if o.env {
		writeEnvironment(w, cfg.Command)
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
				prog.step()
				continue
			}
			ns, err := timeRepetition(a.r, a.calls)
			if err == nil {
				err = verify(a.r, op, in, idx)
			}
			if err != nil {
				a.dead = true
				a.times = nil
				fmt.Fprintf(w, "--- FAIL: %s: %v\n", fullName(name, a.spec.name), err)
				prog.step()
				continue
			}
			a.times = append(a.times, ns)
			fmt.Fprintln(w, resultLine(fullName(name, a.spec.name), width, a.calls, ns, bytes, flops))
			prog.step()
		}
	}

	for i, first := range arms {
		for j, second := range arms[i+1:] {
			if o.ref < 0 || o.ref == i || o.ref == i+1+j {
				fmt.Fprintln(w, ratioLine(first, second))
			}
		}
	}
	return armResults(arms)
}

// armResults is the outcome of each arm, in order.
func armResults(arms []*armState) []ArmResult {
	var out []ArmResult
	for _, a := range arms {
		res := ArmResult{Arm: a.spec.name, Failed: a.dead && !a.skipped}
		switch {
		case a.skipped:
			res.Skipped = a.skipReason
		case !a.dead && len(a.times) > 0:
			res.NsPerCall = median(a.times)
		}
		out = append(out, res)
	}
	return out
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
	status := func(a *armState) string {
		if a.skipped {
			return "skipped"
		}
		return "failed"
	}
	return ratioText(first.spec.name, second.spec.name, first.times, second.times, status(first), status(second))
}

// ratioText is "ratio second/first x", or n/a with the reason when an arm
// has no times (why says what happened to it).
func ratioText(first, second string, firstTimes, secondTimes []float64, firstWhy, secondWhy string) string {
	label := second + "/" + first
	switch {
	case len(firstTimes) == 0:
		return fmt.Sprintf("ratio %s n/a (%s %s)", label, first, firstWhy)
	case len(secondTimes) == 0:
		return fmt.Sprintf("ratio %s n/a (%s %s)", label, second, secondWhy)
	}
	return fmt.Sprintf("ratio %s %.2f", label, median(secondTimes)/median(firstTimes))
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
