package cpu

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas/batchlas/internal/core"
)

// Cholesky benchmarks: the CPU engine against a loop of gonum Dpotrf calls
// on the same batch (float64 only: gonum has no other precision). gonum's
// lapack is row-major, so a column-major Lower factor is gonum's Upper on the
// same memory and the other way round.
//
// Each iteration restores the batch from a pristine copy before factoring it
// (arm=copy times that restore alone), and the batch is sized to stay in L2,
// so the arms compare kernels rather than memory bandwidth.
//
//	go test -run '^$' -bench 'Potrf' -benchtime 2000x ./internal/cpu
//	GOMAXPROCS=1 go test -run '^$' -bench 'Potrf' -benchtime 2000x ./internal/cpu

var cholBenchSizes = []int{8, 32, 64, 128, 256, 512}

func BenchmarkPotrf(b *testing.B)      { benchPotrf(b, core.Lower) }
func BenchmarkPotrfUpper(b *testing.B) { benchPotrf(b, core.Upper) }

func benchPotrf(b *testing.B, uplo core.Uplo) {
	for _, n := range cholBenchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.Run("dtype=float32", func(b *testing.B) { benchPotrfType[float32](b, uplo, n) })
			b.Run("dtype=float64", func(b *testing.B) { benchPotrfType[float64](b, uplo, n) })
			b.Run("dtype=complex64", func(b *testing.B) { benchPotrfType[complex64](b, uplo, n) })
			b.Run("dtype=complex128", func(b *testing.B) { benchPotrfType[complex128](b, uplo, n) })
		})
	}
}

// cholBenchBatch keeps one copy of the batch within about 256 KiB.
func cholBenchBatch(n int) int { return max(1, min(1024, (256<<10)/(8*n*n))) }

func benchPotrfType[T core.Scalar](b *testing.B, uplo core.Uplo, n int) {
	count := cholBenchBatch(n)
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	a := core.Strided[T]{Rows: n, Cols: n, LD: n, Stride: n * n, Count: count, Data: make([]T, n*n*count)}
	for i := range count {
		full := cholHPD(rng, n, core.IsComplex[T]())
		cholStore(a, i, core.Lower, full)
		cholStore(a, i, core.Upper, full)
	}
	orig := append([]T(nil), a.Data...)
	info := make([]int32, count)
	check := func() {
		for i, k := range info {
			if k != 0 {
				b.Fatalf("matrix %d: info %d", i, k)
			}
		}
	}
	report := func(b *testing.B) {
		per := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / float64(count)
		b.ReportMetric(per, "ns/matrix")
		flops := float64(n) * float64(n) * float64(n) / 3
		if core.IsComplex[T]() {
			flops *= 4
		}
		b.ReportMetric(flops/per, "GFLOP/s")
	}
	b.Run("arm=cpu", func(b *testing.B) {
		for b.Loop() {
			copy(a.Data, orig)
			if err := Potrf(Exec{}, uplo, a, info); err != nil {
				b.Fatal(err)
			}
		}
		check()
		report(b)
	})
	if f, ok := any(a.Data).([]float64); ok {
		b.Run("arm=gonum", func(b *testing.B) {
			impl := gonum.Implementation{}
			ul := blas.Upper
			if uplo == core.Upper {
				ul = blas.Lower
			}
			for b.Loop() {
				copy(a.Data, orig)
				for i := range count {
					if !impl.Dpotrf(ul, n, f[i*n*n:], n) {
						b.Fatal("gonum: not positive definite")
					}
				}
			}
			report(b)
		})
		b.Run("arm=copy", func(b *testing.B) {
			for b.Loop() {
				copy(a.Data, orig)
			}
			report(b)
		})
	}
}

func BenchmarkPotrs(b *testing.B) {
	for _, n := range []int{8, 32, 128} {
		for _, nrhs := range []int{1, 16} {
			b.Run(fmt.Sprintf("n=%d/nrhs=%d/dtype=float64", n, nrhs), func(b *testing.B) {
				count := cholBenchBatch(n)
				rng := rand.New(rand.NewPCG(uint64(n), 2))
				a := core.Strided[float64]{Rows: n, Cols: n, LD: n, Stride: n * n, Count: count, Data: make([]float64, n*n*count)}
				for i := range count {
					cholStore(a, i, core.Lower, cholHPD(rng, n, false))
				}
				if err := Potrf(Exec{}, core.Lower, a, make([]int32, count)); err != nil {
					b.Fatal(err)
				}
				x := core.Strided[float64]{Rows: n, Cols: nrhs, LD: n, Stride: n * nrhs, Count: count, Data: make([]float64, n*nrhs*count)}
				for i := range x.Data {
					x.Data[i] = rng.Float64()
				}
				orig := append([]float64(nil), x.Data...)
				for b.Loop() {
					copy(x.Data, orig)
					if err := Potrs(Exec{}, core.Lower, a, x); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(count), "ns/matrix")
			})
		}
	}
}
