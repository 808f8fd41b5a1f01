package batchlas

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/batchlas/batchlas/internal/gpu/gputest"
	"github.com/batchlas/batchlas/internal/oracle"
	"github.com/batchlas/batchlas/internal/route"
)

var (
	noRedoFlag  = flag.Bool("potrf.noredo", false, "TestPotrfTensorFailures: leave the blocked driver's tensor-core failures as they report them (shows the test failing)")
	lowRankFlag = flag.String("potrf.lowrank", "4096", "TestPotrfTensorFailures: orders of the low-rank case, comma-separated (every redone candidate up to 8192, the default route above)")
	shiftFlag   = flag.Float64("potrf.shift", 1e-4, "TestPotrfTensorFailures: the low-rank case's shift s in F·Fᵀ/64 + s·I")
	pinsFlag    = flag.String("potrf.pins", "", "TestPotrfTensorFailures: the low-rank case's pins, comma-separated (empty: the redone candidates and auto)")
	twinFlag    = flag.String("potrf.twin", "native:tiled:prec=tf32x3", "TestPotrfTensorFailures: the candidate that must fail exactly where native:tiled does")
)

// redonePins are Potrf's float32 candidates the router may choose whose
// failures potrfFactor redoes in float64.
var redonePins = []string{"native:blocked:prec=tf32x3", "native:blocked:panels=tiled:prec=tf32x3"}

// TestPotrfTensorFailures holds the float32 candidates with tensor-core
// products to float32's answers on matrices near singular. The redone
// candidates (potrfFactor), and the default route, must factor GPU MODE's
// low rank F·Fᵀ/64 + 10⁻⁴·I at n = 4096, which the blocked driver's
// 3xTF32 products alone report not positive definite (info 3966), within
// GPU MODE's bound 20·n·2⁻²³·‖A‖₁; and on a mixed batch at n = 300 report
// a minor that is not positive definite and a NaN as float64 does, and
// factor a matrix of integers plus 2⁻²⁰·I that only float64 arithmetic
// can. Every case has a leading dimension and stride larger than needed,
// and the other triangle must come back untouched. The tiled driver's
// split products, which are not redone, must fail the low-rank family at
// n = 1024…4096 and shifts 10⁻⁴…3·10⁻⁶ exactly where the exact tiled
// driver does (the failing column may differ).
func TestPotrfTensorFailures(t *testing.T) {
	q := testGPUQueue(t)
	if *noRedoFlag {
		redoFailedInFloat64 = false
		t.Cleanup(func() { redoFailedInFloat64 = true })
	}
	for _, f := range strings.Split(*lowRankFlag, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			t.Fatalf("-potrf.lowrank: %q", f)
		}
		pins := []string{"auto"}
		switch {
		case *pinsFlag != "":
			pins = strings.Split(*pinsFlag, ",")
		case n <= 8192:
			pins = append(redonePins, "auto")
		}
		a := lowRankPlusShift(n, 64, *shiftFlag)
		for _, pin := range pins {
			for _, uplo := range []Uplo{Lower, Upper} {
				t.Run(fmt.Sprintf("lowrank/n=%d/%s/%v", n, pin, uplo), func(t *testing.T) {
					tensorCase(t, q, pin, uplo, n, [][]float32{a}, []int32{0})
				})
			}
		}
	}
	const n = 300
	spd := lowRankPlusShift(n, n, 1e-2)
	notPD := diagonallyDominant(n, 11)
	notPD[16+16*n] = -1 // the leading minor of order 17 is not positive definite
	withNaN := diagonallyDominant(n, 12)
	withNaN[5+5*n] = float32(math.NaN())
	integers := integerGram(n, 8, 0x1p-20)
	for _, pin := range redonePins {
		for _, uplo := range []Uplo{Lower, Upper} {
			t.Run(fmt.Sprintf("mixed/n=%d/%s/%v", n, pin, uplo), func(t *testing.T) {
				tensorCase(t, q, pin, uplo, n, [][]float32{spd, notPD, withNaN, integers}, []int32{0, 17, 6, 0})
			})
		}
	}
	for _, n := range []int{1024, 2048, 4096} {
		for _, shift := range []float64{1e-4, 1e-5, 3e-6} {
			a := lowRankPlusShift(n, 64, shift)
			for _, uplo := range []Uplo{Lower, Upper} {
				t.Run(fmt.Sprintf("twin/n=%d/shift=%g/%v", n, shift, uplo), func(t *testing.T) {
					exact, split := potrfStatus(t, q, "native:tiled", uplo, n, a), potrfStatus(t, q, *twinFlag, uplo, n, a)
					t.Logf("native:tiled info %d, %s info %d", exact, *twinFlag, split)
					if (exact == 0) != (split == 0) { // where a failure is found may differ
						t.Errorf("%s reports info %d, native:tiled %d", *twinFlag, split, exact)
					}
				})
			}
		}
	}
}

