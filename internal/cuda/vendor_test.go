package cuda

import (
	"errors"
	"math/cmplx"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/batchlas/batchlas/internal/core"
)

// These tests need no GPU: they check the tables and conversions that the
// GPU smoke tests (cublas_test.go, cusolver_test.go) rely on.

func TestVendorEnumCodes(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"NoTrans", must(opCode(core.NoTrans)), 0},
		{"Trans", must(opCode(core.Trans)), 1},
		{"ConjTrans", must(opCode(core.ConjTrans)), 2},
		{"Lower", must(fillCode(core.Lower)), 0},
		{"Upper", must(fillCode(core.Upper)), 1},
		{"Left", must(sideCode(core.Left)), 0},
		{"Right", must(sideCode(core.Right)), 1},
		{"NonUnit", must(diagCode(core.NonUnit)), 0},
		{"Unit", must(diagCode(core.Unit)), 1},
		{"R_32F", Float32.dataType(), 0},
		{"R_64F", Float64.dataType(), 1},
		{"C_32F", Complex64.dataType(), 4},
		{"C_64F", Complex128.dataType(), 5},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
	// cublasComputeType_t (cublas_api.h) and CUBLAS_GEMM_DEFAULT.
	for _, c := range []struct {
		got  ComputeType
		want int32
	}{{Compute32F, 68}, {Compute32FPedantic, 69}, {Compute64F, 70}, {Compute32FFastTF32, 77}} {
		if int32(c.got) != c.want || strings.HasPrefix(c.got.String(), "cublasComputeType_t(") {
			t.Errorf("%v = %d, want %d", c.got, int32(c.got), c.want)
		}
	}
	if cublasGemmDefault != -1 {
		t.Errorf("CUBLAS_GEMM_DEFAULT = %d, want -1", cublasGemmDefault)
	}
	for _, c := range []struct {
		compute ComputeType
		d       DType
		ok      bool
	}{
		{Compute32FFastTF32, Float32, true}, {Compute32FFastTF32, Complex64, true}, {Compute32F, Float32, true},
		{Compute32FFastTF32, Float64, false}, {Compute64F, Float32, false}, {Compute64F, Complex128, true},
		{ComputeType(0), Float32, false},
	} {
		if computeFits(c.compute, c.d) != c.ok {
			t.Errorf("computeFits(%v, %v) = %v", c.compute, c.d, !c.ok)
		}
	}
	if _, err := opCode(core.Transpose(7)); !errors.Is(err, core.ErrArgument) {
		t.Errorf("opCode(7): %v, want ErrArgument", err)
	}
	if _, err := fillCode(core.Uplo(2)); !errors.Is(err, core.ErrArgument) {
		t.Errorf("fillCode(2): %v, want ErrArgument", err)
	}
}

func must(v uintptr, err error) uintptr {
	if err != nil {
		panic(err)
	}
	return v
}

type namedReal float64

func TestDTypeOf(t *testing.T) {
	for _, c := range []struct {
		got, want DType
		size      int
	}{
		{DTypeOf[float32](), Float32, 4},
		{DTypeOf[float64](), Float64, 8},
		{DTypeOf[complex64](), Complex64, 8},
		{DTypeOf[complex128](), Complex128, 16},
		{DTypeOf[namedReal](), Float64, 8},
	} {
		if c.got != c.want || c.got.Size() != c.size {
			t.Errorf("got %v (size %d), want %v (size %d)", c.got, c.got.Size(), c.want, c.size)
		}
	}
	if got := fromReal[complex64](2.5); got != complex(2.5, 0) {
		t.Errorf("fromReal[complex64](2.5) = %v", got)
	}
	if got := fromReal[namedReal](-1); got != -1 {
		t.Errorf("fromReal[namedReal](-1) = %v", got)
	}
}

func TestVendorSymbolNames(t *testing.T) {
	got := typedNames("cublas?gemmStridedBatched")
	want := [4]string{"cublasSgemmStridedBatched", "cublasDgemmStridedBatched", "cublasCgemmStridedBatched", "cublasZgemmStridedBatched"}
	if got != want {
		t.Errorf("typedNames = %v, want %v", got, want)
	}
	if n := typedNames(blasPatterns[blasTrmm])[Complex128]; n != "cublasZtrmm_v2" {
		t.Errorf("trmm Z = %s", n)
	}
	if n := typedNames(solverPatterns[solverPotrfBatched])[Float32]; n != "cusolverDnSpotrfBatched" {
		t.Errorf("potrfBatched S = %s", n)
	}
	for r, p := range blasPatterns {
		if strings.Count(p, "?") != 1 {
			t.Errorf("blas pattern %d = %q", r, p)
		}
	}
}

