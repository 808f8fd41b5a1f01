package cpu

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchlas/batchlas/internal/core"
	"gonum.org/v1/gonum/lapack/gonum"
)

// BenchmarkGetrf times the CPU engine's Getrf on a batch against a loop of
// gonum's Dgetrf over the same matrices (gonum is row-major, so it gets the
// transposed copy: the same mathematical A, the same pivots). Both arms
// restore their input from a pristine copy inside the timed loop, and both
// results are checked against the residual bound after timing.
//
//	go test -run '^$' -bench 'Getrf/' -count 5 ./internal/cpu
//	GOMAXPROCS=1 go test -run '^$' -bench 'Getrf/' -count 5 ./internal/cpu
//
// Minimum ns per matrix over -count 5, Go 1.26, GOAMD64=v1, 2-core AMD
// EPYC ("Turin-like") VM shared with other jobs, 2026-11-29:
//
//	                 GOMAXPROCS=1                      GOMAXPROCS=2 (default)
//	n    gonum f64  cpu f64   ratio  cpu f32     gonum f64  cpu f64  ratio
//	(filled in by the measurement below)
//
// The kernel is bound by instruction issue: scalar SSE2 code needs three
// instructions (copy or load, multiply, add) per multiply-add, where
// gonum's assembly packs two; see lu_kernel.go.
func BenchmarkGetrf(b *testing.B) {
	for _, n := range []int{8, 32, 64, 128, 256} {
		b.Run(fmt.Sprintf("n=%d/dtype=float64/arm=cpu", n), func(b *testing.B) { benchGetrfCPU[float64](b, n) })
		b.Run(fmt.Sprintf("n=%d/dtype=float64/arm=gonum", n), func(b *testing.B) { benchGetrfGonum(b, n) })
		b.Run(fmt.Sprintf("n=%d/dtype=float32/arm=cpu", n), func(b *testing.B) { benchGetrfCPU[float32](b, n) })
		b.Run(fmt.Sprintf("n=%d/dtype=complex128/arm=cpu", n), func(b *testing.B) { benchGetrfCPU[complex128](b, n) })
	}
}

// luBenchCount keeps one batch near 256 Ki elements (2 MiB of float64).
func luBenchCount(n int) int { return max(2, (1<<18)/(n*n)) }

func luBenchReport(b *testing.B, n, count int) {
	per := float64(b.Elapsed().Nanoseconds()) / float64(b.N*count)
	b.ReportMetric(per, "ns/matrix")
	b.ReportMetric(2*float64(n*n*n)/3/per, "GFLOP/s")
}

func benchGetrfCPU[T core.Scalar](b *testing.B, n int) {
	count := luBenchCount(n)
	r := rand.New(rand.NewPCG(uint64(n), 1))
	a := luBatch[T](r, n, n, n, n*n, count)
	pristine := slices.Clone(a.Data)
	piv := make([]int32, count*n)
	info := make([]int32, count)
	for b.Loop() {
		copy(a.Data, pristine)
		if err := Getrf(Exec{}, a, piv, info); err != nil {
			b.Fatal(err)
		}
	}
	luBenchReport(b, n, count)
	src := core.Strided[T]{Data: pristine, Rows: n, Cols: n, LD: n, Stride: n * n, Count: count}
	for _, m := range []int{0, count - 1} {
		if ratio := luFactorRatio(n, n, luDense(src, m), luDense(a, m), piv[m*n:(m+1)*n], core.Eps[T]()); !(ratio <= luTol) || info[m] != 0 {
			b.Fatalf("matrix %d: info %d, residual ratio %.3g", m, info[m], ratio)
		}
	}
}

func benchGetrfGonum(b *testing.B, n int) {
	count := luBenchCount(n)
	r := rand.New(rand.NewPCG(uint64(n), 1))
	a := luBatch[float64](r, n, n, n, n*n, count)
	// Row-major copy of every matrix: element (i, j) at i*n + j.
	pristine := make([]float64, len(a.Data))
	for m := range count {
		for j := range n {
			for i := range n {
				pristine[m*n*n+i*n+j] = a.Data[m*n*n+j*n+i]
			}
		}
	}
	work := make([]float64, len(pristine))
	ipiv := make([]int, n)
	impl := gonum.Implementation{}
	for b.Loop() {
		copy(work, pristine)
		for m := range count {
			impl.Dgetrf(n, n, work[m*n*n:(m+1)*n*n], n, ipiv)
		}
	}
	luBenchReport(b, n, count)
	// The last matrix's factors, back to column-major, must reproduce P·A.
	m := count - 1
	f := make([]complex128, n*n)
	for j := range n {
		for i := range n {
			f[j*n+i] = complex(work[m*n*n+i*n+j], 0)
		}
	}
	piv := make([]int32, n)
	for i, p := range ipiv {
		piv[i] = int32(p + 1)
	}
	if ratio := luFactorRatio(n, n, luDense(a, m), f, piv, core.Eps[float64]()); !(ratio <= luTol) {
		b.Fatalf("gonum residual ratio %.3g", ratio)
	}
}
