package cuda

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"strings"
	"unsafe"

	"github.com/batchlas/batchlas/internal/core"
)

// DType selects the S, D, C or Z entry point of a vendor routine.
type DType int

const (
	Float32 DType = iota
	Float64
	Complex64
	Complex128
)

// DTypeOf is the DType of T. It looks at the kind, so named types such as
// `type Real float64` map like their underlying type.
func DTypeOf[T core.Scalar]() DType {
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Float32:
		return Float32
	case reflect.Float64:
		return Float64
	case reflect.Complex64:
		return Complex64
	}
	return Complex128
}

// fromReal converts a real value to T (imaginary part zero).
func fromReal[T core.Scalar](x float64) T {
	var z T
	p := unsafe.Pointer(&z)
	switch DTypeOf[T]() {
	case Float32:
		*(*float32)(p) = float32(x)
	case Float64:
		*(*float64)(p) = x
	case Complex64:
		*(*complex64)(p) = complex(float32(x), 0)
	case Complex128:
		*(*complex128)(p) = complex(x, 0)
	}
	return z
}

func (d DType) String() string {
	switch d {
	case Float32:
		return "float32"
	case Float64:
		return "float64"
	case Complex64:
		return "complex64"
	case Complex128:
		return "complex128"
	}
	return fmt.Sprintf("DType(%d)", int(d))
}

// Size is the number of bytes of one element.
func (d DType) Size() int { return [...]int{4, 8, 8, 16}[d] }

// IsComplex reports whether d is Complex64 or Complex128.
func (d DType) IsComplex() bool { return d == Complex64 || d == Complex128 }

// letter is the BLAS type prefix.
func (d DType) letter() byte { return "SDCZ"[d] }

// Vendor enum values, in one place. They come from the CUDA 13.0 headers:
// cublasOperation_t, cublasFillMode_t, cublasSideMode_t, cublasDiagType_t
// (cublas_api.h; cuSOLVER takes the same cublasFillMode_t) and cudaDataType_t
// (library_types.h). They happen to equal core's iota values, but every use
// goes through the mapping functions below so that nothing relies on that.
const (
	cublasOpN = 0 // CUBLAS_OP_N
	cublasOpT = 1 // CUBLAS_OP_T
	cublasOpC = 2 // CUBLAS_OP_C

	cublasFillLower = 0 // CUBLAS_FILL_MODE_LOWER
	cublasFillUpper = 1 // CUBLAS_FILL_MODE_UPPER

	cublasSideLeft  = 0 // CUBLAS_SIDE_LEFT
	cublasSideRight = 1 // CUBLAS_SIDE_RIGHT

	cublasDiagNonUnit = 0 // CUBLAS_DIAG_NON_UNIT
	cublasDiagUnit    = 1 // CUBLAS_DIAG_UNIT

	cudaR32F = 0 // CUDA_R_32F
	cudaR64F = 1 // CUDA_R_64F
	cudaC32F = 4 // CUDA_C_32F
	cudaC64F = 5 // CUDA_C_64F
)

// dataType is the cudaDataType_t of d, for the 64-bit generic cuSOLVER API.
func (d DType) dataType() uintptr {
	return [...]uintptr{cudaR32F, cudaR64F, cudaC32F, cudaC64F}[d]
}

func opCode(t core.Transpose) (uintptr, error) {
	switch t {
	case core.NoTrans:
		return cublasOpN, nil
	case core.Trans:
		return cublasOpT, nil
	case core.ConjTrans:
		return cublasOpC, nil
	}
	return 0, fmt.Errorf("%w: transpose %v", core.ErrArgument, t)
}

func fillCode(u core.Uplo) (uintptr, error) {
	switch u {
	case core.Lower:
		return cublasFillLower, nil
	case core.Upper:
		return cublasFillUpper, nil
	}
	return 0, fmt.Errorf("%w: uplo %v", core.ErrArgument, u)
}

func sideCode(s core.Side) (uintptr, error) {
	switch s {
	case core.Left:
		return cublasSideLeft, nil
	case core.Right:
		return cublasSideRight, nil
	}
	return 0, fmt.Errorf("%w: side %v", core.ErrArgument, s)
}

func diagCode(d core.Diag) (uintptr, error) {
	switch d {
	case core.NonUnit:
		return cublasDiagNonUnit, nil
	case core.Unit:
		return cublasDiagUnit, nil
	}
	return 0, fmt.Errorf("%w: diag %v", core.ErrArgument, d)
}

// BLASStatus is a cublasStatus_t other than CUBLAS_STATUS_SUCCESS.
type BLASStatus int32

var blasStatusNames = map[BLASStatus]string{
	1:  "CUBLAS_STATUS_NOT_INITIALIZED",
	3:  "CUBLAS_STATUS_ALLOC_FAILED",
	7:  "CUBLAS_STATUS_INVALID_VALUE",
	8:  "CUBLAS_STATUS_ARCH_MISMATCH",
	11: "CUBLAS_STATUS_MAPPING_ERROR",
	13: "CUBLAS_STATUS_EXECUTION_FAILED",
	14: "CUBLAS_STATUS_INTERNAL_ERROR",
	15: "CUBLAS_STATUS_NOT_SUPPORTED",
	16: "CUBLAS_STATUS_LICENSE_ERROR",
}

