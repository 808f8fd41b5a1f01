package bench

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/batchlas/batchlas/internal/core"
	"gonum.org/v1/gonum/blas"
	blasgonum "gonum.org/v1/gonum/blas/gonum"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
)

// The gonum arms call gonum's LAPACK and BLAS once per matrix. Gonum is
// row-major; where the op has a row-major twin on the same memory it is
// used as is, so both arms touch the same bytes:
//
//   - potrf: column-major lower L·Lᵀ of a symmetric A is row-major
//     Dpotrf(Upper) on the same memory (potrs and posv likewise, with B
//     given row-major);
//   - gemm: C = A·B column-major is Cᵀ = Bᵀ·Aᵀ row-major, Dgemm(B, A);
//   - trsm: L·X = B column-major is Xᵀ·Lᵀ = Bᵀ row-major, Dtrsm(Right, Upper);
//   - syrk: lower C = A·Aᵀ column-major is upper C = A'ᵀ·A' row-major with
//     A' the same memory, Dsyrk(Upper, Trans).
//
// The LU family has no such twin: A and B are transposed into row-major
// copies outside the timer, and the results transposed back for the check.

var (
	lapack64 lapackgonum.Implementation
	blas64   blasgonum.Implementation
)

type gonumRunner struct {
	op             *Op
	n, nrhs, count int
	workers        int // goroutines; 1 is a plain loop

	a, b, c []float64 // operands in gonum's layout
	pa, pb  []float64 // pristine copies restored before each call; nil: none
	ipiv    []int     // n per matrix, 0-based
	info    []int32
	lwork   int // Dgetri's work length per matrix

	aRowMajor, bRowMajor, cRowMajor bool // transposed from column-major

	// uplo is what Dpotrf and Dpotrs are asked for on the column-major
	// memory, which gonum reads row-major: Upper for a Lower case, Lower
	// for Upper.
	uplo blas.Uplo

	body func(i int, work []float64) // the op on matrix i
}

func setupGonum(op *Op, in any, workers int) (runner, string, error) {
	in64, ok := in.(*inputs[float64])
	if !ok {
		return nil, "", skipf("gonum has no LAPACK for this type; the gonum arms run float64 only")
	}
	r := &gonumRunner{op: op, n: in64.n, nrhs: in64.nrhs, count: in64.count, workers: workers,
		info: make([]int32, in64.count), uplo: blas.Upper}
	if in64.uplo == core.Upper {
		r.uplo = blas.Lower
	}
	if err := r.setup(in64); err != nil {
		return nil, "", err
	}
	loop := "a loop on one goroutine"
	if workers != 1 {
		loop = fmt.Sprintf("a loop spread over %d goroutines", runtime.GOMAXPROCS(0))
	}
	return r, fmt.Sprintf("gonum v0.17.0, %s per matrix, %s", r.describe(), loop), nil
}

func (r *gonumRunner) describe() string {
	switch r.op.Name {
	case "potrf":
		return "Dpotrf(" + r.uploName() + ") on the column-major memory"
	case "potrs":
		return "Dpotrs(" + r.uploName() + "), B row-major"
	case "posv":
		return "Dpotrf(" + r.uploName() + ") + Dpotrs(" + r.uploName() + "), B row-major"
	case "getrf":
		return "Dgetrf on row-major copies"
	case "getrs":
		return "Dgetrs on row-major copies"
	case "gesv":
		return "Dgesv on row-major copies"
	case "getri":
		return "Dgetri on row-major copies"
	case "inv":
		return "copy + Dgetrf + Dgetri on row-major copies"
	case "gemm":
		return "Dgemm(B, A) on the column-major memory"
	case "trsm":
		return "Dtrsm(Right, Upper) on the column-major memory"
	case "syrk":
		return "Dsyrk(Upper, Trans) on the column-major memory"
	}
	return r.op.Name
}

// uploName is r.uplo as gonum's documentation names it.
func (r *gonumRunner) uploName() string {
	if r.uplo == blas.Lower {
		return "Lower"
	}
	return "Upper"
}

