package cuda

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/batchlas/batchlas/internal/core"
)

// DevicePtr is a device address (CUdeviceptr). It is never dereferenced on
// the host.
type DevicePtr uintptr

// Add returns p advanced by bytes.
func (p DevicePtr) Add(bytes int64) DevicePtr { return p + DevicePtr(bytes) }

// Status is a CUDA driver result code (CUresult). Every driver failure is
// returned as a Status, wrapped with what was being done, so errors.Is can
// match a code (errors.Is(err, cuda.StatusInvalidContext)).
type Status int32

// Result codes the library checks for or wants to name without the driver.
const (
	StatusSuccess            Status = 0
	StatusInvalidValue       Status = 1
	StatusOutOfMemory        Status = 2
	StatusNotInitialized     Status = 3
	StatusDeinitialized      Status = 4
	StatusNoDevice           Status = 100
	StatusInvalidDevice      Status = 101
	StatusInvalidImage       Status = 200
	StatusInvalidContext     Status = 201
	StatusNoBinaryForGPU     Status = 209
	StatusInvalidPTX         Status = 218
	StatusInvalidHandle      Status = 400
	StatusNotFound           Status = 500
	StatusNotReady           Status = 600
	StatusIllegalAddress     Status = 700
	StatusLaunchOutOfRes     Status = 701
	StatusLaunchTimeout      Status = 702
	StatusLaunchFailed       Status = 719
	StatusUnsupportedPTX     Status = 222
	StatusInsufficientDriver Status = 35
	StatusUnknown            Status = 999
)

