package cholblocked

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"regexp"
	"strconv"
	"testing"

	"github.com/batchlas/batchlas/internal/conformance"
	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cuda"
	"github.com/batchlas/batchlas/internal/gpu/gputest"
)

func TestTiledArguments(t *testing.T) {
	const a, info, ws = cuda.DevicePtr(1 << 20), cuda.DevicePtr(1 << 24), cuda.DevicePtr(1 << 30)
	need, err := TiledWorkspaceSize(cuda.Float64, 100, 5)
	if err != nil {
		t.Fatal(err)
	}
	// 4 lower tiles a side: 10 tiles a matrix, 50 flags and the counter;
	// 4 inverses of 32×32 doubles a matrix.
	if want := roundUp(4*51, 256) + 5*4*32*32*8; need != want {
		t.Errorf("TiledWorkspaceSize(float64, 100, 5) = %d, want %d", need, want)
	}
	// n = 1024: 32 tiles a side, 528 tiles and 32 − 19 = 13 prefix tasks a
	// matrix, so 1 + 2·(528 + 13) flags; 2·32 inverses and 2·2·13 sums.
	if need, err := TiledWorkspaceSize(cuda.Float32, 1024, 2); err != nil || need != roundUp(roundUp(4*1083, 256)+(64+52)*32*32*4, 256) {
		t.Errorf("TiledWorkspaceSize(float32, 1024, 2) = %d, %v", need, err)
	}
	w := Workspace{ws, need}
	if err := checkTiled(cuda.Float64, core.Lower, 100, a, 101, 10100, 5, info, w, TiledOptions{}); err != nil {
		t.Fatalf("valid call refused: %v", err)
	}
	for name, tc := range map[string]struct {
		dt     cuda.DType
		n      int
		ws     Workspace
		blocks int
		prec   Precision
		occ    int
		want   error
	}{
		"negative n":            {cuda.Float64, -1, w, 0, Exact, 0, core.ErrShape},
		"bad dtype":             {cuda.DType(9), 100, w, 0, Exact, 0, core.ErrArgument},
		"small workspace":       {cuda.Float64, 100, Workspace{ws, need - 1}, 0, Exact, 0, core.ErrArgument},
		"odd workspace":         {cuda.Float64, 100, Workspace{ws + 8, need}, 0, Exact, 0, core.ErrArgument},
		"negative blocks":       {cuda.Float64, 100, w, -1, Exact, 0, core.ErrArgument},
		"float64 3xTF32":        {cuda.Float64, 100, w, 0, Split3TF32, 0, core.ErrUnsupported},
		"bad precision":         {cuda.Float64, 100, w, 0, Precision(7), 0, core.ErrArgument},
		"float32 TF32":          {cuda.Float32, 100, w, 0, TF32, 0, core.ErrUnsupported},
		"float64 occupancy 4":   {cuda.Float64, 100, w, 0, Exact, 4, core.ErrUnsupported},
		"complex64 occupancy 4": {cuda.Complex64, 100, w, 0, Exact, 4, core.ErrUnsupported},
		"occupancy 3 exact":     {cuda.Float32, 100, w, 0, Exact, 3, core.ErrUnsupported},
		"float64 occupancy 3":   {cuda.Float64, 100, w, 0, Split3TF32, 3, core.ErrUnsupported},
		"occupancy 5":           {cuda.Float32, 100, w, 0, Split3TF32, 5, core.ErrArgument},
		"negative occupancy":    {cuda.Float32, 100, w, 0, Exact, -2, core.ErrArgument},
	} {
		opt := TiledOptions{Blocks: tc.blocks, Precision: tc.prec, Occupancy: tc.occ}
		if err := checkTiled(tc.dt, core.Lower, tc.n, a, 101, 10100, 5, info, tc.ws, opt); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", name, err, tc.want)
		}
	}
	// 2³⁰ tiles or more do not fit the int32 ticket counter; nor does a
	// count whose tiles wrap int64 (2²⁶ tiles a side, 2⁵¹ a matrix).
	if err := checkTiled(cuda.Float32, core.Lower, 64, a, 64, 4096, 1<<29, info, Workspace{ws, 1 << 40}, TiledOptions{}); !errors.Is(err, core.ErrUnsupported) {
		t.Errorf("2³⁰ tiles: %v", err)
	}
	if err := CanRunTiled(cuda.Float32, math.MaxInt32, 4096, TiledOptions{}); !errors.Is(err, core.ErrUnsupported) {
		t.Errorf("2⁶³ tiles: %v", err)
	}
	for _, opt := range []TiledOptions{{Precision: Split3TF32}, {Occupancy: 2}, {Occupancy: 4}, {Precision: Split3TF32, Occupancy: 4}, {Precision: Split3TF32, Occupancy: 3}} {
		for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
			if err := checkTiled(cuda.Float32, uplo, 100, a, 101, 10100, 5, info, w, opt); err != nil {
				t.Errorf("float32 %v %+v refused: %v", uplo, opt, err)
			}
		}
	}
	for occ, want := range map[int]int{0: 264, 2: 264, 3: 396, 4: 528} {
		if got := DefaultTiledBlocks(132, occ); got != want {
			t.Errorf("DefaultTiledBlocks(132, %d) = %d, want %d", occ, got, want)
		}
	}
	if n, err := TiledWorkspaceSize(cuda.Float32, 0, 3); n != 0 || err != nil {
		t.Errorf("n = 0: %d, %v", n, err)
	}
}

