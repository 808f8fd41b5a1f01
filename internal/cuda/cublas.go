package cuda

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/batchlas/batchlas/internal/core"
)

// cuBLAS 13 ships with CUDA 13; 12 is the previous major with the same ABI
// for every routine bound here.
var cublasSonames = []string{"libcublas.so.13", "libcublas.so.12"}

// blasRoutine names a cuBLAS routine family with S, D, C and Z entry points.
type blasRoutine int

const (
	blasGemmStridedBatched blasRoutine = iota
	blasTrsmBatched
	blasTrsm
	blasTrmm
	blasSyrk
	blasHerk // C and Z only; the S and D slots stay unbound and unused
	blasGetrfBatched
	blasGetrsBatched
	blasGetriBatched
	blasMatinvBatched
	numBLASRoutines
)

// The routines that predate the v2 API keep a _v2 suffix in the library;
// the batched ones never had one.
var blasPatterns = [numBLASRoutines]string{
	blasGemmStridedBatched: "cublas?gemmStridedBatched",
	blasTrsmBatched:        "cublas?trsmBatched",
	blasTrsm:               "cublas?trsm_v2",
	blasTrmm:               "cublas?trmm_v2",
	blasSyrk:               "cublas?syrk_v2",
	blasHerk:               "cublas?herk_v2",
	blasGetrfBatched:       "cublas?getrfBatched",
	blasGetrsBatched:       "cublas?getrsBatched",
	blasGetriBatched:       "cublas?getriBatched",
	blasMatinvBatched:      "cublas?matinvBatched",
}

// cublasAPI is the probed cuBLAS entry points.
type cublasAPI struct {
	lib                                    *Library
	create, destroy, setStream, getVersion symbol
	gemmStridedBatchedEx                   symbol // one entry: the data types are arguments
	typed                                  [numBLASRoutines][4]symbol
}

var (
	cublasLib  lazyLib
	cublasOnce sync.Once
	cublasTab  *cublasAPI
	cublasErr  error
)

// loadCUBLAS opens cuBLAS once per process and probes every symbol.
func loadCUBLAS() (*cublasAPI, error) {
	cublasOnce.Do(func() {
		l, err := cublasLib.get(cublasSonames...)
		if err != nil {
			cublasErr = err
			return
		}
		api := &cublasAPI{
			lib:        l,
			create:     bind(l, "cublasCreate_v2"),
			destroy:    bind(l, "cublasDestroy_v2"),
			setStream:  bind(l, "cublasSetStream_v2"),
			getVersion: bind(l, "cublasGetVersion_v2"),

			gemmStridedBatchedEx: bind(l, "cublasGemmStridedBatchedEx"),
		}
		for r, pattern := range blasPatterns {
			for d, name := range typedNames(pattern) {
				if blasRoutine(r) == blasHerk && !DType(d).IsComplex() {
					api.typed[r][d] = symbol{name: name, err: fmt.Errorf("%w: %s does not exist for real types", core.ErrUnsupported, name)}
					continue
				}
				api.typed[r][d] = bind(l, name)
			}
		}
		cublasTab = api
	})
	return cublasTab, cublasErr
}

// CUBLASAvailable reports whether cuBLAS can be opened, and why not.
func CUBLASAvailable() error {
	_, err := loadCUBLAS()
	return err
}

// BLAS is a cuBLAS handle (cublasHandle_t) created under one context and
// bound to one stream. Every routine enqueues on that stream and returns
// without waiting. A BLAS must not be used by two goroutines at once.
type BLAS struct {
	ctx    *Context
	api    *cublasAPI
	handle uintptr
	stream *Stream
}

// NewBLAS creates a cuBLAS handle under ctx and binds it to stream (nil
// means the context's default stream).
func NewBLAS(ctx *Context, stream *Stream) (*BLAS, error) {
	api, err := loadCUBLAS()
	if err != nil {
		return nil, err
	}
	if api.create.err != nil {
		return nil, api.create.err
	}
	if api.destroy.err != nil {
		return nil, api.destroy.err
	}
	if api.setStream.err != nil {
		return nil, api.setStream.err
	}
	if err := checkStream(ctx, stream); err != nil {
		return nil, err
	}
	b := &BLAS{ctx: ctx, api: api}
	err = ctx.Do(func() error {
		var pin runtime.Pinner
		defer pin.Unpin()
		h := new(uintptr)
		if err := blasErr(api.create.name, call(api.create.addr, pinAddr(&pin, h))); err != nil {
			return err
		}
		if err := blasErr(api.setStream.name, call(api.setStream.addr, *h, streamHandle(stream))); err != nil {
			call(api.destroy.addr, *h)
			return err
		}
		b.handle = *h
		return nil
	})
	if err != nil {
		return nil, err
	}
	b.stream = stream
	return b, nil
}