// statusNames is the fallback used when the driver cannot be asked (it did
// not load, or it does not know the code); the texts follow the driver's.
var statusNames = map[Status][2]string{
	StatusSuccess:            {"CUDA_SUCCESS", "no error"},
	StatusInvalidValue:       {"CUDA_ERROR_INVALID_VALUE", "invalid argument"},
	StatusOutOfMemory:        {"CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
	StatusNotInitialized:     {"CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
	StatusDeinitialized:      {"CUDA_ERROR_DEINITIALIZED", "driver shutting down"},
	StatusInsufficientDriver: {"CUDA_ERROR_INSUFFICIENT_DRIVER", "CUDA driver version is insufficient for CUDA runtime version"},
	StatusNoDevice:           {"CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
	StatusInvalidDevice:      {"CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
	StatusInvalidImage:       {"CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
	StatusInvalidContext:     {"CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
	StatusNoBinaryForGPU:     {"CUDA_ERROR_NO_BINARY_FOR_GPU", "no kernel image is available for execution on the device"},
	StatusInvalidPTX:         {"CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
	StatusUnsupportedPTX:     {"CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "the provided PTX was compiled with an unsupported toolchain"},
	StatusInvalidHandle:      {"CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
	StatusNotFound:           {"CUDA_ERROR_NOT_FOUND", "named symbol not found"},
	StatusNotReady:           {"CUDA_ERROR_NOT_READY", "device not ready"},
	StatusIllegalAddress:     {"CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
	StatusLaunchOutOfRes:     {"CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch"},
	StatusLaunchTimeout:      {"CUDA_ERROR_LAUNCH_TIMEOUT", "the launch timed out and was terminated"},
	StatusLaunchFailed:       {"CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
	StatusUnknown:            {"CUDA_ERROR_UNKNOWN", "unknown error"},
}

// Error gives the driver's name and text for the code, e.g.
// "CUDA_ERROR_INVALID_CONTEXT (201): invalid device context".
func (s Status) Error() string {
	name, text := s.describe()
	return fmt.Sprintf("%s (%d): %s", name, int32(s), text)
}

// Name is the code's identifier, e.g. CUDA_ERROR_OUT_OF_MEMORY.
func (s Status) Name() string {
	name, _ := s.describe()
	return name
}

// Is lets the shared sentinels match driver codes: out of memory is
// core.ErrOutOfMemory, and no device or a bad ordinal is core.ErrNoDevice.
func (s Status) Is(target error) bool {
	switch target {
	case core.ErrOutOfMemory:
		return s == StatusOutOfMemory
	case core.ErrNoDevice:
		return s == StatusNoDevice || s == StatusInvalidDevice
	}
	return false
}

// Sticky reports whether the code leaves the context unusable (a kernel
// fault); every later call on the context fails the same way.
func (s Status) Sticky() bool {
	switch s {
	case StatusIllegalAddress, StatusLaunchFailed, StatusLaunchTimeout,
		214, 215, 216, 217, 710, 711, 712, 713, 714, 715, 716, 717, 718:
		return true
	}
	return false
}

func (s Status) describe() (name, text string) {
	if d := loadedDriver(); d != nil {
		var np, tp *byte
		if Status(int32(callp(d.cuGetErrorName, uintptr(s), uintptr(unsafe.Pointer(&np))))) == StatusSuccess && np != nil {
			name = cString(np)
		}
		if Status(int32(callp(d.cuGetErrorString, uintptr(s), uintptr(unsafe.Pointer(&tp))))) == StatusSuccess && tp != nil {
			text = cString(tp)
		}
	}
	if fallback, ok := statusNames[s]; ok {
		if name == "" {
			name = fallback[0]
		}
		if text == "" {
			text = fallback[1]
		}
	}
	if name == "" {
		name = "CUresult"
	}
	if text == "" {
		text = "unrecognised result code"
	}
	return name, text
}

// result turns a raw CUresult return into nil or a Status. Only the low 32
// bits are meaningful: the ABI leaves the upper half of the register undefined.
func result(r uintptr) error {
	if s := Status(int32(uint32(r))); s != StatusSuccess {
		return s
	}
	return nil
}

// callp is call for arguments that hold addresses of Go memory (output
// parameters, byte buffers). go:uintptrescapes moves each object whose
// address is converted in the argument list to the heap and keeps it alive
// for the call; without it a stack-allocated output could move while the C
// function writes to it.
//
//go:uintptrescapes
func callp(fn uintptr, args ...uintptr) uintptr {
	r, _, _ := purego.SyscallN(fn, args...)
	return r
}

// cString copies the NUL-terminated C string at p into Go memory.
func cString(p *byte) string {
	if p == nil {
		return ""
	}
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}

// cBytes returns s as a NUL-terminated byte slice for passing to C.
func cBytes(s string) []byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return b
}

// driverAPI holds the driver entry points. Names are the versioned symbols
// cuda.h maps the plain names to (reference §2.1).
type driverAPI struct {
	lib *Library

	cuInit, cuDriverGetVersion, cuGetErrorName, cuGetErrorString                   uintptr
	cuDeviceGetCount, cuDeviceGet, cuDeviceGetName, cuDeviceGetAttribute           uintptr
	cuDeviceTotalMem                                                               uintptr
	cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRelease                            uintptr
	cuCtxSetCurrent, cuCtxGetCurrent, cuCtxSynchronize                             uintptr
	cuMemAlloc, cuMemFree, cuMemAllocHost, cuMemFreeHost, cuMemGetInfo             uintptr
	cuMemcpyHtoDAsync, cuMemcpyDtoHAsync, cuMemcpyDtoDAsync, cuMemcpy2DAsync       uintptr
	cuMemsetD8Async, cuMemsetD32Async                                              uintptr
	cuStreamCreate, cuStreamDestroy, cuStreamSynchronize, cuStreamQuery            uintptr
	cuStreamWaitEvent                                                              uintptr
	cuEventCreate, cuEventDestroy, cuEventRecord, cuEventSynchronize, cuEventQuery uintptr
	cuEventElapsedTime                                                             uintptr
	cuModuleLoadData, cuModuleUnload, cuModuleGetFunction                          uintptr
	cuFuncGetAttribute, cuFuncSetAttribute, cuLaunchKernel                         uintptr
	cuOccupancyMaxActiveBlocksPerMultiprocessor                                    uintptr
}

var (
	driverLib  lazyLib
	driverOnce sync.Once
	driverVal  *driverAPI
	driverErr  error
	driverMu   sync.Mutex // guards driverOK
	driverOK   *driverAPI // set once the driver has loaded, for Status.Error
)

// driver opens libcuda.so.1 and binds every entry point once per process.
// A missing library or symbol is an error wrapping core.ErrLibraryNotFound.
func driver() (*driverAPI, error) {
	driverOnce.Do(func() {
		lib, err := driverLib.get("libcuda.so.1")
		if err != nil {
			driverErr = fmt.Errorf("cuda: the NVIDIA driver library did not load: %w", err)
			return
		}
		d := &driverAPI{lib: lib}
		err = lib.symbols(map[string]*uintptr{
			"cuInit":                       &d.cuInit,
			"cuDriverGetVersion":           &d.cuDriverGetVersion,
			"cuGetErrorName":               &d.cuGetErrorName,
			"cuGetErrorString":             &d.cuGetErrorString,
			"cuDeviceGetCount":             &d.cuDeviceGetCount,
			"cuDeviceGet":                  &d.cuDeviceGet,
			"cuDeviceGetName":              &d.cuDeviceGetName,
			"cuDeviceGetAttribute":         &d.cuDeviceGetAttribute,
			"cuDeviceTotalMem_v2":          &d.cuDeviceTotalMem,
			"cuDevicePrimaryCtxRetain":     &d.cuDevicePrimaryCtxRetain,
			"cuDevicePrimaryCtxRelease_v2": &d.cuDevicePrimaryCtxRelease,
			"cuCtxSetCurrent":              &d.cuCtxSetCurrent,
			"cuCtxGetCurrent":              &d.cuCtxGetCurrent,
			"cuCtxSynchronize":             &d.cuCtxSynchronize,
			"cuMemAlloc_v2":                &d.cuMemAlloc,
			"cuMemFree_v2":                 &d.cuMemFree,
			"cuMemAllocHost_v2":            &d.cuMemAllocHost,
			"cuMemFreeHost":                &d.cuMemFreeHost,
			"cuMemGetInfo_v2":              &d.cuMemGetInfo,
			"cuMemcpyHtoDAsync_v2":         &d.cuMemcpyHtoDAsync,
			"cuMemcpyDtoHAsync_v2":         &d.cuMemcpyDtoHAsync,
			"cuMemcpyDtoDAsync_v2":         &d.cuMemcpyDtoDAsync,
			"cuMemcpy2DAsync_v2":           &d.cuMemcpy2DAsync,
			"cuMemsetD8Async":              &d.cuMemsetD8Async,
			"cuMemsetD32Async":             &d.cuMemsetD32Async,
			"cuStreamCreate":               &d.cuStreamCreate,
			"cuStreamDestroy_v2":           &d.cuStreamDestroy,
			"cuStreamSynchronize":          &d.cuStreamSynchronize,
			"cuStreamQuery":                &d.cuStreamQuery,
			"cuStreamWaitEvent":            &d.cuStreamWaitEvent,
			"cuEventCreate":                &d.cuEventCreate,
			"cuEventDestroy_v2":            &d.cuEventDestroy,
			"cuEventRecord":                &d.cuEventRecord,
			"cuEventSynchronize":           &d.cuEventSynchronize,
			"cuEventQuery":                 &d.cuEventQuery,
			"cuModuleLoadData":             &d.cuModuleLoadData,
			"cuModuleUnload":               &d.cuModuleUnload,
			"cuModuleGetFunction":          &d.cuModuleGetFunction,
			"cuFuncGetAttribute":           &d.cuFuncGetAttribute,
			"cuFuncSetAttribute":           &d.cuFuncSetAttribute,
			"cuLaunchKernel":               &d.cuLaunchKernel,
			"cuOccupancyMaxActiveBlocksPerMultiprocessor": &d.cuOccupancyMaxActiveBlocksPerMultiprocessor,
		})
		// CUDA 13's header maps cuEventElapsedTime to the _v2 symbol (same
		// arguments); driver 580 exports both. Prefer _v2, accept either.
		if p, e := lib.Symbol("cuEventElapsedTime_v2"); e == nil {
			d.cuEventElapsedTime = p
		} else if p, e := lib.Symbol("cuEventElapsedTime"); e == nil {
			d.cuEventElapsedTime = p
		} else {
			err = errors.Join(err, e)
		}
		if err != nil {
			driverErr = fmt.Errorf("cuda: the driver %s is too old or incomplete: %w", lib.Path, err)
			return
		}
		// The error names are usable from here on even if cuInit fails.
		driverMu.Lock()
		driverOK = d
		driverMu.Unlock()
		if err := result(call(d.cuInit, 0)); err != nil {
			driverErr = fmt.Errorf("%w: cuda: cuInit failed (driver %s): %w", core.ErrNoDevice, lib.Path, err)
			return
		}
		driverVal = d
	})
	return driverVal, driverErr
}

// loadedDriver returns the driver if it has already been opened, without
// trying to open it (Status.Error must not load libraries).
func loadedDriver() *driverAPI {
	driverMu.Lock()
	defer driverMu.Unlock()
	return driverOK
}

// Driver-API enum values used here (cuda.h, CUDA 13.0).
const (
	// CUdevice_attribute
	attrMaxThreadsPerBlock       = 1
	attrMaxBlockDimX             = 2
	attrMaxBlockDimY             = 3
	attrMaxBlockDimZ             = 4
	attrMaxGridDimX              = 5
	attrMaxGridDimY              = 6
	attrMaxGridDimZ              = 7
	attrMaxSharedPerBlock        = 8
	attrWarpSize                 = 10
	attrMaxRegistersPerBlock     = 12
	attrMultiprocessorCount      = 16
	attrIntegrated               = 18
	attrPCIBusID                 = 33
	attrPCIDeviceID              = 34
	attrMemoryBusWidth           = 37
	attrL2CacheSize              = 38
	attrMaxThreadsPerSM          = 39
	attrAsyncEngineCount         = 40
	attrPCIDomainID              = 50
	attrComputeCapabilityMajor   = 75
	attrComputeCapabilityMinor   = 76
	attrMaxSharedPerSM           = 81
	attrMaxRegistersPerSM        = 82
	attrMaxSharedPerBlockOptin   = 97
	attrMaxBlocksPerSM           = 106
	attrMaxPersistingL2CacheSize = 108

	// CUfunction_attribute
	funcAttrMaxThreadsPerBlock    = 0
	funcAttrSharedSizeBytes       = 1
	funcAttrConstSizeBytes        = 2
	funcAttrLocalSizeBytes        = 3
	funcAttrNumRegs               = 4
	funcAttrPTXVersion            = 5
	funcAttrBinaryVersion         = 6
	funcAttrMaxDynamicSharedBytes = 8

	// CUstream_flags, CUevent_flags
	streamNonBlocking    = 1
	eventDefault         = 0
	eventDisableTiming   = 2
	memoryTypeHost       = 1 // CUmemorytype
	memoryTypeDevice     = 2
	defaultSharedLimit   = 48 << 10 // dynamic shared memory allowed without opting in
	maxKernelArgs        = 32
	maxGridDimYZ         = 65535
	maxGridDimX          = 1<<31 - 1
	maxThreadsPerBlockHW = 1024
)
