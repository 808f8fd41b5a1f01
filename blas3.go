package batchlas

import (
	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cpu"
	"github.com/batchlas/batchlas/internal/route"
)

// Gemm computes C = alpha·op(A)·op(B) + beta·C for each matrix, with op(A)
// m×k, op(B) k×n and C m×n. When beta is zero C is not read (NaN in C does
// not propagate); when alpha is zero A and B are not read.
func Gemm[T Scalar](q *Queue, transA, transB Transpose, alpha T, a, b *Batch[T], beta T, c *Batch[T], opts ...CallOption) error {
	const op = "Gemm"
	if err := checkQueue(op, q); err != nil {
		return err
	}
	if err := firstErr(
		checkBatch(op, q, "a", a), checkBatch(op, q, "b", b), checkBatch(op, q, "c", c),
		checkTrans(op, "transA", transA), checkTrans(op, "transB", transB),
	); err != nil {
		return err
	}
	m, ka := opDims(transA, a)
	kb, n := opDims(transB, b)
	if ka != kb {
		return argErr(ErrShape, op, "b", "op(b) is %d×%d, op(a) is %d×%d: inner sizes differ", kb, n, m, ka)
	}
	if err := firstErr(
		checkDims(op, "c", c, m, n),
		checkCount(op, "b", b, a.count), checkCount(op, "c", c, a.count),
		checkDistinct(op, "a", a, "c", c), checkDistinct(op, "b", b, "c", c),
	); err != nil {
		return err
	}
	name, err := choose[T](q, op, route.Call{Trans: transKey[T](transA), TransB: transKey[T](transB), M: m, N: n, K: ka, Batch: a.count}, opts)
	if err != nil {
		return err
	}
	if q.dev.kind == CUDA {
		return gpuGemm(q, transA, transB, alpha, a, b, beta, c)
	}
	return runCPUPlain(q, op, func() error {
		return cpu.Gemm(q.execFor(name), transA, transB, alpha, a.layout(), b.layout(), beta, c.layout())
	})
}

// opDims returns the shape of op(A).
func opDims[T Scalar](t Transpose, a *Batch[T]) (rows, cols int) {
	if t == NoTrans {
		return a.rows, a.cols
	}
	return a.cols, a.rows
}

// Trsm solves op(A)·X = alpha·B (side Left, A m×m) or X·op(A) = alpha·B
// (side Right, A n×n) for each matrix, A triangular (its uplo triangle is
// read; with diag Unit its diagonal is taken as one). B is m×n and is
// overwritten by X. A zero diagonal gives Inf or NaN in X; it is not checked.
func Trsm[T Scalar](q *Queue, side Side, uplo Uplo, transA Transpose, diag Diag, alpha T, a, b *Batch[T], opts ...CallOption) error {
	const op = "Trsm"
	if err := checkTriangular(op, q, side, uplo, transA, diag, a, b); err != nil {
		return err
	}
	name, err := choose[T](q, op, triangularCall[T](side, uplo, transA, a, b), opts)
	if err != nil {
		return err
	}
	if q.dev.kind == CUDA {
		return gpuTrsm(q, side, uplo, transA, diag, alpha, a, b)
	}
	return runCPUPlain(q, op, func() error {
		return cpu.Trsm(q.execFor(name), side, uplo, transA, diag, alpha, a.layout(), b.layout())
	})
}

// Trmm computes B = alpha·op(A)·B (side Left, A m×m) or B = alpha·B·op(A)
// (side Right, A n×n) for each matrix, A triangular as for Trsm. B is m×n
// and is overwritten by the product.
func Trmm[T Scalar](q *Queue, side Side, uplo Uplo, transA Transpose, diag Diag, alpha T, a, b *Batch[T], opts ...CallOption) error {
	const op = "Trmm"
	if err := checkTriangular(op, q, side, uplo, transA, diag, a, b); err != nil {
		return err
	}
	name, err := choose[T](q, op, triangularCall[T](side, uplo, transA, a, b), opts)
	if err != nil {
		return err
	}
	if q.dev.kind == CUDA {
		return gpuTrmm(q, side, uplo, transA, diag, alpha, a, b)
	}
	return runCPUPlain(q, op, func() error {
		return cpu.Trmm(q.execFor(name), side, uplo, transA, diag, alpha, a.layout(), b.layout())
	})
}

// triangularCall is the routing call of Trsm and Trmm: n is the order of A,
// nrhs the other dimension of B.
func triangularCall[T Scalar](side Side, uplo Uplo, transA Transpose, a, b *Batch[T]) route.Call {
	other := b.cols
	if side == Right {
		other = b.rows
	}
	return route.Call{Side: route.SideKey(side), Uplo: route.UploKey(uplo), Trans: transKey[T](transA), N: a.rows, NRHS: other, Batch: a.count}
}

