package bench

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"

	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/internal/oracle"
)

// The correctness test of the cholesky-gpumode suite, §1.5, on every matrix
// of every input. With F the factor as GPU MODE reads it (row-major lower
// L, which is our column-major Upper U read as L = Uᵀ) and A the input:
//
//  1. every entry of the factor triangle is finite;
//  2. triangularity is not tested: F is built from the factor triangle
//     alone. LAPACK's Potrf, as ours, leaves the other strict triangle as
//     it was (the input's), where GPU MODE's output must hold zeros (up to
//     8·n·eps·‖A‖₁); a submission would add that zeroing;
//  3. diag(F) > 0, strictly;
//  4. ‖F·Fᵀ − A‖₁ ≤ 20·n·eps·max(‖A‖₁, tiny), eps = 2⁻²³ for float32
//     (machine epsilon; 2⁻⁵² for float64), computed in float64: on the host
//     up to hostCheckMaxN, above it on the GPU (F and A widened on the host,
//     F·Fᵀ − A by batchlas.Gemm on the vendor route, the column sums on the
//     host).
//
// Each Potrf info must also be 0. A is exactly symmetric (gmForm), so its
// row-major and column-major readings agree.

// gmBound is §1.5's reconstruction budget in units of n·eps·‖A‖₁.
const gmBound = 20

// gmTiny clamps ‖A‖₁ below, as GPU MODE does (the smallest normal float32).
const gmTiny = 0x1p-126

// gmVerdict is what the check found on the matrices of one arm's case.
type gmVerdict struct {
	matrices int
	worst    float64 // the largest ‖F·Fᵀ − A‖₁/(n·eps·‖A‖₁)
	where    string  // how the residuals were computed
}

func (v *gmVerdict) merge(o gmVerdict) {
	v.matrices += o.matrices
	v.worst = max(v.worst, o.worst)
	if v.where == "" {
		v.where = o.where
	} else if o.where != "" && !strings.Contains(v.where, o.where) {
		v.where += "; " + o.where
	}
}

// gmChecker owns the GPU that forms large inputs and checks large results:
// the one named by -device, opened on first use; none when -device is a CPU.
type gmChecker struct {
	cfg    *Config
	opened bool
	q      *batchlas.Queue
	why    string // why there is no GPU

	u, c []float64 // the GPU check's host buffers, kept for the next check
}

// buffers returns two float64 buffers of the given length, reused from
// check to check: at n = 32768 each is 8 GiB.
func (c *gmChecker) buffers(size int) ([]float64, []float64) {
	if len(c.u) < size {
		c.u, c.c = nil, nil // let the old ones go first
		c.u, c.c = make([]float64, size), make([]float64, size)
	}
	return c.u[:size], c.c[:size]
}

// queue returns the checker's GPU queue, or nil and why there is none.
func (c *gmChecker) queue() (*batchlas.Queue, string) {
	if !c.opened {
		c.opened = true
		dev, err := gpuDevice(c.cfg)
		if err == nil {
			c.q, err = dev.NewQueue()
		}
		if err != nil {
			c.why = err.Error()
		}
	}
	return c.q, c.why
}

func (c *gmChecker) close() {
	if c.q != nil {
		c.q.Close()
	}
}

// gmCheck runs the test on the result f of one input a (batch matrices of
// order n, factor triangle uplo), with Potrf's info. A failure is an error
// naming the input and the matrix; a test that cannot be computed is a
// *SkipError saying why.
func gmCheck[T gmFloat](chk *gmChecker, input int, a, f []T, info []int32, n, batch int, uplo string) (gmVerdict, error) {
	failed, first := 0, -1
	for m, v := range info {
		if v != 0 {
			if first < 0 {
				first = m
			}
			failed++
		}
	}
	if failed > 0 {
		return gmVerdict{}, fmt.Errorf("input %d: %d of %d matrices report failure (info[%d] = %d) on an SPD input", input, failed, batch, first, info[first])
	}
	eps := 2 * epsOf[T]()
	if n > hostCheckMaxN {
		q, why := chk.queue()
		if q != nil {
			v, err := gmCheckGPU(chk, q, input, a, f, n, batch, uplo, eps)
			if err == nil || !checkImpossible(err) {
				return v, err
			}
			why = err.Error()
		}
		if n > hostMaxN {
			return gmVerdict{}, skipf("no check possible: the residual at n = %d needs a GPU (%s); the host stops at n = %d", n, why, hostMaxN)
		}
		v, err := gmCheckHost(input, a, f, n, batch, uplo, eps)
		v.where = fmt.Sprintf("on the host in float64 (no GPU: %s)", why)
		return v, err
	}
	return gmCheckHost(input, a, f, n, batch, uplo, eps)
}

