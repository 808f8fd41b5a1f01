package bench

import (
	"bytes"
	"errors"
	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/oracle"
	"math"
	"math/rand/v2"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// The gonum arm is the one arm that always runs, so the checks are tested
// on it: every op must pass on honest output and fail on a corrupted one.
func TestChecksOnGonum(t *testing.T) {
	for _, op := range Ops() {
		t.Run(op.Name, func(t *testing.T) {
			nrhs := 0
			if op.RHS {
				nrhs = 3
			}
			in := generate[float64](op, 6, nrhs, 5, 7)
			r, _, err := setupGonum(op, in, 1)
			if err != nil {
				t.Fatal(err)
			}
			if err := r.restore(); err != nil {
				t.Fatal(err)
			}
			if err := r.call(); err != nil {
				t.Fatal(err)
			}
			idx := checkIndices(in.count)
			if err := verify(r, op, in, idx); err != nil {
				t.Fatalf("honest output: %v", err)
			}
			outs, _, err := r.snapshot(idx)
			if err != nil {
				t.Fatal(err)
			}
			// Corrupt the diagonal element (1, 1) of what the op wrote, in
			// the lower triangle that every check reads.
			o := outs[len(outs)-1]
			for _, x := range [][]complex128{o.c, o.b, o.a} {
				if x != nil {
					x[1*6+1] += 0.25
					break
				}
			}
			res := checkMatrix(op, in, idx[len(idx)-1], o, 0x1p-53)
			if res.ok() {
				t.Fatalf("corrupted output passed: %v", res)
			}
		})
	}
}

func TestCheckRejectsNaN(t *testing.T) {
	op := LookupOp("potrf")
	in := generate[float32](op, 4, 0, 1, 1)
	out := result{a: widen(in.a)}
	out.a[5] = complex(math.NaN(), 0)
	if res := checkMatrix(op, in, 0, out, 0x1p-24); res.ok() {
		t.Fatalf("NaN passed: %v", res)
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	op := LookupOp("potrf")
	a := generate[complex64](op, 5, 0, 40, 3)
	b := generate[complex64](op, 5, 0, 40, 3)
	c := generate[complex64](op, 5, 0, 40, 4)
	if !slices.Equal(a.a, b.a) {
		t.Fatal("same seed, different inputs")
	}
	if slices.Equal(a.a, c.a) {
		t.Fatal("different seeds, same inputs")
	}
	// Hermitian with a real diagonal.
	n := 5
	m := a.a[n*n : 2*n*n]
	for j := range n {
		for i := range n {
			x, y := m[j*n+i], m[i*n+j]
			if x != complex(real(y), -imag(y)) {
				t.Fatalf("A(%d,%d) = %v, A(%d,%d) = %v: not Hermitian", i, j, x, j, i, y)
			}
		}
	}
}

// TestGenerateColumnsInParallel checks that an order large enough to form
// one matrix's columns on several goroutines gives the bits one goroutine
// gives, and that both give those of A = M·Mᴴ/n + I summed column by column
// (the inputs of every earlier run), on both sides of parallelColumnsOrder
// and of a column block.
func TestGenerateColumnsInParallel(t *testing.T) {
	op := LookupOp("potrf")
	for _, n := range []int{makeBlock + 5, parallelColumnsOrder + 1} {
		prev := runtime.GOMAXPROCS(1)
		one := generate[complex128](op, n, 0, 1, 5)
		runtime.GOMAXPROCS(max(4, prev))
		many := generate[complex128](op, n, 0, 1, 5)
		runtime.GOMAXPROCS(prev)
		if !slices.Equal(one.a, many.a) {
			t.Fatalf("n = %d: the inputs depend on the number of goroutines", n)
		}
		if want := spdByColumns(n, 5); !slices.Equal(many.a, want) {
			t.Fatalf("n = %d: the inputs differ from A = M·Mᴴ/n + I summed column by column", n)
		}
	}
}

// spdByColumns is the first matrix of generate's SPD input for seed, formed
// one column at a time.
func spdByColumns(n int, seed uint64) []complex128 {
	rng := rand.New(rand.NewPCG(seed, 0))
	m := make([]complex128, n*n)
	for i := range m {
		m[i] = uniform(rng, true)
	}
	a := make([]complex128, n*n)
	for j := range n {
		col := a[j*n : (j+1)*n]
		for k := range n {
			s := conj(m[k*n+j]) / complex(float64(n), 0)
			for i := range col {
				col[i] += m[k*n+i] * s
			}
		}
		col[j] = complex(real(col[j])+1, 0)
	}
	return a
}

func TestDistinctCount(t *testing.T) {
	if got := distinctCount(8, 100); got != 100 {
		t.Errorf("small case repeats matrices: %d", got)
	}
	if got := distinctCount(512, 100000); got < 1 || got > 100000 {
		t.Errorf("distinctCount(512) = %d", got)
	}
}

func TestValidate(t *testing.T) {
	good := Config{Op: "potrf", Dtype: "float64", N: 4, Batch: 2, Arms: []string{"cpu"}, Count: 1, Time: time.Millisecond}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"op", func(c *Config) { c.Op = "potrx" }, `unknown op "potrx"`},
		{"dtype", func(c *Config) { c.Dtype = "float16" }, `unknown dtype "float16"`},
		{"arm", func(c *Config) { c.Arms = []string{"cpu", "blas"} }, `unknown arm "blas"`},
		{"twice", func(c *Config) { c.Arms = []string{"cpu", "cpu"} }, "twice"},
		{"none", func(c *Config) { c.Arms = nil }, "no arms"},
		{"n", func(c *Config) { c.N = 0 }, "-n 0"},
		{"batch", func(c *Config) { c.Batch = -1 }, "-batch -1"},
		{"huge", func(c *Config) { c.N, c.Batch = 99999999, 99999999 }, "elements an operand"},
		{"wide", func(c *Config) { c.Op, c.NRHS = "potrs", 1<<40 }, "elements an operand"},
		{"no rhs", func(c *Config) { c.NRHS = 4 }, "-nrhs 4: potrf has no right-hand side"},
		{"count", func(c *Config) { c.Count = 0 }, "-count 0"},
		{"time", func(c *Config) { c.Time = 0 }, "-time"},
		{"device", func(c *Config) { c.Device = "tpu" }, `-device "tpu"`},
		{"workers", func(c *Config) { c.Device = "cpu:0" }, `-device "cpu:0"`},
	} {
		cfg := good
		c.edit(&cfg)
		err := cfg.Validate()
		var u *UsageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want a UsageError with %q", c.name, err, c.want)
		}
	}
}

