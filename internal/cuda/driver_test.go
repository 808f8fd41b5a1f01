package cuda

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchlas/batchlas/internal/core"
)

// rtContext returns the first GPU's context, or skips the test (with the
// reason) where there is no usable GPU or driver.
func rtContext(t testing.TB) *Context {
	t.Helper()
	devs, err := Devices()
	if err != nil {
		t.Skipf("no CUDA device: %v", err)
	}
	c, err := devs[0].Context()
	if err != nil {
		t.Fatalf("primary context of %s: %v", devs[0], err)
	}
	return c
}

// rtStream makes a stream destroyed at the end of the test.
func rtStream(t testing.TB, c *Context) *Stream {
	t.Helper()
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Destroy(); err != nil {
			t.Error(err)
		}
	})
	return s
}

// rtNeedNVRTC skips the test where NVRTC cannot be loaded.
func rtNeedNVRTC(t testing.TB) {
	t.Helper()
	if _, _, err := NVRTCVersion(); err != nil {
		t.Skipf("no NVRTC: %v", err)
	}
}

func TestStatusError(t *testing.T) {
	got := StatusInvalidContext.Error()
	if !strings.HasPrefix(got, "CUDA_ERROR_INVALID_CONTEXT (201): ") || len(got) <= len("CUDA_ERROR_INVALID_CONTEXT (201): ") {
		t.Errorf("Status(201).Error() = %q, want the name, the code and a text", got)
	}
	if got := Status(2).Name(); got != "CUDA_ERROR_OUT_OF_MEMORY" {
		t.Errorf("Status(2).Name() = %q", got)
	}
	if got := Status(123456).Error(); !strings.Contains(got, "(123456)") {
		t.Errorf("unknown code: %q does not show the number", got)
	}
	wrapped := fmt.Errorf("allocating: %w", StatusOutOfMemory)
	if !errors.Is(wrapped, core.ErrOutOfMemory) || !errors.Is(wrapped, StatusOutOfMemory) {
		t.Errorf("a wrapped CUDA_ERROR_OUT_OF_MEMORY does not match core.ErrOutOfMemory and itself")
	}
	if !errors.Is(fmt.Errorf("x: %w", StatusNoDevice), core.ErrNoDevice) {
		t.Errorf("CUDA_ERROR_NO_DEVICE does not match core.ErrNoDevice")
	}
	if errors.Is(StatusInvalidValue, core.ErrOutOfMemory) {
		t.Errorf("CUDA_ERROR_INVALID_VALUE matches core.ErrOutOfMemory")
	}
	if !StatusIllegalAddress.Sticky() || StatusOutOfMemory.Sticky() {
		t.Errorf("Sticky: illegal address must be sticky, out of memory must not")
	}
	if err := result(0); err != nil {
		t.Errorf("result(0) = %v", err)
	}
	// Only the low 32 bits of a returned CUresult count.
	if err := result(0xdeadbeef_00000000); err != nil {
		t.Errorf("result with garbage in the upper half = %v", err)
	}
	if err := result(201); err != StatusInvalidContext {
		t.Errorf("result(201) = %v", err)
	}
}

func TestNVRTCResultError(t *testing.T) {
	if got := nvrtcErrorCompilation.Error(); !strings.HasPrefix(got, "NVRTC_ERROR_COMPILATION (6)") {
		t.Errorf("nvrtcResult(6).Error() = %q", got)
	}
	if got := nvrtcResult(77).Error(); !strings.Contains(got, "77") {
		t.Errorf("unknown NVRTC code: %q", got)
	}
}

// TestLoaderError checks that a library that is nowhere gives an error
// wrapping core.ErrLibraryNotFound that names the library and the places
// tried, starting with the override folder, and does not panic.
func TestLoaderError(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(LibDirEnv, dir)
	t.Setenv("LD_LIBRARY_PATH", "") // read by the loader at start-up only; set for clarity
	for _, soname := range []string{"libbatchlas-missing.so.1", "libcuda.so.1"} {
		t.Run(soname, func(t *testing.T) {
			lib, err := openLibrary(soname)
			if err == nil {
				t.Skipf("%s is installed here (%s)", soname, lib.Path)
			}
			if !errors.Is(err, core.ErrLibraryNotFound) {
				t.Fatalf("error %v does not wrap core.ErrLibraryNotFound", err)
			}
			msg := err.Error()
			for _, want := range []string{soname, filepath.Join(dir, soname), "/usr/local/cuda/lib64/" + soname} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not mention %q", msg, want)
				}
			}
		})
	}
}

// TestLoaderReason: a library that is there but does not load (here an
// empty file) is named in the error with the loader's reason, not only
// among the places tried.
func TestLoaderReason(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(LibDirEnv, dir)
	const soname = "libbatchlas-broken.so.1"
	path := filepath.Join(dir, soname)
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := openLibrary(soname)
	if !errors.Is(err, core.ErrLibraryNotFound) || !strings.Contains(err.Error(), "found but not loaded: "+path) {
		t.Fatalf("error %v: want ErrLibraryNotFound with the loader's reason for %s", err, path)
	}
}

// TestDevices runs everywhere: without a GPU the error must say why and
// wrap one of the two sentinels; with one the attributes must be sane.
func TestDevices(t *testing.T) {
	devs, err := Devices()
	if err != nil {
		if !errors.Is(err, core.ErrLibraryNotFound) && !errors.Is(err, core.ErrNoDevice) {
			t.Fatalf("Devices() = %v, wraps neither ErrLibraryNotFound nor ErrNoDevice", err)
		}
		t.Skipf("no CUDA device (as expected here?): %v", err)
	}
	again, _ := Devices()
	if len(again) != len(devs) || again[0] != devs[0] {
		t.Errorf("Devices() does not return the same *Device values on every call")
	}
	for _, d := range devs {
		t.Logf("%s: %d SMs, %.1f GiB, driver %d, L2 %d KiB, shared opt-in %d B, bus %s",
			d, d.SMs, float64(d.MemoryBytes)/(1<<30), d.DriverVersion, d.L2Bytes>>10, d.MaxSharedPerBlockOptin, d.PCIBusID)
		if d.Name == "" || d.SMs <= 0 || d.MemoryBytes <= 0 || d.CCMajor <= 0 || d.DriverVersion <= 0 ||
			d.WarpSize != 32 || d.MaxThreadsPerBlock < 1024 || d.MaxSharedPerBlockOptin < d.MaxSharedPerBlock ||
			d.MaxGridDim[0] < 1<<30 || d.MaxBlockDim[0] < 1024 || d.L2Bytes <= 0 {
			t.Errorf("implausible attributes: %+v", d)
		}
		c1, err := d.Context()
		if err != nil {
			t.Fatal(err)
		}
		c2, _ := d.Context()
		if c1 != c2 || c1.Handle() == 0 {
			t.Errorf("Context() is not retained once")
		}
	}
	if _, err := DeviceByOrdinal(len(devs)); !errors.Is(err, core.ErrNoDevice) {
		t.Errorf("DeviceByOrdinal(%d) = %v, want ErrNoDevice", len(devs), err)
	}
}