func TestVendorStatusErrors(t *testing.T) {
	err := blasErr("cublasSgemmStridedBatched", 7)
	if err == nil || !strings.Contains(err.Error(), "CUBLAS_STATUS_INVALID_VALUE") || !strings.Contains(err.Error(), "cublasSgemmStridedBatched") {
		t.Errorf("blasErr(7) = %v", err)
	}
	var bs BLASStatus
	if !errors.As(err, &bs) || bs != 7 || !errors.Is(err, core.ErrArgument) {
		t.Errorf("blasErr(7): As/Is failed: %v", err)
	}
	if !errors.Is(blasErr("x", 3), core.ErrOutOfMemory) || !errors.Is(blasErr("x", 15), core.ErrUnsupported) {
		t.Error("cuBLAS sentinel mapping")
	}
	// Only the low 32 bits of the return register count.
	if blasErr("x", 0xffffffff00000000) != nil || solverErr("x", 0xabcd000000000000) != nil {
		t.Error("upper register bits must be ignored")
	}
	err = solverErr("cusolverDnSpotrfBatched", 3)
	var ss SolverStatus
	if !errors.As(err, &ss) || ss != 3 || !strings.Contains(err.Error(), "CUSOLVER_STATUS_INVALID_VALUE") {
		t.Errorf("solverErr(3) = %v", err)
	}
	if !errors.Is(solverErr("x", 2), core.ErrOutOfMemory) || !errors.Is(solverErr("x", 9), core.ErrUnsupported) {
		t.Error("cuSOLVER sentinel mapping")
	}
	if s := SolverStatus(99).Error(); !strings.Contains(s, "99") {
		t.Errorf("unknown status text %q", s)
	}
}

func TestVendorCheckDims(t *testing.T) {
	if err := checkDims("Gemm", "m,n,k", 1, 2, 3); err != nil {
		t.Error(err)
	}
	err := checkDims("Gemm", "m,n,k", 1, -2, 3)
	if !errors.Is(err, core.ErrShape) || !strings.Contains(err.Error(), "n = -2") {
		t.Errorf("negative n: %v", err)
	}
	if err := checkDims("Gemm", "m,n,k", 1, 2, 1<<31); !errors.Is(err, core.ErrShape) || !strings.Contains(err.Error(), "k =") {
		t.Errorf("k = 2³¹: %v", err)
	}
}

// gemmCodes: the operations' codes, every size checked under the routine's
// name, and an empty product (m, n or count 0, not k) flagged.
func TestVendorGemmCodes(t *testing.T) {
	ta, tb, empty, err := gemmCodes("Gemm", core.Trans, core.ConjTrans, 2, 3, 4, 4, 4, 2, 5)
	if err != nil || ta != cublasOpT || tb != cublasOpC || empty {
		t.Errorf("Trans, ConjTrans: %d, %d, empty %v, %v", ta, tb, empty, err)
	}
	for _, d := range [][4]int{{0, 3, 4, 5}, {2, 0, 4, 5}, {2, 3, 4, 0}, {2, 3, 0, 5}} {
		_, _, empty, err := gemmCodes("Gemm", core.NoTrans, core.NoTrans, d[0], d[1], d[2], 4, 4, 4, d[3])
		if want := d[0] == 0 || d[1] == 0 || d[3] == 0; err != nil || empty != want {
			t.Errorf("m, n, k, count = %v: empty %v, %v; want %v", d, empty, err, want)
		}
	}
	if _, _, _, err := gemmCodes("Gemm", core.NoTrans, core.Transpose(9), 2, 3, 4, 4, 4, 2, 5); !errors.Is(err, core.ErrArgument) {
		t.Errorf("transB 9: %v, want ErrArgument", err)
	}
	_, _, _, err = gemmCodes("GemmX", core.NoTrans, core.NoTrans, 2, 3, 4, 4, -1, 2, 5)
	if !errors.Is(err, core.ErrShape) || !strings.Contains(err.Error(), "GemmX") || !strings.Contains(err.Error(), "ldb = -1") {
		t.Errorf("ldb = -1: %v", err)
	}
}

// Opening must never panic; without the library the error says so.
func TestVendorLoadNoPanic(t *testing.T) {
	for name, err := range map[string]error{"cuBLAS": CUBLASAvailable(), "cuSOLVER": CUSOLVERAvailable()} {
		if err != nil && !errors.Is(err, core.ErrLibraryNotFound) {
			t.Errorf("%s: %v, want nil or ErrLibraryNotFound", name, err)
		}
		t.Logf("%s: %v", name, err)
	}
}