func epsOf[T gmFloat]() float64 {
	var z T
	if _, ok := any(z).(float32); ok {
		return 0x1p-24
	}
	return 0x1p-53
}

// factorToUpper writes the factor triangle of f (column-major, uplo) into u
// as the column-major upper U with A ≈ Uᵀ·U and zeros below, and tests it
// (steps 1 and 3). It returns what is wrong, in F = Uᵀ's indices, or "".
// Large matrices are done by columns in parallel.
func factorToUpper[T gmFloat](u []float64, f []T, n int, uplo string) string {
	bad := make([]string, n)
	column := func(j int) {
		col := u[j*n : (j+1)*n]
		for i := range col {
			if i > j {
				col[i] = 0
				continue
			}
			var v float64
			if uplo == "L" {
				v = float64(f[i*n+j])
			} else {
				v = float64(f[j*n+i])
			}
			col[i] = v
			switch {
			case bad[j] != "":
			case math.IsNaN(v) || math.IsInf(v, 0):
				bad[j] = fmt.Sprintf("L(%d,%d) = %v is not finite", j, i, v)
			case i == j && !(v > 0):
				bad[j] = fmt.Sprintf("L(%d,%d) = %v is not positive", j, j, v)
			}
		}
	}
	if n >= 512 {
		oracle.ParallelFor(n, func(_, j int) { column(j) })
	} else {
		for j := range n {
			column(j)
		}
	}
	for _, b := range bad {
		if b != "" {
			return b
		}
	}
	return ""
}

// norm1 is ‖A‖₁ of the column-major n×n matrix a, the largest column sum.
func norm1[T gmFloat](a []T, n int) float64 {
	worst := 0.0
	for j := range n {
		s := 0.0
		for _, v := range a[j*n : (j+1)*n] {
			s += math.Abs(float64(v))
		}
		worst = max(worst, s)
	}
	return worst
}

// residualHost returns ‖Uᵀ·U − A‖₁ in float64. Entry (r, s), r ≤ s, of
// Uᵀ·U is the dot product of the leading r+1 entries of columns r and s of
// U; it gives both (r, s) and (s, r), so the work is n³/6 multiply-adds.
// parallel spreads the columns over the goroutines.
func residualHost[T gmFloat](u []float64, a []T, n int, parallel bool) float64 {
	colsum := make([]float64, n)
	columns := func(lo, hi int, sum []float64) {
		for s := lo; s < hi; s++ {
			us := u[s*n : s*n+s+1]
			for r := 0; r <= s; r++ {
				t := dot(u[r*n:r*n+r+1], us[:r+1])
				sum[s] += math.Abs(t - float64(a[s*n+r]))
				if r < s {
					sum[r] += math.Abs(t - float64(a[r*n+s]))
				}
			}
		}
	}
	if !parallel || n < 64 {
		columns(0, n, colsum)
	} else {
		// Column s costs about s²/2, so chunk boundaries go as the cube
		// root of the work done.
		chunks := 16 * runtime.GOMAXPROCS(0)
		bounds := make([]int, chunks+1)
		for k := range bounds {
			bounds[k] = int(math.Round(float64(n) * math.Cbrt(float64(k)/float64(chunks))))
		}
		var mu sync.Mutex
		oracle.ParallelFor(chunks, func(_, k int) {
			if bounds[k] >= bounds[k+1] {
				return
			}
			sum := make([]float64, n)
			columns(bounds[k], bounds[k+1], sum)
			mu.Lock()
			for i, v := range sum {
				colsum[i] += v
			}
			mu.Unlock()
		})
	}
	worst := 0.0
	for _, v := range colsum {
		if !(v <= worst) { // NaN wins
			worst = v
		}
	}
	return worst
}

