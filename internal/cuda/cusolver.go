package cuda

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/batchlas/batchlas/internal/core"
)

// cuSOLVER keeps soname major 12 under CUDA 13 (cusolverGetVersion 12004
// on the target); 11 is the CUDA 11 library with the same ABI for these calls.
var cusolverSonames = []string{"libcusolver.so.12", "libcusolver.so.11"}

// solverRoutine names a cuSOLVER routine family with S, D, C and Z entry points.
type solverRoutine int

const (
	solverPotrfBatched solverRoutine = iota
	solverPotrsBatched
	numSolverRoutines
)

var solverPatterns = [numSolverRoutines]string{
	solverPotrfBatched: "cusolverDn?potrfBatched",
	solverPotrsBatched: "cusolverDn?potrsBatched",
}

// cusolverAPI is the probed cuSOLVER entry points.
type cusolverAPI struct {
	lib                                    *Library
	create, destroy, setStream, getVersion symbol
	createParams, destroyParams            symbol
	xpotrf, xpotrfBufferSize               symbol // one entry each: the data type is an argument
	typed                                  [numSolverRoutines][4]symbol
}

var (
	cusolverLib  lazyLib
	cusolverOnce sync.Once
	cusolverTab  *cusolverAPI
	cusolverErr  error
)

// loadCUSOLVER opens cuSOLVER once per process and probes every symbol.
func loadCUSOLVER() (*cusolverAPI, error) {
	cusolverOnce.Do(func() {
		l, err := cusolverLib.get(cusolverSonames...)
		if err != nil {
			cusolverErr = err
			return
		}
		api := &cusolverAPI{
			lib:              l,
			create:           bind(l, "cusolverDnCreate"),
			destroy:          bind(l, "cusolverDnDestroy"),
			setStream:        bind(l, "cusolverDnSetStream"),
			getVersion:       bind(l, "cusolverGetVersion"),
			createParams:     bind(l, "cusolverDnCreateParams"),
			destroyParams:    bind(l, "cusolverDnDestroyParams"),
			xpotrf:           bind(l, "cusolverDnXpotrf"),
			xpotrfBufferSize: bind(l, "cusolverDnXpotrf_bufferSize"),
		}
		for r, pattern := range solverPatterns {
			for d, name := range typedNames(pattern) {
				api.typed[r][d] = bind(l, name)
			}
		}
		cusolverTab = api
	})
	return cusolverTab, cusolverErr
}

// CUSOLVERAvailable reports whether cuSOLVER can be opened, and why not.
func CUSOLVERAvailable() error {
	_, err := loadCUSOLVER()
	return err
}

