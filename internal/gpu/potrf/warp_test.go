package potrf

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/batchlas/batchlas/internal/conformance"
	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cuda"
	"github.com/batchlas/batchlas/internal/gpu/gputest"
	"github.com/batchlas/batchlas/internal/oracle"
)

// TestWarpArguments holds CanRunWarp and PotrfWarp's refusals to their
// contract: the tier's orders and types, and argument errors before any
// device work (a nil stream is refused first, so no GPU is needed).
func TestWarpArguments(t *testing.T) {
	for _, tc := range []struct {
		dt   cuda.DType
		n    int
		want error
	}{
		{cuda.Float32, 0, nil},
		{cuda.Float32, 33, nil},
		{cuda.Float32, 64, nil},
		{cuda.Float64, 33, nil},
		{cuda.Float64, 56, nil},
		{cuda.Float64, 57, nil}, // the split body from NC = 60
		{cuda.Float64, 64, nil},
		{cuda.Float64, 65, core.ErrUnsupported},
		{cuda.Complex64, 47, core.ErrUnsupported},
		{cuda.Float32, 32, core.ErrUnsupported},
		{cuda.Float32, 65, core.ErrUnsupported},
		{cuda.Complex128, 48, core.ErrUnsupported},
		{cuda.Float32, -1, core.ErrShape},
		{cuda.DType(9), 40, core.ErrArgument},
	} {
		if err := CanRunWarp(tc.dt, tc.n); !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
			t.Errorf("CanRunWarp(%v, %d) = %v, want %v", tc.dt, tc.n, err, tc.want)
		}
	}
	if err := PotrfWarp[float32](nil, core.Lower, 40, 1<<20, 40, 1600, 1, 1<<24); !errors.Is(err, core.ErrArgument) {
		t.Errorf("nil stream: %v", err)
	}
	// The tile of each type's largest bucket must fit the sm_90 opt-in
	// limit.
	for _, dt := range warpTypes {
		n := max(MaxWarpFor(dt), MaxPotrsWarpFor(dt))
		if b := warpTileBytes(dt, n); b > ctaSharedLimit {
			t.Errorf("%v: tile at n = %d: %d B, over %d", dt, n, b, ctaSharedLimit)
		}
	}
	if MaxPotrsWarpFor(cuda.Complex128) != 0 || MaxPotrsWarpFor(cuda.DType(9)) != 0 || MaxPotrsWarpFor(cuda.Float64) != MaxPosvWarp {
		t.Errorf("MaxPotrsWarpFor: complex128 %d, type 9 %d, float64 %d", MaxPotrsWarpFor(cuda.Complex128), MaxPotrsWarpFor(cuda.DType(9)), MaxPotrsWarpFor(cuda.Float64))
	}
	if MaxWarpFor(cuda.Complex64) != 0 || MaxWarpFor(cuda.DType(9)) != 0 || MaxWarpFor(cuda.Float32) != MaxWarp {
		t.Errorf("MaxWarpFor: complex64 %d, type 9 %d, float32 %d (MaxWarp %d)", MaxWarpFor(cuda.Complex64), MaxWarpFor(cuda.DType(9)), MaxWarpFor(cuda.Float32), MaxWarp)
	}
	// potrf_warp: Lower, Upper (the tile), Upper (the wide tile: float32);
	// posv_warp: Lower, Upper tile, aligned Upper;
	// potrs_warp: Lower, Upper; posv_split: Lower, Upper; 8 float32
	// buckets (36…64); float64: potrf_warp 8 (36…56, then potrf_split at
	// 60 and 64), posv_warp Lower 6 and Upper 4 (to 48), potrs_warp 8 (all
	// potrs_split), posv_split 8.
	if got, want := len(WarpKernelNames()), (2+3+2+2)*8+8+2*8+1*6+2*4+2*8+2*8; got != want {
		t.Errorf("%d warp kernels, want %d", got, want)
	}
	// posv_warp and potrs_warp: the tier's types and orders, either
	// triangle, refused before the stream is looked at.
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"Posv Upper nil stream", PosvWarp[float32](nil, core.Upper, 40, 1, 1<<20, 40, 1600, 1<<22, 40, 40, 1, 1<<24), core.ErrArgument},
		{"Posv complex64", PosvWarp[complex64](nil, core.Lower, 40, 1, 1<<20, 40, 1600, 1<<22, 40, 40, 1, 1<<24), core.ErrUnsupported},
		{"Posv float64 nil stream", PosvWarp[float64](nil, core.Lower, 56, 1, 1<<20, 56, 56*56, 1<<22, 56, 56, 1, 1<<24), core.ErrArgument},
		{"Posv float64 n = 57", PosvWarp[float64](nil, core.Lower, 57, 1, 1<<20, 57, 57*57, 1<<22, 57, 57, 1, 1<<24), core.ErrUnsupported},
		{"Posv float64 Upper n = 48 nil stream", PosvWarp[float64](nil, core.Upper, 48, 1, 1<<20, 48, 48*48, 1<<22, 48, 48, 1, 1<<24), core.ErrArgument},
		{"Posv float64 Upper n = 49", PosvWarp[float64](nil, core.Upper, 49, 1, 1<<20, 49, 49*49, 1<<22, 49, 49, 1, 1<<24), core.ErrUnsupported},
		{"Posv n = 32", PosvWarp[float32](nil, core.Lower, 32, 1, 1<<20, 32, 1024, 1<<22, 32, 32, 1, 1<<24), core.ErrUnsupported},
		{"Posv n = 65", PosvWarp[float32](nil, core.Lower, 65, 1, 1<<20, 65, 65*65, 1<<22, 65, 65, 1, 1<<24), core.ErrUnsupported},
		{"Posv nil stream", PosvWarp[float32](nil, core.Lower, 40, 1, 1<<20, 40, 1600, 1<<22, 40, 40, 1, 1<<24), core.ErrArgument},
		{"Potrs Upper nil stream", PotrsWarp[float32](nil, core.Upper, 40, 1, 1<<20, 40, 1600, 1<<22, 40, 40, 1, 0), core.ErrArgument},
		{"Potrs complex128", PotrsWarp[complex128](nil, core.Lower, 40, 1, 1<<20, 40, 1600, 1<<22, 40, 40, 1, 0), core.ErrUnsupported},
		{"Potrs float64 nil stream", PotrsWarp[float64](nil, core.Lower, 56, 1, 1<<20, 56, 56*56, 1<<22, 56, 56, 1, 0), core.ErrArgument},
		{"Potrs float64 Upper n = 56 nil stream", PotrsWarp[float64](nil, core.Upper, 56, 1, 1<<20, 56, 56*56, 1<<22, 56, 56, 1, 0), core.ErrArgument},
		{"Potrs float64 n = 64 nil stream", PotrsWarp[float64](nil, core.Lower, 64, 1, 1<<20, 64, 64*64, 1<<22, 64, 64, 1, 1<<24), core.ErrArgument},
		{"Potrs float64 Upper n = 64 nil stream", PotrsWarp[float64](nil, core.Upper, 64, 1, 1<<20, 64, 64*64, 1<<22, 64, 64, 1, 0), core.ErrArgument},
		{"Potrs float64 n = 65", PotrsWarp[float64](nil, core.Lower, 65, 1, 1<<20, 65, 65*65, 1<<22, 65, 65, 1, 0), core.ErrUnsupported},
		{"Posv split float64 nil stream", PosvSplit[float64](nil, core.Upper, 64, 1, 1<<20, 64, 64*64, 1<<22, 64, 64, 1, 1<<24), core.ErrArgument},
		{"Posv split float64 n = 33 nil stream", PosvSplit[float64](nil, core.Lower, 33, 1, 1<<20, 33, 33*33, 1<<22, 33, 33, 1, 1<<24), core.ErrArgument},
		{"Posv split float32 nil stream", PosvSplit[float32](nil, core.Lower, 48, 1, 1<<20, 48, 48*48, 1<<22, 48, 48, 1, 1<<24), core.ErrArgument},
		{"Posv split float32 n = 65", PosvSplit[float32](nil, core.Upper, 65, 1, 1<<20, 65, 65*65, 1<<22, 65, 65, 1, 1<<24), core.ErrUnsupported},
		{"Posv split complex128", PosvSplit[complex128](nil, core.Lower, 48, 1, 1<<20, 48, 48*48, 1<<22, 48, 48, 1, 1<<24), core.ErrUnsupported},
		{"Posv split n = 32", PosvSplit[float64](nil, core.Lower, 32, 1, 1<<20, 32, 1024, 1<<22, 32, 32, 1, 1<<24), core.ErrUnsupported},
		{"Posv split n = 65", PosvSplit[float64](nil, core.Lower, 65, 1, 1<<20, 65, 65*65, 1<<22, 65, 65, 1, 1<<24), core.ErrUnsupported},
		{"Posv split n = -1", PosvSplit[float64](nil, core.Lower, -1, 1, 1<<20, 1, 1, 1<<22, 1, 1, 1, 1<<24), core.ErrShape},
		{"Potrs n = 32", PotrsWarp[float32](nil, core.Lower, 32, 1, 1<<20, 32, 1024, 1<<22, 32, 32, 1, 0), core.ErrUnsupported},
		{"Potrs n = 65", PotrsWarp[float32](nil, core.Lower, 65, 1, 1<<20, 65, 65*65, 1<<22, 65, 65, 1, 0), core.ErrUnsupported},
		{"Potrs n = -1", PotrsWarp[float32](nil, core.Lower, -1, 1, 1<<20, 1, 1, 1<<22, 1, 1, 1, 0), core.ErrShape},
		{"Potrs nil stream", PotrsWarp[float32](nil, core.Lower, 40, 1, 1<<20, 40, 1600, 1<<22, 40, 40, 1, 0), core.ErrArgument},
	} {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, tc.err, tc.want)
		}
	}
}