func checkTriangular[T Scalar](op string, q *Queue, side Side, uplo Uplo, transA Transpose, diag Diag, a, b *Batch[T]) error {
	if err := checkQueue(op, q); err != nil {
		return err
	}
	if err := firstErr(
		checkBatch(op, q, "a", a), checkBatch(op, q, "b", b),
		checkSide(op, side), checkUplo(op, uplo), checkTrans(op, "transA", transA), checkDiag(op, diag),
	); err != nil {
		return err
	}
	order := b.rows
	if side == Right {
		order = b.cols
	}
	if a.rows != order || a.cols != order {
		return argErr(ErrShape, op, "a", "is %d×%d, want %d×%d for a %v operand of b (%d×%d)", a.rows, a.cols, order, order, side, b.rows, b.cols)
	}
	return firstErr(checkCount(op, "b", b, a.count), checkDistinct(op, "a", a, "b", b))
}

// Syrk computes the uplo triangle of C = alpha·A·Aᵀ + beta·C (trans NoTrans,
// A n×k) or C = alpha·Aᵀ·A + beta·C (trans Trans, A k×n) for each matrix; C
// is n×n and its other strict triangle is not touched. For complex types the
// product is symmetric, not Hermitian (see Herk), so ConjTrans is rejected;
// for real types ConjTrans means Trans.
func Syrk[T Scalar](q *Queue, uplo Uplo, trans Transpose, alpha T, a *Batch[T], beta T, c *Batch[T], opts ...CallOption) error {
	const op = "Syrk"
	if trans == ConjTrans && core.IsComplex[T]() {
		return argErr(ErrArgument, op, "trans", "is ConjTrans, which Syrk does not take for complex types (use Herk)")
	}
	if err := checkRankK(op, q, uplo, trans, a, c); err != nil {
		return err
	}
	name, err := choose[T](q, op, rankKCall[T](uplo, trans, a), opts)
	if err != nil {
		return err
	}
	if q.dev.kind == CUDA {
		return gpuSyrk(q, uplo, trans, alpha, a, beta, c)
	}
	return runCPUPlain(q, op, func() error {
		return cpu.Syrk(q.execFor(name), uplo, trans, alpha, a.layout(), beta, c.layout())
	})
}

// Herk computes the uplo triangle of C = alpha·A·Aᴴ + beta·C (trans NoTrans,
// A n×k) or C = alpha·Aᴴ·A + beta·C (trans ConjTrans, A k×n) for each
// matrix, with real alpha and beta; C is n×n and Hermitian, its diagonal
// comes out real and its other strict triangle is not touched. For complex
// types Trans is rejected; for real types Herk is Syrk.
func Herk[T Scalar](q *Queue, uplo Uplo, trans Transpose, alpha float64, a *Batch[T], beta float64, c *Batch[T], opts ...CallOption) error {
	const op = "Herk"
	if trans == Trans && core.IsComplex[T]() {
		return argErr(ErrArgument, op, "trans", "is Trans, which Herk does not take for complex types (use Syrk)")
	}
	if err := checkRankK(op, q, uplo, trans, a, c); err != nil {
		return err
	}
	name, err := choose[T](q, op, rankKCall[T](uplo, trans, a), opts)
	if err != nil {
		return err
	}
	if q.dev.kind == CUDA {
		return gpuHerk(q, uplo, trans, alpha, a, beta, c)
	}
	return runCPUPlain(q, op, func() error {
		return cpu.Herk(q.execFor(name), uplo, trans, alpha, a.layout(), beta, c.layout())
	})
}

// rankKCall is the routing call of Syrk and Herk: C is n×n, k the inner
// dimension.
func rankKCall[T Scalar](uplo Uplo, trans Transpose, a *Batch[T]) route.Call {
	n, k := opDims(trans, a)
	return route.Call{Uplo: route.UploKey(uplo), Trans: transKey[T](trans), N: n, K: k, Batch: a.count}
}

func checkRankK[T Scalar](op string, q *Queue, uplo Uplo, trans Transpose, a, c *Batch[T]) error {
	if err := checkQueue(op, q); err != nil {
		return err
	}
	if err := firstErr(
		checkBatch(op, q, "a", a), checkBatch(op, q, "c", c),
		checkUplo(op, uplo), checkTrans(op, "trans", trans),
	); err != nil {
		return err
	}
	n, _ := opDims(trans, a)
	return firstErr(
		checkDims(op, "c", c, n, n),
		checkCount(op, "c", c, a.count),
		checkDistinct(op, "a", a, "c", c),
	)
}
