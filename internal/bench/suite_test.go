package bench

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/batchlas/batchlas"
)

func TestArmsArePins(t *testing.T) {
	for _, c := range []struct {
		name string
		gpu  bool
		pin  string
	}{
		{"cpu", false, "auto"}, {"gonum", false, ""}, {"gonum-par", false, ""},
		{"auto", true, "auto"}, {"native", true, "native"}, {"vendor", true, "vendor"},
		{"native:tiny", true, "native:tiny"}, {"cpu:blocked", false, "cpu:blocked"}, {"cpu:unblocked", false, "cpu:unblocked"},
	} {
		a, err := lookupArm(c.name)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if a.name != c.name || a.gpu != c.gpu || a.pin != c.pin || a.setup == nil {
			t.Errorf("%s: got name %q gpu %v pin %q", c.name, a.name, a.gpu, a.pin)
		}
	}
	for _, bad := range []string{"mkl", "", " vendor", "Vendor", "native:", "native:huge", "native:tiny:nb", "vendor:cublas", "cpu:fast", "gpu"} {
		if a, err := lookupArm(bad); err == nil {
			t.Errorf("%q accepted as %+v", bad, a)
		}
	}
	cfg := Config{Op: "potrf", Dtype: "float32", N: 4, Batch: 2, Count: 1, Time: time.Millisecond,
		Arms: []string{"cpu", "native:tiny", "vendor", "auto", "cpu:blocked"}}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	cfg.Arms = []string{"native:huge"}
	var u *UsageError
	if err := cfg.Validate(); !errors.As(err, &u) || !strings.Contains(err.Error(), `unknown arm "native:huge": no op has the candidate`) {
		t.Errorf("native:huge: %v", err)
	}
}

// A pin that cannot run the case is a SKIP with the router's reason, not a
// FAIL; a cpu candidate runs on the CPU device whatever -device says.
func TestPinsOnTheCPU(t *testing.T) {
	var out bytes.Buffer
	cfg := Config{Op: "gemm", Dtype: "float64", N: 4, Batch: 3, Count: 1, Time: time.Millisecond, Seed: 1,
		Arms: []string{"cpu", "cpu:blocked"}}
	res, err := Run(cfg, &out)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failed) != 0 || !slices.Equal(res.Skipped, []string{"cpu:blocked"}) {
		t.Fatalf("outcome %+v\n%s", res, out.String())
	}
	if !strings.Contains(out.String(), "--- SKIP: BenchmarkGemm/dtype=float64/n=4/batch=3/arm=cpu:blocked") ||
		!strings.Contains(out.String(), "names no candidate of gemm") {
		t.Errorf("no SKIP with the reason in\n%s", out.String())
	}
	if res.Arms[1].Skipped == "" || res.Arms[0].NsPerCall <= 0 {
		t.Errorf("arms %+v", res.Arms)
	}

	out.Reset()
	cfg.Op, cfg.Arms = "potrf", []string{"cpu:unblocked", "cpu:blocked", "cpu"}
	res, err = Run(cfg, &out)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failed)+len(res.Skipped) != 0 {
		t.Fatalf("outcome %+v\n%s", res, out.String())
	}
	if !strings.Contains(out.String(), `batchlas.Route("cpu:blocked") on every call`) {
		t.Errorf("the header does not say what the arm is:\n%s", out.String())
	}
}

func TestGPUModeCases(t *testing.T) {
	s := LookupSuite("cholesky-gpumode")
	cases := s.Cases("", true)
	want := []struct{ batch, n, k int }{
		{4096, 32, 16}, {1024, 64, 16}, {256, 128, 16}, {64, 256, 16}, {16, 512, 16},
		{640, 512, 1}, {4, 1024, 16}, {60, 1024, 1}, {2, 2048, 8}, {8, 2048, 2},
		{1, 4096, 4}, {2, 4096, 2}, {1, 8192, 1}, {1, 16384, 1}, {1, 32768, 1},
	}
	if len(cases) != len(want) {
		t.Fatalf("%d cases, want %d", len(cases), len(want))
	}
	for i, c := range cases {
		w := want[i]
		if c.Batch != w.batch || c.N != w.n || c.Inputs != w.k || c.Op != "potrf" || c.Uplo != "U" || c.NRHS != 0 {
			t.Errorf("case %d: %+v, want batch %d n %d k %d", i, c, w.batch, w.n, w.k)
		}
		if name := fmt.Sprintf("potrf/n=%d/batch=%d", w.n, w.batch); c.Name != name {
			t.Errorf("case %d is named %q, want %q", i, c.Name, name)
		}
	}
	if cases[0].Seed != 41032 || cases[14].Seed != 48368 {
		t.Errorf("seeds %d, %d", cases[0].Seed, cases[14].Seed)
	}
	if !slices.Equal(s.Cases("float64", false), cases) {
		t.Error("the cases depend on the dtype or the device")
	}
}

