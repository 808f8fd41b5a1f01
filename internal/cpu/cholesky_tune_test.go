package cpu

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas/batchlas/internal/core"
)

// TestCholTune is a temporary tuning harness (CHOLTUNE=1): arms alternate in one
// process, each the minimum over many short repetitions, robust to a shared box.
func TestCholTune(t *testing.T) {
	if os.Getenv("CHOLTUNE") == "" {
		t.Skip("CHOLTUNE unset")
	}
	runtime.GOMAXPROCS(1)
	for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
		for _, n := range []int{8, 16, 32, 64, 96, 128} {
			tuneOne[float64](t, uplo, n, true)
			tuneOne[float32](t, uplo, n, false)
			if os.Getenv("CHOLTUNE") == "all" {
				tuneOne[complex128](t, uplo, n, false)
				tuneOne[complex64](t, uplo, n, false)
			}
		}
	}
}

func tuneOne[T core.Scalar](t *testing.T, uplo core.Uplo, n int, gon bool) {
	count := max(1, (256<<10)/(8*n*n))
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	a := core.Strided[T]{Rows: n, Cols: n, LD: n, Stride: n * n, Count: count, Data: make([]T, n*n*count)}
	for i := range count {
		full := cholHPD(rng, n, core.IsComplex[T]())
		cholStore(a, i, core.Lower, full)
		cholStore(a, i, core.Upper, full)
	}
	orig := append([]T(nil), a.Data...)
	info := make([]int32, count)
	reps := max(1, 200000/(n*n*n/3+200)/count*20)
	arms := []func(){
		func() { copy(a.Data, orig) },
		func() { copy(a.Data, orig); _ = Potrf(Exec{Workers: 1}, uplo, a, info) },
	}
	if f, ok := any(a.Data).([]float64); ok && gon {
		impl := gonum.Implementation{}
		ul := blas.Upper
		if uplo == core.Upper {
			ul = blas.Lower
		}
		arms = append(arms, func() {
			copy(a.Data, orig)
			for i := range count {
				impl.Dpotrf(ul, n, f[i*n*n:], n)
			}
		})
	}
	best := make([]time.Duration, len(arms))
	for r := 0; r < 40; r++ {
		for i, arm := range arms {
			st := time.Now()
			for range reps {
				arm()
			}
			d := time.Since(st)
			if r == 0 || d < best[i] {
				best[i] = d
			}
		}
	}
	per := func(i int) float64 { return float64(best[i].Nanoseconds()) / float64(reps*count) }
	line := fmt.Sprintf("%v n=%3d %-10s copy %7.1f  cpu %9.1f ns", uplo, n, core.TypeName[T](), per(0), per(1)-per(0))
	if len(arms) > 2 {
		line += fmt.Sprintf("  gonum %9.1f ns  ratio %.2f", per(2)-per(0), (per(2)-per(0))/(per(1)-per(0)))
	}
	t.Log(line)
}

func TestCholTuneBlocked(t *testing.T) {
	if os.Getenv("CHOLTUNE") != "blocked" {
		t.Skip("CHOLTUNE!=blocked")
	}
	runtime.GOMAXPROCS(1)
	for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
		for _, n := range []int{768, 1024} {
			rng := rand.New(rand.NewPCG(uint64(n), 1))
			full := cholHPD(rng, n, false)
			a := make([]float64, n*n)
			st := core.Strided[float64]{Rows: n, Cols: n, LD: n, Stride: n * n, Count: 1, Data: a}
			cholStore(st, 0, core.Lower, full)
			cholStore(st, 0, core.Upper, full)
			orig := append([]float64(nil), a...)
			w := make([]float64, cholScratch(n))
			diag := cholDiagOf[float64]()
			arms := map[string]func(){
				"rb": func() {
					copy(a, orig)
					potrfRB(uplo, n, a, n, w, diag, false)
				},
			}
			wb := make([]float64, cholScratch(n)+cholSuper*n)
			arms["nb=32"] = func() { copy(a, orig); potrfBlocked(uplo, n, a, n, wb, diag, false, 1) }
			gon := gonum.Implementation{}
			ul := blas.Upper
			if uplo == core.Upper {
				ul = blas.Lower
			}
			arms["gonum"] = func() { copy(a, orig); gon.Dpotrf(ul, n, a, n) }
			best := map[string]time.Duration{}
			for r := 0; r < 3; r++ {
				for name, arm := range arms {
					st := time.Now()
					arm()
					d := time.Since(st)
					if b, ok := best[name]; !ok || d < b {
						best[name] = d
					}
				}
			}
			line := fmt.Sprintf("%v n=%d", uplo, n)
			for _, name := range []string{"rb", "nb=32", "nb=64", "nb=96", "nb=128", "gonum"} {
				line += fmt.Sprintf("  %s %.0fµs", name, float64(best[name].Nanoseconds())/1e3)
			}
			t.Log(line)
		}
	}
}

