package bench

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"regexp"
	"runtime"
	"slices"
	"strings"

	"github.com/batchlas/batchlas"
)

// Suite is a named list of cases that bench runs one after another, ending
// with a table of every arm's time per case, its ratio to the vendor arm
// and the geometric means.
type Suite struct {
	Name string
	Doc  string // one line for the help text
	// DefaultDtype is the element type when Config.Dtype is ""; Dtypes are
	// those the suite accepts.
	DefaultDtype string
	Dtypes       []string

	// cases lists the cases for an element type, on a GPU or on the CPU
	// (the batch of a case may depend on which).
	cases func(dtype string, gpu bool) []Case
	// run times the cases and returns one outcome per case.
	run func(s *suiteRun) []CaseOutcome
}

// Case is one case of a suite.
type Case struct {
	Name  string // what -cases matches: "potrf/n=32/batch=4096", "getrs/n=4/nrhs=1/batch=1024"
	Op    string
	N     int
	Batch int
	NRHS  int // 0 for ops without a right-hand side

	// The cholesky-gpumode cases also have:
	Uplo   string // "U" or "L": the triangle Potrf factors
	Seed   uint64 // the case's seed in the GPU MODE task (perf-anchors §1.2)
	Inputs int    // k, the distinct inputs of one timed repetition (§1.6)
}

var suites = []*Suite{
	{
		Name:         "cholesky-gpumode",
		Doc:          "the 15 ranked cases of the GPU MODE cholesky task: potrf, dense cond 2, timed and checked as its eval.py (perf-anchors §1)",
		DefaultDtype: "float32",
		Dtypes:       []string{"float32", "float64"},
		cases:        func(string, bool) []Case { return gpumodeCases() },
		run:          runGPUMode,
	},
	{
		Name:         "small-batched",
		Doc:          "every op at n = 4 … 256 with its default nrhs, at a saturating batch, with the usual bench timing and checks",
		DefaultDtype: "float64",
		Dtypes:       Dtypes,
		cases:        smallBatchedCases,
		run:          runSmallBatched,
	},
}

// Suites returns the suites in help order.
func Suites() []*Suite { return slices.Clone(suites) }