// tiledWorkspace allocates what PotrfTiled needs for the call.
func tiledWorkspace(t testing.TB, e *env, dt cuda.DType, n, count int) Workspace {
	t.Helper()
	bytes, err := TiledWorkspaceSize(dt, n, count)
	if err != nil {
		t.Fatal(err)
	}
	return Workspace{Ptr: gputest.Alloc(t, e.s, max(bytes, 1)), Bytes: bytes}
}

// TestPotrfTiled checks the tiled driver as TestPotrf checks the blocked
// one, for every type, both triangles and sizes on both sides of the tile
// edges, with one block (every tile in ticket order), three and the default
// grid: info, residuals, failures and untouched memory per CheckFactors, and
// the same bits in the batch as alone and whatever the grid; float32 also
// with split-TF32 tile products and with the kernels for four blocks a
// multiprocessor and the split one for three.
func TestPotrfTiled(t *testing.T) {
	e := gpu(t)
	split := TiledOptions{Precision: Split3TF32}
	t.Run("float32", func(t *testing.T) { testPotrfTiled[float32](t, e, TiledOptions{}) })
	t.Run("float32/3xTF32", func(t *testing.T) { testPotrfTiled[float32](t, e, split) })
	t.Run("float32/occ=4", func(t *testing.T) { testPotrfTiled[float32](t, e, TiledOptions{Occupancy: 4}) })
	t.Run("float32/3xTF32/occ=4", func(t *testing.T) { testPotrfTiled[float32](t, e, TiledOptions{Precision: Split3TF32, Occupancy: 4}) })
	t.Run("float32/3xTF32/occ=3", func(t *testing.T) { testPotrfTiled[float32](t, e, TiledOptions{Precision: Split3TF32, Occupancy: 3}) })
	t.Run("float64", func(t *testing.T) { testPotrfTiled[float64](t, e, TiledOptions{}) })
	t.Run("complex64", func(t *testing.T) { testPotrfTiled[complex64](t, e, TiledOptions{}) })
	t.Run("complex128", func(t *testing.T) { testPotrfTiled[complex128](t, e, TiledOptions{}) })
}

