package posv

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"github.com/batchlas/batchlas/internal/conformance"
	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cuda"
	"github.com/batchlas/batchlas/internal/gpu/gputest"
	"github.com/batchlas/batchlas/internal/gpu/potrf"
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
	for dt, want := range map[cuda.DType][]int{
		cuda.Float32: {1, 1, 2, 4, 4, 8, 8, 16, 16, 16}, cuda.Float64: {1, 1, 2, 4, 4, 8, 8, 8, 8, 8},
		cuda.Complex64: {1, 1, 2, 4, 4, 8, 8, 8, 8, 8}, cuda.Complex128: {1, 1, 2, 4, 4, 4, 4, 4, 4, 4},
	} {
		var got []int
		for _, nrhs := range []int{0, 1, 2, 3, 4, 5, 8, 9, 16, 17} {
			got = append(got, chunk(dt, nrhs))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%v: chunks for nrhs 0,1,2,3,4,5,8,9,16,17 are %v, want %v", dt, got, want)
		}
	}
	// Every instantiation fits its block in static shared memory, with
	// whole groups, and 128 threads wherever they fit.
	count := 0
	for _, b := range buckets() {
		lanes, cols := shape(b.cols)
		th := b.threads()
		bytes := sharedBytes(b.dt, lanes, cols, b.nr, th)
		if bytes > staticSharedLimit || th%lanes != 0 || th%32 != 0 {
			t.Errorf("%v: %d threads, %d B of shared memory", b.names()[0], th, bytes)
		}
		if th < maxThreads && sharedBytes(b.dt, lanes, cols, b.nr, maxThreads) <= staticSharedLimit {
			t.Errorf("%v: %d threads where %d fit", b.names()[0], th, maxThreads)
		}
		if th < maxThreads && (b.dt != cuda.Complex128 || cols < 28) {
			t.Errorf("%v: %d threads; only complex double at n > 24 should need fewer than %d", b.names()[0], th, maxThreads)
		}
		count += 2
	}
	// float32 n = 32, 16 right-hand sides: 4 groups × (32 slots of 9 units
	// + 1) + 4 × (2·4 + 1) units of 16 bytes.
	if got, want := sharedBytes(cuda.Float32, 32, 32, 16, 128), 16*(4*(32*9+1)+4*9); got != want {
		t.Errorf("sharedBytes(float32, n = 32, 16 rhs) = %d, want %d", got, want)
	}
	got := bucket{kindPosv, cuda.Complex64, 20, 4}.names()
	if !slices.Equal(got, []string{"posv_reg<cfloat, 32, 20, 4, false, 128>", "posv_reg<cfloat, 32, 20, 4, true, 128>"}) {
		t.Errorf("names = %q", got)
	}
	got = bucket{kindPotrs, cuda.Complex128, 32, 4}.names()
	if !slices.Equal(got, []string{"potrs_reg<cdouble, 32, 32, 4, false, 64>", "potrs_reg<cdouble, 32, 32, 4, true, 64>"}) {
		t.Errorf("names = %q", got)
	}
	// 2 kernels × 8 column buckets × (5 + 4 + 4 + 3) chunk sizes × 2 triangles.
	if n := len(KernelNames()); n != count || n != 2*8*16*2 {
		t.Errorf("%d kernel names (%d buckets), want %d", n, count/2, 2*8*16*2)
	}
}

// TestSolveApart pins Posv's choice between posv_warp and the two launches
// to the points solveApart's comment measured: float64 Lower n = 49…56
// only, from 16,384 systems, above 8 right-hand sides (posvSplit takes
// Upper and Lower 45…48 before it).
func TestSolveApart(t *testing.T) {
	const many = 16384
	for _, c := range []struct {
		dt    cuda.DType
		uplo  core.Uplo
		n     int
		nrhs  int
		apart bool
	}{
		{cuda.Float32, core.Lower, 56, 32, false}, {cuda.Float32, core.Upper, 48, 16, false},
		{cuda.Float64, core.Upper, 33, 8, false}, {cuda.Float64, core.Upper, 48, 16, false},
		{cuda.Float64, core.Lower, 48, 16, false}, {cuda.Float64, core.Lower, 49, 8, false},
		{cuda.Float64, core.Lower, 49, 9, true}, {cuda.Float64, core.Lower, 56, 8, false},
		{cuda.Float64, core.Lower, 56, 12, true},
	} {
		if got := solveApart(c.dt, c.uplo, c.n, c.nrhs, many); got != c.apart {
			t.Errorf("solveApart(%v, %v, n = %d, nrhs = %d, count = %d) = %v, want %v", c.dt, c.uplo, c.n, c.nrhs, many, got, c.apart)
		}
		// Fewer systems: posv_warp always.
		if solveApart(c.dt, c.uplo, c.n, c.nrhs, many-1) {
			t.Errorf("solveApart(%v, %v, n = %d, nrhs = %d, count = %d) = true, want false", c.dt, c.uplo, c.n, c.nrhs, many-1)
		}
	}
}