// warpSizes are the orders of the warp sweep for dt: all of them, or under
// -short the edges of the rows and buckets.
func warpSizes(dt cuda.DType) []int {
	var sizes []int
	for n := MaxN + 1; n <= MaxWarpFor(dt); n++ {
		if !testing.Short() || slices.Contains([]int{33, 35, 36, 37, 47, 48, 49, 55, 56, 63, 64}, n) {
			sizes = append(sizes, n)
		}
	}
	return sizes
}

// TestPotrfWarp is TestPotrfCTA for the warp tier: every order of it, both
// triangles, a mixed batch of 21 (random, ill-conditioned, not positive
// definite, NaN on and off the diagonal; lda > n, gaps, the other triangle
// poisoned), checked as TestPotrf checks and bit-identical batched and alone.
func TestPotrfWarp(t *testing.T) {
	gputest.Stream(t)
	t.Run("float32", testPotrfWarp[float32])
	t.Run("float64", testPotrfWarp[float64])
}

func testPotrfWarp[T core.Scalar](t *testing.T) {
	const count = 21 // odd: the last block holds one matrix
	for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
		var (
			mu            sync.Mutex
			worst         float64
			worstN, cases int
		)
		t.Run(uplo.String(), func(t *testing.T) {
			for _, n := range warpSizes(cuda.DTypeOf[T]()) {
				t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
					t.Parallel()
					in, items := gputest.MixedBatch[T](n, count, uplo, uint64(9000*n)+uint64(uplo))
					s := gputest.Stream(t)
					factorAligned(t, s, uplo, in, items, PotrfWarp[T])
					r := factorRun(t, s, uplo, in, items, PotrfWarp[T])
					mu.Lock()
					if cases++; r > worst {
						worst, worstN = r, n
					}
					mu.Unlock()
				})
			}
		})
		t.Logf("%s %v: %d orders, worst ‖A − L·Lᴴ‖₁/(n·eps·‖A‖₁) = %.3f (n = %d; bound 20)", core.TypeName[T](), uplo, cases, worst, worstN)
	}
}