// streamHandle is the raw CUstream of s; nil is the default stream (0).
func streamHandle(s *Stream) uintptr {
	if s == nil {
		return 0
	}
	return s.Handle
}

// Stream is the stream the handle enqueues on (nil: the default stream).
func (b *BLAS) Stream() *Stream { return b.stream }

// SetStream rebinds the handle to s (nil: the default stream).
func (b *BLAS) SetStream(s *Stream) error {
	err := b.do(func() error {
		return blasErr(b.api.setStream.name, call(b.api.setStream.addr, b.handle, streamHandle(s)))
	})
	if err == nil {
		b.stream = s
	}
	return err
}

// Close destroys the handle. Work already enqueued still completes; closing
// twice is harmless.
func (b *BLAS) Close() error {
	if b == nil || b.handle == 0 {
		return nil
	}
	err := b.ctx.Do(func() error {
		return blasErr(b.api.destroy.name, call(b.api.destroy.addr, b.handle))
	})
	b.handle = 0
	return err
}

// Version is cuBLAS's version number (major·10000 + minor·100 + patch).
func (b *BLAS) Version() (int, error) {
	if b.api.getVersion.err != nil {
		return 0, b.api.getVersion.err
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	v := new(int32)
	err := b.do(func() error {
		return blasErr(b.api.getVersion.name, call(b.api.getVersion.addr, b.handle, pinAddr(&pin, v)))
	})
	return int(*v), err
}

// do runs fn with the handle's context current on a locked thread.
func (b *BLAS) do(fn func() error) error {
	if b == nil || b.handle == 0 {
		return errClosed
	}
	return b.ctx.Do(fn)
}

// fn returns the entry point of routine r for d, or the error saying it is missing.
func (b *BLAS) fn(r blasRoutine, d DType) (symbol, error) {
	s := b.api.typed[r][d]
	return s, s.err
}

// GemmStridedBatched computes, for each i < count,
// C_i = alpha·op(A_i)·op(B_i) + beta·C_i, where X_i starts strideX elements
// after X_{i-1}; op(A) is m×k, op(B) is k×n and C is m×n
// (cublas?gemmStridedBatched, 18 arguments).
func GemmStridedBatched[T core.Scalar](b *BLAS, transA, transB core.Transpose, m, n, k int,
	alpha T, a DevicePtr, lda int, strideA int64,
	bm DevicePtr, ldb int, strideB int64,
	beta T, c DevicePtr, ldc int, strideC int64, count int) error {
	const name = "GemmStridedBatched"
	s, err := b.fn(blasGemmStridedBatched, DTypeOf[T]())
	if err != nil {
		return err
	}
	ta, tb, empty, err := gemmCodes(name, transA, transB, m, n, k, lda, ldb, ldc, count)
	if err != nil || empty {
		return err
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	pa, pb := pinPair(&pin, alpha, beta)
	return b.do(func() error {
		return blasErr(s.name, call(s.addr, b.handle, ta, tb,
			uintptr(m), uintptr(n), uintptr(k),
			pa, uintptr(a), uintptr(lda), uintptr(strideA),
			uintptr(bm), uintptr(ldb), uintptr(strideB),
			pb, uintptr(c), uintptr(ldc), uintptr(strideC),
			uintptr(count)))
	})
}

// gemmCodes checks a strided batched product's operations and sizes for
// routine name and returns cuBLAS's codes for the operations; empty is true
// where there is nothing to compute (m, n or count 0).
func gemmCodes(name string, transA, transB core.Transpose, m, n, k, lda, ldb, ldc, count int) (ta, tb uintptr, empty bool, err error) {
	if ta, err = opCode(transA); err != nil {
		return
	}
	if tb, err = opCode(transB); err != nil {
		return
	}
	if err = checkDims(name, "m,n,k,lda,ldb,ldc,count", m, n, k, lda, ldb, ldc, count); err != nil {
		return
	}
	return ta, tb, m == 0 || n == 0 || count == 0, nil
}

// ComputeType is a cublasComputeType_t: the arithmetic of a cuBLAS …Ex
// routine. The values are those of cublas_api.h (CUDA 11.0 through 13.0).
type ComputeType int32

const (
	// Compute32F is CUBLAS_COMPUTE_32F: FP32 arithmetic, for float32 and
	// complex64 data.
	Compute32F ComputeType = 68
	// Compute32FPedantic is CUBLAS_COMPUTE_32F_PEDANTIC: FP32 with no
	// reduced-precision shortcut of any kind.
	Compute32FPedantic ComputeType = 69
	// Compute64F is CUBLAS_COMPUTE_64F: FP64 arithmetic, for float64 and
	// complex128 data.
	Compute64F ComputeType = 70
	// Compute32FFastTF32 is CUBLAS_COMPUTE_32F_FAST_TF32: float32 or
	// complex64 data, inputs down-converted to TF32 (10 explicit mantissa
	// bits) for the tensor cores, accumulation in FP32. Operands already
	// representable in TF32 lose nothing in the conversion, which is what
	// split-precision (3xTF32) products rely on.
	Compute32FFastTF32 ComputeType = 77
)

// cublasGemmDefault is CUBLAS_GEMM_DEFAULT (cublasGemmAlgo_t): let cuBLAS
// choose the kernel.
const cublasGemmDefault = -1

func (c ComputeType) String() string {
	switch c {
	case Compute32F:
		return "CUBLAS_COMPUTE_32F"
	case Compute32FPedantic:
		return "CUBLAS_COMPUTE_32F_PEDANTIC"
	case Compute64F:
		return "CUBLAS_COMPUTE_64F"
	case Compute32FFastTF32:
		return "CUBLAS_COMPUTE_32F_FAST_TF32"
	}
	return fmt.Sprintf("cublasComputeType_t(%d)", int32(c))
}

// computeFits reports whether compute is a valid arithmetic for data of
// type d; alpha and beta are then of d's own type.
func computeFits(compute ComputeType, d DType) bool {
	switch compute {
	case Compute32F, Compute32FPedantic, Compute32FFastTF32:
		return d == Float32 || d == Complex64
	case Compute64F:
		return d == Float64 || d == Complex128
	}
	return false
}

// GemmStridedBatchedEx is GemmStridedBatched with the arithmetic chosen by
// compute (cublasGemmStridedBatchedEx, 23 arguments, algorithm
// CUBLAS_GEMM_DEFAULT). A, B and C all hold T; alpha and beta are T, which
// matches compute's scalar type: Compute32F* for float32 and complex64,
// Compute64F for float64 and complex128 (anything else is an error wrapping
// core.ErrArgument). With Compute32FFastTF32 the product runs on the tensor
// cores with TF32 inputs.
func GemmStridedBatchedEx[T core.Scalar](b *BLAS, compute ComputeType, transA, transB core.Transpose, m, n, k int,
	alpha T, a DevicePtr, lda int, strideA int64,
	bm DevicePtr, ldb int, strideB int64,
	beta T, c DevicePtr, ldc int, strideC int64, count int) error {
	const name = "GemmStridedBatchedEx"
	dt := DTypeOf[T]()
	if !computeFits(compute, dt) {
		return fmt.Errorf("%w: %s: compute type %v does not apply to %v data", core.ErrArgument, name, compute, dt)
	}
	if b == nil || b.api == nil {
		return errClosed
	}
	s := b.api.gemmStridedBatchedEx
	if s.err != nil {
		return s.err
	}
	ta, tb, empty, err := gemmCodes(name, transA, transB, m, n, k, lda, ldb, ldc, count)
	if err != nil || empty {
		return err
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	pa, pb := pinPair(&pin, alpha, beta)
	ty := dt.dataType()
	algo := int32(cublasGemmDefault)
	return b.do(func() error {
		return blasErr(s.name, call(s.addr, b.handle, ta, tb,
			uintptr(m), uintptr(n), uintptr(k),
			pa, uintptr(a), ty, uintptr(lda), uintptr(strideA),
			uintptr(bm), ty, uintptr(ldb), uintptr(strideB),
			pb, uintptr(c), ty, uintptr(ldc), uintptr(strideC),
			uintptr(count), uintptr(compute), uintptr(algo)))
	})
}

// TrsmBatched solves, for each i < count, op(A_i)·X = alpha·B_i (side Left,
// A_i m×m) or X·op(A_i) = alpha·B_i (side Right, A_i n×n) with A_i
// triangular; X overwrites the m×n B_i. aArray and bArray are device arrays
// of count device pointers (cublas?trsmBatched, 13 arguments). A singular
// A_i is not reported: its B_i fills with Inf/NaN.
func TrsmBatched[T core.Scalar](b *BLAS, side core.Side, uplo core.Uplo, trans core.Transpose, diag core.Diag,
	m, n int, alpha T, aArray DevicePtr, lda int, bArray DevicePtr, ldb int, count int) error {
	const name = "TrsmBatched"
	s, err := b.fn(blasTrsmBatched, DTypeOf[T]())
	if err != nil {
		return err
	}
	sd, fl, op, dg, err := triCodes(side, uplo, trans, diag)
	if err != nil {
		return err
	}
	if err := checkDims(name, "m,n,lda,ldb,count", m, n, lda, ldb, count); err != nil {
		return err
	}
	if m == 0 || n == 0 || count == 0 {
		return nil
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	pa := pinAddr(&pin, &alpha)
	return b.do(func() error {
		return blasErr(s.name, call(s.addr, b.handle, sd, fl, op, dg,
			uintptr(m), uintptr(n), pa,
			uintptr(aArray), uintptr(lda), uintptr(bArray), uintptr(ldb),
			uintptr(count)))
	})
}

// Trsm solves op(A)·X = alpha·B (side Left, A m×m) or X·op(A) = alpha·B
// (side Right, A n×n) for one triangular A; X overwrites the m×n B
// (cublas?trsm_v2, 12 arguments).
func Trsm[T core.Scalar](b *BLAS, side core.Side, uplo core.Uplo, trans core.Transpose, diag core.Diag,
	m, n int, alpha T, a DevicePtr, lda int, bm DevicePtr, ldb int) error {
	const name = "Trsm"
	s, err := b.fn(blasTrsm, DTypeOf[T]())
	if err != nil {
		return err
	}
	sd, fl, op, dg, err := triCodes(side, uplo, trans, diag)
	if err != nil {
		return err
	}
	if err := checkDims(name, "m,n,lda,ldb", m, n, lda, ldb); err != nil {
		return err
	}
	if m == 0 || n == 0 {
		return nil
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	pa := pinAddr(&pin, &alpha)
	return b.do(func() error {
		return blasErr(s.name, call(s.addr, b.handle, sd, fl, op, dg,
			uintptr(m), uintptr(n), pa,
			uintptr(a), uintptr(lda), uintptr(bm), uintptr(ldb)))
	})
}

// Trmm computes C = alpha·op(A)·B (side Left, A m×m) or C = alpha·B·op(A)
// (side Right, A n×n) for one triangular A and m×n B and C. Unlike BLAS
// trmm it writes a separate C; c may equal bm for the in-place product
// (cublas?trmm_v2, 14 arguments). cuBLAS has no batched trmm.
func Trmm[T core.Scalar](b *BLAS, side core.Side, uplo core.Uplo, trans core.Transpose, diag core.Diag,
	m, n int, alpha T, a DevicePtr, lda int, bm DevicePtr, ldb int, c DevicePtr, ldc int) error {
	const name = "Trmm"
	s, err := b.fn(blasTrmm, DTypeOf[T]())
	if err != nil {
		return err
	}
	sd, fl, op, dg, err := triCodes(side, uplo, trans, diag)
	if err != nil {
		return err
	}
	if err := checkDims(name, "m,n,lda,ldb,ldc", m, n, lda, ldb, ldc); err != nil {
		return err
	}
	if m == 0 || n == 0 {
		return nil
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	pa := pinAddr(&pin, &alpha)
	return b.do(func() error {
		return blasErr(s.name, call(s.addr, b.handle, sd, fl, op, dg,
			uintptr(m), uintptr(n), pa,
			uintptr(a), uintptr(lda), uintptr(bm), uintptr(ldb), uintptr(c), uintptr(ldc)))
	})
}

func triCodes(side core.Side, uplo core.Uplo, trans core.Transpose, diag core.Diag) (sd, fl, op, dg uintptr, err error) {
	if sd, err = sideCode(side); err != nil {
		return
	}
	if fl, err = fillCode(uplo); err != nil {
		return
	}
	if op, err = opCode(trans); err != nil {
		return
	}
	dg, err = diagCode(diag)
	return
}

// Syrk computes the uplo triangle of C = alpha·A·Aᵀ + beta·C (trans NoTrans,
// A n×k) or C = alpha·Aᵀ·A + beta·C (trans Trans, A k×n), C n×n, for one
// matrix (cublas?syrk_v2, 11 arguments). For complex T this is the
// symmetric product (no conjugation) and ConjTrans is rejected; for real T
// ConjTrans means Trans.
//
// cuBLAS has no batched syrk or herk: a batch is a loop of these calls or
// GemmStridedBatched with the unwanted triangle ignored.
func Syrk[T core.Scalar](b *BLAS, uplo core.Uplo, trans core.Transpose, n, k int,
	alpha T, a DevicePtr, lda int, beta T, c DevicePtr, ldc int) error {
	dt := DTypeOf[T]()
	if trans == core.ConjTrans {
		if dt.IsComplex() {
			return fmt.Errorf("%w: Syrk: trans must be NoTrans or Trans for complex types (use Herk)", core.ErrArgument)
		}
		trans = core.Trans
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	pa, pb := pinPair(&pin, alpha, beta)
	return rankK(b, blasSyrk, dt, "Syrk", uplo, trans, n, k, pa, a, lda, pb, c, ldc)
}

// Herk computes the uplo triangle of C = alpha·A·Aᴴ + beta·C (trans NoTrans,
// A n×k) or C = alpha·Aᴴ·A + beta·C (trans ConjTrans, A k×n) with real alpha
// and beta, C n×n Hermitian, for one matrix (cublasCherk_v2/cublasZherk_v2,
// 11 arguments). The imaginary parts of C's diagonal are set to zero. For
// real T it is Syrk (Trans and ConjTrans alike). No batched form exists; see
// Syrk.
func Herk[T core.Scalar](b *BLAS, uplo core.Uplo, trans core.Transpose, n, k int,
	alpha float64, a DevicePtr, lda int, beta float64, c DevicePtr, ldc int) error {
	dt := DTypeOf[T]()
	if !dt.IsComplex() {
		return Syrk(b, uplo, trans, n, k, fromReal[T](alpha), a, lda, fromReal[T](beta), c, ldc)
	}
	if trans == core.Trans {
		return fmt.Errorf("%w: Herk: trans must be NoTrans or ConjTrans for complex types", core.ErrArgument)
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	var pa, pb uintptr
	if dt == Complex64 {
		pa, pb = pinPair(&pin, float32(alpha), float32(beta))
	} else {
		pa, pb = pinPair(&pin, alpha, beta)
	}
	return rankK(b, blasHerk, dt, "Herk", uplo, trans, n, k, pa, a, lda, pb, c, ldc)
}

// rankK is the shared body of Syrk and Herk: the argument lists match.
func rankK(b *BLAS, r blasRoutine, dt DType, name string, uplo core.Uplo, trans core.Transpose, n, k int,
	pa uintptr, a DevicePtr, lda int, pb uintptr, c DevicePtr, ldc int) error {
	s, err := b.fn(r, dt)
	if err != nil {
		return err
	}
	fl, err := fillCode(uplo)
	if err != nil {
		return err
	}
	op, err := opCode(trans)
	if err != nil {
		return err
	}
	if err := checkDims(name, "n,k,lda,ldc", n, k, lda, ldc); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	return b.do(func() error {
		return blasErr(s.name, call(s.addr, b.handle, fl, op, uintptr(n), uintptr(k),
			pa, uintptr(a), uintptr(lda), pb, uintptr(c), uintptr(ldc)))
	})
}

// GetrfBatched factors each n×n A_i = P_i·L_i·U_i in place with partial
// pivoting (cublas?getrfBatched, 7 arguments). aArray is a device array of
// count pointers; pivots is device int32[n·count], 1-based, or 0 for no
// pivoting; info is device int32[count]: 0, or k > 0 when U_i(k,k) is
// exactly zero (the factorization is still completed).
func GetrfBatched[T core.Scalar](b *BLAS, n int, aArray DevicePtr, lda int, pivots, info DevicePtr, count int) error {
	s, err := b.fn(blasGetrfBatched, DTypeOf[T]())
	if err != nil {
		return err
	}
	if err := checkDims("GetrfBatched", "n,lda,count", n, lda, count); err != nil {
		return err
	}
	if count == 0 {
		return nil
	}
	return b.do(func() error {
		return blasErr(s.name, call(s.addr, b.handle, uintptr(n), uintptr(aArray), uintptr(lda),
			uintptr(pivots), uintptr(info), uintptr(count)))
	})
}

// getrsParams names cublas?getrsBatched's parameters after the handle, for
// the host info's "parameter j is invalid".
var getrsParams = []string{"trans", "n", "nrhs", "Aarray", "lda", "devIpiv", "Barray", "ldb", "info", "batchSize"}

// GetrsBatched solves op(A_i)·X = B_i for each i with the factors from
// GetrfBatched; X overwrites the n×nrhs B_i (cublas?getrsBatched, 11
// arguments). cuBLAS reports only argument errors, through a host int,
// which comes back as an error wrapping core.ErrArgument.
func GetrsBatched[T core.Scalar](b *BLAS, trans core.Transpose, n, nrhs int, aArray DevicePtr, lda int,
	pivots DevicePtr, bArray DevicePtr, ldb int, count int) error {
	const name = "GetrsBatched"
	s, err := b.fn(blasGetrsBatched, DTypeOf[T]())
	if err != nil {
		return err
	}
	op, err := opCode(trans)
	if err != nil {
		return err
	}
	if err := checkDims(name, "n,nrhs,lda,ldb,count", n, nrhs, lda, ldb, count); err != nil {
		return err
	}
	if n == 0 || nrhs == 0 || count == 0 {
		return nil
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	info := new(int32)
	pi := pinAddr(&pin, info)
	err = b.do(func() error {
		return blasErr(s.name, call(s.addr, b.handle, op, uintptr(n), uintptr(nrhs),
			uintptr(aArray), uintptr(lda), uintptr(pivots), uintptr(bArray), uintptr(ldb),
			pi, uintptr(count)))
	})
	if err != nil {
		return err
	}
	if j := int(-*info); j > 0 {
		param := "?"
		if j <= len(getrsParams) {
			param = getrsParams[j-1]
		}
		return fmt.Errorf("%w: %s: %s reports parameter %d (%s) invalid", core.ErrArgument, name, s.name, j, param)
	}
	return nil
}

// GetriBatched writes inv(A_i) to C_i from the factors of GetrfBatched, out
// of place (cublas?getriBatched, 9 arguments). info is device
// int32[count]: k > 0 when U_i(k,k) is zero and A_i is singular.
func GetriBatched[T core.Scalar](b *BLAS, n int, aArray DevicePtr, lda int, pivots DevicePtr,
	cArray DevicePtr, ldc int, info DevicePtr, count int) error {
	s, err := b.fn(blasGetriBatched, DTypeOf[T]())
	if err != nil {
		return err
	}
	if err := checkDims("GetriBatched", "n,lda,ldc,count", n, lda, ldc, count); err != nil {
		return err
	}
	if count == 0 {
		return nil
	}
	return b.do(func() error {
		return blasErr(s.name, call(s.addr, b.handle, uintptr(n), uintptr(aArray), uintptr(lda),
			uintptr(pivots), uintptr(cArray), uintptr(ldc), uintptr(info), uintptr(count)))
	})
}

// MatinvMax is the largest n cublas?matinvBatched accepts.
const MatinvMax = 32

// MatinvBatched writes inv(A_i) to Ainv_i for each n×n A_i, n ≤ MatinvMax,
// leaving A_i unchanged (cublas?matinvBatched, 8 arguments). info is device
// int32[count]: k > 0 when A_i is singular.
func MatinvBatched[T core.Scalar](b *BLAS, n int, aArray DevicePtr, lda int, ainvArray DevicePtr, ldainv int,
	info DevicePtr, count int) error {
	const name = "MatinvBatched"
	s, err := b.fn(blasMatinvBatched, DTypeOf[T]())
	if err != nil {
		return err
	}
	if err := checkDims(name, "n,lda,ldainv,count", n, lda, ldainv, count); err != nil {
		return err
	}
	if n > MatinvMax {
		return fmt.Errorf("%w: %s: n = %d, cuBLAS allows at most %d", core.ErrUnsupported, name, n, MatinvMax)
	}
	if count == 0 {
		return nil
	}
	return b.do(func() error {
		return blasErr(s.name, call(s.addr, b.handle, uintptr(n), uintptr(aArray), uintptr(lda),
			uintptr(ainvArray), uintptr(ldainv), uintptr(info), uintptr(count)))
	})
}