// TestPosvSplitChoice pins Posv's choice of posv_split to the points
// posvSplit's comment measured: float64 from n = 57 and Upper from 37 at
// any count; from 4,096 systems Upper 33…36, Lower 45…48, and Lower 41…44
// with 4 right-hand sides or more; float32 from n = 61 at 16,384 systems.
func TestPosvSplitChoice(t *testing.T) {
	for _, c := range []struct {
		dt          cuda.DType
		uplo        core.Uplo
		n, nrhs     int
		few, enough bool // the choice at many − 1 and at many systems
	}{
		{cuda.Float32, core.Lower, 64, 16, false, true}, {cuda.Float32, core.Upper, 61, 1, false, true},
		{cuda.Float32, core.Lower, 60, 16, false, false}, {cuda.Float32, core.Upper, 57, 1, false, false},
		{cuda.Float32, core.Lower, 65, 1, false, false}, {cuda.Float32, core.Upper, 33, 16, false, false},
		{cuda.Complex128, core.Lower, 64, 1, false, false}, {cuda.Float64, core.Lower, 65, 1, false, false},
		{cuda.Float64, core.Lower, 57, 1, true, true}, {cuda.Float64, core.Upper, 64, 16, true, true},
		{cuda.Float64, core.Lower, 56, 16, false, false}, {cuda.Float64, core.Lower, 49, 32, false, false},
		{cuda.Float64, core.Upper, 49, 1, true, true}, {cuda.Float64, core.Upper, 48, 1, true, true},
		{cuda.Float64, core.Upper, 37, 16, true, true}, {cuda.Float64, core.Upper, 36, 16, false, true},
		{cuda.Float64, core.Upper, 33, 1, false, true}, {cuda.Float64, core.Lower, 36, 16, false, false},
		{cuda.Float64, core.Lower, 48, 1, false, true}, {cuda.Float64, core.Lower, 45, 33, false, true},
		{cuda.Float64, core.Lower, 44, 4, false, true}, {cuda.Float64, core.Lower, 41, 16, false, true},
		{cuda.Float64, core.Lower, 44, 3, false, false}, {cuda.Float64, core.Lower, 40, 16, false, false},
	} {
		many := 4096
		if c.dt == cuda.Float32 {
			many = 16384
		}
		for _, k := range []struct {
			count int
			want  bool
		}{{many - 1, c.few}, {many, c.enough}} {
			if got := posvSplit(c.dt, c.uplo, c.n, c.nrhs, k.count); got != k.want {
				t.Errorf("posvSplit(%v, %v, n = %d, nrhs = %d, count = %d) = %v, want %v", c.dt, c.uplo, c.n, c.nrhs, k.count, got, k.want)
			}
		}
	}
}

func TestArguments(t *testing.T) {
	const a, b, info = cuda.DevicePtr(1 << 20), cuda.DevicePtr(1 << 22), cuda.DevicePtr(1 << 24)
	valid := operands{"posv", cuda.Float64, core.Lower, 8, 3, a, 9, 80, b, 10, 31, 5, info, true}
	if err := check(valid); err != nil {
		t.Fatalf("valid call refused: %v", err)
	}
	for name, tc := range map[string]struct {
		edit func(o *operands)
		want error
	}{
		"n > MaxPosvN":    {func(o *operands) { o.n, o.lda, o.ldb, o.strideA, o.strideB = 65, 65, 65, 65*65, 195 }, core.ErrUnsupported},
		"negative n":      {func(o *operands) { o.n = -1 }, core.ErrShape},
		"negative nrhs":   {func(o *operands) { o.nrhs = -1 }, core.ErrShape},
		"huge nrhs":       {func(o *operands) { o.nrhs, o.count = MaxNRHS+1, 1 }, core.ErrShape},
		"nrhs of 2³²+5":   {func(o *operands) { o.nrhs, o.count = 1<<32+5, 1 }, core.ErrShape},
		"bad dtype":       {func(o *operands) { o.dt = cuda.DType(7) }, core.ErrArgument},
		"bad uplo":        {func(o *operands) { o.uplo = core.Uplo(9) }, core.ErrArgument},
		"lda < n":         {func(o *operands) { o.lda = 7 }, core.ErrShape},
		"ldb < n":         {func(o *operands) { o.ldb = 7 }, core.ErrShape},
		"ldb < 1":         {func(o *operands) { o.n, o.ldb = 0, 0 }, core.ErrShape},
		"strideA < lda·n": {func(o *operands) { o.strideA = 71 }, core.ErrShape},
		"strideB < ldb·k": {func(o *operands) { o.strideB = 29 }, core.ErrShape},
		"negative count":  {func(o *operands) { o.count = -1 }, core.ErrShape},
		"huge count":      {func(o *operands) { o.count = math.MaxInt32 + 1 }, core.ErrShape},
		"null a":          {func(o *operands) { o.a = 0 }, core.ErrArgument},
		"null b":          {func(o *operands) { o.b = 0 }, core.ErrArgument},
		"null info":       {func(o *operands) { o.info = 0 }, core.ErrArgument},
		"misaligned a":    {func(o *operands) { o.a += 4 }, core.ErrArgument},
		"misaligned b":    {func(o *operands) { o.dt, o.b = cuda.Complex128, o.b+8 }, core.ErrArgument},
		"misaligned info": {func(o *operands) { o.info += 2 }, core.ErrArgument},
	} {
		o := valid
		tc.edit(&o)
		if err := check(o); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", name, err, tc.want)
		}
	}
	// Empty work needs no matrix pointer; a batch of one any stride; Potrs
	// no info.
	for name, edit := range map[string]func(o *operands){
		"n = 0":           func(o *operands) { o.n, o.a, o.b = 0, 0, 0 },
		"count = 0":       func(o *operands) { o.count, o.a, o.b, o.info = 0, 0, 0, 0 },
		"nrhs = 0":        func(o *operands) { o.nrhs, o.b, o.strideB = 0, 0, 0 },
		"nrhs = MaxNRHS":  func(o *operands) { o.nrhs, o.count = MaxNRHS, 1 },
		"count = 1":       func(o *operands) { o.count, o.strideA, o.strideB = 1, 0, -5 },
		"potrs, no info":  func(o *operands) { o.op, o.needInfo, o.info = "potrs", false, 0 },
		"potrs, nrhs = 0": func(o *operands) { o.op, o.needInfo, o.info, o.nrhs, o.b = "potrs", false, 0, 0, 0 },
		"n = MaxPosvN": func(o *operands) {
			o.n, o.lda, o.ldb, o.strideA, o.strideB = MaxPosvN, MaxPosvN, MaxPosvN, MaxPosvN*MaxPosvN, 3*MaxPosvN
		},
		"potrs, n = MaxPosvN": func(o *operands) {
			o.op, o.needInfo, o.n, o.lda, o.ldb, o.strideA, o.strideB = "potrs", false, MaxPosvN, MaxPosvN, MaxPosvN, MaxPosvN*MaxPosvN, 3*MaxPosvN
		},
	} {
		o := valid
		edit(&o)
		if err := check(o); err != nil {
			t.Errorf("%s: refused: %v", name, err)
		}
	}
	if err := Posv[float32](nil, core.Lower, 4, 1, a, 4, 16, b, 4, 4, 1, info); !errors.Is(err, core.ErrArgument) {
		t.Errorf("Posv, nil stream: %v", err)
	}
	if err := Potrs[float32](nil, core.Lower, 4, 1, a, 4, 16, b, 4, 4, 1); !errors.Is(err, core.ErrArgument) {
		t.Errorf("Potrs, nil stream: %v", err)
	}
	if err := CanRun(cuda.Complex128, MaxN); err != nil {
		t.Errorf("CanRun(complex128, MaxN) = %v", err)
	}
	if err := CanRun(cuda.Complex128, MaxPosvN); err != nil {
		t.Errorf("CanRun(complex128, MaxPosvN) = %v", err)
	}
	if err := CanRun(cuda.Float32, MaxPosvN+1); !errors.Is(err, core.ErrUnsupported) {
		t.Errorf("CanRun(float32, MaxPosvN+1) = %v", err)
	}
}