func (r *gonumRunner) setup(in *inputs[float64]) error {
	n, nrhs, count := r.n, r.nrhs, r.count
	nn := n * n
	mat := func(x []float64, i, size int) []float64 { return x[i*size : (i+1)*size] }
	clone := func(x []float64) []float64 { return append([]float64(nil), x...) }

	switch r.op.Name {
	case "getrf", "getrs", "gesv", "getri", "inv":
		r.aRowMajor = true
		r.a = transposeAll(in.a, n, n, count)
		r.ipiv = make([]int, n*count)
	default:
		r.a = clone(in.a)
	}
	switch r.op.Name {
	case "potrs", "posv", "getrs", "gesv":
		r.bRowMajor = nrhs > 1 // one column reads the same either way
		if r.bRowMajor {
			r.b = transposeAll(in.b, n, nrhs, count)
		} else {
			r.b = clone(in.b)
		}
	case "gemm", "trsm":
		r.b = clone(in.b)
	}
	switch r.op.Name {
	case "inv":
		r.c = make([]float64, nn*count)
		r.cRowMajor = true
	case "gemm", "syrk":
		r.c = make([]float64, nn*count)
	}

	// Untimed factorizations that the timed op starts from.
	switch r.op.Name {
	case "potrs":
		for i := range count {
			if !lapack64.Dpotrf(r.uplo, n, mat(r.a, i, nn), n) {
				return fmt.Errorf("bench: the untimed Dpotrf failed on matrix #%d", i)
			}
		}
	case "getrs", "getri":
		for i := range count {
			if !lapack64.Dgetrf(n, n, mat(r.a, i, nn), n, r.ipiv[i*n:(i+1)*n]) {
				return fmt.Errorf("bench: the untimed Dgetrf failed on matrix #%d", i)
			}
		}
	}
	// Pristine copies; the inputs themselves serve where the layout is theirs
	// (nothing writes to them).
	switch r.op.Name {
	case "potrf", "posv":
		r.pa = in.a
	case "getrf", "gesv", "getri":
		r.pa = clone(r.a)
	}
	if r.op.RHS {
		r.pb = in.b
		if r.bRowMajor {
			r.pb = clone(r.b)
		}
	}
	if r.op.Name == "getri" || r.op.Name == "inv" {
		work := []float64{0}
		lapack64.Dgetri(n, nil, n, nil, work, -1)
		r.lwork = max(n, int(work[0]))
	}

	ok := func(i int, good bool) {
		if good {
			r.info[i] = 0
		} else {
			r.info[i] = 1 // gonum says only that the matrix failed
		}
	}
	ldb := nrhs // the solves' B is row-major n×nrhs (for one column, the same memory as column-major)
	switch r.op.Name {
	case "potrf":
		r.body = func(i int, _ []float64) { ok(i, lapack64.Dpotrf(r.uplo, n, mat(r.a, i, nn), n)) }
	case "potrs":
		r.body = func(i int, _ []float64) {
			lapack64.Dpotrs(r.uplo, n, nrhs, mat(r.a, i, nn), n, mat(r.b, i, n*nrhs), ldb)
		}
	case "posv":
		r.body = func(i int, _ []float64) {
			a := mat(r.a, i, nn)
			good := lapack64.Dpotrf(r.uplo, n, a, n)
			if good {
				lapack64.Dpotrs(r.uplo, n, nrhs, a, n, mat(r.b, i, n*nrhs), ldb)
			}
			ok(i, good)
		}
	case "getrf":
		r.body = func(i int, _ []float64) { ok(i, lapack64.Dgetrf(n, n, mat(r.a, i, nn), n, r.ipiv[i*n:(i+1)*n])) }
	case "getrs":
		r.body = func(i int, _ []float64) {
			lapack64.Dgetrs(blas.NoTrans, n, nrhs, mat(r.a, i, nn), n, r.ipiv[i*n:(i+1)*n], mat(r.b, i, n*nrhs), ldb)
		}
	case "gesv":
		r.body = func(i int, _ []float64) {
			ok(i, lapack64.Dgesv(n, nrhs, mat(r.a, i, nn), n, r.ipiv[i*n:(i+1)*n], mat(r.b, i, n*nrhs), ldb))
		}
	case "getri":
		r.body = func(i int, work []float64) {
			ok(i, lapack64.Dgetri(n, mat(r.a, i, nn), n, r.ipiv[i*n:(i+1)*n], work, r.lwork))
		}
	case "inv":
		r.body = func(i int, work []float64) {
			c, piv := mat(r.c, i, nn), r.ipiv[i*n:(i+1)*n]
			copy(c, mat(r.a, i, nn))
			good := lapack64.Dgetrf(n, n, c, n, piv)
			if good {
				good = lapack64.Dgetri(n, c, n, piv, work, r.lwork)
			}
			ok(i, good)
		}
	case "gemm":
		r.body = func(i int, _ []float64) {
			blas64.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, mat(r.b, i, nn), n, mat(r.a, i, nn), n, 0, mat(r.c, i, nn), n)
		}
	case "trsm":
		r.body = func(i int, _ []float64) {
			blas64.Dtrsm(blas.Right, blas.Upper, blas.NoTrans, blas.NonUnit, nrhs, n, 1, mat(r.a, i, nn), n, mat(r.b, i, n*nrhs), n)
		}
	case "syrk":
		r.body = func(i int, _ []float64) {
			blas64.Dsyrk(blas.Upper, blas.Trans, n, n, 1, mat(r.a, i, nn), n, 0, mat(r.c, i, nn), n)
		}
	default:
		return fmt.Errorf("bench: no gonum arm for %s", r.op.Name)
	}
	return nil
}