// gmCheckHost runs the test with the residuals on the host.
func gmCheckHost[T gmFloat](input int, a, f []T, n, batch int, uplo string, eps float64) (gmVerdict, error) {
	nn := n * n
	ratio := make([]float64, batch)
	msg := make([]string, batch)
	one := func(u []float64, m int, parallel bool) {
		if msg[m] = factorToUpper(u, f[m*nn:(m+1)*nn], n, uplo); msg[m] != "" {
			return
		}
		am := a[m*nn : (m+1)*nn]
		ratio[m] = residualHost(u, am, n, parallel) / (float64(n) * eps * max(norm1(am, n), gmTiny))
	}
	workers := runtime.GOMAXPROCS(0)
	if batch >= 2*workers {
		bufs := make([][]float64, workers)
		oracle.ParallelForN(batch, workers, func(w, m int) {
			if bufs[w] == nil {
				bufs[w] = make([]float64, nn)
			}
			one(bufs[w], m, false)
		})
	} else {
		u := make([]float64, nn)
		for m := range batch {
			one(u, m, true)
		}
	}
	return gmVerdictOf(input, ratio, msg, "on the host in float64")
}

// gmCheckGPU runs the test with F·Fᵀ − A computed in float64 on q's GPU,
// in chunks of at most 1 GiB per operand.
func gmCheckGPU[T gmFloat](chk *gmChecker, q *batchlas.Queue, input int, a, f []T, n, batch int, uplo string, eps float64) (gmVerdict, error) {
	nn := n * n
	ratio := make([]float64, batch)
	msg := make([]string, batch)
	chunk := max(1, min(batch, (1<<30)/(nn*8)))
	u, c := chk.buffers(chunk * nn)
	for lo := 0; lo < batch; lo += chunk {
		count := min(chunk, batch-lo)
		bad := false
		for m := range count {
			msg[lo+m] = factorToUpper(u[m*nn:(m+1)*nn], f[(lo+m)*nn:(lo+m+1)*nn], n, uplo)
			bad = bad || msg[lo+m] != ""
		}
		if bad {
			break
		}
		src := a[lo*nn : (lo+count)*nn]
		oracle.ParallelFor(count*n, func(_, j int) {
			for i, v := range src[j*n : (j+1)*n] {
				c[j*n+i] = float64(v)
			}
		})
		if err := gpuResidual(q, u[:count*nn], c[:count*nn], n, count); err != nil {
			return gmVerdict{}, err
		}
		// c is Uᵀ·U − A, column-major: the column sums are contiguous.
		for m := range count {
			worst := oracle.ColumnNorm1(c[m*nn:(m+1)*nn], n)
			am := a[(lo+m)*nn : (lo+m+1)*nn]
			ratio[lo+m] = worst / (float64(n) * eps * max(norm1(am, n), gmTiny))
		}
	}
	return gmVerdictOf(input, ratio, msg, fmt.Sprintf("on %s in float64, F·Fᵀ − A by batchlas.Gemm(Route(\"vendor\"))", q.Device()))
}

// gpuResidual replaces c (count matrices A) by Uᵀ·U − A, computed on q's GPU.
func gpuResidual(q *batchlas.Queue, u, c []float64, n, count int) error {
	dev := q.Device()
	ub, err := batchlas.NewBatch[float64](dev, n, n, count)
	if err != nil {
		return err
	}
	defer ub.Free()
	cb, err := batchlas.NewBatch[float64](dev, n, n, count)
	if err != nil {
		return err
	}
	defer cb.Free()
	if err := ub.Upload(q, u); err != nil {
		return err
	}
	if err := cb.Upload(q, c); err != nil {
		return err
	}
	if err := batchlas.Gemm(q, batchlas.Trans, batchlas.NoTrans, 1, ub, ub, -1, cb, batchlas.Route("vendor")); err != nil {
		return err
	}
	if err := cb.Download(q, c); err != nil {
		return err
	}
	return q.Wait()
}

// gmVerdictOf turns per-matrix results into a verdict, or the error of the
// first matrix that failed.
func gmVerdictOf(input int, ratio []float64, msg []string, where string) (gmVerdict, error) {
	v := gmVerdict{matrices: len(ratio), where: where}
	for m := range ratio {
		if msg[m] != "" {
			return v, fmt.Errorf("input %d, matrix #%d: %s", input, m, msg[m])
		}
		if !(ratio[m] <= gmBound) {
			return v, fmt.Errorf("input %d, matrix #%d: ‖L·Lᵀ − A‖₁ = %.3g·n·eps·‖A‖₁, over the bound %d·n·eps·‖A‖₁ (%s)", input, m, ratio[m], gmBound, where)
		}
		v.worst = max(v.worst, ratio[m])
	}
	return v, nil
}
