package potrf

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"
	"testing"
	"unsafe"

	"github.com/batchlas/batchlas/internal/conformance"
	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cuda"
	"github.com/batchlas/batchlas/internal/gpu/gputest"
	"github.com/batchlas/batchlas/internal/oracle"
)

// ---- tests that need no GPU ----

func TestShape(t *testing.T) {
	for n, want := range map[int][2]int{
		1: {4, 4}, 4: {4, 4}, 5: {8, 8}, 8: {8, 8}, 9: {16, 12}, 13: {16, 16},
		16: {16, 16}, 17: {32, 20}, 24: {32, 24}, 25: {32, 28}, 31: {32, 32}, 32: {32, 32},
	} {
		if lanes, cols := shape(n); lanes != want[0] || cols != want[1] {
			t.Errorf("shape(%d) = %d lanes, %d columns; want %v", n, lanes, cols, want)
		}
	}
	for n := 1; n <= MaxN; n++ {
		lanes, cols := shape(n)
		if cols < n || cols > lanes || cols%4 != 0 || threadsPerBlock%lanes != 0 {
			t.Errorf("shape(%d) = %d lanes, %d columns", n, lanes, cols)
		}
	}
	if got := kernelNames(cuda.Complex64, 17); !slices.Equal(got, []string{"potrf_reg<cfloat, 32, 20, false, false>", "potrf_reg<cfloat, 32, 20, true, false>"}) {
		t.Errorf("kernelNames = %q", got)
	}
	if got := kernelNames(cuda.Float32, 30); !slices.Equal(got, []string{"potrf_reg_min<float, 32, 32, false, false, 6>", "potrf_reg<float, 32, 32, true, false>"}) {
		t.Errorf("kernelNames = %q", got)
	}
	if got := kernelNames(cuda.Float32, 13); !slices.Equal(got, []string{"potrf_reg<float, 16, 16, false, false>", "potrf_reg<float, 16, 16, true, false>", "potrf_reg<float, 16, 16, true, true>"}) {
		t.Errorf("kernelNames = %q", got)
	}
	if got := kernelNames(cuda.Float64, 7); !slices.Equal(got, []string{"potrf_reg<double, 8, 8, false, false>", "potrf_reg<double, 8, 8, true, false>"}) {
		t.Errorf("kernelNames = %q", got)
	}
	// Upper in place for float32 in the buckets of 4…16 columns (3 names
	// each), 2 names in every other bucket.
	if got := len(KernelNames()); got != 4*3+4*2+3*8*2 {
		t.Errorf("%d kernel names, want 68", got)
	}
}

func TestArguments(t *testing.T) {
	testFactorArguments(t, check, 8, map[string]int{"n > MaxN": MaxN + 1}, 4)
	if err := Potrf[float32](nil, core.Lower, 4, 1<<20, 4, 16, 1, 1<<24); !errors.Is(err, core.ErrArgument) {
		t.Errorf("nil stream: %v", err)
	}
	if err := CanRun(cuda.Complex128, MaxN); err != nil {
		t.Errorf("CanRun(complex128, MaxN) = %v", err)
	}
}

// factorCheck is a tier's argument check (check, checkCTA).
type factorCheck func(dt cuda.DType, uplo core.Uplo, n int, a cuda.DevicePtr, lda int, stride int64, count int, info cuda.DevicePtr) error