// TestPotrfWarpFailures puts failures on both rows of a lane (columns 1, 2,
// 31, 32, 33, the middle, the last two), NaN on and off the diagonal, each
// between good matrices; and subnormal pivots, which the kernel's fast
// rsqrt refuses and finish_in_memory takes on (on either row of a lane, the
// last, and followed by a failure).
func TestPotrfWarpFailures(t *testing.T) {
	s := gputest.Stream(t)
	t.Run("float32", func(t *testing.T) { testPotrfWarpFailures[float32](t, s) })
	t.Run("float64", func(t *testing.T) { testPotrfWarpFailures[float64](t, s) })
}

func testPotrfWarpFailures[T core.Scalar](t *testing.T, s *cuda.Stream) {
	for _, n := range []int{33, 40, MaxWarpFor(cuda.DTypeOf[T]())} {
		mats, items := failureBatch[T](n, 5, []int{1, 2, 31, 32, 33, n/2 + 1, n - 1, n}, []int{31, 32, n - 1}, [][2]int{{32, 31}, {n - 1, 0}, {n - 1, n - 2}},
			[][2]int{{1, 0}, {32, 0}, {33, 0}, {n, 0}, {2, n - 1}, {min(33, n-1), n}})
		for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
			t.Run(fmt.Sprintf("%v/n=%d", uplo, n), func(t *testing.T) {
				factorLaidOut[T](t, s, uplo, mats, items, n+3, (n+3)*n+5, PotrfWarp[T])
				lda := (n + 4) / 4 * 4 // 16-byte columns
				factorLaidOut[T](t, s, uplo, mats, items, lda, lda*n+4, PotrfWarp[T])
			})
		}
	}
}