// SolverVersion is cuSOLVER's version number (major·1000 + minor·100 +
// patch, e.g. 12004); it needs no handle or context.
func SolverVersion() (int, error) {
	api, err := loadCUSOLVER()
	if err != nil {
		return 0, err
	}
	if api.getVersion.err != nil {
		return 0, api.getVersion.err
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	v := new(int32)
	err = solverErr(api.getVersion.name, call(api.getVersion.addr, pinAddr(&pin, v)))
	return int(*v), err
}

// Solver is a dense cuSOLVER handle (cusolverDnHandle_t) created under one
// context and bound to one stream. Every routine enqueues on that stream.
// A Solver must not be used by two goroutines at once.
type Solver struct {
	ctx    *Context
	api    *cusolverAPI
	handle uintptr
	params uintptr // cusolverDnParams_t for the 64-bit API, created on first use
	stream *Stream
}

// NewSolver creates a cuSOLVER handle under ctx and binds it to stream (nil
// means the context's default stream).
func NewSolver(ctx *Context, stream *Stream) (*Solver, error) {
	api, err := loadCUSOLVER()
	if err != nil {
		return nil, err
	}
	for _, s := range []symbol{api.create, api.destroy, api.setStream} {
		if s.err != nil {
			return nil, s.err
		}
	}
	if err := checkStream(ctx, stream); err != nil {
		return nil, err
	}
	sv := &Solver{ctx: ctx, api: api}
	err = ctx.Do(func() error {
		var pin runtime.Pinner
		defer pin.Unpin()
		h := new(uintptr)
		if err := solverErr(api.create.name, call(api.create.addr, pinAddr(&pin, h))); err != nil {
			return err
		}
		if err := solverErr(api.setStream.name, call(api.setStream.addr, *h, streamHandle(stream))); err != nil {
			call(api.destroy.addr, *h)
			return err
		}
		sv.handle = *h
		return nil
	})
	if err != nil {
		return nil, err
	}
	sv.stream = stream
	return sv, nil
}

// Stream is the stream the handle enqueues on (nil: the default stream).
func (sv *Solver) Stream() *Stream { return sv.stream }

// SetStream rebinds the handle to s (nil: the default stream).
func (sv *Solver) SetStream(s *Stream) error {
	err := sv.do(func() error {
		return solverErr(sv.api.setStream.name, call(sv.api.setStream.addr, sv.handle, streamHandle(s)))
	})
	if err == nil {
		sv.stream = s
	}
	return err
}

// Close destroys the parameter object and the handle; closing twice is harmless.
func (sv *Solver) Close() error {
	if sv == nil || sv.handle == 0 {
		return nil
	}
	err := sv.ctx.Do(func() error {
		var first error
		if sv.params != 0 {
			first = solverErr(sv.api.destroyParams.name, call(sv.api.destroyParams.addr, sv.params))
			sv.params = 0
		}
		if err := solverErr(sv.api.destroy.name, call(sv.api.destroy.addr, sv.handle)); first == nil {
			first = err
		}
		return first
	})
	sv.handle = 0
	return err
}

func (sv *Solver) do(fn func() error) error {
	if sv == nil || sv.handle == 0 {
		return errClosed
	}
	return sv.ctx.Do(fn)
}

func (sv *Solver) fn(r solverRoutine, d DType) (symbol, error) {
	s := sv.api.typed[r][d]
	return s, s.err
}

// PotrfBatched factors each n×n Hermitian positive definite A_i = L_i·L_iᴴ
// (uplo Lower) or U_iᴴ·U_i (uplo Upper) in place, touching only the uplo
// triangle (cusolverDn?potrfBatched, 7 arguments). aArray is a device array
// of count pointers; info is device int32[count]: 0, or k > 0 when the
// leading minor of order k is not positive definite.
func PotrfBatched[T core.Scalar](sv *Solver, uplo core.Uplo, n int, aArray DevicePtr, lda int, info DevicePtr, count int) error {
	s, err := sv.fn(solverPotrfBatched, DTypeOf[T]())
	if err != nil {
		return err
	}
	fl, err := fillCode(uplo)
	if err != nil {
		return err
	}
	if err := checkDims("PotrfBatched", "n,lda,count", n, lda, count); err != nil {
		return err
	}
	if count == 0 {
		return nil
	}
	return sv.do(func() error {
		return solverErr(s.name, call(s.addr, sv.handle, fl, uintptr(n), uintptr(aArray), uintptr(lda),
			uintptr(info), uintptr(count)))
	})
}

// PotrsBatched solves A_i·x_i = b_i with the factors of PotrfBatched; x_i
// overwrites b_i (cusolverDn?potrsBatched, 10 arguments). cuSOLVER supports
// only nrhs = 1; any other value is an error wrapping core.ErrUnsupported.
// info is ONE device int32 for argument errors (−j: parameter j invalid),
// not one per matrix.
func PotrsBatched[T core.Scalar](sv *Solver, uplo core.Uplo, n, nrhs int, aArray DevicePtr, lda int,
	bArray DevicePtr, ldb int, info DevicePtr, count int) error {
	const name = "PotrsBatched"
	s, err := sv.fn(solverPotrsBatched, DTypeOf[T]())
	if err != nil {
		return err
	}
	fl, err := fillCode(uplo)
	if err != nil {
		return err
	}
	if nrhs != 1 {
		return fmt.Errorf("%w: %s: nrhs = %d, cuSOLVER supports only 1", core.ErrUnsupported, name, nrhs)
	}
	if err := checkDims(name, "n,lda,ldb,count", n, lda, ldb, count); err != nil {
		return err
	}
	if count == 0 {
		return nil
	}
	return sv.do(func() error {
		return solverErr(s.name, call(s.addr, sv.handle, fl, uintptr(n), uintptr(nrhs),
			uintptr(aArray), uintptr(lda), uintptr(bArray), uintptr(ldb), uintptr(info), uintptr(count)))
	})
}

// ensureParams creates the handle's cusolverDnParams_t on first use. It runs
// inside do.
func (sv *Solver) ensureParams() error {
	if sv.params != 0 {
		return nil
	}
	for _, s := range []symbol{sv.api.createParams, sv.api.destroyParams} {
		if s.err != nil {
			return s.err
		}
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	p := new(uintptr)
	if err := solverErr(sv.api.createParams.name, call(sv.api.createParams.addr, pinAddr(&pin, p))); err != nil {
		return err
	}
	sv.params = *p
	return nil
}

// XpotrfBufferSize returns the device and host workspace sizes, in bytes,
// that Xpotrf needs for one n×n matrix (cusolverDnXpotrf_bufferSize, 10
// arguments).
func XpotrfBufferSize[T core.Scalar](sv *Solver, uplo core.Uplo, n int, a DevicePtr, lda int) (deviceBytes, hostBytes int64, err error) {
	s := sv.api.xpotrfBufferSize
	if s.err != nil {
		return 0, 0, s.err
	}
	fl, err := fillCode(uplo)
	if err != nil {
		return 0, 0, err
	}
	if n < 0 || lda < max(1, n) {
		return 0, 0, fmt.Errorf("%w: XpotrfBufferSize: n = %d, lda = %d", core.ErrShape, n, lda)
	}
	dt := DTypeOf[T]().dataType()
	var pin runtime.Pinner
	defer pin.Unpin()
	sizes := new([2]uint64)
	pin.Pin(sizes)
	err = sv.do(func() error {
		if err := sv.ensureParams(); err != nil {
			return err
		}
		return solverErr(s.name, call(s.addr, sv.handle, sv.params, fl, uintptr(n), dt,
			uintptr(a), uintptr(lda), dt,
			uintptr(unsafe.Pointer(&sizes[0])), uintptr(unsafe.Pointer(&sizes[1]))))
	})
	return int64(sizes[0]), int64(sizes[1]), err
}

// Xpotrf factors one n×n Hermitian positive definite A = L·Lᴴ (Lower) or
// Uᴴ·U (Upper) in place with the 64-bit API (cusolverDnXpotrf, 13
// arguments); the compute type is T's own. deviceWork holds deviceBytes and
// hostWork at least the host size from XpotrfBufferSize (usually 0); keep
// both untouched until the stream has finished. info is one device int32:
// 0, or k > 0 when the leading minor of order k is not positive definite.
func Xpotrf[T core.Scalar](sv *Solver, uplo core.Uplo, n int, a DevicePtr, lda int,
	deviceWork DevicePtr, deviceBytes int64, hostWork []byte, info DevicePtr) error {
	s := sv.api.xpotrf
	if s.err != nil {
		return s.err
	}
	fl, err := fillCode(uplo)
	if err != nil {
		return err
	}
	if n < 0 || lda < max(1, n) {
		return fmt.Errorf("%w: Xpotrf: n = %d, lda = %d", core.ErrShape, n, lda)
	}
	if deviceBytes < 0 {
		return fmt.Errorf("%w: Xpotrf: deviceBytes = %d", core.ErrArgument, deviceBytes)
	}
	dt := DTypeOf[T]().dataType()
	var pin runtime.Pinner
	defer pin.Unpin()
	var host uintptr
	if len(hostWork) > 0 {
		host = pinAddr(&pin, &hostWork[0])
	}
	return sv.do(func() error {
		if err := sv.ensureParams(); err != nil {
			return err
		}
		return solverErr(s.name, call(s.addr, sv.handle, sv.params, fl, uintptr(n), dt,
			uintptr(a), uintptr(lda), dt,
			uintptr(deviceWork), uintptr(deviceBytes), host, uintptr(len(hostWork)), uintptr(info)))
	})
}