// LookupSuite returns the suite with the given name, or nil.
func LookupSuite(name string) *Suite {
	for _, s := range suites {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// SuiteNames lists the suites, comma separated.
func SuiteNames() string {
	names := make([]string, len(suites))
	for i, s := range suites {
		names[i] = s.Name
	}
	return strings.Join(names, ", ")
}

// Cases lists the suite's cases for an element type ("" for the suite's
// default), on a GPU device or on the CPU.
func (s *Suite) Cases(dtype string, gpu bool) []Case {
	if dtype == "" {
		dtype = s.DefaultDtype
	}
	return s.cases(dtype, gpu)
}

func (c *Config) validateSuite() error {
	s := LookupSuite(c.Suite)
	switch {
	case s == nil:
		return usagef("unknown suite %q (want one of %s)", c.Suite, SuiteNames())
	case c.Op != "" || c.N != 0 || c.Batch != 0 || c.NRHS != 0:
		return usagef("-suite %s conflicts with an op, -n, -batch and -nrhs: the suite names its cases (pick some with -cases)", c.Suite)
	case c.Dtype != "" && !slices.Contains(s.Dtypes, c.Dtype):
		return usagef("suite %s runs dtype %s, not %q", c.Suite, strings.Join(s.Dtypes, " or "), c.Dtype)
	}
	if _, err := regexp.Compile(c.Cases); err != nil {
		return usagef("-cases %q: %v", c.Cases, err)
	}
	return nil
}

// The 15 ranked cases of the GPU MODE cholesky task (perf-anchors §1.2):
// batch, n and the task's seed.
var gpumodeTable = []struct {
	batch, n int
	seed     uint64
}{
	{4096, 32, 41032}, {1024, 64, 41064}, {256, 128, 41128}, {64, 256, 41256}, {16, 512, 41512},
	{640, 512, 510512}, {4, 1024, 42024}, {60, 1024, 511024}, {2, 2048, 44048}, {8, 2048, 512048},
	{1, 4096, 48096}, {2, 4096, 514096}, {1, 8192, 48192}, {1, 16384, 48284}, {1, 32768, 48368},
}

func gpumodeCases() []Case {
	var out []Case
	for _, c := range gpumodeTable {
		out = append(out, Case{
			Name: fmt.Sprintf("potrf/n=%d/batch=%d", c.n, c.batch),
			Op:   "potrf", N: c.n, Batch: c.batch,
			// GPU MODE's row-major lower L is column-major upper U = Lᵀ in
			// the same memory.
			Uplo: "U", Seed: c.seed, Inputs: gpumodeInputs(c.batch, c.n),
		})
	}
	return out
}

// gpumodeInputs is k = clamp(256 MiB / (batch·n²·4), 1, 50) (§1.6): FP32
// bytes whatever the element type, so a case has the task's k.
func gpumodeInputs(batch, n int) int {
	return max(1, min(50, (256<<20)/(batch*n*n*4)))
}

// smallBatchedOrders are the orders of the small-batched suite.
var smallBatchedOrders = []int{4, 8, 16, 32, 64, 128, 256}

// smallBatchedCases: every op at every order, with a batch that saturates
// the device. On a GPU that is 256 MiB of A per call (as
// bench/vendor-baselines.sh); on the CPU, the largest power of two whose
// call is about a second at 1 GFLOP/s per core, within 64 MiB of A and at
// least 64 matrices.
func smallBatchedCases(dtype string, gpu bool) []Case {
	elem := map[string]int{"float32": 4, "float64": 8, "complex64": 8, "complex128": 16}[dtype]
	cplx := strings.HasPrefix(dtype, "complex")
	var out []Case
	for _, op := range ops {
		for _, n := range smallBatchedOrders {
			nrhs := 0
			if op.RHS {
				nrhs = op.DefaultNRHS(n)
			}
			var batch int
			if gpu {
				batch = max(1, (256<<20)/(n*n*elem))
			} else {
				byFlops := 1e9 * float64(runtime.GOMAXPROCS(0)) / op.Flops(n, nrhs, cplx)
				byBytes := float64((64 << 20) / (n * n * elem))
				batch = max(64, powerOfTwoBelow(min(byFlops, byBytes)))
			}
			name := fmt.Sprintf("%s/n=%d", op.Name, n)
			if op.RHS {
				name += fmt.Sprintf("/nrhs=%d", nrhs)
			}
			out = append(out, Case{Name: name + fmt.Sprintf("/batch=%d", batch), Op: op.Name, N: n, Batch: batch, NRHS: nrhs})
		}
	}
	return out
}

func powerOfTwoBelow(x float64) int {
	p := 1
	for float64(2*p) <= x {
		p *= 2
	}
	return p
}

// suiteRun is one run of a suite.
type suiteRun struct {
	cfg   Config
	suite *Suite
	cases []Case
	arms  []*armSpec
	gpu   bool // the suite runs on a GPU device (its default arms, its batches)
	w     io.Writer
	hdr   *lineFilter
	prog  *progress
}

func runSuite(cfg Config, w io.Writer) (Outcome, error) {
	s := LookupSuite(cfg.Suite)
	if cfg.Dtype == "" {
		cfg.Dtype = s.DefaultDtype
	}
	arms, gpu := suiteArms(&cfg)

	pick := regexp.MustCompile(cfg.Cases)
	var cases []Case
	for _, c := range s.Cases(cfg.Dtype, gpu) {
		if pick.MatchString(c.Name) {
			if cfg.batchDivisor > 1 {
				c.Batch = max(1, c.Batch/cfg.batchDivisor)
				head, _, _ := strings.Cut(c.Name, "/batch=")
				c.Name = fmt.Sprintf("%s/batch=%d", head, c.Batch)
			}
			cases = append(cases, c)
		}
	}
	if len(cases) == 0 {
		return Outcome{}, usagef("no case of suite %s matches -cases %q", s.Name, cfg.Cases)
	}

	writeEnvironment(w, cfg.Command)
	fmt.Fprintf(w, "# suite: %s, %s, %d of %d cases, on %s: %s\n", s.Name, cfg.Dtype, len(cases), len(s.Cases(cfg.Dtype, gpu)), where(gpu), s.Doc)
	if cfg.batchDivisor > 1 {
		fmt.Fprintf(w, "# batches divided by %d (a test)\n", cfg.batchDivisor)
	}
	return runCases(cfg, s, cases, arms, gpu, w), nil
}

func where(gpu bool) string {
	if gpu {
		return "a GPU device"
	}
	return "a CPU device"
}

// runGPUModeInputs runs one potrf case (cfg.N, cfg.Batch) with GPU MODE's
// inputs, timing and checks, on cfg.Uplo's triangle (Config.Inputs
// "gpumode"). Both triangles get the same matrices.
func runGPUModeInputs(cfg Config, w io.Writer) (Outcome, error) {
	s := LookupSuite("cholesky-gpumode")
	arms, gpu := suiteArms(&cfg)
	uplo := cfg.Uplo
	if uplo == "" {
		uplo = "L"
	}
	c := Case{
		Name: fmt.Sprintf("potrf/n=%d/batch=%d", cfg.N, cfg.Batch),
		Op:   "potrf", N: cfg.N, Batch: cfg.Batch,
		Uplo: uplo, Seed: uint64(cfg.N)<<20 | uint64(cfg.Batch), Inputs: gpumodeInputs(cfg.Batch, cfg.N),
	}
	writeEnvironment(w, cfg.Command)
	fmt.Fprintf(w, "# inputs gpumode: one case of potrf, %s, on %s, with the inputs, timing and checks of suite %s\n", cfg.Dtype, where(gpu), s.Name)
	return runCases(cfg, s, []Case{c}, arms, gpu, w), nil
}

// suiteArms resolves cfg's arms (filling in a suite's default arms) and
// says whether the cases run on a GPU device.
func suiteArms(cfg *Config) ([]*armSpec, bool) {
	gpu := suiteOnGPU(cfg)
	if len(cfg.Arms) == 0 {
		cfg.Arms = []string{"cpu", "gonum"}
		if gpu {
			cfg.Arms = []string{"vendor", "native", "auto"}
		}
	}
	arms := make([]*armSpec, len(cfg.Arms))
	anyGPU := false
	for i, a := range cfg.Arms {
		arms[i], _ = lookupArm(a)
		anyGPU = anyGPU || arms[i].gpu
	}
	return arms, gpu && anyGPU
}

// runCases runs cases with suite s's runner and writes its table.
func runCases(cfg Config, s *Suite, cases []Case, arms []*armSpec, gpu bool, w io.Writer) Outcome {
	run := &suiteRun{cfg: cfg, suite: s, cases: cases, arms: arms, gpu: gpu, w: w,
		hdr: &lineFilter{seen: map[string]bool{}}, prog: &progress{report: cfg.Progress}}
	results := s.run(run)
	writeSuiteTable(w, run, results)

	out := Outcome{Cases: results}
	for i, a := range arms {
		res := ArmResult{Arm: a.name}
		var times []float64
		ran := false
		for _, c := range results {
			r := c.Arms[i]
			switch {
			case r.Failed:
				res.Failed = true
				ran = true
			case r.Skipped == "":
				ran = true
				times = append(times, r.NsPerCall)
			case res.Skipped == "":
				res.Skipped = r.Skipped
			}
		}
		if ran {
			res.Skipped = ""
		}
		if len(times) > 0 {
			res.NsPerCall = geomean(times)
		}
		out.Arms = append(out.Arms, res)
	}
	out.Failed, out.Skipped = failedSkipped(out.Arms)
	return out
}

// suiteOnGPU reports whether the suite's device is a GPU: -device cuda,
// or auto with a GPU that opens.
func suiteOnGPU(cfg *Config) bool {
	d := strings.ToLower(cfg.Device)
	switch {
	case strings.HasPrefix(d, "cpu"):
		return false
	case d == "" || d == "auto":
		dev, err := batchlas.OpenDevice("cuda")
		return err == nil && dev.Kind() == batchlas.CUDA
	}
	return true
}

// runSmallBatched runs each case with the bench timing and checks.
func runSmallBatched(s *suiteRun) []CaseOutcome {
	var out []CaseOutcome
	for _, c := range s.cases {
		cfg := s.cfg
		cfg.Suite, cfg.Cases = "", ""
		cfg.Op, cfg.N, cfg.Batch, cfg.NRHS = c.Op, c.N, c.Batch, c.NRHS
		fmt.Fprintf(s.w, "# case %s\n", c.Name)
		res := runCaseOf(cfg, s.arms, s.hdr.wrap(s.w), caseOptions{ref: s.ref()}, s.prog)
		out = append(out, CaseOutcome{Case: c, Arms: res})
	}
	return out
}

// lineFilter drops comment lines ("# ...") that it has already passed, so
// a suite states what its cases share once.
type lineFilter struct {
	seen map[string]bool
}

func (f *lineFilter) wrap(w io.Writer) io.Writer { return &filterWriter{f: f, w: w} }

type filterWriter struct {
	f   *lineFilter
	w   io.Writer
	buf []byte
}

func (fw *filterWriter) Write(p []byte) (int, error) {
	fw.buf = append(fw.buf, p...)
	for {
		i := bytes.IndexByte(fw.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := string(fw.buf[:i+1])
		fw.buf = fw.buf[i+1:]
		if strings.HasPrefix(line, "# ") && !strings.HasPrefix(line, "# case ") {
			if fw.f.seen[line] {
				continue
			}
			fw.f.seen[line] = true
		}
		if _, err := io.WriteString(fw.w, line); err != nil {
			return len(p), err
		}
	}
}

// ref is the index of the arm that ratios compare with: vendor, else the
// first.
func (s *suiteRun) ref() int {
	return max(0, slices.IndexFunc(s.arms, func(a *armSpec) bool { return a.name == "vendor" }))
}

// writeSuiteTable writes every arm's time per case, its ratio to the
// reference arm (vendor, else the first) and the geometric means, as a
// markdown table.
func writeSuiteTable(w io.Writer, s *suiteRun, results []CaseOutcome) {
	ref := s.ref()
	refName := s.arms[ref].name
	head := []string{"case"}
	align := []string{"---"}
	for i, a := range s.arms {
		head = append(head, a.name+" µs")
		align = append(align, "---:")
		if i != ref {
			head = append(head, a.name+"/"+refName)
			align = append(align, "---:")
		}
	}
	rows := [][]string{head, align}
	cell := func(r ArmResult) string {
		switch {
		case r.Failed:
			return "FAIL"
		case r.Skipped != "":
			return "skip"
		}
		return micros(r.NsPerCall)
	}
	passed := func(r ArmResult) bool { return !r.Failed && r.Skipped == "" && r.NsPerCall > 0 }
	times := make([][]float64, len(s.arms))
	ratios := make([][]float64, len(s.arms))
	for _, c := range results {
		row := []string{c.Case.Name}
		for i, r := range c.Arms {
			row = append(row, cell(r))
			if passed(r) {
				times[i] = append(times[i], r.NsPerCall)
			}
			if i == ref {
				continue
			}
			if passed(r) && passed(c.Arms[ref]) {
				x := r.NsPerCall / c.Arms[ref].NsPerCall
				ratios[i] = append(ratios[i], x)
				row = append(row, fmt.Sprintf("%.2f", x))
			} else {
				row = append(row, "–")
			}
		}
		rows = append(rows, row)
	}
	last := []string{"geomean (cases passed)"}
	for i := range s.arms {
		if len(times[i]) > 0 {
			last = append(last, fmt.Sprintf("%s (%d)", micros(geomean(times[i])), len(times[i])))
		} else {
			last = append(last, "–")
		}
		if i == ref {
			continue
		}
		if len(ratios[i]) > 0 {
			last = append(last, fmt.Sprintf("%.2f (%d)", geomean(ratios[i]), len(ratios[i])))
		} else {
			last = append(last, "–")
		}
	}
	rows = append(rows, last)

	fmt.Fprintf(w, "\n## suite %s, %s: median µs per call; arm/%s is the ratio of medians in the same case (below 1: faster); the geometric means count only the cases an arm passed (how many in brackets); FAIL and skip have no time\n\n",
		s.suite.Name, s.cfg.Dtype, refName)
	width := make([]int, len(head))
	for _, r := range rows {
		for j, c := range r {
			width[j] = max(width[j], len([]rune(c)))
		}
	}
	for k, r := range rows {
		var b strings.Builder
		b.WriteString("|")
		for j, c := range r {
			pad := width[j] - len([]rune(c))
			switch {
			case k == 1:
				c = strings.Repeat("-", width[j]-1) + ":"
				if j == 0 {
					c = strings.Repeat("-", width[j])
				}
			case j == 0:
				c += strings.Repeat(" ", pad)
			default:
				c = strings.Repeat(" ", pad) + c
			}
			b.WriteString(" " + c + " |")
		}
		fmt.Fprintln(w, b.String())
	}
}

// micros formats nanoseconds as microseconds with about four digits.
func micros(ns float64) string {
	us := ns / 1e3
	switch {
	case us >= 1000:
		return fmt.Sprintf("%.0f", us)
	case us >= 100:
		return fmt.Sprintf("%.1f", us)
	case us >= 10:
		return fmt.Sprintf("%.2f", us)
	}
	return fmt.Sprintf("%.3f", us)
}

func geomean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += math.Log(v)
	}
	return math.Exp(s / float64(len(x)))
}
