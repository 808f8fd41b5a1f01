package bench

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"time"

	"gonum.org/v1/gonum/blas"

	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/internal/oracle"
)

// The cholesky-gpumode suite: the ranked cases of the GPU MODE cholesky
// task, with its inputs, timing and correctness test, as written down in
// /work/shared/reference/perf-anchors.md §1 (section numbers below are that
// file's).

// gmFloat are the element types of the suite.
type gmFloat interface{ float32 | float64 }

// Limits of the host in this suite. Up to hostCheckMaxN the host forms the
// inputs and computes the residuals in float64; above it the GPU does (with
// batchlas.Gemm on the vendor route) when there is one. Without a GPU the
// host still works up to hostMaxN, where one residual is about 10¹¹
// multiply-adds; beyond it a case cannot be formed or checked and is
// skipped with that reason.
const (
	hostCheckMaxN = 1024
	hostMaxN      = 8192
)

// gmRepetitions is the number of timed repetitions of a case: as the H200
// vendor baselines of §2 (30, 10 at n ≥ 2048, 3 at n ≥ 8192).
func gmRepetitions(n int) int {
	switch {
	case n >= 8192:
		return 3
	case n >= 2048:
		return 10
	}
	return 30
}

// gmInputs are the k inputs of one case, each batch n×n matrices packed
// column-major.
type gmInputs[T gmFloat] struct {
	n, batch int
	a        [][]T
	formed   string // where A = Yᵀ·Y/n was computed, for the output
}

// gmSeeds is the random stream of column col of Y for matrix m of input j:
// PCG seeded with (the case's seed + 42·j, Config.Seed·2³² ⊕ m·2¹⁶ ⊕ col),
// the first word as GPU MODE's per-input seeds (§1.6). One stream per
// column makes the inputs independent of how the work is spread.
func gmStream(caseSeed, seed uint64, input, m, col int) *rand.Rand {
	return rand.New(rand.NewPCG(caseSeed+42*uint64(input), seed<<32^uint64(m)<<16^uint64(col)))
}

// gmNormals fills y (n×n, column-major) with Y of matrix m of input j.
func gmNormals(y []float64, n int, c Case, seed uint64, input, m int, parallel bool) {
	col := func(k int) {
		rng := gmStream(c.Seed, seed, input, m, k)
		for i := range y[k*n : (k+1)*n] {
			y[k*n+i] = rng.NormFloat64()
		}
	}
	if parallel {
		oracle.ParallelFor(n, func(_, k int) { col(k) })
		return
	}
	for k := range n {
		col(k)
	}
}

// gmForm writes A = Yᵀ·Y/n + 0.01·I (§1.4 "dense" with cond 2: GPU MODE's
// a·aᵀ/n with a = Yᵀ) into out, rounded to T. Entry (i, j) and (j, i) are
// the same dot product, so A is exactly symmetric, which is what GPU MODE's
// symmetrisation makes it.
func gmForm[T gmFloat](out []T, y []float64, n int, parallel bool) {
	col := func(j int) {
		yj := y[j*n : (j+1)*n]
		for i := j; i < n; i++ {
			v := dot(y[i*n:(i+1)*n], yj) / float64(n)
			if i == j {
				v += 0.01
			}
			out[j*n+i], out[i*n+j] = T(v), T(v)
		}
	}
	if parallel {
		oracle.ParallelFor(n, func(_, j int) { col(j) })
		return
	}
	for j := range n {
		col(j)
	}
}