// testFactorArguments holds a tier's argument check to the contract the
// tiers share: a valid float64 call of order valid (lda n + 1, 5 matrices)
// accepted; each order of unsupported (by name; float32) refused with
// core.ErrUnsupported; a negative order, an unknown type and a null info
// array (batcharg's check) refused at order n; empty work with no matrix
// pointer and a batch of one of any stride accepted at order n.
func testFactorArguments(t *testing.T, check factorCheck, valid int, unsupported map[string]int, n int) {
	t.Helper()
	const a, info = cuda.DevicePtr(1 << 20), cuda.DevicePtr(1 << 24)
	if err := check(cuda.Float64, core.Lower, valid, a, valid+1, int64((valid+1)*valid), 5, info); err != nil {
		t.Fatalf("valid call refused: %v", err)
	}
	type args struct {
		dt            cuda.DType
		n, lda, count int
		stride        int64
		a, info       cuda.DevicePtr
		want          error
	}
	cases := map[string]args{
		"negative n":           {cuda.Float32, -1, 1, 2, 1, a, info, core.ErrShape},
		"bad dtype":            {cuda.DType(7), n, n, 2, int64(n * n), a, info, core.ErrArgument},
		"null info (batcharg)": {cuda.Float32, n, n, 2, int64(n * n), a, 0, core.ErrArgument},
	}
	for name, m := range unsupported {
		cases[name] = args{cuda.Float32, m, m, 2, int64(m * m), a, info, core.ErrUnsupported}
	}
	for name, tc := range cases {
		if err := check(tc.dt, core.Lower, tc.n, tc.a, tc.lda, tc.stride, tc.count, tc.info); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", name, err, tc.want)
		}
	}
	for _, err := range []error{
		check(cuda.Float32, core.Lower, 0, 0, 1, 0, 3, info),
		check(cuda.Float32, core.Lower, n, 0, n, 0, 0, 0),
		check(cuda.Float32, core.Upper, n, a, n, 0, 1, info),
	} {
		if err != nil {
			t.Errorf("empty or single work refused: %v", err)
		}
	}
}

// ---- helpers for the GPU tests ----

// ---- tests that need a GPU ----

// TestPotrf factors, for every type, both triangles and n = 1…32, a batch
// of 1000 mixed matrices in a poisoned strided layout and checks: info equal
// to the float64/complex128 reference's for every matrix (the promised k for
// the non-SPD and NaN items); ‖A − L·Lᴴ‖₁ ≤ 20·n·eps·‖A‖₁ and a real
// positive diagonal for the good ones; for the failing ones the leading
// block factored, the failing pivot not positive and the rest untouched;
// nothing outside the triangles written; and the whole batch, padding and
// all, bit-identical to each matrix factored alone (count = 1).
func TestPotrf(t *testing.T) {
	s := gputest.Stream(t)
	t.Run("float32", func(t *testing.T) { testPotrf[float32](t, s) })
	t.Run("float64", func(t *testing.T) { testPotrf[float64](t, s) })
	t.Run("complex64", func(t *testing.T) { testPotrf[complex64](t, s) })
	t.Run("complex128", func(t *testing.T) { testPotrf[complex128](t, s) })
}

func testPotrf[T core.Scalar](t *testing.T, s *cuda.Stream) {
	const count = 1000
	for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
		worst, worstN := 0.0, 0
		for n := 1; n <= MaxN; n++ {
			// A subtest per case, so its device buffers are freed at its end.
			t.Run(fmt.Sprintf("%v/n=%d", uplo, n), func(t *testing.T) {
				if r := potrfCase[T](t, s, uplo, n, count, uint64(1000*n)+uint64(uplo)); r > worst {
					worst, worstN = r, n
				}
			})
		}
		t.Logf("%s %v: worst ‖A − L·Lᴴ‖₁/(n·eps·‖A‖₁) = %.3f (n = %d; bound 20)", core.TypeName[T](), uplo, worst, worstN)
	}
}

// TestPotrfTinyPivots gives the register tier, every type, both triangles
// and orders on both sides of each group width, matrices whose pivot is a
// float32 subnormal (failureBatch's tiny items: first, middle and last
// pivot, and one followed by a failure) between good ones, so that groups
// that take finish_in_memory share warps with groups that do not; in a
// layout with lda > n and one with 16-byte columns.
func TestPotrfTinyPivots(t *testing.T) {
	s := gputest.Stream(t)
	t.Run("float32", func(t *testing.T) { testPotrfTinyPivots[float32](t, s) })
	t.Run("float64", func(t *testing.T) { testPotrfTinyPivots[float64](t, s) })
	t.Run("complex64", func(t *testing.T) { testPotrfTinyPivots[complex64](t, s) })
	t.Run("complex128", func(t *testing.T) { testPotrfTinyPivots[complex128](t, s) })
}