// TestPotrfWarpWide checks the Upper kernel on 16-byte aligned columns (the
// wide tile) against the tile of NC + 1 columns, which every layout can
// take: TestPotrfWarp's mixed batch at every order with the wide tile
// (warpWide), in layouts whose columns are aligned (lda > n, a gap between
// matrices; and packed where n allows), gives the same bits in the whole
// buffer and the same info both ways. Both move the data only; the
// arithmetic is the same.
func TestPotrfWarpWide(t *testing.T) {
	s := gputest.Stream(t)
	t.Run("float32", func(t *testing.T) { testPotrfWarpWide[float32](t, s) })
}

func testPotrfWarpWide[T core.Scalar](t *testing.T, s *cuda.Stream) {
	const count = 21
	if !warpWide(cuda.DTypeOf[T]()) {
		t.Fatalf("%v has no wide tile", cuda.DTypeOf[T]())
	}
	for _, n := range warpSizes(cuda.DTypeOf[T]()) {
		in, _ := gputest.MixedBatch[T](n, count, core.Upper, uint64(7000*n))
		lda := (n + 4) / 4 * 4
		layouts := [][2]int{{lda, lda*n + 4}}
		if n%4 == 0 {
			layouts = append(layouts, [2]int{n, n * n})
		}
		for _, l := range layouts {
			laid := oracle.NewStridedLayout[T](n, n, count, l[0], l[1])
			for b := range count {
				oracle.Store(laid, b, oracle.Load(in, b))
				oracle.PoisonTriangle(laid, b, core.Upper, false)
			}
			var got [2][]T
			var infos [2][]int32
			for i, wide := range []bool{false, true} {
				a, info := gputest.Upload(t, s, laid.Data), gputest.Alloc(t, s, 4*count)
				if err := potrfWarp[T](s, core.Upper, n, a, l[0], int64(l[1]), count, info, wide); err != nil {
					t.Fatalf("n = %d, lda = %d, wide %v: %v", n, l[0], wide, err)
				}
				got[i], infos[i] = gputest.Download[T](t, s, a, len(laid.Data)), gputest.Download[int32](t, s, info, count)
			}
			if !slices.Equal(infos[0], infos[1]) {
				t.Errorf("n = %d, lda = %d: info %v with the wide tile, %v with the tile", n, l[0], infos[1], infos[0])
			}
			if !bytes.Equal(gputest.AsBytes(got[0]), gputest.AsBytes(got[1])) {
				x := 0 // the first element whose bits differ
				for i := range got[0] {
					if !oracle.SameBits(got[0][i], got[1][i]) {
						x = i
						break
					}
				}
				t.Errorf("n = %d, lda = %d: element %d (matrix %d) is %v with the wide tile, %v with the tile",
					n, l[0], x, x/l[1], got[1][x], got[0][x])
			}
		}
	}
}

// posvSplitMax is the largest order CanPosvSplit takes for dt, 0 for none.
func posvSplitMax(dt cuda.DType) int {
	if CanPosvSplit(dt, MaxWarpFor(dt)) != nil {
		return 0
	}
	return MaxWarpFor(dt)
}

// TestPosvSplit checks what PosvSplit promises: A, info and X to the bit
// as PotrfWarp followed by PotrsWarp leave them (the factor by warp_body,
// for float64 above NC = 56 by potrf_split, whose bits warp.cu says are
// the same), on TestPotrfWarp's mixed batch (failing and NaN matrices among
// good ones, lda > n, gaps, the other triangle poisoned), every order of
// the tier in both types, both triangles, right-hand side counts each side
// of tri_solve's chunks, ldb > n; a failed matrix's B stays as it was.
func TestPosvSplit(t *testing.T) {
	s := gputest.Stream(t)
	t.Run("float32", func(t *testing.T) { testPosvSplit[float32](t, s) })
	t.Run("float64", func(t *testing.T) { testPosvSplit[float64](t, s) })
}

func testPosvSplit[T float32 | float64](t *testing.T, s *cuda.Stream) {
	for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
		t.Run(uplo.String(), func(t *testing.T) {
			for _, n := range warpSizes(cuda.DTypeOf[T]()) {
				t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) { testPosvSplitOrder[T](t, s, uplo, n) })
			}
		})
	}
}

