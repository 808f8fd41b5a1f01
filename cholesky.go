package batchlas

import (
	"github.com/batchlas/batchlas/internal/cpu"
	"github.com/batchlas/batchlas/internal/route"
)

// Potrf computes the Cholesky factorization of each Hermitian positive
// definite matrix of a: A = L·Lᴴ (uplo Lower) or A = Uᴴ·U (uplo Upper). The
// factor overwrites the uplo triangle of A; the other strict triangle is not
// touched. Only the uplo triangle of A is read.
//
// Matrix i that is not positive definite gets info[i] = k > 0, the order of
// its first leading minor that is not (a NaN counts as such); its contents
// are then partly overwritten and every other matrix is unaffected. With a
// nil info, failed matrices are reported by q.Wait as a *FailedError.
//
// An infinite pivot is positive, as in LAPACK: info 0, +Inf on the diagonal
// of the factor and zeros below (or right of) it. The one exception is
// cuSOLVER's single-matrix routine, which the vendor candidates use for one
// matrix (and vendor:loop for each): it may leave a NaN there, and then the
// matrix is reported failed at that minor or a later one.
//
// On a GPU, a float32 call routed to the blocked driver with tensor-core
// products waits for its statuses before it returns, and factors every
// matrix that failed again in float64: those products, slightly less
// accurate than float32's, fail some near-singular matrices that float32
// arithmetic factors.
func Potrf[T Scalar](q *Queue, uplo Uplo, a *Batch[T], info *Info, opts ...CallOption) error {
	const op = "Potrf"
	if err := checkQueue(op, q); err != nil {
		return err
	}
	if err := firstErr(
		checkBatch(op, q, "a", a),
		checkUplo(op, uplo),
	); err != nil {
		return err
	}
	if err := firstErr(checkSquare(op, "a", a), checkInfo(op, q, info, a.count)); err != nil {
		return err
	}
	name, err := choose[T](q, op, route.Call{Uplo: route.UploKey(uplo), N: a.rows, Batch: a.count}, opts)
	if err != nil {
		return err
	}
	if q.dev.kind == CUDA {
		return gpuPotrf(q, name, uplo, a, info)
	}
	return runCPU(q, op, info, a.count, func(inf []int32) error {
		return cpu.Potrf(q.execFor(name), uplo, a.layout(), inf)
	})
}

// Potrs solves A·X = B for each matrix, given the Cholesky factor of A from
// Potrf (same uplo) in a. B is n×nrhs and is overwritten by X.
func Potrs[T Scalar](q *Queue, uplo Uplo, a, b *Batch[T], opts ...CallOption) error {
	const op = "Potrs"
	if err := checkSolve(op, q, uplo, a, b); err != nil {
		return err
	}
	name, err := choose[T](q, op, route.Call{Uplo: route.UploKey(uplo), N: a.rows, NRHS: b.cols, Batch: a.count}, opts)
	if err != nil {
		return err
	}
	if q.dev.kind == CUDA {
		return gpuPotrs(q, name, uplo, a, b)
	}
	return runCPUPlain(q, op, func() error {
		return cpu.Potrs(q.execFor(name), uplo, a.layout(), b.layout())
	})
}

// Posv solves A·X = B for each Hermitian positive definite A: it factors A
// as Potrf does (the factor overwrites A) and overwrites B (n×nrhs) with X.
// A matrix whose factorization fails gets info as for Potrf and keeps its B.
func Posv[T Scalar](q *Queue, uplo Uplo, a, b *Batch[T], info *Info, opts ...CallOption) error {
	const op = "Posv"
	if err := checkSolve(op, q, uplo, a, b); err != nil {
		return err
	}
	if err := checkInfo(op, q, info, a.count); err != nil {
		return err
	}
	name, err := choose[T](q, op, route.Call{Uplo: route.UploKey(uplo), N: a.rows, NRHS: b.cols, Batch: a.count}, opts)
	if err != nil {
		return err
	}
	if q.dev.kind == CUDA {
		return gpuPosv(q, name, uplo, a, b, info)
	}
	return runCPU(q, op, info, a.count, func(inf []int32) error {
		return cpu.Posv(q.execFor(name), uplo, a.layout(), b.layout(), inf)
	})
}

// checkSolve validates a square A and a right-hand side B with as many rows
// and matrices, in distinct memory.
func checkSolve[T Scalar](op string, q *Queue, uplo Uplo, a, b *Batch[T]) error {
	if err := checkQueue(op, q); err != nil {
		return err
	}
	if err := firstErr(checkBatch(op, q, "a", a), checkBatch(op, q, "b", b), checkUplo(op, uplo)); err != nil {
		return err
	}
	return firstErr(
		checkSquare(op, "a", a),
		checkCount(op, "b", b, a.count),
		checkRows(op, "b", b, a.rows),
		checkDistinct(op, "a", a, "b", b),
	)
}

func checkRows[T Scalar](op, name string, b *Batch[T], rows int) error {
	if b.rows != rows {
		return argErr(ErrShape, op, name, "has %d rows, want %d", b.rows, rows)
	}
	return nil
}

// firstErr returns the first non-nil error, so checks read as one list.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