func testPotrfTinyPivots[T core.Scalar](t *testing.T, s *cuda.Stream) {
	for _, n := range []int{1, 2, 4, 5, 8, 9, 16, 17, 31, 32} {
		tiny := [][2]int{{1, 0}, {n/2 + 1, 0}, {n, 0}}
		if n > 1 {
			tiny = append(tiny, [2]int{1, n})
		}
		mats, items := failureBatch[T](n, 7, nil, nil, nil, tiny)
		for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
			t.Run(fmt.Sprintf("%v/n=%d", uplo, n), func(t *testing.T) {
				factorLaidOut[T](t, s, uplo, mats, items, n+3, (n+3)*n+5, Potrf[T])
				lda := (n + 4) / 4 * 4 // 16-byte columns
				factorLaidOut[T](t, s, uplo, mats, items, lda, lda*n+4, Potrf[T])
			})
		}
	}
}

// potrfCase runs one case and returns its worst residual ratio.
func potrfCase[T core.Scalar](t *testing.T, s *cuda.Stream, uplo core.Uplo, n, count int, seed uint64) float64 {
	t.Helper()
	in, items := gputest.MixedBatch[T](n, count, uplo, seed)
	factorAligned(t, s, uplo, in, items, Potrf[T])
	return factorRun(t, s, uplo, in, items, Potrf[T])
}

// factorAligned runs an Upper batch again, as factorRun checks it, in
// layouts whose columns are 16-byte aligned, which MixedBatch's seldom are
// (upperVectors: the register and warp tiers then move the columns in
// place rather than through a tile): lda > n, and packed where n allows.
func factorAligned[T core.Scalar](t *testing.T, s *cuda.Stream, uplo core.Uplo, in core.Strided[T], items []gputest.Item,
	factor func(s *cuda.Stream, uplo core.Uplo, n int, a cuda.DevicePtr, lda int, stride int64, count int, info cuda.DevicePtr) error) {
	t.Helper()
	if uplo != core.Upper {
		return
	}
	n := in.Rows
	mats := make([]*oracle.Mat, in.Count)
	for b := range mats {
		mats[b] = oracle.Load(in, b)
	}
	lda := (n + 4) / 4 * 4
	factorLaidOut[T](t, s, uplo, mats, items, lda, lda*n+4, factor)
	if n%4 == 0 {
		factorLaidOut[T](t, s, uplo, mats, items, n, n*n, factor)
	}
}

// factorRun factors the batch in with factor, and each matrix alone, and
// checks the results: the batch bit for bit equal to the matrices alone,
// then CheckFactors. It returns the worst residual ratio.
func factorRun[T core.Scalar](t *testing.T, s *cuda.Stream, uplo core.Uplo, in core.Strided[T], items []gputest.Item,
	factor func(s *cuda.Stream, uplo core.Uplo, n int, a cuda.DevicePtr, lda int, stride int64, count int, info cuda.DevicePtr) error) float64 {
	t.Helper()
	n, count := in.Rows, in.Count
	name := fmt.Sprintf("%s/%v/n=%d", core.TypeName[T](), uplo, n)
	size := int64(unsafe.Sizeof(in.Data[0]))
	sentinel := slices.Repeat([]int32{-7}, count)

	batched, alone := gputest.Upload(t, s, in.Data), gputest.Upload(t, s, in.Data)
	infoB, infoA := gputest.Upload(t, s, sentinel), gputest.Upload(t, s, sentinel)
	if err := factor(s, uplo, n, batched, in.LD, int64(in.Stride), count, infoB); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for b := range count {
		p := alone + cuda.DevicePtr(int64(b)*int64(in.Stride)*size)
		if err := factor(s, uplo, n, p, in.LD, int64(in.Stride), 1, infoA+cuda.DevicePtr(4*b)); err != nil {
			t.Fatalf("%s: item %d alone: %v", name, b, err)
		}
	}
	out := in
	out.Data = gputest.Download[T](t, s, batched, len(in.Data))
	one := gputest.Download[T](t, s, alone, len(in.Data))
	info, infoOne := gputest.Download[int32](t, s, infoB, count), gputest.Download[int32](t, s, infoA, count)

	if !bytes.Equal(gputest.AsBytes(out.Data), gputest.AsBytes(one)) || !slices.Equal(info, infoOne) {
		for x := range out.Data {
			if !oracle.SameBits(out.Data[x], one[x]) {
				t.Errorf("%s: element %d (matrix %d) is %v in the batch, %v factored alone", name, x, x/in.Stride, out.Data[x], one[x])
				break
			}
		}
		for b := range info {
			if info[b] != infoOne[b] {
				t.Errorf("%s: item %d: info %d in the batch, %d alone", name, b, info[b], infoOne[b])
				break
			}
		}
	}
	return gputest.CheckFactors(func(format string, args ...any) { t.Errorf(name+": "+format, args...) }, uplo, in, items, out, info)
}