// gmGenerate makes the k inputs of case c: on the host up to hostCheckMaxN,
// above it on the GPU when one can run the vendor Gemm, else on the host up
// to hostMaxN. A case that nothing can form is a *SkipError.
func gmGenerate[T gmFloat](cfg *Config, c Case, chk *gmChecker) (*gmInputs[T], error) {
	n, nn := c.N, c.N*c.N
	in := &gmInputs[T]{n: n, batch: c.Batch, formed: "on the host in float64"}
	for range c.Inputs {
		in.a = append(in.a, make([]T, c.Batch*nn))
	}
	if n > hostCheckMaxN {
		q, why := chk.queue()
		if q != nil {
			err := gmGenerateGPU(q, cfg, c, in)
			if err == nil {
				in.formed = fmt.Sprintf("on %s with batchlas.Gemm(Route(\"vendor\")) in float64, symmetrised on the host", q.Device())
				return in, nil
			}
			if !checkImpossible(err) {
				return nil, err
			}
			why = err.Error()
		}
		if n > hostMaxN {
			return nil, skipf("no GPU to form the inputs at n = %d (%s) and the host stops at n = %d", n, why, hostMaxN)
		}
		in.formed = fmt.Sprintf("on the host in float64 (no GPU: %s)", why)
	}
	workers := runtime.GOMAXPROCS(0)
	for j := range c.Inputs {
		if c.Batch >= 2*workers {
			ys := make([][]float64, workers)
			oracle.ParallelForN(c.Batch, workers, func(w, m int) {
				if ys[w] == nil {
					ys[w] = make([]float64, nn)
				}
				gmNormals(ys[w], n, c, cfg.Seed, j, m, false)
				gmForm(in.a[j][m*nn:(m+1)*nn], ys[w], n, false)
			})
			continue
		}
		y := make([]float64, nn)
		for m := range c.Batch {
			gmNormals(y, n, c, cfg.Seed, j, m, true)
			gmForm(in.a[j][m*nn:(m+1)*nn], y, n, true)
		}
	}
	return in, nil
}

// gmGenerateGPU forms the inputs with C = Yᵀ·Y on the GPU, in chunks of at
// most 1 GiB of float64 per operand, then A = (C + Cᵀ)/(2n) + 0.01·I on the
// host.
func gmGenerateGPU[T gmFloat](q *batchlas.Queue, cfg *Config, c Case, in *gmInputs[T]) error {
	n, nn := c.N, c.N*c.N
	chunk := max(1, min(c.Batch, (1<<30)/(nn*8)))
	y := make([]float64, chunk*nn)
	for j := range c.Inputs {
		for lo := 0; lo < c.Batch; lo += chunk {
			count := min(chunk, c.Batch-lo)
			for m := range count {
				gmNormals(y[m*nn:(m+1)*nn], n, c, cfg.Seed, j, lo+m, true)
			}
			if err := gpuGram(q, y[:count*nn], n, count); err != nil {
				return err
			}
			out := in.a[j][lo*nn : (lo+count)*nn]
			oracle.ParallelFor(count*n, func(_, mj int) {
				m, jj := mj/n, mj%n
				g, o := y[m*nn:(m+1)*nn], out[m*nn:(m+1)*nn]
				for i := jj; i < n; i++ {
					v := (g[jj*n+i] + g[i*n+jj]) / 2 / float64(n)
					if i == jj {
						v += 0.01
					}
					o[jj*n+i], o[i*n+jj] = T(v), T(v)
				}
			})
		}
	}
	return nil
}

// gpuGram replaces each n×n matrix Y of y by Yᵀ·Y, computed on q's GPU.
func gpuGram(q *batchlas.Queue, y []float64, n, count int) error {
	dev := q.Device()
	yb, err := batchlas.NewBatch[float64](dev, n, n, count)
	if err != nil {
		return err
	}
	defer yb.Free()
	cb, err := batchlas.NewBatch[float64](dev, n, n, count)
	if err != nil {
		return err
	}
	defer cb.Free()
	if err := yb.Upload(q, y); err != nil {
		return err
	}
	if err := batchlas.Gemm(q, batchlas.Trans, batchlas.NoTrans, 1, yb, yb, 0, cb, batchlas.Route("vendor")); err != nil {
		return err
	}
	if err := cb.Download(q, y); err != nil {
		return err
	}
	return q.Wait()
}