func TestSmallBatchedCases(t *testing.T) {
	s := LookupSuite("small-batched")
	for _, gpu := range []bool{true, false} {
		for _, dtype := range Dtypes {
			cases := s.Cases(dtype, gpu)
			if len(cases) != len(ops)*7 {
				t.Fatalf("%d cases", len(cases))
			}
			elem := map[string]int{"float32": 4, "float64": 8, "complex64": 8, "complex128": 16}[dtype]
			for _, c := range cases {
				op := LookupOp(c.Op)
				if op.RHS != (c.NRHS > 0) || op.RHS && c.NRHS != op.DefaultNRHS(c.N) {
					t.Errorf("%s: nrhs %d", c.Name, c.NRHS)
				}
				bytes := c.Batch * c.N * c.N * elem
				if gpu && bytes != 256<<20 {
					t.Errorf("gpu %s %s: %d bytes of A, want 256 MiB", dtype, c.Name, bytes)
				}
				if !gpu && (c.Batch < 64 || bytes > 64<<20 && c.Batch > 64) {
					t.Errorf("cpu %s %s: batch %d", dtype, c.Name, c.Batch)
				}
				if !strings.HasPrefix(c.Name, fmt.Sprintf("%s/n=%d/", c.Op, c.N)) || !strings.HasSuffix(c.Name, fmt.Sprintf("/batch=%d", c.Batch)) {
					t.Errorf("name %q", c.Name)
				}
			}
		}
	}
}

func TestSuiteValidate(t *testing.T) {
	good := Config{Suite: "cholesky-gpumode", Count: 1, Time: time.Millisecond}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"suite", func(c *Config) { c.Suite = "lapack" }, `unknown suite "lapack"`},
		{"op", func(c *Config) { c.Op = "potrf" }, "conflicts with an op, -n, -batch and -nrhs"},
		{"n", func(c *Config) { c.N = 32 }, "conflicts"},
		{"batch", func(c *Config) { c.Batch = 2 }, "conflicts"},
		{"dtype", func(c *Config) { c.Dtype = "complex64" }, "runs dtype float32 or float64"},
		{"cases", func(c *Config) { c.Cases = "n=(32" }, "-cases"},
		{"nosuite", func(c *Config) {
			c.Suite, c.Op, c.Dtype, c.N, c.Batch, c.Arms, c.Cases = "", "potrf", "float64", 4, 4, []string{"cpu"}, "n=4"
		}, "needs -suite"},
		{"arm", func(c *Config) { c.Arms = []string{"cublas"} }, `unknown arm "cublas"`},
	} {
		cfg := good
		c.edit(&cfg)
		var u *UsageError
		if err := cfg.Validate(); !errors.As(err, &u) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want a UsageError with %q", c.name, err, c.want)
		}
	}
	cfg := good
	cfg.Cases = "n=3$"
	var u *UsageError
	if _, err := Run(cfg, &bytes.Buffer{}); !errors.As(err, &u) || !strings.Contains(err.Error(), "no case") {
		t.Errorf("no case matched: %v", err)
	}
}

func gmTestCase(n, batch, k int) Case {
	return Case{Name: "test", Op: "potrf", N: n, Batch: batch, Uplo: "U", Seed: 41032, Inputs: k}
}

