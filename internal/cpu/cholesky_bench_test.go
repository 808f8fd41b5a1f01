package cpu

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

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

// BenchmarkPotrfVsGonum times the two arms back to back in every iteration
// (one batch each, restored before each) and reports each arm's fastest
// iteration per matrix, and gonum's time over ours: on a shared machine the
// minimum of interleaved runs is what stays put. gonum has only float64, so
// dtype=float32 puts our float32 factorization of the same matrices against
// gonum's float64 one. Run it with one worker:
//
//	GOMAXPROCS=1 go test -run '^$' -bench PotrfVsGonum -benchtime 60x ./internal/cpu
func BenchmarkPotrfVsGonum(b *testing.B) {
	for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
		for _, n := range []int{8, 16, 32, 64, 96, 128} {
			b.Run(fmt.Sprintf("uplo=%v/n=%d/dtype=float64", uplo, n), func(b *testing.B) { benchPotrfVsGonum[float64](b, uplo, n) })
			b.Run(fmt.Sprintf("uplo=%v/n=%d/dtype=float32", uplo, n), func(b *testing.B) { benchPotrfVsGonum[float32](b, uplo, n) })
		}
	}
}

func benchPotrfVsGonum[T float32 | float64](b *testing.B, uplo core.Uplo, n int) {
	count := cholBenchBatch(n)
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	g := core.Strided[float64]{Rows: n, Cols: n, LD: n, Stride: n * n, Count: count, Data: make([]float64, n*n*count)}
	a := core.Strided[T]{Rows: n, Cols: n, LD: n, Stride: n * n, Count: count, Data: make([]T, n*n*count)}
	for i := range count {
		full := cholHPD(rng, n, false)
		for _, ul := range []core.Uplo{core.Lower, core.Upper} {
			cholStore(g, i, ul, full)
			cholStore(a, i, ul, full)
		}
	}
	gOrig := append([]float64(nil), g.Data...)
	aOrig := append([]T(nil), a.Data...)
	info := make([]int32, count)
	impl := gonum.Implementation{}
	ul := blas.Upper
	if uplo == core.Upper {
		ul = blas.Lower
	}
	const reps = 8
	var best [4]time.Duration
	arms := [4]func(){
		func() { copy(a.Data, aOrig) },
		func() {
			copy(a.Data, aOrig)
			_ = Potrf(Exec{Workers: 1}, uplo, a, info)
		},
		func() { copy(g.Data, gOrig) },
		func() {
			copy(g.Data, gOrig)
			for i := range count {
				impl.Dpotrf(ul, n, g.Data[i*n*n:], n)
			}
		},
	}
	first := true
	for b.Loop() {
		for i, arm := range arms {
			st := time.Now()
			for range reps {
				arm()
			}
			if d := time.Since(st); first || d < best[i] {
				best[i] = d
			}
		}
		first = false
	}
	for i, k := range info {
		if k != 0 {
			b.Fatalf("matrix %d: info %d", i, k)
		}
	}
	per := func(i int) float64 {
		return float64((best[i] - best[i-1]).Nanoseconds()) / float64(reps*count)
	}
	b.ReportMetric(per(1), "ns/matrix-cpu")
	b.ReportMetric(per(3), "ns/matrix-gonum")
	b.ReportMetric(per(3)/per(1), "gonum/cpu")
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