func testPosvSplitOrder[T float32 | float64](t *testing.T, s *cuda.Stream, uplo core.Uplo, n int) {
	const count = 21
	same := func(x, y T) bool { return oracle.SameBits(x, y) || math.IsNaN(float64(x)) && math.IsNaN(float64(y)) }
	in, _ := gputest.MixedBatch[T](n, count, uplo, uint64(700*n)+uint64(uplo))
	for _, nrhs := range []int{1, 4, 8, 9, 16, 17, 33} {
		ldb := n + 2
		rhs := oracle.NewStridedLayout[T](n, nrhs, count, ldb, ldb*nrhs+3)
		rng := rand.New(rand.NewPCG(uint64(n), uint64(nrhs)))
		for k := range rhs.Data {
			rhs.Data[k] = T(2*rng.Float64() - 1)
		}
		run := func(solve func(a, b, info cuda.DevicePtr) error) ([]T, []T, []int32) {
			pa, pb := gputest.Upload(t, s, in.Data), gputest.Upload(t, s, rhs.Data)
			pi := gputest.Upload(t, s, slices.Repeat([]int32{-7}, count))
			if err := solve(pa, pb, pi); err != nil {
				t.Fatalf("nrhs=%d: %v", nrhs, err)
			}
			return gputest.Download[T](t, s, pa, len(in.Data)), gputest.Download[T](t, s, pb, len(rhs.Data)),
				gputest.Download[int32](t, s, pi, count)
		}
		a1, x1, i1 := run(func(a, b, info cuda.DevicePtr) error {
			return PosvSplit[T](s, uplo, n, nrhs, a, in.LD, int64(in.Stride), b, ldb, int64(rhs.Stride), count, info)
		})
		a2, x2, i2 := run(func(a, b, info cuda.DevicePtr) error {
			if err := PotrfWarp[T](s, uplo, n, a, in.LD, int64(in.Stride), count, info); err != nil {
				return err
			}
			return PotrsWarp[T](s, uplo, n, nrhs, a, in.LD, int64(in.Stride), b, ldb, int64(rhs.Stride), count, info)
		})
		if !slices.Equal(i1, i2) || !slices.ContainsFunc(i1, func(v int32) bool { return v != 0 }) {
			t.Errorf("nrhs=%d: info %v, the two launches' %v (some matrix must fail)", nrhs, i1, i2)
		}
		for _, c := range []struct {
			name      string
			got, want []T
		}{{"A", a1, a2}, {"X", x1, x2}} {
			for k := range c.got {
				if !same(c.got[k], c.want[k]) {
					t.Errorf("nrhs=%d: %s differs from the two launches' at element %d: %v against %v",
						nrhs, c.name, k, c.got[k], c.want[k])
					break
				}
			}
		}
		for m := range count {
			if i1[m] != 0 && !slices.EqualFunc(rhs.Matrix(m), x1[m*rhs.Stride:m*rhs.Stride+len(rhs.Matrix(m))], same) {
				t.Errorf("nrhs=%d: matrix %d failed (info %d) but its B changed", nrhs, m, i1[m])
			}
		}
	}
}

// TestWarpConformance runs the shared Potrf suite on the warp kernel at
// the edges of its rows and buckets; the suite's empty batch of order 4 is
// below the tier.
func TestWarpConformance(t *testing.T) {
	s := gputest.Stream(t)
	cfg := conformance.Config{Sizes: []int{33, 36, 37, 48, 63, 64}, Unsupported: []string{`^Potrf/[^/]+/Empty/(Lower|Upper)/n=4/count=0$`}}
	conformance.PotrfTest[float32](t, engine[float32]{s, PotrfWarp[float32]}, cfg)
	cfg.Sizes = []int{33, 36, 37, 48, 55, 56, 57, 63, 64}
	conformance.PotrfTest[float64](t, engine[float64]{s, PotrfWarp[float64]}, cfg)
}