// ---- helpers for the GPU tests (potrf_test.go's) ----

var warmed sync.Map // *cuda.Context → error

// warm compiles every instantiation at once, in parallel, so that the tests
// that use them one by one do not compile them one by one: posv.cu's, and
// the warp tier's modules that Posv, Potrs and the reference potrf.Potrf
// take from n = 33 (per order otherwise: session 55's TestPosv ran out of
// its 100 s compiling them on a cold cache).
func warm(t testing.TB, c *cuda.Context) {
	t.Helper()
	if err, ok := warmed.Load(c); ok {
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	err := cuda.LoadEach(func() error { _, err := Load(c); return err },
		func() error { return potrf.LoadWarpModules(c) })
	warmed.Store(c, err)
	if err != nil {
		t.Fatal(err)
	}
}

// rhsBatch makes count random n×nrhs matrices in a poisoned strided batch
// with ldb > n and a gap between matrices.
func rhsBatch[T core.Scalar](n, nrhs, count int, seed uint64) core.Strided[T] {
	ldb := n + 2
	b := oracle.NewStridedLayout[T](n, nrhs, count, ldb, ldb*nrhs+1+nrhs%3)
	gen := oracle.GenFor[T](seed)
	for i := range count {
		oracle.Store(b, i, gen.General(n, nrhs))
	}
	return b
}

// differ reports the first element where two batches of the same layout
// differ in bits, as "matrix m (i,j)" or "padding at index x", or "".
func differ[T core.Scalar](s core.Strided[T], x, y []T, only func(m int) bool) string {
	return differBy(s, x, y, only, oracle.SameBits[T])
}

// sameOrNaN is bit equality, except that any two NaNs match: the sign and
// payload of a NaN depend on how the compiler schedules the arithmetic
// that produced it, which differs between two kernels doing the same sums.
func sameOrNaN[T core.Scalar](x, y T) bool {
	nan := func(v T) bool { z := oracle.ToComplex(v); return z != z }
	return oracle.SameBits(x, y) || nan(x) && nan(y)
}

// differBy is differ with the element comparison same.
func differBy[T core.Scalar](s core.Strided[T], x, y []T, only func(m int) bool, same func(x, y T) bool) string {
	for k := range x {
		if same(x[k], y[k]) {
			continue
		}
		m, off := k/max(1, s.Stride), k%max(1, s.Stride)
		if s.Count <= 1 {
			m, off = 0, k
		}
		if only != nil && !only(m) {
			continue
		}
		i, j := off%s.LD, off/s.LD
		if i < s.Rows && j < s.Cols && m < s.Count {
			return fmt.Sprintf("matrix %d element (%d,%d): %v, then %v", m, i, j, x[k], y[k])
		}
		return fmt.Sprintf("padding at index %d (matrix %d, row %d, column %d): %v, then %v", k, m, i, j, x[k], y[k])
	}
	return ""
}

// padding reports whether element k of s's data lies outside every matrix.
func padding[T core.Scalar](s core.Strided[T], k int) bool {
	m, off := k/max(1, s.Stride), k%max(1, s.Stride)
	if s.Count <= 1 {
		m, off = 0, k
	}
	return m >= s.Count || off%s.LD >= s.Rows || off/s.LD >= s.Cols
}

// ---- tests that need a GPU ----

// TestKernelResources loads every instantiation (2 kernels × 4 types × 8
// column buckets × their chunk sizes × 2 triangles) and fails on any local
// memory (spills or a stack array), printing registers, shared memory and
// occupancy for each. It compiles them in parallel, so it runs first.
func TestKernelResources(t *testing.T) {
	s := gputest.Stream(t)
	c := s.Context()
	warm(t, c)
	major, minor, _ := cuda.NVRTCVersion()
	t.Logf("NVRTC %d.%d, %s", major, minor, c.Device)
	for _, b := range buckets() {
		ks, err := kernels(c, b)
		if err != nil {
			t.Errorf("%v: %v", b.names()[0], err)
			continue
		}
		for _, k := range ks {
			th := b.threads()
			gputest.CheckResources(t, k, th, 0)
			lanes, cols := shape(b.cols)
			if want := sharedBytes(b.dt, lanes, cols, b.nr, th); k.StaticSharedBytes != want {
				t.Errorf("%s: %d B of static shared memory, the launcher's layout says %d", k.Name, k.StaticSharedBytes, want)
			}
		}
	}
	// Posv above MaxN: potrf's posv_cta.
	for dt := cuda.Float32; dt <= cuda.Complex128; dt++ {
		ks, err := potrf.PosvCTAKernels(c, dt)
		if err != nil {
			t.Errorf("posv_cta %v: %v", dt, err)
			continue
		}
		for _, k := range ks {
			gputest.CheckResources(t, k, potrf.MaxPosvCTA, potrf.PosvCTASharedBytes(dt))
		}
	}
}

// nrhsList are the right-hand side counts TestPosv sweeps: each side of
// every chunk size, and 17 (two or more chunks for every type).
var nrhsList = []int{0, 1, 2, 3, 4, 5, 8, 9, 16, 17}

// posvCTASizes are the orders above MaxN the tests take to posv_cta: each
// side of its column-block edges at 48 and 56 (float32's panels of 16 at
// 48, the other types' steps of 8 or 4 at both) and its ceiling; 55, 56 and 57 are each
// side of float64's posv_warp ceiling, where Posv goes from posv_warp to
// potrf_warp and potrs_warp, 48 and 49 of its Upper posv_warp's; 57 and
// 63, 64 sit either side of float64's potrf_split edge (NC = 60); 44 and
// 45 sit either side of the bucket edge (NC = 48 from 45) where float64's
// aligned Upper goes from in place to the wide tile (potrf's posvWide).
// TestPosv's batches are below solveApart's count edge; TestPosvApart
// takes the two launches it chooses.
var posvCTASizes = []int{33, 40, 44, 45, 47, 48, 49, 55, 56, 57, 63, 64}

// TestPosv solves, for every type, both triangles, n = 1…32 and
// posvCTASizes and every count of nrhsList, a batch of mixed matrices (random, ill-conditioned,
// not positive definite, NaN) in poisoned strided layouts (lda > n,
// ldb > n, gaps between matrices), and checks: info equal to the
// float64/complex128 reference's; A bit-identical to potrf.Potrf's result;
// for the good matrices ‖A·X − B‖₁ ≤ 30·n·eps·‖A‖₁·‖X‖₁ per column, X
// bit-identical to Potrs on potrf.Potrf's factor (which must leave A as it
// is) and to each matrix solved alone; for the failing ones B unchanged;
// nothing outside the matrices written.
func TestPosv(t *testing.T) {
	s := gputest.Stream(t)
	warm(t, s.Context())
	t.Run("float32", func(t *testing.T) { testPosv[float32](t, s) })
	t.Run("float64", func(t *testing.T) { testPosv[float64](t, s) })
	t.Run("complex64", func(t *testing.T) { testPosv[complex64](t, s) })
	t.Run("complex128", func(t *testing.T) { testPosv[complex128](t, s) })
}

func testPosv[T core.Scalar](t *testing.T, s *cuda.Stream) {
	const count = 157 // not a whole number of blocks for any group size
	for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
		worst, worstAt := 0.0, ""
		for _, n := range posvOrders() {
			// A subtest per case, so its device buffers are freed at its end;
			// Upper above MaxN again on 16-byte columns, which the kernels
			// there move as whole vectors (posv_warp's posv_wide).
			for _, vectors := range []bool{false, true} {
				if vectors && (uplo == core.Lower || n <= MaxN) {
					continue
				}
				sub, where := fmt.Sprintf("%v/n=%d", uplo, n), ""
				if vectors {
					sub, where = sub+"/vectors", ", 16-byte columns"
				}
				t.Run(sub, func(t *testing.T) {
					r, at := posvCase[T](t, s, uplo, n, count, uint64(1000*n)+uint64(uplo), vectors)
					if r > worst {
						worst, worstAt = r, at+where
					}
				})
			}
		}
		t.Logf("%s %v: worst ‖A·X − B‖₁/(n·eps·‖A‖₁·‖X‖₁) = %.3f (%s; bound %g)", core.TypeName[T](), uplo, worst, worstAt, float64(conformance.SolveBound))
	}
}