// TestVendorSymbols lists every routine symbol the installed libraries lack.
// On CUDA 12 and 13 there should be none.
func TestVendorSymbols(t *testing.T) {
	if CUBLASAvailable() != nil && CUSOLVERAvailable() != nil {
		t.Skipf("neither library loads: %v; %v", CUBLASAvailable(), CUSOLVERAvailable())
	}
	if api, err := loadCUBLAS(); err != nil {
		t.Logf("cuBLAS not checked: %v", err)
	} else {
		t.Logf("cuBLAS: %s", api.lib.Path)
		for _, s := range []symbol{api.create, api.destroy, api.setStream, api.getVersion, api.gemmStridedBatchedEx} {
			if s.err != nil {
				t.Error(s.err)
			}
		}
		for r := range api.typed {
			for d, s := range api.typed[r] {
				if blasRoutine(r) == blasHerk && !DType(d).IsComplex() {
					continue
				}
				if s.err != nil {
					t.Error(s.err)
				}
			}
		}
	}
	if api, err := loadCUSOLVER(); err != nil {
		t.Logf("cuSOLVER not checked: %v", err)
	} else {
		t.Logf("cuSOLVER: %s", api.lib.Path)
		for _, s := range []symbol{api.create, api.destroy, api.setStream, api.getVersion,
			api.createParams, api.destroyParams, api.xpotrf, api.xpotrfBufferSize} {
			if s.err != nil {
				t.Error(s.err)
			}
		}
		for r := range api.typed {
			for _, s := range api.typed[r] {
				if s.err != nil {
					t.Error(s.err)
				}
			}
		}
	}
}

// ---- GPU test environment ----

// vtEnv is what a vendor smoke test needs: device 0's context, a stream of
// its own, and the handles asked for.
type vtEnv struct {
	ctx    *Context
	s      *Stream
	blas   *BLAS
	solver *Solver
}

// vtSetup skips the test, saying why, when there is no GPU or library.
func vtSetup(t *testing.T, wantBLAS, wantSolver bool) *vtEnv {
	t.Helper()
	devs, err := Devices()
	if err != nil {
		t.Skipf("no CUDA device: %v", err)
	}
	if wantBLAS {
		if err := CUBLASAvailable(); err != nil {
			t.Skipf("cuBLAS unavailable: %v", err)
		}
	}
	if wantSolver {
		if err := CUSOLVERAvailable(); err != nil {
			t.Skipf("cuSOLVER unavailable: %v", err)
		}
	}
	ctx, err := devs[0].Context()
	if err != nil {
		t.Fatal(err)
	}
	s, err := ctx.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	e := &vtEnv{ctx: ctx, s: s}
	t.Cleanup(func() {
		if err := s.Synchronize(); err != nil {
			t.Error(err)
		}
		if e.blas != nil {
			if err := e.blas.Close(); err != nil {
				t.Error(err)
			}
		}
		if e.solver != nil {
			if err := e.solver.Close(); err != nil {
				t.Error(err)
			}
		}
		s.Destroy()
	})
	if wantBLAS {
		if e.blas, err = NewBLAS(ctx, s); err != nil {
			t.Fatal(err)
		}
		v, err := e.blas.Version()
		t.Logf("cuBLAS %d (%s), %v", v, e.blas.api.lib.Path, err)
	}
	if wantSolver {
		if e.solver, err = NewSolver(ctx, s); err != nil {
			t.Fatal(err)
		}
		v, err := SolverVersion()
		t.Logf("cuSOLVER %d (%s), %v", v, e.solver.api.lib.Path, err)
	}
	return e
}

// vtDev copies host to a new device block, freed when the test ends.
func vtDev[T any](t *testing.T, e *vtEnv, host []T) DevicePtr {
	t.Helper()
	var z T
	p, err := e.ctx.Alloc(int64(len(host)) * int64(unsafe.Sizeof(z)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.ctx.Free(p) })
	if err := Upload(e.s, p, host); err != nil {
		t.Fatal(err)
	}
	return p
}

// vtBack downloads n elements from p, after the work queued on the stream.
func vtBack[T any](t *testing.T, e *vtEnv, p DevicePtr, n int) []T {
	t.Helper()
	out := make([]T, n)
	if err := Download(e.s, out, p); err != nil {
		t.Fatal(err)
	}
	return out
}

// vtPtrs builds the pointer array of a strided batch already on the device.
func vtPtrs[T core.Scalar](t *testing.T, e *vtEnv, base DevicePtr, s core.Strided[T]) DevicePtr {
	t.Helper()
	pa, err := PointerArrayOf[T](e.s, base, s.Count, int64(s.Stride))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pa.Free)
	return pa.Ptr
}

// ---- host reference, in complex128 whatever T is ----

func vtC[T core.Scalar](x T) complex128 {
	switch v := any(x).(type) {
	case float32:
		return complex(float64(v), 0)
	case float64:
		return complex(v, 0)
	case complex64:
		return complex128(v)
	case complex128:
		return v
	}
	panic("vtC")
}