// referencePotrf is what the kernel computes, on the host: LAPACK potf2 in
// complex128, Upper by way of Lower on Aᴴ, so that a failure leaves the
// first k−1 rows of U, as the kernel and LAPACK's upper potf2 do.
func referencePotrf[T core.Scalar](uplo core.Uplo, in core.Strided[T]) (core.Strided[T], []int32) {
	out := oracle.Clone(in)
	info := make([]int32, in.Count)
	for b := range in.Count {
		a := oracle.Load(in, b)
		if uplo == core.Upper {
			a = oracle.Op(a, core.ConjTrans)
		}
		f, k := oracle.Potrf(core.Lower, a)
		if uplo == core.Upper {
			f = oracle.Op(f, core.ConjTrans)
		}
		oracle.Store(out, b, f)
		info[b] = int32(k)
	}
	return out, info
}

// TestChecks runs checkFactors on the host reference's results, which must
// pass, and on planted breaks, each of which must be reported: the checks
// of TestPotrf seen red without a GPU.
func TestChecks(t *testing.T) {
	t.Run("float32", func(t *testing.T) { testChecks[float32](t) })
	t.Run("complex64", func(t *testing.T) { testChecks[complex64](t) })
	t.Run("complex128", func(t *testing.T) { testChecks[complex128](t) })
}

func testChecks[T core.Scalar](t *testing.T) {
	for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
		for _, n := range []int{1, 2, 5, 17, 32} {
			const count = 60
			name := fmt.Sprintf("%v/n=%d", uplo, n)
			in, items := gputest.MixedBatch[T](n, count, uplo, uint64(n))
			out, info := referencePotrf(uplo, in)
			var got []string
			report := func(format string, args ...any) { got = append(got, fmt.Sprintf(format, args...)) }
			worst := gputest.CheckFactors(report, uplo, in, items, out, info)
			if len(got) > 0 || !(worst < 5) {
				t.Fatalf("%s: the reference fails the checks (worst residual %.3g): %q", name, worst, got)
			}
			good := slices.IndexFunc(items, func(it gputest.Item) bool { return it.Kind == "spd" })
			bad := slices.IndexFunc(items, func(it gputest.Item) bool { return it.Kind == "notspd" && it.Info < n })
			plants := map[string]func(o core.Strided[T], info []int32){
				"info off by one": func(_ core.Strided[T], info []int32) { info[bad]++ },
				"info lost":       func(_ core.Strided[T], info []int32) { info[bad] = 0 },
				"padding written": func(o core.Strided[T], _ []int32) { o.Data[good*o.Stride+n] = 0 },
				"gap written":     func(o core.Strided[T], _ []int32) { o.Data[good*o.Stride+o.LD*n] = 0 },
				"other triangle": func(o core.Strided[T], _ []int32) {
					if n > 1 {
						x := map[core.Uplo]int{core.Lower: o.LD, core.Upper: 1}[uplo] // (0,1) or (1,0)
						o.Data[good*o.Stride+x] = 0
					} else {
						o.Data[good*o.Stride] = oracle.FromComplex[T](-1) // nothing else to break
					}
				},
				"factor off by 1 %": func(o core.Strided[T], _ []int32) {
					x := good*o.Stride + n - 1 // L(n−1, 0)
					if uplo == core.Upper {
						x = good*o.Stride + (n-1)*o.LD // U(0, n−1)
					}
					o.Data[x] = oracle.FromComplex[T](oracle.ToComplex(o.Data[x]) * 1.01)
				},
				"failed matrix changed past its pivot": func(o core.Strided[T], _ []int32) {
					if info[bad] == 0 || int(info[bad]) == n {
						o.Data[bad*o.Stride+(n-1)*(o.LD+1)] = oracle.FromComplex[T](5) // the pivot, positive
						return
					}
					o.Data[bad*o.Stride+(n-1)*(o.LD+1)] = oracle.FromComplex[T](123)
				},
			}
			if n == 1 {
				delete(plants, "info off by one") // notspd at n = 1 has k = n
			}
			if bad < 0 {
				delete(plants, "info off by one")
				delete(plants, "info lost")
				delete(plants, "failed matrix changed past its pivot")
			}
			gputest.Plants(t, name, uplo, in, items, out, info, plants)
		}
	}
}

