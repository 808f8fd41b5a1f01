package cuda

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/batchlas/batchlas/internal/core"
)

// Device is one CUDA GPU as the driver reports it. The values are read once,
// by Devices; `batchlas devices` prints them and launch limits derive from them.
type Device struct {
	Ordinal          int
	Name             string
	SMs              int   // multiprocessor count
	MemoryBytes      int64 // total device memory
	CCMajor, CCMinor int   // compute capability
	DriverVersion    int   // cuDriverGetVersion, e.g. 13000 for CUDA 13.0
	L2Bytes          int
	WarpSize         int

	MaxThreadsPerBlock     int
	MaxThreadsPerSM        int
	MaxBlocksPerSM         int
	MaxBlockDim            [3]int
	MaxGridDim             [3]int
	MaxSharedPerBlock      int // without opting in (48 KiB)
	MaxSharedPerBlockOptin int // with CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
	MaxSharedPerSM         int
	MaxRegistersPerBlock   int
	MaxRegistersPerSM      int
	MemoryBusWidth         int    // bits
	AsyncEngines           int    // copy engines
	Integrated             bool   // shares memory with the host
	PCIBusID               string // domain:bus:device, e.g. 0000:1b:00

	handle int32 // CUdevice

	ctxOnce sync.Once
	ctx     *Context
	ctxErr  error
}

// Arch is the real architecture NVRTC targets for this device, e.g. "sm_90".
func (d *Device) Arch() string { return fmt.Sprintf("sm_%d%d", d.CCMajor, d.CCMinor) }

func (d *Device) String() string {
	return fmt.Sprintf("cuda:%d (%s, %s)", d.Ordinal, d.Name, d.Arch())
}

var (
	devicesOnce sync.Once
	devicesVal  []*Device
	devicesErr  error
)

// Devices initialises the driver and lists the GPUs, once per process (the
// same *Device values every call). With no usable GPU the error says why and
// wraps core.ErrLibraryNotFound (no libcuda.so.1, or too old) or
// core.ErrNoDevice (cuInit failed, or no device).
func Devices() ([]*Device, error) {
	devicesOnce.Do(func() { devicesVal, devicesErr = enumerateDevices() })
	return devicesVal, devicesErr
}

// DeviceByOrdinal returns device i of Devices.
func DeviceByOrdinal(i int) (*Device, error) {
	devs, err := Devices()
	if err != nil {
		return nil, err
	}
	if i < 0 || i >= len(devs) {
		return nil, fmt.Errorf("%w: cuda:%d (the machine has %d CUDA devices)", core.ErrNoDevice, i, len(devs))
	}
	return devs[i], nil
}

func enumerateDevices() ([]*Device, error) {
	d, err := driver()
	if err != nil {
		return nil, err
	}
	var version, count int32
	if err := result(callp(d.cuDriverGetVersion, uintptr(unsafe.Pointer(&version)))); err != nil {
		return nil, fmt.Errorf("%w: cuda: cuDriverGetVersion: %w", core.ErrNoDevice, err)
	}
	if err := result(callp(d.cuDeviceGetCount, uintptr(unsafe.Pointer(&count)))); err != nil {
		return nil, fmt.Errorf("%w: cuda: cuDeviceGetCount: %w", core.ErrNoDevice, err)
	}
	if count == 0 {
		return nil, fmt.Errorf("%w: cuda: the driver (%s, version %d) sees no GPU", core.ErrNoDevice, d.lib.Path, version)
	}
	devs := make([]*Device, 0, count)
	for i := range int(count) {
		dev, err := describeDevice(d, i)
		if err != nil {
			return nil, fmt.Errorf("%w: cuda: device %d: %w", core.ErrNoDevice, i, err)
		}
		dev.DriverVersion = int(version)
		devs = append(devs, dev)
	}
	return devs, nil
}

