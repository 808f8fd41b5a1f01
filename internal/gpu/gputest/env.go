package gputest

import (
	"testing"
	"unsafe"

	"github.com/batchlas/batchlas/internal/cuda"
)

// Stream returns a stream on the first GPU, destroyed at the end of the
// test, or skips the test with the reason there is none (no device, or no
// NVRTC to compile the kernels).
func Stream(t testing.TB) *cuda.Stream {
	t.Helper()
	devs, err := cuda.Devices()
	if err != nil {
		t.Skipf("no CUDA device: %v", err)
	}
	if _, _, err := cuda.NVRTCVersion(); err != nil {
		t.Skipf("no NVRTC: %v", err)
	}
	c, err := devs[0].Context()
	if err != nil {
		t.Fatalf("primary context of %s: %v", devs[0], err)
	}
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

// Solver returns a cuSOLVER handle on s, closed at the end of the test, or
// skips the test with the reason there is none.
func Solver(t testing.TB, s *cuda.Stream) *cuda.Solver {
	t.Helper()
	sv, err := cuda.NewSolver(s.Context(), s)
	if err != nil {
		t.Skipf("no cuSOLVER: %v", err)
	}
	t.Cleanup(func() { // before Stream's cleanup destroys s
		if err := sv.Close(); err != nil {
			t.Error(err)
		}
	})
	return sv
}

// Alloc returns bytes of device memory (at least 256), freed at the end of
// the test once s has drained.
func Alloc(t testing.TB, s *cuda.Stream, bytes int64) cuda.DevicePtr {
	t.Helper()
	c := s.Context()
	p, err := c.Alloc(max(bytes, 256))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Synchronize()
		c.Free(p)
	})
	return p
}

// Upload copies host to a new device block, freed as Alloc's.
func Upload[E any](t testing.TB, s *cuda.Stream, host []E) cuda.DevicePtr {
	t.Helper()
	var z E
	p := Alloc(t, s, int64(len(host))*int64(unsafe.Sizeof(z)))
	if err := cuda.Upload(s, p, host); err != nil {
		t.Fatal(err)
	}
	return p
}

// Download copies n elements at p back to the host, after the work queued
// on s.
func Download[E any](t testing.TB, s *cuda.Stream, p cuda.DevicePtr, n int) []E {
	t.Helper()
	out := make([]E, n)
	if err := cuda.Download(s, out, p); err != nil {
		t.Fatal(err)
	}
	return out
}

// AsBytes is the memory of s as bytes (nil for an empty s), for comparing
// results bit for bit.
func AsBytes[E any](s []E) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}