// testPotrfTiled runs TestPotrfTiled's cases with base's precision and
// occupancy.
func testPotrfTiled[T core.Scalar](t *testing.T, e *env, base TiledOptions) {
	dt := cuda.DTypeOf[T]()
	const ts = TileWidth
	sizes := []int{1, 2, ts - 1, ts, ts + 1, 2*ts - 1, 2 * ts, 2*ts + 1, 3*ts + 1, 160, 255, 257, 320}
	if testing.Short() {
		sizes = []int{ts + 1, 3*ts + 1, 257}
	}
	if base.Precision == Split3TF32 && base.Occupancy < 3 {
		// Prefix tasks (blocked.cu's Prefix, in the split kernels for one
		// block a multiprocessor) start at 20 tiles a side: 608 has none,
		// 609 one (for a last diagonal tile of one row), 641 two, 800 six.
		sizes = append(sizes, 641)
		if !testing.Short() {
			sizes = append(sizes, 608, 609, 800)
		}
	}
	// Upper's split loop copies 16 bytes at once where every row is
	// 16-byte aligned (blocked.cu's copy_tile, wide), 4 bytes elsewhere.
	// factorCase's layout (lda = n + 1 + n mod 3) is aligned at n = 63, 65,
	// 255, 257 and 641; its batch's stride only at 641, and it factors
	// each matrix alone too, at its own address in the batch, aligned for
	// every fourth matrix or second at those n but 641: there the wide
	// copies' bits are checked against the 4-byte copies' of the batch.
	for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
		worst, worstN := 0.0, 0
		for _, n := range sizes {
			t.Run(fmt.Sprintf("%v/n=%d", uplo, n), func(t *testing.T) {
				count := 30
				if n > 256 {
					count = 10
				}
				if n > 600 {
					count = 4
				}
				ws := tiledWorkspace(t, e, dt, n, count)
				var first []T
				for _, blocks := range []int{0, 1, 3} {
					opt := base
					opt.Blocks = blocks
					var out []T
					r := factorCase[T](t, e, uplo, n, count, ts, uint64(1000*n)+uint64(uplo), true, 20,
						func(a cuda.DevicePtr, lda int, stride int64, count int, info cuda.DevicePtr) error {
							err := PotrfTiled[T](e.s, uplo, n, a, lda, stride, count, info, ws, opt)
							if err == nil && count > 1 {
								out = gputest.Download[T](t, e.s, a, int(stride)*count)
							}
							return err
						})
					if r > worst {
						worst, worstN = r, n
					}
					if first == nil {
						first = out
					} else if !bytes.Equal(gputest.AsBytes(first), gputest.AsBytes(out)) {
						t.Errorf("%d blocks: other bits than the default grid's", blocks)
					}
				}
			})
		}
		t.Logf("%s %v occupancy %d %v: worst ‖A − L·Lᴴ‖₁/(n·eps·‖A‖₁) = %.3f (n = %d; bound 20)", core.TypeName[T](), base.Precision, base.Occupancy, uplo, worst, worstN)
	}
}

// TestConformanceTiled runs the shared Potrf suite on the tiled driver,
// whose results do not depend on the batch.
func TestConformanceTiled(t *testing.T) {
	e := gpu(t)
	t.Run("float32", func(t *testing.T) {
		conformance.PotrfTest[float32](t, engine[float32]{e: e, tiled: true}, conformance.Config{})
	})
	t.Run("float32/3xTF32", func(t *testing.T) {
		conformance.PotrfTest[float32](t, engine[float32]{e: e, tiled: true, opt: Options{Precision: Split3TF32}}, conformance.Config{})
	})
	t.Run("float32/occ=4", func(t *testing.T) {
		conformance.PotrfTest[float32](t, engine[float32]{e: e, tiled: true, occ: 4}, conformance.Config{})
	})
	t.Run("float32/3xTF32/occ=4", func(t *testing.T) {
		conformance.PotrfTest[float32](t, engine[float32]{e: e, tiled: true, opt: Options{Precision: Split3TF32}, occ: 4}, conformance.Config{})
	})
	t.Run("float32/3xTF32/occ=3", func(t *testing.T) {
		conformance.PotrfTest[float32](t, engine[float32]{e: e, tiled: true, opt: Options{Precision: Split3TF32}, occ: 3}, conformance.Config{})
	})
	t.Run("float64", func(t *testing.T) {
		conformance.PotrfTest[float64](t, engine[float64]{e: e, tiled: true}, conformance.Config{})
	})
	t.Run("complex64", func(t *testing.T) {
		conformance.PotrfTest[complex64](t, engine[complex64]{e: e, tiled: true}, conformance.Config{})
	})
	t.Run("complex128", func(t *testing.T) {
		conformance.PotrfTest[complex128](t, engine[complex128]{e: e, tiled: true}, conformance.Config{})
	})
}

// TestAccuracyTiled holds float32 tiled factorizations, exact and with
// split-TF32 products, at every occupancy, to the GPU MODE bound on
// TestAccuracy's input families.
func TestAccuracyTiled(t *testing.T) {
	e := gpu(t)
	sizes := []int{200, 320, 512, 1024}
	if testing.Short() {
		sizes = []int{320}
	}
	for _, n := range sizes {
		for _, kind := range []string{"dense", "lowrank", "rowscale", "diagonal", "spectrum"} {
			mats := gpuModeInputs(kind, n, 2)
			for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
				for _, opt := range []TiledOptions{{}, {Precision: Split3TF32}, {Occupancy: 4}, {Precision: Split3TF32, Occupancy: 4}, {Precision: Split3TF32, Occupancy: 3}} {
					t.Run(fmt.Sprintf("%s/n=%d/%v/%v/occ=%d", kind, n, uplo, opt.Precision, opt.Occupancy), func(t *testing.T) {
						accuracyCase(t, e, mats, uplo, func(a cuda.DevicePtr, lda int, stride int64, count int, info cuda.DevicePtr) error {
							ws := tiledWorkspace(t, e, cuda.Float32, n, count)
							return PotrfTiled[float32](e.s, uplo, n, a, lda, stride, count, info, ws, opt)
						})
					})
				}
			}
		}
	}
}

