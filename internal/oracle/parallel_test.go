package oracle

import (
	"math"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/batchlas/batchlas/internal/core"
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

// TestCholeskyResidualColumns checks the residual on both sides of
// parallelCheckOrder against A − L·Lᴴ formed in full, and that it has the
// same bits on one worker and on several.
func TestCholeskyResidualColumns(t *testing.T) {
	for _, n := range []int{parallelCheckOrder - 1, parallelCheckOrder + 3} {
		g := NewGen(uint64(n), true)
		m := g.General(n, n)
		a := Add(0.5, m, 0.5, Op(m, core.ConjTrans)) // Hermitian, not L·Lᴴ of the factor below
		f := g.General(n, n)                         // only its lower triangle is read
		l := Triangle(f, core.Lower, core.NonUnit)
		want := NormFrob(Add(1, a, -1, Mul(l, Op(l, core.ConjTrans)))) / (float64(n) * NormFrob(a) * 0x1p-53)

		prev := runtime.GOMAXPROCS(1)
		one := CholeskyResidual(a, f, core.Lower, 0x1p-53)
		runtime.GOMAXPROCS(max(4, prev))
		many := CholeskyResidual(a, f, core.Lower, 0x1p-53)
		runtime.GOMAXPROCS(prev)
		if math.Abs(many-want) > 1e-12*want {
			t.Errorf("n=%d: residual %v, formed in full %v", n, many, want)
		}
		if math.Float64bits(one) != math.Float64bits(many) {
			t.Errorf("n=%d: one worker %v, several %v", n, one, many)
		}
	}
}