func TestGPUModeInputs(t *testing.T) {
	cfg := &Config{Seed: 1, Device: "cpu"}
	chk := &gmChecker{cfg: cfg}
	c := gmTestCase(24, 5, 2)
	in, err := gmGenerate[float32](cfg, c, chk)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := gmGenerate[float32](cfg, c, chk)
	other, _ := gmGenerate[float32](&Config{Seed: 2}, c, chk)
	n, nn := c.N, c.N*c.N
	if len(in.a) != 2 || len(in.a[0]) != 5*nn {
		t.Fatalf("inputs of %d, %d elements", len(in.a), len(in.a[0]))
	}
	if !slices.Equal(in.a[1], again.a[1]) || slices.Equal(in.a[1], other.a[1]) || slices.Equal(in.a[0], in.a[1]) {
		t.Error("the inputs do not follow the seeds")
	}
	for j, a := range in.a {
		for m := range c.Batch {
			x := a[m*nn : (m+1)*nn]
			diag := 0.0
			for i := range n {
				for k := range n {
					if x[i*n+k] != x[k*n+i] {
						t.Fatalf("input %d matrix %d: A(%d,%d) = %v, A(%d,%d) = %v", j, m, k, i, x[i*n+k], i, k, x[k*n+i])
					}
				}
				diag += float64(x[i*n+i])
			}
			// E[A(i,i)] = 1.01; the mean of n of them is close.
			if mean := diag / float64(n); math.Abs(mean-1.01) > 0.3 {
				t.Errorf("input %d matrix %d: mean diagonal %.3f", j, m, mean)
			}
			// Positive definite: a float64 Cholesky succeeds with pivots
			// no smaller than the 0.01 shift allows.
			if p := smallestCholeskyPivot(x, n); !(p > 0.01) {
				t.Errorf("input %d matrix %d: smallest pivot² %g", j, m, p)
			}
		}
	}
}

// smallestCholeskyPivot factors A (symmetric, column-major) in float64 and
// returns the smallest squared pivot, ≤ 0 when A is not positive definite.
func smallestCholeskyPivot[T gmFloat](a []T, n int) float64 {
	l := make([]float64, n*n)
	for i, v := range a {
		l[i] = float64(v)
	}
	least := math.Inf(1)
	for j := range n {
		d := l[j*n+j]
		for k := range j {
			d -= l[k*n+j] * l[k*n+j]
		}
		least = min(least, d)
		if d <= 0 {
			return d
		}
		d = math.Sqrt(d)
		l[j*n+j] = d
		for i := j + 1; i < n; i++ {
			s := l[j*n+i]
			for k := range j {
				s -= l[k*n+i] * l[k*n+j]
			}
			l[j*n+i] = s / d
			l[i*n+j] = l[j*n+i]
		}
	}
	return least
}

// factorOnCPU runs batchlas.Potrf(Upper) on the CPU device on a copy of a.
func factorOnCPU(t *testing.T, a []float32, n, batch int) []float32 {
	t.Helper()
	dev, err := batchlas.OpenDevice("cpu")
	if err != nil {
		t.Fatal(err)
	}
	q, _ := dev.NewQueue()
	defer q.Close()
	x, _ := batchlas.NewBatch[float32](dev, n, n, batch)
	info, _ := batchlas.NewInfo(dev, batch)
	f := make([]float32, len(a))
	if err := x.Upload(q, a); err != nil {
		t.Fatal(err)
	}
	if err := batchlas.Potrf(q, batchlas.Upper, x, info); err != nil {
		t.Fatal(err)
	}
	if err := x.Download(q, f); err != nil {
		t.Fatal(err)
	}
	return f
}