// TestChecksTinyPivots is TestChecks for failureBatch's subnormal pivots:
// the host reference passes CheckFactors, and what a kernel whose rsqrt
// flushes them would leave is reported: the matrix stopped at the pivot as
// a failure (finish_in_memory not taken), infinities from the flushed
// rsqrt, and the pivot's column left unscaled.
func TestChecksTinyPivots(t *testing.T) {
	const n = 40
	mats, items := failureBatch[float32](n, 5, nil, nil, nil, [][2]int{{1, 0}, {33, 0}, {n, 0}, {2, n - 1}})
	for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
		in := oracle.NewStridedLayout[float32](n, n, len(mats), n+3, (n+3)*n+5)
		for b, m := range mats {
			oracle.Store(in, b, m)
			oracle.PoisonTriangle(in, b, uplo, false)
		}
		out, info := referencePotrf(uplo, in)
		var got []string
		report := func(format string, args ...any) { got = append(got, fmt.Sprintf(format, args...)) }
		if gputest.CheckFactors(report, uplo, in, items, out, info); len(got) > 0 {
			t.Fatalf("%v: the reference fails the checks: %q", uplo, got)
		}
		const b, k = 3, 33 // items: spd, tiny at 1, spd, tiny at 33 (1-based), ...
		if items[b].Kind != "tinypivot" {
			t.Fatalf("item %d is %q, want the tiny pivot at %d", b, items[b].Kind, k)
		}
		at := func(o core.Strided[float32], i, j int) *float32 { // L(i, j) where uplo keeps it
			if uplo == core.Upper {
				i, j = j, i
			}
			return &o.Data[b*o.Stride+i+j*o.LD]
		}
		gputest.Plants(t, uplo.String(), uplo, in, items, out, info, map[string]func(o core.Strided[float32], info []int32){
			"stopped at the pivot": func(_ core.Strided[float32], info []int32) { info[b] = int32(k) },
			"flushed rsqrt":        func(o core.Strided[float32], _ []int32) { *at(o, k-1, k-1) = float32(math.Inf(1)) },
			"column unscaled": func(o core.Strided[float32], _ []int32) {
				for i := k; i < n; i++ {
					*at(o, i, k-1) = *at(in, i, k-1)
				}
			},
		})
	}
}

// tinyPivot is 2⁻¹⁴⁰: a float32 subnormal (the smallest normal is 2⁻¹²⁶)
// whose square root, 2⁻⁷⁰, is exact.
const tinyPivot = 0x1p-140

