package cpu

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchlas/batchlas/internal/core"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// BenchmarkGemm1 times one n×n×n product C = A·B + C against gonum's pure
// Go BLAS on the same data. Compare arms with
//
//	GOMAXPROCS=1 go test ./internal/cpu -run '^$' -bench Gemm1 -count 5 | benchstat -col /arm -
func BenchmarkGemm1(b *testing.B) {
	for _, n := range []int{8, 16, 32, 64, 128} {
		benchGemm1[float64](b, n, func(a, bb, c []float64) {
			gonum.Implementation{}.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, bb, n, 1, c, n)
		})
		benchGemm1[float32](b, n, func(a, bb, c []float32) {
			gonum.Implementation{}.Sgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, bb, n, 1, c, n)
		})
		benchGemm1[complex128](b, n, func(a, bb, c []complex128) {
			gonum.Implementation{}.Zgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, bb, n, 1, c, n)
		})
		benchGemm1[complex64](b, n, func(a, bb, c []complex64) {
			gonum.Implementation{}.Cgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, bb, n, 1, c, n)
		})
	}
}

func benchGemm1[T core.Scalar](b *testing.B, n int, ref func(a, b, c []T)) {
	rng := rand.New(rand.NewPCG(7, 7))
	mk := func() []T {
		s := make([]T, n*n)
		for i := range s {
			s[i] = randT[T](rng)
		}
		return s
	}
	a, bb, c := mk(), mk(), mk()
	flops := 2 * float64(n) * float64(n) * float64(n)
	if core.IsComplex[T]() {
		flops *= 4
	}
	// report gives GFLOP/s from CPU time (see cpuNanos), which a busy
	// machine does not inflate.
	report := func(b *testing.B, cpu0 int64) {
		cpu := float64(cpuNanos()-cpu0) / float64(b.N)
		b.ReportMetric(cpu, "cpu-ns/op")
		b.ReportMetric(flops/cpu, "GFLOP/s")
	}
	name := fmt.Sprintf("type=%s/n=%d/arm=", core.TypeName[T](), n)
	b.Run(name+"batchlas", func(b *testing.B) {
		cpu0 := cpuNanos()
		for b.Loop() {
			gemm1(core.NoTrans, core.NoTrans, n, n, n, 1, a, n, bb, n, 1, c, n)
		}
		report(b, cpu0)
	})
	b.Run(name+"gonum", func(b *testing.B) {
		cpu0 := cpuNanos()
		for b.Loop() {
			ref(a, bb, c)
		}
		report(b, cpu0)
	})
}

// BenchmarkTrsm1 times a Left, Lower, NoTrans solve with n right-hand
// sides against gonum's Dtrsm/Strsm called with the row-major equivalent
// (Right, Upper, Trans) on the same memory, and the Trans solve beside it.
func BenchmarkTrsm1(b *testing.B) {
	for _, n := range []int{8, 16, 32, 64, 128} {
		benchTrsm1[float64](b, n, func(a, bb []float64) {
			gonum.Implementation{}.Dtrsm(blas.Right, blas.Upper, blas.Trans, blas.NonUnit, n, n, 1, a, n, bb, n)
		})
		benchTrsm1[float32](b, n, func(a, bb []float32) {
			gonum.Implementation{}.Strsm(blas.Right, blas.Upper, blas.Trans, blas.NonUnit, n, n, 1, a, n, bb, n)
		})
	}
}

func benchTrsm1[T core.Scalar](b *testing.B, n int, ref func(a, b []T)) {
	rng := rand.New(rand.NewPCG(8, 8))
	a := make([]T, n*n)
	for i := range a {
		a[i] = randT[T](rng) / fromC[T](complex(float64(n), 0))
	}
	for i := 0; i < n; i++ {
		a[i+i*n] = 1 + randT[T](rng)*randT[T](rng)
	}
	bb := make([]T, n*n)
	for i := range bb {
		bb[i] = randT[T](rng)
	}
	work := append([]T(nil), bb...)
	flops := float64(n) * float64(n) * float64(n)
	report := func(b *testing.B, cpu0 int64) {
		cpu := float64(cpuNanos()-cpu0) / float64(b.N)
		b.ReportMetric(cpu, "cpu-ns/op")
		b.ReportMetric(flops/cpu, "GFLOP/s")
	}
	// The solve overwrites B; refresh it every 16 calls so values stay bounded.
	name := fmt.Sprintf("type=%s/n=%d/arm=", core.TypeName[T](), n)
	arm := func(label string, solve func()) {
		b.Run(name+label, func(b *testing.B) {
			cpu0, i := cpuNanos(), 0
			for b.Loop() {
				if i++; i%16 == 0 {
					copy(work, bb)
				}
				solve()
			}
			report(b, cpu0)
		})
	}
	arm("batchlas", func() { trsm1(core.Left, core.Lower, core.NoTrans, core.NonUnit, n, n, 1, a, n, work, n) })
	// Lᵀ·X = B: the backward solve (solveLeftUpper), a Cholesky solve's second half.
	arm("batchlas-trans", func() { trsm1(core.Left, core.Lower, core.Trans, core.NonUnit, n, n, 1, a, n, work, n) })
	arm("batchlas-right", func() { trsm1(core.Right, core.Lower, core.Trans, core.NonUnit, n, n, 1, a, n, work, n) })
	arm("gonum", func() { ref(a, work) })
}