// TestWarpKernelResources loads every warp kernel and fails on any local
// memory (at n = 64 the rows alone are 96 registers), printing registers
// and blocks per SM.
func TestWarpKernelResources(t *testing.T) {
	s := gputest.Stream(t)
	c := s.Context()
	// Every module at once first; the loop below then finds them loaded
	// and reports each failure by its bucket.
	if err := LoadWarpModules(c); err != nil {
		t.Log(err)
	}
	type loader func(*cuda.Context, cuda.DType, int, core.Uplo) ([]*cuda.Kernel, error)
	for _, dt := range warpTypes {
		for nc := warpCols(MaxN + 1); nc <= max(MaxWarpFor(dt), MaxPotrsWarpFor(dt)); nc += 4 {
			var ks []*cuda.Kernel
			if nc <= MaxWarpFor(dt) {
				got, err := warpKernels(c, dt, nc)
				if err != nil {
					t.Errorf("%v, bucket %d: %v", dt, nc, err)
					continue
				}
				ks = got
			}
			var solves []*cuda.Kernel
			for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
				for _, l := range []struct {
					load  loader
					limit int
				}{{posvWarpKernels, posvWarpMax(dt, uplo)}, {potrsWarpKernels, MaxPotrsWarpFor(dt)},
					{posvSplitKernels, posvSplitMax(dt)}} {
					if nc > l.limit {
						continue
					}
					got, err := l.load(c, dt, nc, uplo)
					if err != nil {
						t.Errorf("%v, bucket %d, %v: %v", dt, nc, uplo, err)
						continue
					}
					solves = append(solves, got...)
				}
			}
			// potrf_warp Lower (no tile), Upper (the tile), Upper (the wide
			// tile, where warpWide); then posv_warp and potrs_warp, which
			// take the tile but posv_warp's aligned Upper where posvWide
			// (the wide tile in dynamic shared memory). The split kernels
			// take the packed tile, both triangles.
			for i, k := range append(ks, solves...) {
				shared := warpTileBytes(dt, nc)
				switch {
				case strings.HasPrefix(k.Name, "potrf_split<") || strings.HasPrefix(k.Name, "potrs_split<") ||
					strings.HasPrefix(k.Name, "posv_split<"):
					shared = splitBytes(dt, nc)
				case len(ks) > 0 && i == 0:
					shared = 0
				case len(ks) > 2 && i == 2:
					shared = 0 // the wide tile is static
				case k.Name == posvWarpNames(dt, nc, true)[1] && posvWide(dt, nc):
					shared = posvWideBytes(dt, nc)
				}
				if shared > 0 {
					if err := k.AllowDynamicShared(shared); err != nil {
						t.Errorf("%s: %v", k.Name, err)
						continue
					}
				}
				gputest.CheckResources(t, k, 32*warpPerBlock, shared)
			}
		}
	}
}

// TestPotrfWarpTiming times the warp kernel against the CTA tier and
// cuSOLVER's potrfBatched on the same data in one process (events around
// one call after an L2 flush, arms interleaved, median of 9), with every
// arm's result checked; for Upper on aligned columns also the tile of
// NC + 1 columns against the wide tile. Run with -v, skipped under -short.
func TestPotrfWarpTiming(t *testing.T) {
	if testing.Short() || !testing.Verbose() {
		t.Skip("timing: runs only with -test.v and without -test.short")
	}
	s := gputest.Stream(t)
	sv := gputest.Solver(t, s)
	tm := gputest.NewTimer(t, s)
	for _, tc := range []struct{ n, count int }{{33, 65536}, {36, 65536}, {40, 65536}, {44, 65536}, {48, 65536}, {52, 65536},
		{56, 65536}, {60, 65536}, {64, 1024}, {64, 65536}} {
		for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
			timeWarp[float32](t, s, sv, tm, uplo, tc.n, tc.count)
		}
	}
	for _, tc := range []struct{ n, count int }{{33, 65536}, {48, 16384}, {48, 65536}, {56, 65536}} {
		for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
			timeWarp[float64](t, s, sv, tm, uplo, tc.n, tc.count)
		}
	}
}