// potrfStatus factors the n×n float32 matrix a with pin and returns its info.
func potrfStatus(t *testing.T, q *Queue, pin string, uplo Uplo, n int, a []float32) int32 {
	t.Helper()
	b, err := NewBatch[float32](q.dev, n, n, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Free()
	info, err := NewInfo(q.dev, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := firstErr(b.Upload(q, a), Potrf(q, uplo, b, info, Route(pin))); err != nil {
		t.Fatal(err)
	}
	v, err := info.Values(q)
	if err != nil {
		t.Fatal(err)
	}
	return v[0]
}

// tensorCase factors the n×n float32 matrices mats (column-major, both
// triangles set) with pin and checks the statuses against want and, where
// want is 0, the residual against GPU MODE's bound; L·Lᴴ − A is formed in
// float64 on the GPU.
func tensorCase(t *testing.T, q *Queue, pin string, uplo Uplo, n int, mats [][]float32, want []int32) {
	t.Helper()
	count := len(mats)
	ld, stride := n+3, (n+3)*n+5
	a, err := NewBatchStrided[float32](q.dev, n, n, count, ld, stride)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Free()
	if err := a.Upload(q, slices.Concat(mats...)); err != nil {
		t.Fatal(err)
	}
	info, err := NewInfo(q.dev, count)
	if err != nil {
		t.Fatal(err)
	}
	if err := Potrf(q, uplo, a, info, Route(pin)); err != nil {
		t.Fatal(err)
	}
	got, err := info.Values(q)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("statuses %v, want %v", got, want)
	}
	f := make([]float32, count*n*n)
	if err := a.Download(q, f); err != nil {
		t.Fatal(err)
	}
	for m, in := range mats {
		out := f[m*n*n : (m+1)*n*n]
		for j := range n {
			for i := range n {
				if (uplo == Lower && i < j || uplo == Upper && i > j) && math.Float32bits(out[i+j*n]) != math.Float32bits(in[i+j*n]) {
					t.Fatalf("matrix %d: (%d, %d) of the other triangle changed from %v to %v", m, i, j, in[i+j*n], out[i+j*n])
				}
			}
		}
		if want[m] != 0 {
			continue
		}
		r, err := factorResidual(q, uplo, n, in, out)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("matrix %d: ‖L·Lᵀ − A‖₁ = %.4f·n·2⁻²³·‖A‖₁", m, r)
		if !(r <= 20) {
			t.Errorf("matrix %d: ‖L·Lᵀ − A‖₁ = %.3g·n·2⁻²³·‖A‖₁, bound 20", m, r)
		}
	}
}

// factorResidual returns ‖L·Lᵀ − A‖₁/(n·2⁻²³·‖A‖₁) for the float32 matrix a
// and the factor in f's uplo triangle, the product in float64 on q's GPU.
func factorResidual(q *Queue, uplo Uplo, n int, a, f []float32) (float64, error) {
	l, c := make([]float64, n*n), make([]float64, n*n) // L (L = Uᵀ for Upper) and A
	for j := range n {
		for i := range n {
			c[i+j*n] = float64(a[i+j*n])
			switch {
			case i < j:
			case uplo == Lower:
				l[i+j*n] = float64(f[i+j*n])
			default:
				l[i+j*n] = float64(f[j+i*n])
			}
		}
	}
	pl, err := NewBatch[float64](q.dev, n, n, 1)
	if err != nil {
		return 0, err
	}
	defer pl.Free()
	pc, err := NewBatch[float64](q.dev, n, n, 1)
	if err != nil {
		return 0, err
	}
	defer pc.Free()
	if err := firstErr(pl.Upload(q, l), pc.Upload(q, c), Gemm(q, NoTrans, Trans, 1, pl, pl, -1, pc)); err != nil {
		return 0, err
	}
	d := make([]float64, n*n)
	if err := pc.Download(q, d); err != nil {
		return 0, err
	}
	return oracle.ColumnNorm1(d, n) / (float64(n) * 0x1p-23 * oracle.ColumnNorm1(c, n)), nil
}

// lowRankPlusShift is F·Fᵀ/r + shift·I rounded to float32, F n×r standard
// normal (seeded by n and r), both triangles set.
func lowRankPlusShift(n, r int, shift float64) []float32 {
	rng := rand.New(rand.NewPCG(uint64(n), uint64(r)))
	y := make([]float64, n*r) // row i of F at y[i·r:]
	for i := range y {
		y[i] = rng.NormFloat64()
	}
	out := make([]float32, n*n)
	oracle.ParallelFor(n, func(_, j int) {
		for i := j; i < n; i++ {
			s := 0.0
			for k := range r {
				s += y[i*r+k] * y[j*r+k]
			}
			s /= float64(r)
			if i == j {
				s += shift
			}
			out[i+j*n], out[j+i*n] = float32(s), float32(s)
		}
	})
	return out
}

// diagonallyDominant has diagonal n and off-diagonal entries in (−1, 1).
func diagonallyDominant(n int, seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, 1))
	out := make([]float32, n*n)
	for j := range n {
		out[j+j*n] = float32(n)
		for i := j + 1; i < n; i++ {
			v := float32(2*rng.Float64() - 1)
			out[i+j*n], out[j+i*n] = v, v
		}
	}
	return out
}