// failureBatch is the batch of the failure tests at order n: matrices that
// must fail, each followed by a good one (each a random congruence of one
// SPD matrix, as is the first): not positive definite at each order of
// notSPD, NaN on the diagonal at each index of nanDiag, a symmetric pair of
// NaNs at each (i, j) of nanOff; then, for each {k, f} of tiny, one whose
// k-th pivot is 2⁻¹⁴⁰, a float32 subnormal (oracle.TinyPivotFrom), which
// must not fail, and, where f > k, is not positive definite at order f.
// seed picks the congruences.
func failureBatch[T core.Scalar](n int, seed uint64, notSPD, nanDiag []int, nanOff, tiny [][2]int) ([]*oracle.Mat, []gputest.Item) {
	gen := oracle.GenFor[T](uint64(n))
	rng := rand.New(rand.NewPCG(uint64(n), seed))
	base := gen.SPD(n, 100)
	var mats []*oracle.Mat
	var items []gputest.Item
	add := func(m *oracle.Mat, it gputest.Item) {
		mats = append(mats, m, oracle.Congruent(base, rng, core.IsComplex[T]()))
		items = append(items, it, gputest.Item{Kind: "spd"})
	}
	mats = append(mats, oracle.Congruent(base, rng, core.IsComplex[T]()))
	items = append(items, gputest.Item{Kind: "spd"})
	for _, k := range notSPD {
		add(oracle.NotSPDFrom(oracle.Congruent(base, rng, core.IsComplex[T]()), k), gputest.Item{Kind: "notspd", Info: k})
	}
	for _, j := range nanDiag {
		m := oracle.Congruent(base, rng, core.IsComplex[T]())
		oracle.PlantNaN(m, j, j)
		add(m, gputest.Item{Kind: "nan", Info: j + 1})
	}
	for _, ij := range nanOff {
		m := oracle.Congruent(base, rng, core.IsComplex[T]())
		oracle.PlantNaN(m, ij[0], ij[1])
		oracle.PlantNaN(m, ij[1], ij[0])
		add(m, gputest.Item{Kind: "nan:offdiag", Info: ij[0] + 1})
	}
	for _, kf := range tiny {
		m := oracle.TinyPivotFrom(oracle.Congruent(base, rng, core.IsComplex[T]()), kf[0], tinyPivot, rng)
		if kf[1] > kf[0] {
			add(oracle.NotSPDFrom(m, kf[1]), gputest.Item{Kind: "tinypivot:notspd", Info: kf[1]})
			continue
		}
		add(m, gputest.Item{Kind: "tinypivot"})
	}
	return mats, items
}

// factorLaidOut stores mats with leading dimension lda and stride, the
// other triangle poisoned, and checks factor on them with factorRun.
func factorLaidOut[T core.Scalar](t *testing.T, s *cuda.Stream, uplo core.Uplo, mats []*oracle.Mat, items []gputest.Item, lda, stride int,
	factor func(s *cuda.Stream, uplo core.Uplo, n int, a cuda.DevicePtr, lda int, stride int64, count int, info cuda.DevicePtr) error) {
	t.Helper()
	n := mats[0].Rows
	in := oracle.NewStridedLayout[T](n, n, len(mats), lda, stride)
	for b, m := range mats {
		oracle.Store(in, b, m)
		oracle.PoisonTriangle(in, b, uplo, false)
	}
	factorRun(t, s, uplo, in, items, factor)
}

// engine runs the shared Cholesky suite's Potrf on one of this package's
// factorizations: Potrf, PotrfCTA or PotrfWarp.
type engine[T core.Scalar] struct {
	s     *cuda.Stream
	potrf func(s *cuda.Stream, uplo core.Uplo, n int, a cuda.DevicePtr, lda int, stride int64, count int, info cuda.DevicePtr) error
}

func (e engine[T]) Potrf(uplo core.Uplo, a core.Strided[T], info []int32) error {
	return gputest.OnDevice[T](e.s, func(p []cuda.DevicePtr) error {
		return e.potrf(e.s, uplo, a.Rows, p[0], a.LD, int64(a.Stride), a.Count, p[1])
	}, a.Data, info)
}

// TestConformance runs the shared Potrf suite (random, ill-conditioned, not
// positive definite and NaN items in one batch; padding; each good item
// against its factorization alone) on every order the kernel takes.
func TestConformance(t *testing.T) {
	s := gputest.Stream(t)
	var sizes []int
	for n := 1; n <= MaxN; n++ {
		sizes = append(sizes, n)
	}
	cfg := conformance.Config{Sizes: sizes}
	t.Run("float32", func(t *testing.T) { conformance.PotrfTest[float32](t, engine[float32]{s, Potrf[float32]}, cfg) })
	t.Run("float64", func(t *testing.T) { conformance.PotrfTest[float64](t, engine[float64]{s, Potrf[float64]}, cfg) })
	t.Run("complex64", func(t *testing.T) { conformance.PotrfTest[complex64](t, engine[complex64]{s, Potrf[complex64]}, cfg) })
	t.Run("complex128", func(t *testing.T) {
		conformance.PotrfTest[complex128](t, engine[complex128]{s, Potrf[complex128]}, cfg)
	})
}