func TestCholTuneGemm(t *testing.T) {
	if os.Getenv("CHOLTUNE") != "gemm" {
		t.Skip()
	}
	runtime.GOMAXPROCS(1)
	for _, sh := range [][3]int{{192, 32, 64}, {448, 32, 64}, {64, 64, 64}, {256, 64, 64}, {960, 64, 64}, {448, 32, 32}} {
		m, n, k := sh[0], sh[1], sh[2]
		a := make([]float64, m*k+n*k)
		c := make([]float64, (m+n)*(m+n))
		for i := range a {
			a[i] = float64(i%7) * 0.1
		}
		best := time.Duration(1 << 62)
		bestT := best
		bestH := best
		for r := 0; r < 20; r++ {
			st := time.Now()
			for range 10 {
				gemm1(core.NoTrans, core.ConjTrans, m, n, k, -1, a, m+n, a[m:], m+n, 1, c, m+n)
			}
			best = min(best, time.Since(st))
			st = time.Now()
			for range 10 {
				trsm1(core.Right, core.Lower, core.ConjTrans, core.NonUnit, m, k, 1, c, m+n, a, m+n)
			}
			bestT = min(bestT, time.Since(st))
			st = time.Now()
			for range 10 {
				herk1(core.Lower, core.NoTrans, n, k, -1, 1, a, m+n, c, m+n)
			}
			bestH = min(bestH, time.Since(st))
		}
		t.Logf("m=%d n=%d k=%d gemm %.3f ns/madd  trsm(m×k) %.3f ns/madd  herk(n×k) %.3f", m, n, k,
			float64(best.Nanoseconds())/10/float64(m*n*k),
			float64(bestT.Nanoseconds())/10/float64(m*k*k/2),
			float64(bestH.Nanoseconds())/10/float64(n*n*k/2))
	}
}

func TestCholTunePar(t *testing.T) {
	if os.Getenv("CHOLTUNE") != "par" {
		t.Skip()
	}
	for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
		for _, n := range []int{192, 256, 384, 512, 768, 1024} {
			rng := rand.New(rand.NewPCG(uint64(n), 1))
			full := cholHPD(rng, n, false)
			a := make([]float64, n*n)
			st := core.Strided[float64]{Rows: n, Cols: n, LD: n, Stride: n * n, Count: 1, Data: a}
			cholStore(st, 0, core.Lower, full)
			cholStore(st, 0, core.Upper, full)
			orig := append([]float64(nil), a...)
			w := make([]float64, cholScratch(n))
			diag := cholDiagOf[float64]()
			wb := make([]float64, cholScratch(n)+cholSuper*n)
			arms := []func(){
				func() { copy(a, orig); potrfRB(uplo, n, a, n, w, diag, false) },
				func() { copy(a, orig); potrfBlocked(uplo, n, a, n, wb, diag, false, 1) },
				func() { copy(a, orig); potrfBlocked(uplo, n, a, n, wb, diag, false, 2) },
			}
			best := make([]time.Duration, len(arms))
			for r := 0; r < 7; r++ {
				for i, arm := range arms {
					st := time.Now()
					arm()
					if d := time.Since(st); r == 0 || d < best[i] {
						best[i] = d
					}
				}
			}
			t.Logf("%v n=%d  rb %v  blocked %v  blocked-par2 %v", uplo, n, best[0], best[1], best[2])
		}
	}
}