// transposeAll returns count rows×cols column-major matrices as row-major.
func transposeAll(x []float64, rows, cols, count int) []float64 {
	out := make([]float64, len(x))
	size := rows * cols
	for m := range count {
		src, dst := x[m*size:(m+1)*size], out[m*size:(m+1)*size]
		for j := range cols {
			for i := range rows {
				dst[i*cols+j] = src[j*rows+i]
			}
		}
	}
	return out
}

func (r *gonumRunner) restore() error {
	if r.pa != nil {
		copy(r.a, r.pa)
	}
	if r.pb != nil {
		copy(r.b, r.pb)
	}
	return nil
}

func (r *gonumRunner) call() error {
	w := r.workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	w = min(w, r.count)
	if w <= 1 {
		work := make([]float64, r.lwork)
		for i := range r.count {
			r.body(i, work)
		}
		return nil
	}
	chunk := max(1, r.count/(8*w))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range w {
		wg.Go(func() {
			work := make([]float64, r.lwork)
			for {
				lo := int(next.Add(int64(chunk))) - chunk
				if lo >= r.count {
					return
				}
				for i := lo; i < min(lo+chunk, r.count); i++ {
					r.body(i, work)
				}
			}
		})
	}
	wg.Wait()
	return nil
}

func (r *gonumRunner) snapshot(idx []int) ([]result, []int32, error) {
	n, nrhs := r.n, r.nrhs
	take := func(x []float64, i, rows, cols int, rowMajor bool) []complex128 {
		if x == nil {
			return nil
		}
		m := x[i*rows*cols : (i+1)*rows*cols]
		if rowMajor {
			m = transposeAll(m, cols, rows, 1) // row-major rows×cols is column-major cols×rows
		}
		return widen(m)
	}
	bcols := nrhs
	if r.op.Name == "gemm" {
		bcols = n
	}
	out := make([]result, len(idx))
	for k, i := range idx {
		o := &out[k]
		o.a = take(r.a, i, n, n, r.aRowMajor)
		o.b = take(r.b, i, n, bcols, r.bRowMajor)
		o.c = take(r.c, i, n, n, r.cRowMajor)
		if r.ipiv != nil {
			o.pivots = make([]int32, n)
			for j, p := range r.ipiv[i*n : (i+1)*n] {
				o.pivots[j] = int32(p + 1)
			}
		}
	}
	switch r.op.Name {
	case "potrs", "getrs", "gemm", "trsm", "syrk":
		return out, nil, nil
	}
	return out, r.info, nil
}

func (r *gonumRunner) release() {}
