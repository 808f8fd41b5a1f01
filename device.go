package batchlas

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
)

// DeviceKind says which engine a device runs on.
type DeviceKind int

const (
	CPU  DeviceKind = iota // the pure-Go engine, on every core
	CUDA                   // an NVIDIA GPU, through the CUDA driver loaded at run time
)

func (k DeviceKind) String() string {
	switch k {
	case CPU:
		return "cpu"
	case CUDA:
		return "cuda"
	}
	return fmt.Sprintf("DeviceKind(%d)", int(k))
}

// Device is a place where batches live and ops run. Open one with
// OpenDevice; a Device is safe for use by many goroutines.
type Device struct {
	kind    DeviceKind
	ordinal int
	name    string
	workers int        // CPU: goroutines per op
	gpu     *gpuDevice // CUDA: nil on the CPU
}

// OpenDevice opens a device by name:
//
//	"auto"            the first CUDA GPU if one works, else the CPU
//	"cpu", "cpu:N"    the CPU engine, with N worker goroutines (default GOMAXPROCS)
//	"cuda", "cuda:N"  CUDA GPU number N (default 0)
//
// A GPU that cannot be used returns an error wrapping ErrNoDevice or
// ErrLibraryNotFound that says why; Devices lists what is available.
func OpenDevice(spec string) (*Device, error) {
	name, arg, hasArg := strings.Cut(strings.ToLower(strings.TrimSpace(spec)), ":")
	n := 0
	if hasArg {
		v, err := strconv.Atoi(arg)
		if err != nil || v < 0 {
			return nil, fmt.Errorf("%w: device %q: %q is not a number", ErrNoDevice, spec, arg)
		}
		n = v
	}
	switch name {
	case "auto", "":
		if hasArg {
			break
		}
		if d, err := openCUDA(0); err == nil {
			return d, nil
		}
		return openCPU(0), nil
	case "cpu":
		if hasArg && n == 0 {
			return nil, fmt.Errorf("%w: device %q: a CPU needs at least one worker", ErrNoDevice, spec)
		}
		return openCPU(n), nil
	case "cuda", "gpu":
		return openCUDA(n)
	}
	return nil, fmt.Errorf("%w: device %q: want auto, cpu, cpu:N, cuda or cuda:N", ErrNoDevice, spec)
}

func openCPU(workers int) *Device {
	name := fmt.Sprintf("%s/%s, %d cores", runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	return &Device{kind: CPU, name: name, workers: workers}
}

// Kind reports the engine the device runs on.
func (d *Device) Kind() DeviceKind { return d.kind }

// Name describes the device, e.g. "NVIDIA H200" or "linux/amd64, 2 cores".
func (d *Device) Name() string { return d.name }

// String is the spelling OpenDevice accepts for this device.
func (d *Device) String() string {
	if d.kind == CPU {
		if d.workers > 0 {
			return fmt.Sprintf("cpu:%d", d.workers)
		}
		return "cpu"
	}
	return fmt.Sprintf("cuda:%d", d.ordinal)
}

// DeviceStatus describes one device that OpenDevice could open, or why a
// kind of device is unavailable.
type DeviceStatus struct {
	Spec    string // what OpenDevice accepts, e.g. "cuda:0"
	Kind    DeviceKind
	Name    string
	Details []string // facts worth showing: memory, compute capability, library versions
	Err     error    // non-nil when this device cannot be used, saying why
}

// Devices lists the CPU and every CUDA GPU, or the reason there is none.
func Devices() []DeviceStatus {
	cpu := openCPU(0)
	list := []DeviceStatus{{
		Spec: "cpu", Kind: CPU, Name: cpu.name,
		Details: []string{fmt.Sprintf("%d workers (GOMAXPROCS)", runtime.GOMAXPROCS(0)), runtime.Version()},
	}}
	return append(list, cudaStatus()...)
}