// TestSplitStages checks that the dynamic shared memory PotrfTiled and the
// tiled panels launch with is what chol_tiled's split loop indexes: Go's
// splitStages and splitRows against blocked.cu's split_stages and
// split_rows, read from the source.
func TestSplitStages(t *testing.T) {
	m := regexp.MustCompile(`enum \{ split_stages = (\d+) \};`).FindStringSubmatch(code)
	if m == nil {
		t.Fatal("blocked.cu: split_stages not found")
	}
	if got := strconv.Itoa(splitStages); got != m[1] {
		t.Errorf("splitStages = %s, blocked.cu's split_stages %s", got, m[1])
	}
	m = regexp.MustCompile(`struct split_rows \{\s*static constexpr int value = MIN_BLOCKS >= 3 \? (\d+) : (\d+);`).FindStringSubmatch(code)
	if m == nil {
		t.Fatal("blocked.cu: split_rows not found")
	}
	for occ, want := range map[int]string{4: m[1], 3: m[1], 0: m[2], 2: m[2]} {
		if got := strconv.Itoa(splitRows(occ)); got != want {
			t.Errorf("splitRows(%d) = %s, blocked.cu's split_rows %s", occ, got, want)
		}
	}
	for _, occ := range []int{3, 4} {
		if got, want := splitSharedBytes(occ), uint32(3*3*32*36*4); got != want {
			t.Errorf("splitSharedBytes(%d) = %d, want %d", occ, got, want)
		}
	}
	if got := tiledSharedBytes(TiledOptions{Occupancy: 4}); got != 0 {
		t.Errorf("the exact kernels take %d B of dynamic shared memory, want 0", got)
	}
}

// TestPrefixTasks checks that the workspace makes room for the prefix
// tasks chol_tiled takes: Go's constants against blocked.cu's Prefix, read
// from the source, and their count at the edges.
func TestPrefixTasks(t *testing.T) {
	m := regexp.MustCompile(`static constexpr int ahead = (\d+), min_steps = (\d+);`).FindStringSubmatch(code)
	if m == nil {
		t.Fatal("blocked.cu: Prefix's constants not found")
	}
	if m[1] != strconv.Itoa(prefixAhead) || m[2] != strconv.Itoa(prefixMinSteps) {
		t.Errorf("blocked.cu's Prefix has ahead = %s, min_steps = %s; tiled.go %d, %d", m[1], m[2], prefixAhead, prefixMinSteps)
	}
	for nt, want := range map[int]int{1: 0, 19: 0, 20: 1, 21: 2, 25: 6, 128: 109} {
		if got := prefixTasks(nt); got != want {
			t.Errorf("prefixTasks(%d) = %d, want %d", nt, got, want)
		}
	}
}

// TestDivMagic checks the division chol_tiled does without an integer
// division: ⌊t·divMagic(d)/2⁶²⌋ = ⌊t/d⌋ for every ticket t < 2³¹, at
// multiples of d and next to them, for counts from 1 to 2³¹ − 1.
func TestDivMagic(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 1))
	ds := []int{1, 2, 3, 7, 60, 64, 640, 4095, 65536, 65537, 123456789, 1<<30 + 1, math.MaxInt32}
	for range 200 {
		ds = append(ds, 1+rng.IntN(math.MaxInt32))
	}
	for _, d := range ds {
		magic := divMagic(d)
		ts := []int{0, 1, d - 1, d, d + 1, math.MaxInt32 - 1, math.MaxInt32}
		for k := 1; k < 40 && k*d <= math.MaxInt32; k++ {
			ts = append(ts, k*d-1, k*d)
		}
		for range 500 {
			ts = append(ts, rng.IntN(math.MaxInt32+1))
		}
		for _, v := range ts {
			if v < 0 || v > math.MaxInt32 {
				continue
			}
			hi, lo := bits.Mul64(uint64(v), magic)
			if got := hi<<2 | lo>>62; got != uint64(v/d) {
				t.Fatalf("t = %d, count = %d: %d, want %d", v, d, got, v/d)
			}
		}
	}
}