// posvOrders are 1…MaxN, then posvCTASizes.
func posvOrders() []int {
	var orders []int
	for n := 1; n <= MaxN; n++ {
		orders = append(orders, n)
	}
	return append(orders, posvCTASizes...)
}

// posvCase runs one order through every count of nrhsList and returns the
// worst solve residual and where it was. Above MaxN, where Posv factors
// with the warp tier (posv_warp, or potrf_warp and then potrs_warp) or the
// one-block tier (posv_cta, or potrf_cta and then potrs_warp), the
// reference factor is potrf.PotrfWarp's where potrf.CanRunWarp allows and
// potrf.PotrfCTA's otherwise. With vectors, A's columns and matrices
// start on 16 bytes (lda and the stride multiples of 4 elements).
func posvCase[T core.Scalar](t *testing.T, s *cuda.Stream, uplo core.Uplo, n, count int, seed uint64, vectors bool) (float64, string) {
	t.Helper()
	name := fmt.Sprintf("%s/%v/n=%d", core.TypeName[T](), uplo, n)
	in, items := gputest.MixedBatch[T](n, count, uplo, seed)
	if vectors {
		lda := (n + 4) / 4 * 4 // > n, and 16 bytes for every type
		v := oracle.NewStridedLayout[T](n, n, count, lda, lda*n+4)
		for b := range count {
			oracle.Store(v, b, oracle.Load(in, b))
		}
		in, name = v, name+"/vectors"
	}
	eps := core.Eps[T]()

	// The reference: info from the oracle, the factor from potrf.
	want := make([]int, count)
	for b, it := range items {
		_, want[b] = oracle.Potrf(uplo, oracle.Load(in, b))
		if it.Kind != "spd" && it.Kind != "illcond" && want[b] != it.Info {
			t.Fatalf("%s: item %d (%s): the oracle says info %d, the construction %d", name, b, it.Kind, want[b], it.Info)
		}
	}
	sentinel := slices.Repeat([]int32{-7}, count)
	refA, refInfo := gputest.Upload(t, s, in.Data), gputest.Upload(t, s, sentinel)
	factor := potrf.Potrf[T]
	if n > MaxN {
		factor = potrf.PotrfCTA[T]
		if potrf.CanRunWarp(cuda.DTypeOf[T](), n) == nil {
			factor = potrf.PotrfWarp[T]
		}
	}
	if err := factor(s, uplo, n, refA, in.LD, int64(in.Stride), count, refInfo); err != nil {
		t.Fatalf("%s: potrf: %v", name, err)
	}
	factored := gputest.Download[T](t, s, refA, len(in.Data))
	good := func(b int) bool { return want[b] == 0 }
	// Matrices solved alone as well: the first good, ill-conditioned and
	// failing ones and the last.
	alone := []int{slices.IndexFunc(items, func(it gputest.Item) bool { return it.Kind == "spd" }),
		slices.IndexFunc(items, func(it gputest.Item) bool { return it.Kind == "illcond" }),
		slices.IndexFunc(items, func(it gputest.Item) bool { return it.Kind == "notspd" }), count - 1}

	worst, worstAt := 0.0, ""
	for _, nrhs := range nrhsList {
		key := fmt.Sprintf("%s/nrhs=%d", name, nrhs)
		rhs := rhsBatch[T](n, nrhs, count, seed+uint64(nrhs))

		pa, pb, pi := gputest.Upload(t, s, in.Data), gputest.Upload(t, s, rhs.Data), gputest.Upload(t, s, sentinel)
		if err := Posv[T](s, uplo, n, nrhs, pa, in.LD, int64(in.Stride), pb, rhs.LD, int64(rhs.Stride), count, pi); err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		gotA := gputest.Download[T](t, s, pa, len(in.Data))
		x := rhs
		x.Data = gputest.Download[T](t, s, pb, len(rhs.Data))
		info := gputest.Download[int32](t, s, pi, count)

		// Potrs on potrf's factor.
		qa, qb := gputest.Upload(t, s, factored), gputest.Upload(t, s, rhs.Data)
		if err := Potrs[T](s, uplo, n, nrhs, qa, in.LD, int64(in.Stride), qb, rhs.LD, int64(rhs.Stride), count); err != nil {
			t.Fatalf("%s: Potrs: %v", key, err)
		}
		potrsA := gputest.Download[T](t, s, qa, len(in.Data))
		potrsX := gputest.Download[T](t, s, qb, len(rhs.Data))

		errs := 0
		fail := func(format string, args ...any) {
			if errs++; errs <= 5 {
				t.Errorf(key+": "+format, args...)
			}
		}
		for b := range count {
			if int(info[b]) != want[b] {
				fail("item %d (%s): info %d, want %d", b, items[b].Kind, info[b], want[b])
			}
		}
		if d := differBy(in, factored, gotA, nil, sameOrNaN[T]); d != "" {
			fail("A differs from potrf's factorization of it: %s", d)
		}
		if d := differ(in, factored, potrsA, nil); d != "" {
			fail("Potrs wrote A: %s", d)
		}
		if d := differ(rhs, rhs.Data, x.Data, func(b int) bool { return !good(b) }); d != "" {
			fail("B of a failing matrix changed: %s", d)
		}
		for k := range rhs.Data {
			if padding(rhs, k) && (!oracle.SameBits(rhs.Data[k], x.Data[k]) || !oracle.SameBits(rhs.Data[k], potrsX[k])) {
				fail("padding of B at index %d written: %v, then %v (Posv), %v (Potrs)", k, rhs.Data[k], x.Data[k], potrsX[k])
				break
			}
		}
		if d := differ(rhs, x.Data, potrsX, good); d != "" {
			fail("X from Posv and from Potrs on potrf's factor differ: %s", d)
		}
		for b := range count {
			if !good(b) || nrhs == 0 {
				continue
			}
			a := oracle.Hermitian(oracle.Load(in, b), uplo)
			r := oracle.SolveResidual(a, core.NoTrans, oracle.Load(x, b), oracle.Load(rhs, b), eps)
			if !(r <= conformance.SolveBound) {
				fail("item %d (%s): ‖A·X − B‖₁ = %.3g·n·eps·‖A‖₁·‖X‖₁, bound %g", b, items[b].Kind, r, float64(conformance.SolveBound))
			}
			if r > worst {
				worst, worstAt = r, fmt.Sprintf("n = %d, nrhs = %d, %s", n, nrhs, items[b].Kind)
			}
		}

		// Alone: bit-identical to the batch, info too.
		for _, b := range alone {
			if b < 0 {
				continue
			}
			oa, ob := oracle.Item(in, b), oracle.Item(rhs, b)
			ua, ub, ui := gputest.Upload(t, s, oa.Data), gputest.Upload(t, s, ob.Data), gputest.Upload(t, s, sentinel[:1])
			if err := Posv[T](s, uplo, n, nrhs, ua, in.LD, int64(in.Stride), ub, rhs.LD, int64(rhs.Stride), 1, ui); err != nil {
				t.Fatalf("%s: item %d alone: %v", key, b, err)
			}
			ga, gb := gputest.Download[T](t, s, ua, len(oa.Data)), gputest.Download[T](t, s, ub, len(ob.Data))
			gi := gputest.Download[int32](t, s, ui, 1)
			spanA, spanB := len(oa.Data), len(ob.Data)
			if !bytes.Equal(gputest.AsBytes(ga), gputest.AsBytes(gotA[int64(b)*int64(in.Stride):][:spanA])) ||
				!bytes.Equal(gputest.AsBytes(gb), gputest.AsBytes(x.Data[int64(b)*int64(rhs.Stride):][:spanB])) || gi[0] != info[b] {
				fail("item %d (%s) solved alone differs from the batch (info %d alone, %d in the batch)", b, items[b].Kind, gi[0], info[b])
			}
		}
	}
	return worst, worstAt
}

