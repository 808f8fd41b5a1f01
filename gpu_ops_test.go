package batchlas

import (
	"slices"
	"testing"

	"github.com/batchlas/batchlas/internal/cuda"
	"github.com/batchlas/batchlas/internal/gpu/cholblocked"
	"github.com/batchlas/batchlas/internal/route"
)

// TestLookAhead pins where the blocked Cholesky takes its look-ahead
// stream: the calls it was measured faster on, and no others.
func TestLookAhead(t *testing.T) {
	exact, tf32 := cholblocked.Options{}, cholblocked.Options{Precision: cholblocked.Split3TF32}
	panels := cholblocked.Options{Precision: cholblocked.Split3TF32, TiledPanels: true}
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
		{cuda.Float32, 4096, 2, panels, false},                               // tiled panels: slower with it
		{cuda.Float32, 8192, 1, panels, false},
		{cuda.Float32, cholblocked.WideTiledPanelsFrom, 1, panels, false},
	} {
		if got := lookAhead(tc.dt, tc.n, tc.count, tc.opt); got != tc.want {
			t.Errorf("%v n=%d count=%d %v: %v, want %v", tc.dt, tc.n, tc.count, tc.opt.Precision, got, tc.want)
		}
	}
}

// TestRedoneInFloat64 pins which Potrf candidates have their failures
// factored again in float64: the blocked driver with cuBLAS's TF32
// products, and no other (the tiled driver's split products fail where its
// exact twin does; TestPotrfTensorFailures). A new candidate must be put
// in one list or the other.
func TestRedoneInFloat64(t *testing.T) {
	redone := []string{"native:blocked:prec=tf32x3", "native:blocked:panels=tiled:prec=tf32x3", "native:blocked:prec=tf32", "native:blocked:panels=tiled:prec=tf32"}
	kept := []string{"native:tiny", "native:warp", "native:cta", "native:tiled", "native:tiled:prec=tf32x3", "native:tiled:occ=4", "native:tiled:occ=4:prec=tf32x3", "native:tiled:occ=3:prec=tf32x3", "native:blocked", "vendor", "vendor:loop", "vendor:transposed", "cpu:unblocked", "cpu:blocked"}
	r, err := route.Default()
	if err != nil {
		t.Fatal(err)
	}
	op, ok := r.Op("potrf")
	if !ok {
		t.Fatal("no potrf op")
	}
	for _, c := range op.Candidates {
		want := slices.Contains(redone, c.Name)
		if !want && !slices.Contains(kept, c.Name) {
			t.Errorf("candidate %q is in neither list", c.Name)
		}
		if got := redoneInFloat64(c.Name); got != want {
			t.Errorf("redoneInFloat64(%q) = %v, want %v", c.Name, got, want)
		}
	}
}