func describeDevice(d *driverAPI, ordinal int) (*Device, error) {
	var handle int32
	if err := result(callp(d.cuDeviceGet, uintptr(unsafe.Pointer(&handle)), uintptr(ordinal))); err != nil {
		return nil, fmt.Errorf("cuDeviceGet: %w", err)
	}
	name := make([]byte, 256)
	if err := result(callp(d.cuDeviceGetName, uintptr(unsafe.Pointer(&name[0])), uintptr(len(name)-1), uintptr(handle))); err != nil {
		return nil, fmt.Errorf("cuDeviceGetName: %w", err)
	}
	var total uint64
	if err := result(callp(d.cuDeviceTotalMem, uintptr(unsafe.Pointer(&total)), uintptr(handle))); err != nil {
		return nil, fmt.Errorf("cuDeviceTotalMem: %w", err)
	}
	var firstErr error
	attr := func(a int) int {
		var v int32
		if err := result(callp(d.cuDeviceGetAttribute, uintptr(unsafe.Pointer(&v)), uintptr(a), uintptr(handle))); err != nil {
			if firstErr == nil {
				firstErr = fmt.Errorf("cuDeviceGetAttribute(%d): %w", a, err)
			}
			return 0
		}
		return int(v)
	}
	dev := &Device{
		Ordinal:                ordinal,
		Name:                   cString(&name[0]),
		MemoryBytes:            int64(total),
		SMs:                    attr(attrMultiprocessorCount),
		CCMajor:                attr(attrComputeCapabilityMajor),
		CCMinor:                attr(attrComputeCapabilityMinor),
		L2Bytes:                attr(attrL2CacheSize),
		WarpSize:               attr(attrWarpSize),
		MaxThreadsPerBlock:     attr(attrMaxThreadsPerBlock),
		MaxThreadsPerSM:        attr(attrMaxThreadsPerSM),
		MaxBlocksPerSM:         attr(attrMaxBlocksPerSM),
		MaxBlockDim:            [3]int{attr(attrMaxBlockDimX), attr(attrMaxBlockDimY), attr(attrMaxBlockDimZ)},
		MaxGridDim:             [3]int{attr(attrMaxGridDimX), attr(attrMaxGridDimY), attr(attrMaxGridDimZ)},
		MaxSharedPerBlock:      attr(attrMaxSharedPerBlock),
		MaxSharedPerBlockOptin: attr(attrMaxSharedPerBlockOptin),
		MaxSharedPerSM:         attr(attrMaxSharedPerSM),
		MaxRegistersPerBlock:   attr(attrMaxRegistersPerBlock),
		MaxRegistersPerSM:      attr(attrMaxRegistersPerSM),
		MemoryBusWidth:         attr(attrMemoryBusWidth),
		AsyncEngines:           attr(attrAsyncEngineCount),
		Integrated:             attr(attrIntegrated) != 0,
		handle:                 handle,
	}
	dev.PCIBusID = fmt.Sprintf("%04x:%02x:%02x", attr(attrPCIDomainID), attr(attrPCIBusID), attr(attrPCIDeviceID))
	if firstErr != nil {
		return nil, firstErr
	}
	return dev, nil
}

// Context is a device's primary context: the one context per device that
// cuBLAS and cuSOLVER also use. It owns the device-memory pool, the pinned
// staging buffers and the loaded kernels of its device.
type Context struct {
	Device *Device
	handle uintptr // CUcontext
	d      *driverAPI

	pool    memoryPool
	staging stagingPool
}

// Context retains the device's primary context on first use and returns the
// same *Context afterwards; it is never released (it lives as long as the
// process, like the driver's own handles to it).
func (d *Device) Context() (*Context, error) {
	d.ctxOnce.Do(func() {
		drv, err := driver()
		if err != nil {
			d.ctxErr = err
			return
		}
		var h uintptr
		if err := result(callp(drv.cuDevicePrimaryCtxRetain, uintptr(unsafe.Pointer(&h)), uintptr(d.handle))); err != nil {
			d.ctxErr = fmt.Errorf("%w: cuda: retaining the primary context of %s: %w", core.ErrNoDevice, d, err)
			return
		}
		c := &Context{Device: d, handle: h, d: drv}
		c.pool.init(c)
		c.staging.init(c)
		d.ctx = c
	})
	return d.ctx, d.ctxErr
}

// Handle is the raw CUcontext.
func (c *Context) Handle() uintptr { return c.handle }

// Do runs fn on a locked OS thread with this context current. Every driver,
// cuBLAS and cuSOLVER call goes through Do: the current context belongs to the
// OS thread, and a goroutine may otherwise move to a thread where it is not
// current (measured: cuModuleLoadData then fails with
// CUDA_ERROR_INVALID_CONTEXT). Do is safe from many goroutines at once and may
// be nested, also with another context: the thread's previous context is
// restored on return.
func (c *Context) Do(fn func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var prev uintptr
	if err := result(callp(c.d.cuCtxGetCurrent, uintptr(unsafe.Pointer(&prev)))); err != nil {
		return fmt.Errorf("cuda: cuCtxGetCurrent: %w", err)
	}
	if prev != c.handle {
		if err := result(call(c.d.cuCtxSetCurrent, c.handle)); err != nil {
			return fmt.Errorf("cuda: making the context of %s current: %w", c.Device, err)
		}
		if prev != 0 {
			// A nested Do for another device: give the outer caller its context back.
			defer call(c.d.cuCtxSetCurrent, prev)
		}
	}
	return fn()
}

// Synchronize waits for all work queued on the device by this process.
func (c *Context) Synchronize() error {
	return c.Do(func() error {
		if err := result(call(c.d.cuCtxSynchronize)); err != nil {
			return fmt.Errorf("cuda: synchronizing %s: %w", c.Device, err)
		}
		return nil
	})
}

// MemoryInfo reports the free and total device memory as the driver sees it
// (memory cached by the pool counts as used).
func (c *Context) MemoryInfo() (free, total int64, err error) {
	err = c.Do(func() error {
		var f, t uint64
		if err := result(callp(c.d.cuMemGetInfo, uintptr(unsafe.Pointer(&f)), uintptr(unsafe.Pointer(&t)))); err != nil {
			return fmt.Errorf("cuda: cuMemGetInfo: %w", err)
		}
		free, total = int64(f), int64(t)
		return nil
	})
	return free, total, err
}