// TestKernelResources loads every instantiation (4 types × 8 column buckets
// × 2 triangles) and fails on any local memory (spills or a stack array),
// printing registers and occupancy for each.
func TestKernelResources(t *testing.T) {
	s := gputest.Stream(t)
	c := s.Context()
	type result struct {
		dt   cuda.DType
		cols int
		ks   []*cuda.Kernel
		err  error
	}
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		results []result
	)
	for dt := cuda.Float32; dt <= cuda.Complex128; dt++ {
		for cols := 4; cols <= MaxN; cols += 4 {
			wg.Go(func() {
				ks, err := kernels(c, dt, cols)
				mu.Lock()
				results = append(results, result{dt, cols, ks, err})
				mu.Unlock()
			})
		}
	}
	wg.Wait()
	sort.Slice(results, func(i, j int) bool {
		x, y := results[i], results[j]
		return x.dt < y.dt || x.dt == y.dt && x.cols < y.cols
	})
	major, minor, _ := cuda.NVRTCVersion()
	t.Logf("NVRTC %d.%d, %s", major, minor, c.Device)
	for _, r := range results {
		if r.err != nil {
			t.Errorf("%v, %d columns: %v", r.dt, r.cols, r.err)
			continue
		}
		for i, k := range r.ks {
			dynamic := 0
			if i == 1 { // Upper through the tile
				dynamic = upperTileBytes(r.dt, r.cols)
				if err := k.AllowDynamicShared(dynamic); err != nil {
					t.Error(err)
				}
			}
			gputest.CheckResources(t, k, threadsPerBlock, dynamic)
		}
	}
}

// TestPotrfTiming times Lower factorizations of n = 8, 16, 32 (float32,
// float64; at least 256 MiB of matrices and 65,536 of them) against
// cuSOLVER's potrfBatched on the same data in the same process: CUDA events
// around one call, the L2 flushed before each, the arms interleaved with
// their order alternating, the median of 9 repetitions; both results are
// checked afterwards. Run with -v to see the figures.
func TestPotrfTiming(t *testing.T) {
	if testing.Short() {
		t.Skip("timing: skipped in -short mode")
	}
	s := gputest.Stream(t)
	sv := gputest.Solver(t, s)
	tm := gputest.NewTimer(t, s)
	for _, n := range []int{8, 16, 32} {
		timePotrf[float32](t, s, sv, tm, n)
		timePotrf[float64](t, s, sv, tm, n)
	}
}

func timePotrf[T core.Scalar](t *testing.T, s *cuda.Stream, sv *cuda.Solver, tm *gputest.Timer, n int) {
	const uplo = core.Lower
	// At least 256 MiB of matrices, the saturating batch, and never
	// fewer than 65,536: 65,536 float32 matrices of order 8 are 16.8 MB,
	// where even the copy ran at 2.7 TB/s against 4.1 at n = 32
	// (bench/results/h200/session8/late-stores-late.log).
	var zero T
	count := max(65536, (256<<20)/(n*n*int(unsafe.Sizeof(zero))))
	name := fmt.Sprintf("%s n=%d count=%d", core.TypeName[T](), n, count)
	host := gputest.SPDBatch[T](n, count, 32, false)
	native := func(a, info cuda.DevicePtr) error { return Potrf[T](s, uplo, n, a, n, int64(n*n), count, info) }
	med, bytesPerCall := timeAgainstVendor(t, s, sv, tm, name, host, uplo, native, true)
	gbs := func(us float64) float64 { return 2 * float64(bytesPerCall) / us / 1e3 }
	t.Logf("%s: native %8.1f µs (%6.0f GB/s, %3.0f %% of copy), vendor %8.1f µs, vendor/native %5.2f×; copy %6.1f µs (%4.0f GB/s)",
		name, med[0], gbs(med[0]), 100*med[2]/med[0], med[1], med[1]/med[0], med[2], gbs(med[2]))
}

