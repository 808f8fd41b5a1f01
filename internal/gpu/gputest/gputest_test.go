package gputest

import (
	"slices"
	"strings"
	"testing"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cuda"
	"github.com/batchlas/batchlas/internal/oracle"
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

func TestSPDBatch(t *testing.T) {
	a := SPDBatch[complex64](6, 5, 2, true)
	if a.Count != 5 || a.LD != 6 || a.Stride != 36 || len(a.Data) != 5*36 {
		t.Fatalf("layout %+v", a)
	}
	for b := range a.Count {
		if _, info := oracle.Potrf(core.Lower, oracle.Load(a, b)); info != 0 {
			t.Errorf("matrix %d is not positive definite (info %d)", b, info)
		}
	}
	if a.Data[0] == a.Data[2*36] { // same pool matrix, another congruence
		t.Errorf("matrices 0 and 2 share their first entry %v", a.Data[0])
	}
}

func TestMedian(t *testing.T) {
	if m := Median([]float64{5, 1, 3, 2}); m != 3 {
		t.Errorf("Median = %v, want 3 (the upper middle)", m)
	}
}

// TestInterleave pins the order Interleaved times its arms in: a warm-up
// round in arm order that is not kept, then each round starting one arm
// later, every arm kept reps times.
func TestInterleave(t *testing.T) {
	var order []int
	calls := 0
	kept := interleave(2, 3, func(i int) float64 {
		order = append(order, i)
		calls++
		return float64(10*i + calls)
	})
	if want := []int{0, 1, 2, 0, 1, 2, 1, 2, 0}; !slices.Equal(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
	// Values are 10·arm + the call's number; calls 1…3 are the warm-up.
	if want := [][]float64{{4, 9}, {15, 17}, {26, 28}}; !slices.EqualFunc(kept, want, slices.Equal[[]float64]) {
		t.Errorf("kept %v, want %v", kept, want)
	}
}
