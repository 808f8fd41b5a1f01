package batchlas

import (
	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cpu"
	"github.com/batchlas/batchlas/internal/route"
)

// Getrf computes the LU factorization with partial pivoting of each m×n
// matrix of a: A = P·L·U, L unit lower triangular (the unit diagonal not
// stored), U upper triangular; both overwrite A. pivots receives the
// min(m, n) row interchanges of each matrix, 1-based as in LAPACK.
//
// A matrix with an exactly zero pivot U(k, k) gets info[i] = k and its
// factorization still completes; a NaN gives a NaN factor or a non-zero
// info for that matrix only. With a nil info, such matrices are reported by
// q.Wait as a *FailedError.
func Getrf[T Scalar](q *Queue, a *Batch[T], pivots *Pivots, info *Info, opts ...CallOption) error {
	const op = "Getrf"
	if err := checkQueue(op, q); err != nil {
		return err
	}
	if err := checkBatch(op, q, "a", a); err != nil {
		return err
	}
	if err := firstErr(
		checkPivots(op, q, pivots, min(a.rows, a.cols), a.count),
		checkInfo(op, q, info, a.count),
	); err != nil {
		return err
	}
	name, err := choose[T](q, op, route.Call{M: a.rows, N: a.cols, Batch: a.count}, opts)
	if err != nil {
		return err
	}
	if q.dev.kind == CUDA {
		return gpuGetrf(q, a, pivots, info)
	}
	return runCPU(q, op, info, a.count, func(inf []int32) error {
		return cpu.Getrf(q.execFor(name), a.layout(), pivots.hostFor(a.count), inf)
	})
}

// Getrs solves op(A)·X = B for each matrix, given the LU factors and pivots
// of a square A from Getrf. B is n×nrhs and is overwritten by X. Getrs does
// not check the factors: a singular U gives Inf or NaN in X.
func Getrs[T Scalar](q *Queue, trans Transpose, a *Batch[T], pivots *Pivots, b *Batch[T], opts ...CallOption) error {
	const op = "Getrs"
	if err := checkSolve(op, q, Lower, a, b); err != nil {
		return err
	}
	if err := firstErr(checkTrans(op, "trans", trans), checkPivots(op, q, pivots, a.rows, a.count)); err != nil {
		return err
	}
	name, err := choose[T](q, op, route.Call{Trans: transKey[T](trans), N: a.rows, NRHS: b.cols, Batch: a.count}, opts)
	if err != nil {
		return err
	}
	if q.dev.kind == CUDA {
		return gpuGetrs(q, trans, a, pivots, b)
	}
	return runCPUPlain(q, op, func() error {
		return cpu.Getrs(q.execFor(name), trans, a.layout(), pivots.hostFor(a.count), b.layout())
	})
}

// Getri overwrites the LU factors of each square matrix in a (from Getrf,
// with its pivots) with the inverse A⁻¹. A matrix whose U has an exactly
// zero diagonal U(k, k) gets info[i] = k and keeps its factors.
func Getri[T Scalar](q *Queue, a *Batch[T], pivots *Pivots, info *Info, opts ...CallOption) error {
	const op = "Getri"
	if err := checkQueue(op, q); err != nil {
		return err
	}
	if err := checkBatch(op, q, "a", a); err != nil {
		return err
	}
	if err := firstErr(
		checkSquare(op, "a", a),
		checkPivots(op, q, pivots, a.rows, a.count),
		checkInfo(op, q, info, a.count),
	); err != nil {
		return err
	}
	name, err := choose[T](q, op, route.Call{N: a.rows, Batch: a.count}, opts)
	if err != nil {
		return err
	}
	if q.dev.kind == CUDA {
		return gpuGetri(q, a, pivots, info)
	}
	return runCPU(q, op, info, a.count, func(inf []int32) error {
		return cpu.Getri(q.execFor(name), a.layout(), pivots.hostFor(a.count), inf)
	})
}

// Gesv solves A·X = B for each square matrix by LU with partial pivoting:
// the factors overwrite A, the interchanges go to pivots (which may be nil
// when the caller does not need them) and X overwrites B (n×nrhs). A matrix
// with an exactly zero pivot gets info as for Getrf and keeps its B.
func Gesv[T Scalar](q *Queue, a *Batch[T], pivots *Pivots, b *Batch[T], info *Info, opts ...CallOption) error {
	const op = "Gesv"
	if err := checkSolve(op, q, Lower, a, b); err != nil {
		return err
	}
	if err := checkInfo(op, q, info, a.count); err != nil {
		return err
	}
	if pivots != nil {
		if err := checkPivots(op, q, pivots, a.rows, a.count); err != nil {
			return err
		}
	}
	name, err := choose[T](q, op, route.Call{N: a.rows, NRHS: b.cols, Batch: a.count}, opts)
	if err != nil {
		return err
	}
	if q.dev.kind == CUDA {
		return gpuGesv(q, a, pivots, b, info)
	}
	piv := scratchPivots(pivots, a.rows, a.count)
	return runCPU(q, op, info, a.count, func(inf []int32) error {
		return cpu.Gesv(q.execFor(name), a.layout(), piv, b.layout(), inf)
	})
}

// Inv computes C = A⁻¹ for each square matrix of a, leaving A unchanged;
// c may be a itself to invert in place. A singular matrix (an exactly zero
// pivot U(k, k)) gets info[i] = k and its C holds the LU factors of A.
func Inv[T Scalar](q *Queue, a, c *Batch[T], info *Info, opts ...CallOption) error {
	const op = "Inv"
	if err := checkQueue(op, q); err != nil {
		return err
	}
	if err := firstErr(checkBatch(op, q, "a", a), checkBatch(op, q, "c", c)); err != nil {
		return err
	}
	if err := firstErr(
		checkSquare(op, "a", a),
		checkDims(op, "c", c, a.rows, a.cols),
		checkCount(op, "c", c, a.count),
		checkInfo(op, q, info, a.count),
	); err != nil {
		return err
	}
	inPlace := a.mem == c.mem && a.off == c.off && a.ld == c.ld && a.stride == c.stride
	if !inPlace {
		if err := checkDistinct(op, "a", a, "c", c); err != nil {
			return err
		}
	}
	name, err := choose[T](q, op, route.Call{N: a.rows, Batch: a.count}, opts)
	if err != nil {
		return err
	}
	if q.dev.kind == CUDA {
		return gpuInv(q, a, c, info)
	}
	return runCPU(q, op, info, a.count, func(inf []int32) error {
		x := q.execFor(name)
		src, dst := a.layout(), c.layout()
		if !inPlace {
			if err := x.ForEach(a.count, func(i int) { copyMatrix(dst, src, i) }); err != nil {
				return err
			}
		}
		piv := scratchPivots(nil, a.rows, a.count)
		if err := cpu.Getrf(x, dst, piv, inf); err != nil {
			return err
		}
		// Getri leaves a matrix with info > 0 untouched, so the factors stay.
		return cpu.Getri(x, dst, piv, inf)
	})
}

// scratchPivots returns the caller's pivots, or a fresh buffer when it has none.
func scratchPivots(p *Pivots, k, count int) []int32 {
	if p != nil {
		return p.hostFor(count)
	}
	return make([]int32, k*count)
}

func copyMatrix[T Scalar](dst, src core.Strided[T], i int) {
	d, s := dst.Matrix(i), src.Matrix(i)
	for j := range src.Cols {
		copy(d[j*dst.LD:j*dst.LD+src.Rows], s[j*src.LD:])
	}
}