func vtT[T core.Scalar](z complex128) T {
	var out T
	switch p := any(&out).(type) {
	case *float32:
		*p = float32(real(z))
	case *float64:
		*p = real(z)
	case *complex64:
		*p = complex64(z)
	case *complex128:
		*p = z
	}
	return out
}

// vtBatch is a strided batch of random entries in [-1, 1] (both parts for
// complex T), with gaps between matrices so that pointer arithmetic and
// out-of-bounds writes show.
func vtBatch[T core.Scalar](rng *rand.Rand, rows, cols, ld, count int) core.Strided[T] {
	s := core.Strided[T]{Rows: rows, Cols: cols, LD: ld, Stride: ld*cols + 3, Count: count}
	s.Data = make([]T, s.Need())
	for i := range s.Data {
		s.Data[i] = vtT[T](complex(2*rng.Float64()-1, 2*rng.Float64()-1))
	}
	return s
}

// vtAddDiag adds v to the diagonal of every matrix.
func vtAddDiag[T core.Scalar](s core.Strided[T], v float64) {
	for b := range s.Count {
		for i := range min(s.Rows, s.Cols) {
			k := b*s.Stride + i*s.LD + i
			s.Data[k] = vtT[T](vtC(s.Data[k]) + complex(v, 0))
		}
	}
}

// vtDense extracts matrix b as a packed rows×cols complex128 matrix.
func vtDense[T core.Scalar](s core.Strided[T], b int) []complex128 {
	out := make([]complex128, s.Rows*s.Cols)
	for j := range s.Cols {
		for i := range s.Rows {
			out[i+j*s.Rows] = vtC(s.Data[b*s.Stride+j*s.LD+i])
		}
	}
	return out
}

// vtOp returns op(a) for packed r×c a, and its shape.
func vtOp(a []complex128, r, c int, trans core.Transpose, complexT bool) ([]complex128, int, int) {
	if trans == core.NoTrans {
		return a, r, c
	}
	out := make([]complex128, r*c)
	for j := range c {
		for i := range r {
			v := a[i+j*r]
			if trans == core.ConjTrans && complexT {
				v = cmplx.Conj(v)
			}
			out[j+i*c] = v
		}
	}
	return out, c, r
}

// vtMul is the packed product of m×k a and k×n b.
func vtMul(a, b []complex128, m, k, n int) []complex128 {
	out := make([]complex128, m*n)
	for j := range n {
		for l := range k {
			blj := b[l+j*k]
			for i := range m {
				out[i+j*m] += a[i+l*m] * blj
			}
		}
	}
	return out
}

// vtTri keeps the uplo triangle of packed n×n a, with ones on the diagonal
// for a unit triangle.
func vtTri(a []complex128, n int, uplo core.Uplo, diag core.Diag) []complex128 {
	out := make([]complex128, n*n)
	for j := range n {
		for i := range n {
			switch {
			case i == j && diag == core.Unit:
				out[i+j*n] = 1
			case i == j || (uplo == core.Lower && i > j) || (uplo == core.Upper && i < j):
				out[i+j*n] = a[i+j*n]
			}
		}
	}
	return out
}

// vtTol is the elementwise tolerance of the smoke tests: generous, since the
// matrices are tiny and well conditioned; a wrong binding misses by O(1).
func vtTol[T core.Scalar]() float64 { return 1000 * core.Eps[T]() }

// vtNear checks |got - want| ≤ tol·(1 + |want|) for packed matrices.
func vtNear(t *testing.T, what string, got, want []complex128, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d elements, want %d", what, len(got), len(want))
	}
	bad := 0
	for i := range got {
		if d := cmplx.Abs(got[i] - want[i]); !(d <= tol*(1+cmplx.Abs(want[i]))) {
			if bad < 5 {
				t.Errorf("%s[%d] = %v, want %v (|diff| %.3g)", what, i, got[i], want[i], d)
			}
			bad++
		}
	}
	if bad > 5 {
		t.Errorf("%s: %d of %d elements wrong", what, bad, len(got))
	}
}

// vtWiden is a whole buffer in complex128.
func vtWiden[T core.Scalar](x []T) []complex128 {
	out := make([]complex128, len(x))
	for i, v := range x {
		out[i] = vtC(v)
	}
	return out
}

func vtIdentity(n int) []complex128 {
	out := make([]complex128, n*n)
	for i := range n {
		out[i+i*n] = 1
	}
	return out
}

// vtEachType runs one subtest per scalar type.
func vtEachType(t *testing.T, f32, f64, c64, c128 func(*testing.T)) {
	t.Run("float32", f32)
	t.Run("float64", f64)
	t.Run("complex64", c64)
	t.Run("complex128", c128)
}