func timeWarp[T core.Scalar](t *testing.T, s *cuda.Stream, sv *cuda.Solver, tm *gputest.Timer, uplo core.Uplo, n, count int) {
	const reps = 9
	host := gputest.SPDBatch[T](n, count, 16, false)
	bytesPerCall := int64(len(host.Data)) * int64(unsafe.Sizeof(host.Data[0]))
	src := gputest.Upload(t, s, host.Data)
	stride := int64(host.Stride)
	type arm struct {
		name      string
		dst, info cuda.DevicePtr
		run       func() error
	}
	var arms []*arm
	add := func(name string) *arm {
		a := &arm{name: name, dst: gputest.Alloc(t, s, bytesPerCall), info: gputest.Alloc(t, s, 4*int64(count))}
		arms = append(arms, a)
		return a
	}
	warp, cta, vendor := add("warp"), add("cta"), add("cuSOLVER")
	warp.run = func() error { return PotrfWarp[T](s, uplo, n, warp.dst, n, stride, count, warp.info) }
	if warpWide(cuda.DTypeOf[T]()) && upperVectors(cuda.DTypeOf[T](), uplo, src, n, stride, count) {
		// The wide tile serves these columns; the tile of NC + 1 columns beside it.
		tile := add("warp tile")
		tile.run = func() error { return potrfWarp[T](s, uplo, n, tile.dst, n, stride, count, tile.info, false) }
	}
	cta.run = func() error { return PotrfCTA[T](s, uplo, n, cta.dst, n, stride, count, cta.info) }
	ptrs, err := cuda.PointerArrayOf[T](s, vendor.dst, count, stride)
	if err != nil {
		t.Fatal(err)
	}
	defer ptrs.Free()
	vendor.run = func() error { return cuda.PotrfBatched[T](sv, uplo, n, ptrs.Ptr, n, vendor.info, count) }
	copyDst := gputest.Alloc(t, s, bytesPerCall) // the copy-bandwidth floor: read A, write L

	// The kernels' arms restore A first; the last arm is the copy floor.
	timed := make([]gputest.Arm, 0, len(arms)+1)
	for _, a := range arms {
		timed = append(timed, gputest.Arm{Name: a.name, Run: a.run,
			Prepare: func() error { return cuda.CopyDtoD(s, a.dst, src, bytesPerCall) }})
	}
	timed = append(timed, gputest.Arm{Name: "copy", Run: func() error { return cuda.CopyDtoD(s, copyDst, src, bytesPerCall) }})
	times := tm.Interleaved(t, reps, timed)
	eps := gputest.MachineEps[T]()
	copyUs := gputest.Median(times[len(arms)])
	line := fmt.Sprintf("%s %v n=%d count=%d: copy %.1f µs", core.TypeName[T](), uplo, n, count, copyUs)
	for i, a := range arms {
		info := gputest.Download[int32](t, s, a.info, count)
		if k := slices.IndexFunc(info, func(v int32) bool { return v != 0 }); k >= 0 {
			t.Errorf("%s: info[%d] = %d on a positive definite matrix", a.name, k, info[k])
		}
		out := host
		out.Data = gputest.Download[T](t, s, a.dst, len(host.Data))
		for _, b := range []int{0, count / 2, count - 1} {
			if r := gputest.Residual1(host, out, b, uplo, n, eps); !(r <= 20) {
				t.Errorf("%s: matrix %d: ‖A − L·Lᴴ‖₁ = %.3g·n·eps·‖A‖₁, bound 20", a.name, b, r)
			}
		}
		med := gputest.Median(times[i])
		line += fmt.Sprintf(", %s %.1f µs (%.0f %% of copy)", a.name, med, 100*copyUs/med)
	}
	t.Log(line)
}

// TestPosvWarpTiming times posv_warp against posv_cta, the kernel it
// replaces for float32 Lower, and posv_split, which takes float32 from
// n = 61 (posv.go's posvSplit), on the same systems in one process
// (events around one call after an L2 flush, arms interleaved, median of
// 9), and checks that they agree on X; run with -v, skipped under -short.
// posv's TestPosvTiming sets Posv, which takes one of them (posv.go's
// posvSplit and CanPosvWarp say which), against the vendor's composition.
func TestPosvWarpTiming(t *testing.T) {
	if testing.Short() || !testing.Verbose() {
		t.Skip("timing: runs only with -test.v and without -test.short")
	}
	s := gputest.Stream(t)
	tm := gputest.NewTimer(t, s)
	for _, n := range []int{MaxN + 1, 48, MaxPosvWarp} { // the first and last orders it serves, and one between
		for _, nrhs := range []int{1, 8, 16} {
			timePosvWarp(t, s, tm, n, nrhs, 65536)
		}
	}
}