// The §1.5 guard: it passes an honest factor and fails one perturbed by
// more than the bound, by a non-finite or non-positive entry, or by a
// failed info; the untouched strict lower triangle is not part of it.
func TestGPUModeCheck(t *testing.T) {
	cfg := &Config{Seed: 1, Device: "cpu"}
	chk := &gmChecker{cfg: cfg}
	c := gmTestCase(40, 6, 1)
	in, err := gmGenerate[float32](cfg, c, chk)
	if err != nil {
		t.Fatal(err)
	}
	n, nn, a := c.N, c.N*c.N, in.a[0]
	good := factorOnCPU(t, a, n, c.Batch)
	info := make([]int32, c.Batch)
	check := func(f []float32, info []int32) (gmVerdict, error) {
		return gmCheck(chk, 0, a, f, info, n, c.Batch, "U")
	}
	v, err := check(good, info)
	if err != nil {
		t.Fatalf("honest factor: %v", err)
	}
	if v.matrices != c.Batch || !(v.worst > 0 && v.worst < 2) {
		t.Fatalf("verdict %+v: an honest float32 factor should sit far below the bound", v)
	}

	// Perturb U(n-1, n-1) of matrix 3 by δ: only (Uᵀ·U)(n-1, n-1) moves, by
	// 2δ·u + δ², so the residual moves by that much in units of the bound.
	const m = 3
	u := float64(good[m*nn+(n-1)*n+(n-1)])
	bound := gmBound * float64(n) * 0x1p-23 * norm1(a[m*nn:(m+1)*nn], n)
	perturbed := func(fraction float64) []float32 {
		f := slices.Clone(good)
		delta := fraction * bound / (2 * u)
		f[m*nn+(n-1)*n+(n-1)] += float32(delta)
		return f
	}
	if _, err := check(perturbed(0.25), info); err != nil {
		t.Errorf("a perturbation of a quarter of the bound failed: %v", err)
	}
	if _, err := check(perturbed(1.5), info); err == nil || !strings.Contains(err.Error(), "matrix #3: ‖L·Lᵀ − A‖₁") {
		t.Errorf("a perturbation of 1.5 times the bound passed: %v", err)
	}

	for _, broken := range []struct {
		name string
		edit func(f []float32, info []int32)
		want string
	}{
		{"nan", func(f []float32, _ []int32) { f[m*nn+5*n+2] = float32(math.NaN()) }, "L(5,2) = NaN is not finite"},
		{"inf", func(f []float32, _ []int32) { f[m*nn+7*n+7] = float32(math.Inf(1)) }, "is not finite"},
		{"diagonal", func(f []float32, _ []int32) {
			// -U is as good a factor as U but for the sign of the diagonal.
			for j := range n {
				for i := range j + 1 {
					f[m*nn+j*n+i] = -f[m*nn+j*n+i]
				}
			}
		}, "L(0,0) = -"},
		{"info", func(_ []float32, info []int32) { info[m] = 7 }, "info[3] = 7"},
	} {
		f, inf := slices.Clone(good), slices.Clone(info)
		broken.edit(f, inf)
		if _, err := check(f, inf); err == nil || !strings.Contains(err.Error(), broken.want) {
			t.Errorf("%s: got %v, want an error with %q", broken.name, err, broken.want)
		}
	}

	// The strict lower triangle of the column-major Upper result is
	// LAPACK's "not referenced": garbage there changes nothing.
	f := slices.Clone(good)
	for j := range n {
		for i := j + 1; i < n; i++ {
			f[m*nn+j*n+i] = 1e30
		}
	}
	if _, err := check(f, info); err != nil {
		t.Errorf("the other triangle was checked: %v", err)
	}
}

// The parallel residual agrees with the sequential one and with a plain
// full product.
func TestResidualHost(t *testing.T) {
	cfg := &Config{Seed: 3}
	c := gmTestCase(130, 1, 1)
	in, _ := gmGenerate[float64](cfg, c, &gmChecker{cfg: cfg})
	n, a := c.N, in.a[0]
	u := make([]float64, n*n)
	for j := range n {
		for i := range j + 1 {
			u[j*n+i] = float64((i*7+j*3)%11) / 11
		}
	}
	seq := residualHost(u, a, n, false)
	par := residualHost(u, a, n, true)
	worst := 0.0
	for s := range n {
		sum := 0.0
		for r := range n {
			t := 0.0
			for k := range n {
				t += u[r*n+k] * u[s*n+k]
			}
			sum += math.Abs(t - a[s*n+r])
		}
		worst = max(worst, sum)
	}
	if math.Abs(seq-worst) > 1e-9*worst || math.Abs(par-worst) > 1e-9*worst {
		t.Errorf("residual: sequential %v, parallel %v, plain %v", seq, par, worst)
	}
}

var gmBenchLine = regexp.MustCompile(`(?m)^BenchmarkPotrf/dtype=float32/n=(\d+)/batch=(\d+)/arm=([\w:-]+?)(-\d+)?\s+16\s+[\d.]+ ns/op\s+[\d.]+ MB/s\s+[\d.]+ GFLOP/s$`)