// timeAgainstVendor times native, which factors host's matrices in place
// at a with their info at info, against cuSOLVER's potrfBatched on the same
// data in the same process: CUDA events around one call, the L2 flushed
// before each (tm), the arms interleaved with their order alternating, the
// median of 9 repetitions after one that warms up. withCopy adds a third
// arm, a device-to-device copy of the batch, as the bandwidth's yardstick.
// Both factorizations are checked afterwards (info, and the residual of
// matrices at both ends, the middle and two random ones). It returns the
// arms' medians in µs (native, vendor, then the copy) and the bytes of the
// batch.
func timeAgainstVendor[T core.Scalar](t *testing.T, s *cuda.Stream, sv *cuda.Solver, tm *gputest.Timer, name string,
	host core.Strided[T], uplo core.Uplo, native func(a, info cuda.DevicePtr) error, withCopy bool) (med []float64, bytesPerCall int64) {
	const reps = 9
	count, n := host.Count, host.Rows
	eps := gputest.MachineEps[T]()
	rng := rand.New(rand.NewPCG(uint64(n), 6)) // which matrices to check
	bytesPerCall = int64(len(host.Data)) * int64(unsafe.Sizeof(host.Data[0]))

	src := gputest.Upload(t, s, host.Data)
	nat, vendor := gputest.Upload(t, s, host.Data), gputest.Upload(t, s, host.Data)
	zeros := make([]int32, count)
	infoN, infoV := gputest.Upload(t, s, zeros), gputest.Upload(t, s, zeros)
	ptrs, err := cuda.PointerArrayOf[T](s, vendor, count, int64(host.Stride))
	if err != nil {
		t.Fatal(err)
	}
	defer ptrs.Free()

	type arm struct {
		name string
		dst  cuda.DevicePtr // the matrices it writes
		run  func() error
	}
	arms := []arm{
		{"native", nat, func() error { return native(nat, infoN) }},
		{"vendor", vendor, func() error { return cuda.PotrfBatched[T](sv, uplo, n, ptrs.Ptr, n, infoV, count) }},
	}
	if withCopy {
		arms = append(arms, arm{"copy", nat, func() error { return cuda.CopyDtoD(s, nat, src, bytesPerCall) }})
	}
	times := make([][]float64, len(arms))
	for rep := -1; rep < reps; rep++ { // rep −1 warms up: compiles, creates workspaces
		order := []int{0, 1, 2}[:len(arms)]
		if rep%2 != 0 {
			order = []int{1, 0, 2}[:len(arms)]
		}
		for _, i := range order {
			arm := arms[i]
			if err := cuda.CopyDtoD(s, arm.dst, src, bytesPerCall); err != nil {
				t.Fatal(err)
			}
			us, err := tm.Time(t, arm.run)
			if err != nil {
				t.Fatalf("%s: %s: %v", name, arm.name, err)
			}
			if rep >= 0 {
				times[i] = append(times[i], us)
			}
		}
	}
	med = make([]float64, len(arms))
	for i := range arms {
		med[i] = gputest.Median(times[i])
	}

	if withCopy {
		// The copy arm last overwrote native's matrices: factor once more to check them.
		if err := cuda.CopyDtoD(s, nat, src, bytesPerCall); err != nil {
			t.Fatal(err)
		}
		if err := arms[0].run(); err != nil {
			t.Fatal(err)
		}
	}
	for k, arm := range arms[:2] {
		info := gputest.Download[int32](t, s, []cuda.DevicePtr{infoN, infoV}[k], count)
		if i := slices.IndexFunc(info, func(v int32) bool { return v != 0 }); i >= 0 {
			t.Errorf("%s: %s: info[%d] = %d on a positive definite matrix", name, arm.name, i, info[i])
		}
		out := host
		out.Data = gputest.Download[T](t, s, arm.dst, len(host.Data))
		for _, b := range []int{0, 1, count / 2, count - 1, rng.IntN(count), rng.IntN(count)} {
			if r := gputest.Residual1(host, out, b, uplo, host.Rows, eps); !(r <= 20) {
				t.Errorf("%s: %s: matrix %d: ‖A − L·Lᴴ‖₁ = %.3g·n·eps·‖A‖₁, bound 20", name, arm.name, b, r)
			}
		}
	}
	return med, bytesPerCall
}