func TestCholTuneCPU(t *testing.T) {
	if os.Getenv("CHOLTUNE") != "cpu" {
		t.Skip()
	}
	n := 1024
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	full := cholHPD(rng, n, false)
	a := make([]float64, n*n)
	st := core.Strided[float64]{Rows: n, Cols: n, LD: n, Stride: n * n, Count: 1, Data: a}
	cholStore(st, 0, core.Lower, full)
	orig := append([]float64(nil), a...)
	info := []int32{0}
	for _, workers := range []int{1, 2} {
		var r0, r1 syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &r0)
		start := time.Now()
		for range 5 {
			copy(a, orig)
			_ = Potrf(Exec{Workers: workers}, core.Lower, st, info)
		}
		wall := time.Since(start)
		syscall.Getrusage(syscall.RUSAGE_SELF, &r1)
		cpu := time.Duration(r1.Utime.Nano()-r0.Utime.Nano()) + time.Duration(r1.Stime.Nano()-r0.Stime.Nano())
		t.Logf("workers=%d wall %v cpu %v (cpu/wall %.2f)", workers, wall/5, cpu/5, float64(cpu)/float64(wall))
	}
}

func TestCholTuneSolve(t *testing.T) {
	if os.Getenv("CHOLTUNE") != "solve" {
		t.Skip()
	}
	runtime.GOMAXPROCS(1)
	for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
		for _, n := range []int{32, 64, 128, 256} {
			for _, nrhs := range []int{1, 4, 16, 64} {
				rng := rand.New(rand.NewPCG(uint64(n), 1))
				full := cholHPD(rng, n, false)
				a := make([]float64, n*n)
				st := core.Strided[float64]{Rows: n, Cols: n, LD: n, Stride: n * n, Count: 1, Data: a}
				cholStore(st, 0, uplo, full)
				_ = Potrf(Exec{}, uplo, st, []int32{0})
				b := make([]float64, n*nrhs)
				for i := range b {
					b[i] = rng.Float64()
				}
				orig := append([]float64(nil), b...)
				w := make([]float64, n)
				own := func() {
					copy(b, orig)
					rd := w[:n]
					for j := range rd {
						rd[j] = 1 / a[j*n+j]
					}
					for r := 0; r < nrhs; r++ {
						x := b[r*n : r*n+n]
						if uplo == core.Lower {
							cholForwardAxpy(n, a, n, rd, x)
							cholBackwardDot(n, a, n, rd, x)
						} else {
							cholForwardDot(n, a, n, rd, x)
							cholBackwardAxpy(n, a, n, rd, x)
						}
					}
				}
				tr := func() {
					copy(b, orig)
					if uplo == core.Lower {
						trsm1(core.Left, core.Lower, core.NoTrans, core.NonUnit, n, nrhs, 1, a, n, b, n)
						trsm1(core.Left, core.Lower, core.ConjTrans, core.NonUnit, n, nrhs, 1, a, n, b, n)
					} else {
						trsm1(core.Left, core.Upper, core.ConjTrans, core.NonUnit, n, nrhs, 1, a, n, b, n)
						trsm1(core.Left, core.Upper, core.NoTrans, core.NonUnit, n, nrhs, 1, a, n, b, n)
					}
				}
				var bo, bt time.Duration
				reps := max(1, 2000000/(n*n*nrhs))
				for r := 0; r < 15; r++ {
					st := time.Now()
					for range reps {
						own()
					}
					if d := time.Since(st); r == 0 || d < bo {
						bo = d
					}
					st = time.Now()
					for range reps {
						tr()
					}
					if d := time.Since(st); r == 0 || d < bt {
						bt = d
					}
				}
				t.Logf("%v n=%d nrhs=%d own %.3f trsm1 %.3f ns/madd", uplo, n, nrhs, float64(bo.Nanoseconds())/float64(reps*n*n*nrhs), float64(bt.Nanoseconds())/float64(reps*n*n*nrhs))
			}
		}
	}
}