// The cholesky-gpumode suite on the CPU, on its small cases with their
// batches cut down: every cpu arm is timed and checked, the GPU arms skip
// without a GPU, and the table ends the output.
func TestGPUModeSuiteOnCPU(t *testing.T) {
	var out bytes.Buffer
	cfg := Config{Suite: "cholesky-gpumode", Cases: "^potrf/n=(32|64|128)/", Count: 1, Time: time.Millisecond, Seed: 1,
		Arms: []string{"vendor", "cpu", "cpu:unblocked", "cpu:blocked", "gonum", "native"}, batchDivisor: 256}
	res, err := Run(cfg, &out)
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if len(res.Cases) != 3 || len(res.Failed) != 0 {
		t.Fatalf("outcome %+v\n%s", res, text)
	}
	_, noGPU := batchlas.OpenDevice("cuda")
	lines := map[string]int{}
	for _, m := range gmBenchLine.FindAllStringSubmatch(text, -1) {
		lines[m[3]]++
	}
	for _, arm := range []string{"cpu", "cpu:unblocked", "cpu:blocked"} {
		if lines[arm] != 3*3 { // three repetitions (the least) of three cases
			t.Errorf("%d benchmark lines for %s in\n%s", lines[arm], arm, text)
		}
	}
	for i, c := range res.Cases {
		if want := []int{16, 4, 1}[i]; c.Case.Batch != want {
			t.Errorf("case %s: batch %d, want %d", c.Case.Name, c.Case.Batch, want)
		}
		for _, r := range c.Arms {
			switch r.Arm {
			case "gonum":
				if !strings.Contains(r.Skipped, "float64 only") {
					t.Errorf("gonum: %+v", r)
				}
			case "vendor", "native":
				if noGPU != nil && r.Skipped == "" {
					t.Errorf("%s ran without a GPU: %+v", r.Arm, r)
				}
			default:
				if r.Failed || r.Skipped != "" || r.NsPerCall <= 0 {
					t.Errorf("%s on %s: %+v", r.Arm, c.Case.Name, r)
				}
			}
		}
	}
	for _, want := range []string{
		"# suite: cholesky-gpumode, float32, 3 of 15 cases",
		"# case potrf/n=64/batch=4: seed 41064, k = 16 inputs",
		"# check BenchmarkPotrf/dtype=float32/n=128/batch=1/arm=cpu:blocked",
		"all 16 matrices pass",
		"uplo U",
		"| potrf/n=32/batch=16 ",
		"| geomean (cases passed) |",
		"| case ", " cpu µs |", " cpu/vendor |",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if noGPU != nil && !strings.Contains(text, "--- SKIP: BenchmarkPotrf/dtype=float32/n=32/batch=16/arm=vendor") {
		t.Errorf("no SKIP for vendor in\n%s", text)
	}
	if a := res.Arms[1]; a.Arm != "cpu" || a.Failed || a.NsPerCall <= 0 {
		t.Errorf("suite summary of cpu: %+v", a)
	}
}

// breakArm is a Config.wrapGM that breaks arm's float64 runner with brokenGM.
func breakArm(arm string) func(string, any) any {
	return func(a string, r any) any {
		if a == arm {
			return brokenGM[float64]{r.(gmRunner[float64])}
		}
		return r
	}
}

// brokenGM damages the factor an arm returns.
type brokenGM[T gmFloat] struct{ gmRunner[T] }

func (b brokenGM[T]) output(j int, f []T) ([]int32, error) {
	info, err := b.gmRunner.output(j, f)
	f[len(f)-1] *= 1.01 // the last diagonal entry
	return info, err
}

// An arm whose result fails the check is reported FAIL; no time of it is
// printed, and the table and the geometric mean leave it out.
func TestGPUModeFailureHasNoTime(t *testing.T) {
	var out bytes.Buffer
	cfg := Config{Suite: "cholesky-gpumode", Cases: "^potrf/n=(32|64)/", Count: 1, Time: time.Millisecond, Seed: 1,
		Arms: []string{"cpu", "cpu:blocked"}, batchDivisor: 512, Dtype: "float64",
		wrapGM: breakArm("cpu:blocked")}
	res, err := Run(cfg, &out)
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if !slices.Equal(res.Failed, []string{"cpu:blocked"}) || res.Arms[1].NsPerCall != 0 || res.Arms[0].NsPerCall <= 0 {
		t.Fatalf("outcome %+v\n%s", res, text)
	}
	if regexp.MustCompile(`(?m)^Benchmark\S*arm=cpu:blocked`).MatchString(text) {
		t.Errorf("a failed arm printed a time:\n%s", text)
	}
	if !strings.Contains(text, "--- FAIL: BenchmarkPotrf/dtype=float64/n=32/batch=8/arm=cpu:blocked") ||
		!regexp.MustCompile(`\| potrf/n=64/batch=2 +\| +[\d.]+ \| +FAIL \| +– \|`).MatchString(text) {
		t.Errorf("no FAIL line or table cell in\n%s", text)
	}
	if !strings.Contains(text, "ratio cpu:blocked/cpu n/a (cpu:blocked failed)") {
		t.Errorf("no n/a ratio in\n%s", text)
	}
}

// The small-batched suite with the bench timing, cut down: one table row per
// case and the usual lines.
func TestSmallBatchedOnCPU(t *testing.T) {
	var out bytes.Buffer
	cfg := Config{Suite: "small-batched", Cases: "^(potrf|getrs)/n=(4|8)/", Count: 1, Time: time.Millisecond, Seed: 1,
		Device: "cpu", batchDivisor: 1024}
	res, err := Run(cfg, &out)
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if len(res.Cases) != 4 || len(res.Failed) != 0 || len(res.Arms) != 2 || res.Arms[0].Arm != "cpu" || res.Arms[1].Arm != "gonum" {
		t.Fatalf("outcome %+v\n%s", res, text)
	}
	for _, c := range res.Cases {
		if !strings.Contains(text, "| "+c.Case.Name+" ") || !strings.Contains(text, "# case "+c.Case.Name) {
			t.Errorf("no row for %s in\n%s", c.Case.Name, text)
		}
	}
	if n := strings.Count(text, "goos: "); n != 1 {
		t.Errorf("%d goos lines", n)
	}
	if n := strings.Count(text, "# timing: "); n != 1 {
		t.Errorf("the shared timing line is written %d times", n)
	}
	if !regexp.MustCompile(`(?m)^ratio gonum/cpu \d+\.\d\d$`).MatchString(text) {
		t.Errorf("no ratio line in\n%s", text)
	}
}

// Inputs "gpumode" runs one potrf case, Lower, with the suite's inputs,
// timing and checks: a result that fails the check has no time.
func TestGPUModeInputsOneCase(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"op", func(c *Config) { c.Op = "getrf" }, "is for potrf, not getrf"},
		{"dtype", func(c *Config) { c.Dtype = "complex64" }, "is for float32 and float64"},
		{"suite", func(c *Config) { c.Op, c.N, c.Batch, c.Suite = "", 0, 0, "cholesky-gpumode" }, "suite cholesky-gpumode picks its own inputs"},
		{"family", func(c *Config) { c.Inputs = "spd" }, `-inputs "spd"`},
		{"uplo", func(c *Config) { c.Uplo = "X" }, `-uplo "X": want L or U`},
		{"upper of another op", func(c *Config) { c.Op, c.Uplo, c.Inputs = "getrs", "U", "" }, "-uplo U is for potrf, potrs, posv"},
	} {
		cfg := Config{Op: "potrf", Dtype: "float64", N: 8, Batch: 2, Arms: []string{"cpu"}, Count: 1, Time: time.Millisecond, Inputs: "gpumode"}
		c.edit(&cfg)
		var u *UsageError
		if err := cfg.Validate(); !errors.As(err, &u) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want a UsageError with %q", c.name, err, c.want)
		}
	}

	var out bytes.Buffer
	cfg := Config{Op: "potrf", Dtype: "float64", N: 40, Batch: 3, Arms: []string{"cpu", "cpu:blocked"}, Device: "cpu",
		Count: 1, Time: time.Millisecond, Seed: 1, Inputs: "gpumode",
		wrapGM: breakArm("cpu:blocked")}
	res, err := Run(cfg, &out)
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if len(res.Arms) != 2 || res.Arms[0].Failed || res.Arms[0].NsPerCall <= 0 ||
		!res.Arms[1].Failed || res.Arms[1].NsPerCall != 0 || !slices.Equal(res.Failed, []string{"cpu:blocked"}) {
		t.Fatalf("outcome %+v\n%s", res, text)
	}
	for _, want := range []string{
		"# inputs gpumode: one case of potrf, float64, on a CPU device",
		"batchlas.Potrf(q, Lower,",
		"# case potrf/n=40/batch=3: seed ",
		"uplo L,",
		"all 150 matrices pass",
		"--- FAIL: BenchmarkPotrf/dtype=float64/n=40/batch=3/arm=cpu:blocked",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}

	// Upper: the same case on the other triangle, checked as such.
	out.Reset()
	cfg.Uplo, cfg.wrapGM = "U", nil
	if res, err = Run(cfg, &out); err != nil {
		t.Fatal(err)
	}
	text = out.String()
	if len(res.Arms) != 2 || res.Arms[0].Failed || res.Arms[1].Failed || res.Arms[0].NsPerCall <= 0 {
		t.Fatalf("Upper outcome %+v\n%s", res, text)
	}
	for _, want := range []string{"batchlas.Potrf(q, Upper,", "uplo U,", "all 150 matrices pass"} {
		if !strings.Contains(text, want) {
			t.Errorf("Upper: no %q in\n%s", want, text)
		}
	}
}