// TestPosvApart checks Posv where it leaves posv_warp at many systems
// (16,384): for float64 solveApart's two launches (Lower 49 with 9
// right-hand sides, 56 with 16) and posvSplit's posv_split (Lower 48 with
// 16 and 1, Lower 44 with 4, Upper 36 and 37 with 8, Upper 45 with 1), for
// float32 posv_split (Lower 61 and 64, Upper 61 and 64): the factor, info
// and X to the bit as potrf.PosvWarp gives them in one kernel, on 16,384
// copies of a mixed batch (failing and NaN matrices among them) with
// lda > n.
// TestPosv's batches are too small to reach these paths.
func TestPosvApart(t *testing.T) {
	s := gputest.Stream(t)
	for _, c := range []apartCase{
		{cuda.Float64, core.Lower, 48, 16, true}, {cuda.Float64, core.Lower, 48, 1, true},
		{cuda.Float64, core.Lower, 44, 4, true}, {cuda.Float64, core.Lower, 49, 9, false},
		{cuda.Float64, core.Lower, 56, 16, false}, {cuda.Float64, core.Upper, 36, 8, true},
		{cuda.Float64, core.Upper, 37, 8, true}, {cuda.Float64, core.Upper, 45, 1, true},
		{cuda.Float32, core.Lower, 61, 16, true}, {cuda.Float32, core.Lower, 64, 1, true},
		{cuda.Float32, core.Upper, 61, 1, true}, {cuda.Float32, core.Upper, 64, 16, true},
	} {
		t.Run(fmt.Sprintf("%v/%v/n=%d/nrhs=%d", c.dt, c.uplo, c.n, c.nrhs), func(t *testing.T) {
			if c.dt == cuda.Float32 {
				testPosvApart[float32](t, s, c)
			} else {
				testPosvApart[float64](t, s, c)
			}
		})
	}
}

