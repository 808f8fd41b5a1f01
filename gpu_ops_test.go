package batchlas

import (
	"testing"

	"github.com/batchlas/batchlas/internal/cuda"
	"github.com/batchlas/batchlas/internal/gpu/cholblocked"
)

// TestLookAhead pins where the blocked Cholesky takes its look-ahead
// stream: the calls it was measured faster on, and no others.
func TestLookAhead(t *testing.T) {
	exact, tf32 := cholblocked.Options{}, cholblocked.Options{Precision: cholblocked.Split3TF32}
	for _, tc := range []struct {
		dt       cuda.DType
		n, count int
		opt      cholblocked.Options
		want     bool
	}{
		{cuda.Float32, 4096, 1, exact, true},
		{cuda.Float32, 1024, 4, exact, true},
		{cuda.Float32, 1024, 5, exact, false},                                // not measured above 4 matrices
		{cuda.Float64, 4096, 1, exact, false},                                // not measured
		{cuda.Float32, 2048, 2, tf32, true},                                  // two-level panels
		{cuda.Float32, 1024, 4, tf32, false},                                 // one-level: slower
		{cuda.Float32, 4096, 1, cholblocked.Options{PanelWidth: 128}, false}, // a caller's own panels
	} {
		if got := lookAhead(tc.dt, tc.n, tc.count, tc.opt); got != tc.want {
			t.Errorf("%v n=%d count=%d %v: %v, want %v", tc.dt, tc.n, tc.count, tc.opt.Precision, got, tc.want)
		}
	}
}
