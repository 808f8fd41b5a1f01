package oracle

import (
	"math"
	"sync/atomic"
	"testing"
)

func TestParallelFor(t *testing.T) {
	for _, count := range []int{0, 1, 7, 1000} {
		seen := make([]atomic.Int32, count)
		ParallelFor(count, func(_, i int) { seen[i].Add(1) })
		for i := range seen {
			if v := seen[i].Load(); v != 1 {
				t.Fatalf("count %d: index %d ran %d times", count, i, v)
			}
		}
	}
}

func TestColumnNorm1(t *testing.T) {
	m := []float64{1, -2, 0, 3, -4, 5, 0, 0, 1} // columns sum to 3, 12, 1
	if got := ColumnNorm1(m, 3); got != 12 {
		t.Errorf("ColumnNorm1 = %v, want 12", got)
	}
	m[8] = math.NaN()
	if got := ColumnNorm1(m, 3); !math.IsNaN(got) {
		t.Errorf("with a NaN: %v, want NaN", got)
	}
}