func timePosvWarp(t *testing.T, s *cuda.Stream, tm *gputest.Timer, n, nrhs, count int) {
	const reps = 9
	host := gputest.SPDBatch[float32](n, count, 16, false)
	rng := rand.New(rand.NewPCG(uint64(n), uint64(nrhs)))
	rhs := make([]float32, n*nrhs*count)
	for i := range rhs {
		rhs[i] = float32(rng.NormFloat64())
	}
	bytesA, bytesB := 4*int64(len(host.Data)), 4*int64(len(rhs))
	srcA, srcB := gputest.Upload(t, s, host.Data), gputest.Upload(t, s, rhs)
	strideA, strideB := int64(host.Stride), int64(n*nrhs)
	type arm struct {
		name       string
		a, b, info cuda.DevicePtr
		run        func() error
		times      []float64
		solution   []float32
	}
	newArm := func(name string) *arm {
		return &arm{name: name, a: gputest.Alloc(t, s, bytesA), b: gputest.Alloc(t, s, bytesB), info: gputest.Alloc(t, s, 4*int64(count))}
	}
	warp, cta, split := newArm("warp"), newArm("cta"), newArm("split")
	warp.run = func() error {
		return PosvWarp[float32](s, core.Lower, n, nrhs, warp.a, n, strideA, warp.b, n, strideB, count, warp.info)
	}
	cta.run = func() error {
		return PosvCTA[float32](s, core.Lower, n, nrhs, cta.a, n, strideA, cta.b, n, strideB, count, cta.info)
	}
	split.run = func() error {
		return PosvSplit[float32](s, core.Lower, n, nrhs, split.a, n, strideA, split.b, n, strideB, count, split.info)
	}
	arms := []*arm{warp, cta, split}
	timed := make([]gputest.Arm, len(arms))
	for i, a := range arms {
		timed[i] = gputest.Arm{Name: a.name, Run: a.run, Prepare: func() error {
			if err := cuda.CopyDtoD(s, a.a, srcA, bytesA); err != nil {
				return err
			}
			return cuda.CopyDtoD(s, a.b, srcB, bytesB)
		}}
	}
	for i, us := range tm.Interleaved(t, reps, timed) {
		arms[i].times = us
	}
	for _, a := range arms {
		info := gputest.Download[int32](t, s, a.info, count)
		if k := slices.IndexFunc(info, func(v int32) bool { return v != 0 }); k >= 0 {
			t.Errorf("n=%d nrhs=%d %s: info[%d] = %d on a positive definite matrix", n, nrhs, a.name, k, info[k])
		}
		a.solution = gputest.Download[float32](t, s, a.b, len(rhs))
	}
	// Two backward-stable solvers agree to within a small multiple of
	// cond·eps·‖X‖: SPDBatch's conditions reach about 1600 (100, then
	// scaled by D in [0.5, 2]), so 1600·6e-8 ≈ 1e-4, well inside 1e-2; a
	// wrong X misses by its own size.
	for _, a := range []*arm{warp, split} {
		worst, scale := 0.0, 0.0
		for i, x := range a.solution {
			worst = max(worst, math.Abs(float64(x-cta.solution[i])))
			scale = max(scale, math.Abs(float64(cta.solution[i])))
		}
		if !(worst <= 1e-2*scale) {
			t.Errorf("n=%d nrhs=%d: X differs between %s and cta by %.3g (largest |X| %.3g)", n, nrhs, a.name, worst, scale)
		}
	}
	w, c, p := gputest.Median(warp.times), gputest.Median(cta.times), gputest.Median(split.times)
	t.Logf("float32 Lower n=%d nrhs=%d count=%d: warp %.1f µs, cta %.1f µs, split %.1f µs, cta/warp %.2f×, split/warp %.3f",
		n, nrhs, count, w, c, p, c/w, p/w)
}

// TestSplitBytes pins splitBytes to warp.cu's split_pitch: two warps of
// NC(NC + 1)/2 elements each, rounded up to whole 16-byte vectors. A
// smaller size would let the second warp's tile run past the block's
// shared memory, which only memcheck on a GPU would see.
func TestSplitBytes(t *testing.T) {
	for _, tc := range []struct {
		dt   cuda.DType
		n    int
		want int
	}{
		{cuda.Float64, 64, 2 * 2080 * 8},
		{cuda.Float64, 57, 2 * 1830 * 8}, // NC = 60: 1830 elements, whole pairs
		{cuda.Float64, 49, 2 * 1378 * 8}, // NC = 52
		{cuda.Float32, 60, 2 * 1832 * 4}, // 1830 rounded up to a multiple of 4
		{cuda.Float32, 64, 2 * 2080 * 4},
	} {
		if got := splitBytes(tc.dt, tc.n); got != tc.want {
			t.Errorf("splitBytes(%v, %d) = %d, want %d", tc.dt, tc.n, got, tc.want)
		}
	}
}

// TestPosvWideBytes pins posvWideBytes to warp.cu's posv_wide_tile: per
// warp NC rows of the wide tile's pitch (an odd number of 16-byte chunks,
// wide_pitch) or of the solve's NC + 1, whichever is longer. A smaller size
// would let posv_warp's wide tile run past the block's shared memory.
func TestPosvWideBytes(t *testing.T) {
	for _, tc := range []struct {
		dt   cuda.DType
		n    int
		want int
	}{
		{cuda.Float32, 64, 2 * 64 * 68 * 4}, // 16 chunks → 17: pitch 68 > 65
		{cuda.Float32, 36, 2 * 36 * 37 * 4}, // 9 chunks: pitch 36 < 37
		{cuda.Float32, 40, 2 * 40 * 44 * 4}, // 10 chunks → 11: pitch 44
		{cuda.Float64, 48, 2 * 48 * 50 * 8}, // 24 chunks → 25: pitch 50 > 49
		{cuda.Float64, 45, 2 * 48 * 50 * 8}, // NC = 48 too
		{cuda.Float64, 56, 2 * 56 * 58 * 8}, // 28 chunks → 29: pitch 58
	} {
		if got := posvWideBytes(tc.dt, tc.n); got != tc.want {
			t.Errorf("posvWideBytes(%v, %d) = %d, want %d", tc.dt, tc.n, got, tc.want)
		}
	}
}