func (s BLASStatus) Error() string {
	if name, ok := blasStatusNames[s]; ok {
		return fmt.Sprintf("cuBLAS: %s (%d)", name, int32(s))
	}
	return fmt.Sprintf("cuBLAS: status %d", int32(s))
}

// Is lets errors.Is match the shared sentinels: allocation failure is
// core.ErrOutOfMemory, an unsupported case core.ErrUnsupported and an
// invalid value core.ErrArgument.
func (s BLASStatus) Is(target error) bool {
	switch target {
	case core.ErrOutOfMemory:
		return s == 3
	case core.ErrUnsupported:
		return s == 8 || s == 15
	case core.ErrArgument:
		return s == 7
	}
	return false
}

// SolverStatus is a cusolverStatus_t other than CUSOLVER_STATUS_SUCCESS.
type SolverStatus int32

var solverStatusNames = map[SolverStatus]string{
	1:  "CUSOLVER_STATUS_NOT_INITIALIZED",
	2:  "CUSOLVER_STATUS_ALLOC_FAILED",
	3:  "CUSOLVER_STATUS_INVALID_VALUE",
	4:  "CUSOLVER_STATUS_ARCH_MISMATCH",
	5:  "CUSOLVER_STATUS_MAPPING_ERROR",
	6:  "CUSOLVER_STATUS_EXECUTION_FAILED",
	7:  "CUSOLVER_STATUS_INTERNAL_ERROR",
	8:  "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED",
	9:  "CUSOLVER_STATUS_NOT_SUPPORTED",
	10: "CUSOLVER_STATUS_ZERO_PIVOT",
	11: "CUSOLVER_STATUS_INVALID_LICENSE",
}

func (s SolverStatus) Error() string {
	if name, ok := solverStatusNames[s]; ok {
		return fmt.Sprintf("cuSOLVER: %s (%d)", name, int32(s))
	}
	return fmt.Sprintf("cuSOLVER: status %d", int32(s))
}

// Is matches the shared sentinels as BLASStatus.Is does.
func (s SolverStatus) Is(target error) bool {
	switch target {
	case core.ErrOutOfMemory:
		return s == 2
	case core.ErrUnsupported:
		return s == 4 || s == 8 || s == 9
	case core.ErrArgument:
		return s == 3
	}
	return false
}

// blasErr turns a raw cublasStatus_t into nil or an error naming the routine.
func blasErr(routine string, r uintptr) error {
	if s := int32(r); s != 0 {
		return fmt.Errorf("cuda: %s: %w", routine, BLASStatus(s))
	}
	return nil
}

// solverErr turns a raw cusolverStatus_t into nil or an error naming the routine.
func solverErr(routine string, r uintptr) error {
	if s := int32(r); s != 0 {
		return fmt.Errorf("cuda: %s: %w", routine, SolverStatus(s))
	}
	return nil
}

// symbol is one probed entry point: its address, or why it is missing.
type symbol struct {
	name string
	addr uintptr
	err  error
}

// bind probes name in l. A missing symbol is kept as an error and reported
// only when its routine is first used, so an old library still serves the
// routines it has.
func bind(l *Library, name string) symbol {
	addr, err := l.Symbol(name)
	return symbol{name: name, addr: addr, err: err}
}

// typedName expands the '?' of a pattern such as "cublas?trsm_v2" into the
// S, D, C and Z names.
func typedNames(pattern string) [4]string {
	var out [4]string
	for d := Float32; d <= Complex128; d++ {
		b := []byte(pattern)
		for i := range b {
			if b[i] == '?' {
				b[i] = d.letter()
			}
		}
		out[d] = string(b)
	}
	return out
}

// pinAddr pins *p for the duration of a vendor call and returns its address.
// Pinning also moves p to the heap: a uintptr to a goroutine stack slot could
// go stale if the stack grew between taking the address and the C call,
// because our variadic call() does not carry SyscallN's uintptrescapes.
func pinAddr[T any](pin *runtime.Pinner, p *T) uintptr {
	pin.Pin(p)
	return uintptr(unsafe.Pointer(p))
}

// pinPair is pinAddr for a routine's two scalars, alpha and beta, held
// side by side in one pinned block.
func pinPair[T any](pin *runtime.Pinner, alpha, beta T) (pa, pb uintptr) {
	scalars := &[2]T{alpha, beta}
	pin.Pin(scalars)
	return uintptr(unsafe.Pointer(&scalars[0])), uintptr(unsafe.Pointer(&scalars[1]))
}

// checkDims checks that every size is non-negative and fits the 32-bit int of
// the classic vendor API. names lists the sizes' names, comma-separated, in
// the order of values.
func checkDims(routine, names string, values ...int) error {
	for i, v := range values {
		if v < 0 || v > math.MaxInt32 {
			name := strings.Split(names, ",")[i]
			return fmt.Errorf("%w: %s: %s = %d, must be in [0, 2³¹)", core.ErrShape, routine, name, v)
		}
	}
	return nil
}

// errClosed is returned by a routine called on a closed handle.
var errClosed = errors.New("cuda: vendor handle is closed")

// checkStream rejects a stream of another context: a handle enqueues on its
// stream under its own context, and the driver does not allow mixing them.
func checkStream(ctx *Context, s *Stream) error {
	if s != nil && s.Context() != ctx {
		return fmt.Errorf("%w: the stream belongs to %s, the handle to %s", core.ErrDevice, s.Context().Device, ctx.Device)
	}
	return nil
}