var benchLine = regexp.MustCompile(`^Benchmark\S+/arm=(\S+?)(-\d+)?\s+\d+\s+[\d.]+ ns/op\s+[\d.]+ MB/s\s+[\d.]+ GFLOP/s$`)

func TestRunFormat(t *testing.T) {
	var out bytes.Buffer
	cfg := Config{Op: "gemm", Dtype: "float64", N: 4, Batch: 3, Arms: []string{"gonum", "gonum-par", "vendor"},
		Count: 2, Time: time.Millisecond, Seed: 1}
	res, err := Run(cfg, &out)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failed) != 0 || !slices.Equal(res.Skipped, []string{"vendor"}) {
		t.Fatalf("outcome %+v", res)
	}
	text := out.String()
	for _, want := range []string{"goos: ", "goarch: ", "pkg: github.com/batchlas/batchlas\n", "# timing: "} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	lines := map[string]int{}
	for _, l := range strings.Split(text, "\n") {
		if m := benchLine.FindStringSubmatch(l); m != nil {
			lines[m[1]]++
		}
	}
	_, noGPU := batchlas.OpenDevice("cuda")
	wantVendor := 2
	if noGPU != nil {
		wantVendor = 0
	}
	if lines["gonum"] != 2 || lines["gonum-par"] != 2 || lines["vendor"] != wantVendor {
		t.Errorf("benchmark lines per arm %v in\n%s", lines, text)
	}
	if !regexp.MustCompile(`(?m)^ratio gonum-par/gonum \d+\.\d+$`).MatchString(text) {
		t.Errorf("no ratio line in\n%s", text)
	}
	// Without a GPU the vendor arm must say why it skipped.
	if noGPU != nil && !regexp.MustCompile(`(?m)^--- SKIP: BenchmarkGemm/\S+/arm=vendor\S*: .*(library not found|no such device)`).MatchString(text) {
		t.Errorf("no SKIP line for vendor in\n%s", text)
	}
}

// TestPotrfUpper runs potrf on the upper triangle: the gonum and cpu arms
// pass, in every type the cpu arm has, and a Lower factor fails the Upper
// check (the check reads the triangle the call factors).
func TestPotrfUpper(t *testing.T) {
	for _, dtype := range []string{"float32", "float64", "complex64", "complex128"} {
		passCPUAndGonum(t, Config{Op: "potrf", Dtype: dtype, N: 13, Batch: 3, Uplo: "U"}, "A = Uᴴ·U (Upper)")
	}

	op := LookupOp("potrf")
	in := generate[float64](op, 9, 0, 1, 3)
	lower, info := oracle.Potrf(core.Lower, &oracle.Mat{Rows: 9, Cols: 9, Data: widen(in.a)})
	if info != 0 {
		t.Fatalf("oracle.Potrf info %d", info)
	}
	out := result{a: lower.Data}
	if res := checkMatrix(op, in, 0, out, 0x1p-53); !res.ok() {
		t.Fatalf("Lower factor, Lower check: %v", res)
	}
	in.uplo = core.Upper
	if res := checkMatrix(op, in, 0, out, 0x1p-53); res.ok() {
		t.Fatalf("Lower factor passed the Upper check: %v", res)
	}
}

func TestRunGonumOtherTypesSkip(t *testing.T) {
	var out bytes.Buffer
	cfg := Config{Op: "potrf", Dtype: "float32", N: 4, Batch: 3, Arms: []string{"gonum"}, Count: 1, Time: time.Millisecond}
	res, err := Run(cfg, &out)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Skipped, []string{"gonum"}) || !strings.Contains(out.String(), "float64 only") {
		t.Fatalf("outcome %+v, output\n%s", res, out.String())
	}
}