// checkImpossible reports whether err means the GPU cannot do the work
// (rather than that it did it wrongly).
func checkImpossible(err error) bool {
	for _, e := range []error{batchlas.ErrUnsupported, batchlas.ErrNoDevice, batchlas.ErrLibraryNotFound, batchlas.ErrOutOfMemory} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// gmRunner is one arm set up for one case of the suite.
type gmRunner[T gmFloat] interface {
	// repetition is one timed repetition (§1.6): the inputs restored
	// outside the timer, then one call per input back to back; it returns
	// the time per call.
	repetition() (nsPerCall float64, err error)
	// output copies the result of the last call on input j into f and
	// returns the info of its matrices.
	output(j int, f []T) ([]int32, error)
	release()
}

// setupGM prepares arm spec for case c.
func setupGM[T gmFloat](cfg *Config, spec *armSpec, c Case, in *gmInputs[T]) (gmRunner[T], string, error) {
	switch spec.name {
	case "gonum", "gonum-par":
		in64, ok := any(in).(*gmInputs[float64])
		if !ok {
			return nil, "", skipf("gonum has no LAPACK for this type; the gonum arms run float64 only")
		}
		workers, loop := 1, "a loop on one goroutine"
		if spec.name == "gonum-par" {
			workers = runtime.GOMAXPROCS(0)
			loop = fmt.Sprintf("a loop spread over %d goroutines", workers)
		}
		r := newGonumCase(in64, c, workers)
		uplo := "Lower"
		if c.Uplo == "L" {
			uplo = "Upper"
		}
		return any(r).(gmRunner[T]), fmt.Sprintf("gonum v0.17.0, Dpotrf(%s) per matrix on the row-major reading of the same memory, %s", uplo, loop), nil
	}
	if spec.pin == "" {
		return nil, "", skipf("arm %s has no runner for this suite", spec.name)
	}
	var dev *batchlas.Device
	var err error
	if spec.gpu {
		dev, err = gpuDevice(cfg)
	} else {
		dev, err = cpuDevice(cfg)
	}
	if err != nil {
		return nil, "", err
	}
	r, err := newAPICase(dev, c, in, spec.pin)
	if err != nil {
		return nil, "", unsupportedAsSkip(err)
	}
	return r, apiAbout(dev, spec.pin), nil
}

// apiCase runs Potrf through the public API on the k inputs of a case.
type apiCase[T gmFloat] struct {
	q              *batchlas.Queue
	pristine, work *batchlas.Batch[T] // the k inputs one after another
	inputs         []*batchlas.Batch[T]
	info           []*batchlas.Info
	uplo           batchlas.Uplo
	route          batchlas.CallOption
}

func newAPICase[T gmFloat](dev *batchlas.Device, c Case, in *gmInputs[T], pin string) (_ *apiCase[T], err error) {
	q, err := dev.NewQueue()
	if err != nil {
		return nil, err
	}
	r := &apiCase[T]{q: q, uplo: batchlas.Upper, route: batchlas.Route(pin)}
	if c.Uplo == "L" {
		r.uplo = batchlas.Lower
	}
	defer func() {
		if err != nil {
			r.release()
		}
	}()
	n, b, k := c.N, c.Batch, len(in.a)
	if r.pristine, err = batchlas.NewBatch[T](dev, n, n, k*b); err != nil {
		return nil, err
	}
	if r.work, err = batchlas.NewBatch[T](dev, n, n, k*b); err != nil {
		return nil, err
	}
	for j := range k {
		p, err := r.pristine.Slice(j*b, (j+1)*b)
		if err != nil {
			return nil, err
		}
		if err := p.Upload(q, in.a[j]); err != nil {
			return nil, err
		}
		x, err := r.work.Slice(j*b, (j+1)*b)
		if err != nil {
			return nil, err
		}
		info, err := batchlas.NewInfo(dev, b)
		if err != nil {
			return nil, err
		}
		r.inputs, r.info = append(r.inputs, x), append(r.info, info)
	}
	return r, q.Wait()
}

// repetition follows §1.6: restore (outside the timer), synchronize, evict
// the L2 cache (Queue.EvictCache writes 4× the L2 size, at least 256 MiB;
// nothing on the CPU), mark, one call per input, mark. On a GPU the marks
// are CUDA events, so host launch cost counts only where it stalls the
// device, as in GPU MODE's timing; on the CPU they read the wall clock.
func (r *apiCase[T]) repetition() (float64, error) {
	runtime.GC() // outside the timer, as timeRepetition
	if err := batchlas.Copy(r.q, r.pristine, r.work); err != nil {
		return 0, err
	}
	if err := r.q.Wait(); err != nil {
		return 0, err
	}
	if err := r.q.EvictCache(); err != nil {
		return 0, err
	}
	start, err := r.q.Mark()
	if err != nil {
		return 0, err
	}
	defer start.Release()
	for j, x := range r.inputs {
		if err := batchlas.Potrf(r.q, r.uplo, x, r.info[j], r.route); err != nil {
			r.q.Wait()
			return 0, err
		}
	}
	end, err := r.q.Mark()
	if err != nil {
		return 0, err
	}
	defer end.Release()
	d, err := end.Since(start)
	if werr := r.q.Wait(); err == nil {
		err = werr
	}
	return float64(d.Nanoseconds()) / float64(len(r.inputs)), err
}

func (r *apiCase[T]) output(j int, f []T) ([]int32, error) {
	if err := r.inputs[j].Download(r.q, f); err != nil {
		return nil, err
	}
	return r.info[j].Values(r.q)
}

func (r *apiCase[T]) release() {
	for _, x := range []*batchlas.Batch[T]{r.pristine, r.work} {
		if x != nil {
			x.Free()
		}
	}
	r.q.Close()
}

// gonumCase runs gonum's Dpotrf on every matrix of the k inputs. Column-major
// upper U is row-major lower L = Uᵀ in the same memory, so it is
// Dpotrf(Lower) on gonum's row-major view (and Upper for uplo L).
type gonumCase struct {
	n, batch, workers int
	uplo              blas.Uplo
	pristine, work    [][]float64
	info              [][]int32
}

func newGonumCase(in *gmInputs[float64], c Case, workers int) *gonumCase {
	r := &gonumCase{n: c.N, batch: c.Batch, workers: workers, uplo: blas.Lower, pristine: in.a}
	if c.Uplo == "L" {
		r.uplo = blas.Upper
	}
	for range in.a {
		r.work = append(r.work, make([]float64, c.Batch*c.N*c.N))
		r.info = append(r.info, make([]int32, c.Batch))
	}
	return r
}

func (r *gonumCase) repetition() (float64, error) {
	runtime.GC()
	for j := range r.work {
		copy(r.work[j], r.pristine[j])
	}
	nn := r.n * r.n
	start := time.Now()
	for j, a := range r.work {
		body := func(m int) {
			r.info[j][m] = 0
			if !lapack64.Dpotrf(r.uplo, r.n, a[m*nn:(m+1)*nn], r.n) {
				r.info[j][m] = 1 // gonum says only that the matrix failed
			}
		}
		if r.workers <= 1 {
			for m := range r.batch {
				body(m)
			}
		} else {
			oracle.ParallelFor(r.batch, func(_, m int) { body(m) })
		}
	}
	return float64(time.Since(start).Nanoseconds()) / float64(len(r.work)), nil
}

func (r *gonumCase) output(j int, f []float64) ([]int32, error) {
	copy(f, r.work[j])
	return r.info[j], nil
}

func (r *gonumCase) release() {}

// dot is Σ x[i]·y[i] in float64, four partial sums.
func dot(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * y[i]
		s1 += x[i+1] * y[i+1]
		s2 += x[i+2] * y[i+2]
		s3 += x[i+3] * y[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * y[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// mib formats a size in bytes.
func mib(bytes int) string {
	if bytes >= 1<<30 && bytes%(1<<30) == 0 {
		return fmt.Sprintf("%d GiB", bytes>>30)
	}
	return strings.TrimSuffix(fmt.Sprintf("%.4g", float64(bytes)/(1<<20)), ".0") + " MiB"
}