// apartCase is one of TestPosvApart's cases.
type apartCase struct {
	dt      cuda.DType
	uplo    core.Uplo
	n, nrhs int
	split   bool // posvSplit's, else solveApart's
}

func testPosvApart[T float32 | float64](t *testing.T, s *cuda.Stream, c apartCase) {
	const count = 16384
	split := posvSplit(c.dt, c.uplo, c.n, c.nrhs, count)
	if split != c.split || !split && !solveApart(c.dt, c.uplo, c.n, c.nrhs, count) {
		t.Fatalf("posvSplit %v (want %v), solveApart %v: not the path this case is for", split, c.split,
			solveApart(c.dt, c.uplo, c.n, c.nrhs, count))
	}
	mixed, _ := gputest.MixedBatch[T](c.n, 157, c.uplo, uint64(c.n))
	lda := c.n + 3
	in := oracle.NewStridedLayout[T](c.n, c.n, count, lda, lda*c.n+1)
	for b := range count {
		oracle.Store(in, b, oracle.Load(mixed, b%mixed.Count))
	}
	rhs := rhsBatch[T](c.n, c.nrhs, count, uint64(c.nrhs))
	sentinel := slices.Repeat([]int32{-7}, count)
	run := func(solve func(a, b, info cuda.DevicePtr) error) ([]T, []T, []int32) {
		pa, pb, pi := gputest.Upload(t, s, in.Data), gputest.Upload(t, s, rhs.Data), gputest.Upload(t, s, sentinel)
		if err := solve(pa, pb, pi); err != nil {
			t.Fatal(err)
		}
		return gputest.Download[T](t, s, pa, len(in.Data)), gputest.Download[T](t, s, pb, len(rhs.Data)),
			gputest.Download[int32](t, s, pi, count)
	}
	a2, x2, i2 := run(func(a, b, info cuda.DevicePtr) error {
		return Posv[T](s, c.uplo, c.n, c.nrhs, a, lda, int64(in.Stride), b, rhs.LD, int64(rhs.Stride), count, info)
	})
	a1, x1, i1 := run(func(a, b, info cuda.DevicePtr) error {
		return potrf.PosvWarp[T](s, c.uplo, c.n, c.nrhs, a, lda, int64(in.Stride), b, rhs.LD, int64(rhs.Stride), count, info)
	})
	if !slices.Equal(i1, i2) || !slices.ContainsFunc(i1, func(v int32) bool { return v != 0 }) {
		t.Errorf("info differs from posv_warp's, or no matrix failed")
	}
	if d := differBy(in, a1, a2, nil, sameOrNaN[T]); d != "" {
		t.Errorf("A differs from posv_warp's: %s", d)
	}
	if d := differBy(rhs, x1, x2, nil, sameOrNaN[T]); d != "" {
		t.Errorf("X differs from posv_warp's: %s", d)
	}
}

// engine runs the shared Cholesky suites' Potrs and Posv on the native
// kernels.
type engine[T core.Scalar] struct{ s *cuda.Stream }

func (e engine[T]) Potrs(uplo core.Uplo, a, b core.Strided[T]) error {
	return gputest.OnDevice[T](e.s, func(p []cuda.DevicePtr) error {
		return Potrs[T](e.s, uplo, a.Rows, b.Cols, p[0], a.LD, int64(a.Stride), p[1], b.LD, int64(b.Stride), a.Count)
	}, a.Data, b.Data)
}

func (e engine[T]) Posv(uplo core.Uplo, a, b core.Strided[T], info []int32) error {
	return gputest.OnDevice[T](e.s, func(p []cuda.DevicePtr) error {
		return Posv[T](e.s, uplo, a.Rows, b.Cols, p[0], a.LD, int64(a.Stride), p[1], b.LD, int64(b.Stride), a.Count, p[2])
	}, a.Data, b.Data, info)
}