// BenchmarkSyrk1 times the lower triangle of C = A·Aᵀ + C (A n×n) against
// gonum's Dsyrk/Ssyrk with the row-major equivalent (Upper, Trans).
func BenchmarkSyrk1(b *testing.B) {
	for _, n := range []int{8, 16, 32, 64, 128} {
		benchSyrk1[float64](b, n, func(a, c []float64) {
			gonum.Implementation{}.Dsyrk(blas.Upper, blas.Trans, n, n, 1, a, n, 1, c, n)
		})
		benchSyrk1[float32](b, n, func(a, c []float32) {
			gonum.Implementation{}.Ssyrk(blas.Upper, blas.Trans, n, n, 1, a, n, 1, c, n)
		})
	}
}

func benchSyrk1[T core.Scalar](b *testing.B, n int, ref func(a, c []T)) {
	rng := rand.New(rand.NewPCG(9, 9))
	a := make([]T, n*n)
	c := make([]T, n*n)
	for i := range a {
		a[i], c[i] = randT[T](rng), randT[T](rng)
	}
	flops := float64(n) * float64(n) * float64(n+1)
	report := func(b *testing.B, cpu0 int64) {
		cpu := float64(cpuNanos()-cpu0) / float64(b.N)
		b.ReportMetric(cpu, "cpu-ns/op")
		b.ReportMetric(flops/cpu, "GFLOP/s")
	}
	name := fmt.Sprintf("type=%s/n=%d/arm=", core.TypeName[T](), n)
	b.Run(name+"batchlas", func(b *testing.B) {
		cpu0 := cpuNanos()
		for b.Loop() {
			syrk1(core.Lower, core.NoTrans, n, n, 1, a, n, 1, c, n)
		}
		report(b, cpu0)
	})
	b.Run(name+"gonum", func(b *testing.B) {
		cpu0 := cpuNanos()
		for b.Loop() {
			ref(a, c)
		}
		report(b, cpu0)
	})
}

// BenchmarkSolveRight times the Right solves of one diagonal block, B·T⁻¹
// with T nb×nb and B m×nb, in the transposed FMA form (solveRightUpper,
// where it applies) against the axpy form, to place solveRightMinRows and
// solveRightMinOrder (set both to 1 to time the FMA form everywhere).
func BenchmarkSolveRight(b *testing.B) {
	for _, nb := range []int{12, 16, 20, 24, 28, 32} {
		for _, m := range []int{4, 8, 16, 32, 128} {
			rng := rand.New(rand.NewPCG(uint64(nb), uint64(m)))
			t := make([]float64, nb*nb)
			for i := range t {
				t[i] = randT[float64](rng) / float64(nb)
			}
			for j := range nb {
				t[j*nb+j] = 1 / (1 + randT[float64](rng)*randT[float64](rng))
			}
			bb := make([]float64, m*nb)
			for i := range bb {
				bb[i] = randT[float64](rng)
			}
			work := slices.Clone(bb)
			for _, arm := range []struct {
				name  string
				solve func(m, nb int, t, b []float64, ldb int)
			}{{"fma", solveRightUpper[float64]}, {"axpy", solveRightUpperAxpy[float64]}} {
				b.Run(fmt.Sprintf("nb=%d/m=%d/arm=%s", nb, m, arm.name), func(b *testing.B) {
					i := 0
					for b.Loop() {
						if i++; i%16 == 0 {
							copy(work, bb)
						}
						arm.solve(m, nb, t, work, m)
					}
					b.ReportMetric(float64(m*nb*nb)/float64(b.Elapsed().Nanoseconds())*float64(b.N), "GFLOP/s")
				})
			}
		}
	}
}