// A wrong arm must print FAIL and no time.
func TestRunReportsFailure(t *testing.T) {
	armSpecs = append(armSpecs, armSpec{name: "broken", setup: func(cfg *Config, op *Op, in any) (runner, string, error) {
		r, about, err := setupGonum(op, in, 1)
		return corrupt{r}, about, err
	}})
	defer func() { armSpecs = armSpecs[:len(armSpecs)-1] }()

	var out bytes.Buffer
	cfg := Config{Op: "getrf", Dtype: "float64", N: 4, Batch: 3, Arms: []string{"broken", "gonum"}, Count: 1, Time: time.Millisecond}
	res, err := Run(cfg, &out)
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if !slices.Equal(res.Failed, []string{"broken"}) || !strings.Contains(text, "--- FAIL: BenchmarkGetrf") {
		t.Fatalf("outcome %+v, output\n%s", res, text)
	}
	if regexp.MustCompile(`(?m)^Benchmark\S*arm=broken`).MatchString(text) {
		t.Fatalf("a failed arm printed a time:\n%s", text)
	}
	if !strings.Contains(text, "ratio gonum/broken n/a (broken failed)") {
		t.Errorf("no n/a ratio in\n%s", text)
	}
}

// corrupt wraps a runner and damages the factors it returns.
type corrupt struct{ runner }

func (c corrupt) snapshot(idx []int) ([]result, []int32, error) {
	outs, info, err := c.runner.snapshot(idx)
	for _, o := range outs {
		o.a[0] *= 2
	}
	return outs, info, err
}

func TestMedianAndPretty(t *testing.T) {
	if m := median([]float64{5, 1, 3}); m != 3 {
		t.Errorf("median = %v", m)
	}
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median = %v", m)
	}
	if s := pretty(51234567, "ns/op"); s != "  51234567 ns/op" {
		t.Errorf("pretty = %q", s)
	}
}

// passCPUAndGonum runs cfg with the cpu and gonum arms and fails unless
// both pass (gonum skipped for every type but float64) and the output says
// want.
func passCPUAndGonum(t *testing.T, cfg Config, want string) {
	t.Helper()
	cfg.Arms, cfg.Count, cfg.Time = []string{"cpu", "gonum"}, 1, time.Millisecond
	var out bytes.Buffer
	res, err := Run(cfg, &out)
	if err != nil {
		t.Fatal(err)
	}
	wantSkip := []string{"gonum"}
	if cfg.Dtype == "float64" {
		wantSkip = nil
	}
	if len(res.Failed) > 0 || !slices.Equal(res.Skipped, wantSkip) || !strings.Contains(out.String(), want) {
		t.Fatalf("%s %s uplo %s: outcome %+v, output\n%s", cfg.Op, cfg.Dtype, cfg.Uplo, res, out.String())
	}
}

// TestSolvesUpper runs potrs and posv on both triangles, every type, with
// the cpu and gonum arms: every result checked against the Hermitian matrix
// of the triangle the case names, whose other triangle holds NaN.
func TestSolvesUpper(t *testing.T) {
	for _, op := range []string{"potrs", "posv"} {
		for _, uplo := range []string{"L", "U"} {
			form := map[string]string{"L": "(Lower, A = L·Lᴴ; A's strict upper", "U": "(Upper, A = Uᴴ·U; A's strict lower"}[uplo]
			for _, dtype := range []string{"float32", "float64", "complex64", "complex128"} {
				passCPUAndGonum(t, Config{Op: op, Dtype: dtype, N: 11, NRHS: 3, Batch: 3, Uplo: uplo}, form)
			}
		}
	}
}

// An arm that solves on the other triangle than the case's must fail: it
// reads the NaN that bench writes there (on a full Hermitian A it would
// pass, the two triangles holding the same matrix).
func TestSolvesOtherTriangleFail(t *testing.T) {
	armSpecs = append(armSpecs, armSpec{name: "other-triangle", setup: func(cfg *Config, op *Op, in any) (runner, string, error) {
		flipped := *in.(*inputs[complex128])
		flipped.uplo = core.Lower
		if in.(*inputs[complex128]).uplo == core.Lower {
			flipped.uplo = core.Upper
		}
		return setupCPU(cfg, op, &flipped, "auto")
	}})
	defer func() { armSpecs = armSpecs[:len(armSpecs)-1] }()
	for _, op := range []string{"potrs", "posv"} {
		for _, uplo := range []string{"L", "U"} {
			var out bytes.Buffer
			cfg := Config{Op: op, Dtype: "complex128", N: 7, NRHS: 2, Batch: 2, Uplo: uplo, Arms: []string{"other-triangle", "cpu"}, Count: 1, Time: time.Millisecond}
			res, err := Run(cfg, &out)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Failed, []string{"other-triangle"}) {
				t.Errorf("%s %s: outcome %+v, output\n%s", op, uplo, res, out.String())
			}
		}
	}
}