// TestConformance runs the shared Potrs and Posv suites on every order the
// kernels take.
func TestConformance(t *testing.T) {
	s := gputest.Stream(t)
	warm(t, s.Context())
	var sizes []int
	for n := 1; n <= MaxN; n++ {
		sizes = append(sizes, n)
	}
	cfg := conformance.Config{Sizes: sizes}
	t.Run("float32", func(t *testing.T) { conformanceSuites[float32](t, engine[float32]{s}, cfg) })
	t.Run("float64", func(t *testing.T) { conformanceSuites[float64](t, engine[float64]{s}, cfg) })
	t.Run("complex64", func(t *testing.T) { conformanceSuites[complex64](t, engine[complex64]{s}, cfg) })
	t.Run("complex128", func(t *testing.T) { conformanceSuites[complex128](t, engine[complex128]{s}, cfg) })
	// Above MaxN (posv_cta, potrs_cta).
	cta := conformance.Config{Sizes: posvCTASizes}
	t.Run("float32/cta", func(t *testing.T) { conformanceSuites[float32](t, engine[float32]{s}, cta) })
	t.Run("float64/cta", func(t *testing.T) { conformanceSuites[float64](t, engine[float64]{s}, cta) })
	t.Run("complex64/cta", func(t *testing.T) { conformanceSuites[complex64](t, engine[complex64]{s}, cta) })
	t.Run("complex128/cta", func(t *testing.T) { conformanceSuites[complex128](t, engine[complex128]{s}, cta) })
}

func conformanceSuites[T core.Scalar](t *testing.T, e engine[T], cfg conformance.Config) {
	t.Run("Potrs", func(t *testing.T) { conformance.PotrsTest[T](t, e, cfg) })
	t.Run("Posv", func(t *testing.T) { conformance.PosvTest[T](t, e, cfg) })
}

// timeComplex adds the complex types to TestPosvTiming, which otherwise
// times float32 and float64 only (the complex ones need the most time to
// prepare: a complex128 batch of order 32 is 1 GiB).
var timeComplex = flag.Bool("posv.complex", false, "TestPosvTiming: time complex64 and complex128 as well")

// TestPosvTiming times count = 65536 Lower solves of n = 8, 16, 32 (the
// register kernels) and 48, 64 (potrf's warp tier for the real types:
// posv_warp, or posv_split where posv.go's posvSplit says, which at this
// count is float32 n = 64 and float64 both; posv_cta for the complex
// types) with 1, 4 and 16 right-hand sides, float32 and float64 (and the
// complex types with -posv.complex), float32 Upper at n = 8, 16, 32, 48, 64
// and float64 Upper at 32, 48, 56, 64, against the vendor composition on
// the same data in the same process: cuSOLVER potrfBatched, then
// potrsBatched (1 right-hand side, the only count it takes) or two cuBLAS
// trsmBatched (as the library's vendor arm does); CUDA events around one
// call, the L2 flushed before each, the arms interleaved with their order
// alternating, the median of 9 repetitions; both results are checked
// afterwards. "copy" is device-to-device copies of A and B (each read once
// and written once: the memory-bound floor). Run with -test.v to see the
// figures.
func TestPosvTiming(t *testing.T) {
	if testing.Short() || !testing.Verbose() {
		t.Skip("timing: runs only with -test.v and without -test.short")
	}
	s := gputest.Stream(t)
	sv := gputest.Solver(t, s)
	bl, err := cuda.NewBLAS(s.Context(), s)
	if err != nil {
		t.Skipf("no cuBLAS: %v", err)
	}
	defer bl.Close()
	tm := timing{s, sv, bl, gputest.NewTimer(t, s)}
	// A subtest per type and order, so its device buffers are freed at its end.
	for _, n := range []int{8, 16, 32, 48, 64} {
		t.Run(fmt.Sprintf("float32/n=%d", n), func(t *testing.T) { timePosv[float32](t, tm, core.Lower, n) })
		t.Run(fmt.Sprintf("float64/n=%d", n), func(t *testing.T) { timePosv[float64](t, tm, core.Lower, n) })
		if *timeComplex {
			t.Run(fmt.Sprintf("complex64/n=%d", n), func(t *testing.T) { timePosv[complex64](t, tm, core.Lower, n) })
			t.Run(fmt.Sprintf("complex128/n=%d", n), func(t *testing.T) { timePosv[complex128](t, tm, core.Lower, n) })
		}
	}
	// float32 Upper: posv_reg (n ≤ 32) moves A through its column slots,
	// posv_warp serves 48, posv_split 64.
	for _, n := range []int{8, 16, 32, 48, 64} {
		t.Run(fmt.Sprintf("float32/Upper/n=%d", n), func(t *testing.T) { timePosv[float32](t, tm, core.Upper, n) })
	}
	// float64 Upper: posv_reg at 32, posv_split at 48, 56 and 64 (Upper
	// from n = 37, posvSplit).
	for _, n := range []int{32, 48, 56, 64} {
		t.Run(fmt.Sprintf("float64/Upper/n=%d", n), func(t *testing.T) { timePosv[float64](t, tm, core.Upper, n) })
	}
}

// timing is what the timed arms share.
type timing struct {
	s  *cuda.Stream
	sv *cuda.Solver
	bl *cuda.BLAS
	*gputest.Timer
}