// integerGram is F·Fᵀ + shift·I for F n×r with entries in {−1, 0, 1}:
// exact in float32 for a power-of-two shift, positive definite with
// smallest eigenvalue shift, and so near singular that only float64
// arithmetic factors it.
func integerGram(n, r int, shift float32) []float32 {
	rng := rand.New(rand.NewPCG(uint64(n), 3))
	y := make([]int, n*r)
	for i := range y {
		y[i] = rng.IntN(3) - 1
	}
	out := make([]float32, n*n)
	for j := range n {
		for i := j; i < n; i++ {
			s := 0
			for k := range r {
				s += y[i*r+k] * y[j*r+k]
			}
			v := float32(s)
			if i == j {
				v += shift
			}
			out[i+j*n], out[j+i*n] = v, v
		}
	}
	return out
}

var redoCostFlag = flag.String("potrf.redocost", "", "TestPotrfRedoCost: float32 Lower cases NxCOUNT, comma-separated (empty: skip), e.g. 4096x1,8192x1")

// TestPotrfRedoCost times Potrf on the default route with and without the
// float64 redo of tensor-core failures (potrfFactor), alternating in one
// process on inputs that do not fail: what the triangle's copy and the wait
// for the statuses cost. Each time is the wall time of the call and q.Wait,
// the median of 9; run with -potrf.redocost on a GPU.
func TestPotrfRedoCost(t *testing.T) {
	if *redoCostFlag == "" {
		t.Skip("run with -potrf.redocost CASES")
	}
	q := testGPUQueue(t)
	t.Cleanup(func() { redoFailedInFloat64 = true })
	for _, c := range strings.Split(*redoCostFlag, ",") {
		var n, count int
		if _, err := fmt.Sscanf(c, "%dx%d", &n, &count); err != nil {
			t.Fatalf("-potrf.redocost: %q", c)
		}
		one := diagonallyDominant(n, 5)
		host := make([]float32, 0, n*n*count)
		for range count {
			host = append(host, one...)
		}
		pristine, err := NewBatch[float32](q.dev, n, n, count)
		if err != nil {
			t.Fatal(err)
		}
		work, err := NewBatch[float32](q.dev, n, n, count)
		if err != nil {
			t.Fatal(err)
		}
		if err := pristine.Upload(q, host); err != nil {
			t.Fatal(err)
		}
		name, err := choose[float32](q, "Potrf", route.Call{Uplo: route.UploKey(Lower), N: n, Batch: count}, nil)
		if err != nil {
			t.Fatal(err)
		}
		times := map[bool][]float64{}
		for rep := range 2 * 9 {
			redo := rep%2 == 0
			redoFailedInFloat64 = redo
			if err := firstErr(Copy(q, pristine, work), q.Wait()); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			if err := firstErr(Potrf(q, Lower, work, nil), q.Wait()); err != nil {
				t.Fatal(err)
			}
			times[redo] = append(times[redo], float64(time.Since(start).Microseconds()))
		}
		off, on := gputest.Median(times[false]), gputest.Median(times[true])
		t.Logf("n=%d count=%d %s: %.0f µs without the redo, %.0f with (%+.1f %%)", n, count, name, off, on, 100*(on/off-1))
		pristine.Free()
		work.Free()
	}
}
