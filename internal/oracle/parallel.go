package oracle

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// parallelCheckOrder is the order from which a check spreads its columns
// over goroutines: below it a column costs less than starting one.
const parallelCheckOrder = 128

// ParallelFor runs f(worker, i) for every i in [0, count) on up to
// GOMAXPROCS goroutines, worker in [0, GOMAXPROCS), and returns when all
// are done: the large-order checks' loops over columns.
func ParallelFor(count int, f func(worker, i int)) {
	ParallelForN(count, runtime.GOMAXPROCS(0), f)
}

// ParallelForN is ParallelFor on up to workers goroutines, worker in
// [0, workers): for callers that size per-worker state before the call,
// from the same reading of GOMAXPROCS.
func ParallelForN(count, workers int, f func(worker, i int)) {
	workers = min(count, workers)
	if workers <= 1 {
		for i := range count {
			f(0, i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= count {
					return
				}
				f(w, i)
			}
		})
	}
	wg.Wait()
}

// ColumnNorm1 is ‖M‖₁, the largest absolute column sum, of the column-major
// n×n m, its columns summed in parallel; NaN when any entry is NaN.
func ColumnNorm1(m []float64, n int) float64 {
	sums := make([]float64, n)
	ParallelFor(n, func(_, j int) {
		s := 0.0
		for _, v := range m[j*n : (j+1)*n] {
			s += math.Abs(v)
		}
		sums[j] = s
	})
	worst := 0.0
	for _, v := range sums {
		if !(v <= worst) { // NaN wins
			worst = v
		}
	}
	return worst
}