// timePosv times one type, triangle and order for 1, 4 and 16 right-hand
// sides.
func timePosv[T core.Scalar](t *testing.T, tm timing, uplo core.Uplo, n int) {
	const count, reps = 65536, 9
	s := tm.s
	eps := core.Eps[T]()

	hostA := gputest.SPDBatch[T](n, count, 32, core.IsComplex[T]())
	gen := oracle.GenFor[T](uint64(n) + 1)     // the right-hand sides
	rng := rand.New(rand.NewPCG(uint64(n), 6)) // which matrices to check
	size := int64(unsafe.Sizeof(hostA.Data[0]))
	bytesA := int64(len(hostA.Data)) * size
	srcA := gputest.Upload(t, s, hostA.Data)
	nativeA, vendorA, copyA := gputest.Upload(t, s, hostA.Data), gputest.Upload(t, s, hostA.Data), gputest.Upload(t, s, hostA.Data)
	zeros := make([]int32, count)
	infoN, infoV, infoS := gputest.Upload(t, s, zeros), gputest.Upload(t, s, zeros), gputest.Upload(t, s, zeros[:1])
	ptrsA, err := cuda.PointerArrayOf[T](s, vendorA, count, int64(hostA.Stride))
	if err != nil {
		t.Fatal(err)
	}
	defer ptrsA.Free()

	for _, nrhs := range []int{1, 4, 16} {
		name := fmt.Sprintf("%-10s n=%2d nrhs=%2d count=%d", core.TypeName[T](), n, nrhs, count)
		if uplo == core.Upper {
			name += " Upper"
		}
		hostB := core.Strided[T]{Data: make([]T, count*n*nrhs), Rows: n, Cols: nrhs, LD: n, Stride: n * nrhs, Count: count}
		for i := range hostB.Data {
			hostB.Data[i] = oracle.FromComplex[T](gen.Uniform())
		}
		bytesB := int64(len(hostB.Data)) * size
		srcB := gputest.Upload(t, s, hostB.Data)
		nativeB, vendorB, copyB := gputest.Upload(t, s, hostB.Data), gputest.Upload(t, s, hostB.Data), gputest.Upload(t, s, hostB.Data)
		ptrsB, err := cuda.PointerArrayOf[T](s, vendorB, count, int64(hostB.Stride))
		if err != nil {
			t.Fatal(err)
		}
		defer ptrsB.Free()

		vendor := func() error {
			if err := cuda.PotrfBatched[T](tm.sv, uplo, n, ptrsA.Ptr, n, infoV, count); err != nil {
				return err
			}
			if nrhs == 1 {
				return cuda.PotrsBatched[T](tm.sv, uplo, n, nrhs, ptrsA.Ptr, n, ptrsB.Ptr, n, infoS, count)
			}
			one := oracle.FromComplex[T](1)
			steps := []core.Transpose{core.NoTrans, core.ConjTrans} // L·Y = B, then Lᴴ·X = Y
			if uplo == core.Upper {
				steps = []core.Transpose{core.ConjTrans, core.NoTrans} // Uᴴ·Y = B, then U·X = Y
			}
			for _, tr := range steps {
				if err := cuda.TrsmBatched[T](tm.bl, core.Left, uplo, tr, core.NonUnit, n, nrhs, one, ptrsA.Ptr, n, ptrsB.Ptr, n, count); err != nil {
					return err
				}
			}
			return nil
		}
		arms := []struct {
			name string
			a, b cuda.DevicePtr
			run  func() error
		}{
			{"native", nativeA, nativeB, func() error {
				return Posv[T](s, uplo, n, nrhs, nativeA, n, int64(n*n), nativeB, n, int64(n*nrhs), count, infoN)
			}},
			{"vendor", vendorA, vendorB, vendor},
			{"copy", copyA, copyB, func() error {
				if err := cuda.CopyDtoD(s, copyA, srcA, bytesA); err != nil {
					return err
				}
				return cuda.CopyDtoD(s, copyB, srcB, bytesB)
			}},
		}
		times := make([][]float64, len(arms))
		for rep := -1; rep < reps; rep++ { // rep −1 warms up: compiles, creates workspaces
			order := []int{0, 1, 2}
			if rep%2 != 0 {
				order = []int{1, 0, 2}
			}
			for _, i := range order {
				arm := arms[i]
				if err := cuda.CopyDtoD(s, arm.a, srcA, bytesA); err != nil {
					t.Fatal(err)
				}
				if err := cuda.CopyDtoD(s, arm.b, srcB, bytesB); err != nil {
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
		med := make([]float64, len(arms))
		for i := range arms {
			med[i] = gputest.Median(times[i])
		}

		// Each arm's buffers hold its last result: check a few matrices.
		for k, arm := range arms[:2] {
			info := gputest.Download[int32](t, s, []cuda.DevicePtr{infoN, infoV}[k], count)
			if i := slices.IndexFunc(info, func(v int32) bool { return v != 0 }); i >= 0 {
				t.Errorf("%s: %s: info[%d] = %d on a positive definite matrix", name, arm.name, i, info[i])
			}
			for _, b := range []int{0, 1, count / 2, count - 1, rng.IntN(count)} {
				x := core.Strided[T]{Data: make([]T, n*nrhs), Rows: n, Cols: nrhs, LD: n, Stride: n * nrhs, Count: 1}
				if err := cuda.Download(s, x.Data, arm.b+cuda.DevicePtr(int64(b)*int64(n*nrhs)*size)); err != nil {
					t.Fatal(err)
				}
				a := oracle.Hermitian(oracle.Load(hostA, b), uplo)
				if r := oracle.SolveResidual(a, core.NoTrans, oracle.Load(x, 0), oracle.Load(hostB, b), eps); !(r <= conformance.SolveBound) {
					t.Errorf("%s: %s: matrix %d: ‖A·X − B‖₁ = %.3g·n·eps·‖A‖₁·‖X‖₁, bound %g", name, arm.name, b, r, float64(conformance.SolveBound))
				}
			}
		}
		gbs := func(us float64) float64 { return 2 * float64(bytesA+bytesB) / us / 1e3 }
		t.Logf("%s: native %8.1f µs (%5.0f GB/s, %3.0f %% of copy), vendor %8.1f µs, vendor/native %6.2f×; copy %6.1f µs",
			name, med[0], gbs(med[0]), 100*med[2]/med[0], med[1], med[1]/med[0], med[2])
	}
}
