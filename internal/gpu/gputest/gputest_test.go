package gputest

import (
	"strings"
	"testing"

	"github.com/batchlas/batchlas/internal/cuda"
)

func TestOnDeviceRefusesOtherTypes(t *testing.T) {
	ran := false
	err := OnDevice[float32](nil, func([]cuda.DevicePtr) error { ran = true; return nil }, []float32{1}, []float64{2})
	if err == nil || ran || !strings.Contains(err.Error(), "host operand 1 is a []float64, not a []float32 or []int32") {
		t.Errorf("OnDevice with a []float64 operand: ran %v, %v", ran, err)
	}
}

// TestOnDevice round-trips operands through a kernel-free call on the first
// GPU: fn sees distinct device blocks and the host data comes back as fn
// left it.
func TestOnDevice(t *testing.T) {
	s := Stream(t)
	a, info := []complex64{1, 2i, 3}, []int32{7, 8}
	err := OnDevice[complex64](s, func(p []cuda.DevicePtr) error {
		if len(p) != 2 || p[0] == 0 || p[1] == 0 || p[0] == p[1] {
			t.Errorf("device blocks %v", p)
		}
		// Overwrite info on the device with a's first 8 bytes (1 + 0i).
		return cuda.CopyDtoD(s, p[1], p[0], 8)
	}, a, info)
	if err != nil {
		t.Fatal(err)
	}
	if a[1] != 2i || info[0] != 0x3f800000 || info[1] != 0 {
		t.Errorf("after the round trip a = %v, info = %#x", a, info)
	}
}
