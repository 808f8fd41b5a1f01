package batchlas

import "github.com/batchlas/batchlas/internal/core"

// Scalar is the set of element types every op supports: float32, float64,
// complex64 and complex128.
type Scalar = core.Scalar

// Uplo selects the triangle of a matrix that an op reads or writes.
type Uplo = core.Uplo

// Transpose selects op(A): A, Aᵀ or Aᴴ. For real types ConjTrans equals Trans.
type Transpose = core.Transpose

// Side says whether a triangular operand multiplies from the left or the right.
type Side = core.Side

// Diag says whether a triangular matrix has an implicit unit diagonal.
type Diag = core.Diag

const (
	Lower = core.Lower // the lower triangle
	Upper = core.Upper // the upper triangle

	NoTrans   = core.NoTrans   // op(A) = A
	Trans     = core.Trans     // op(A) = Aᵀ
	ConjTrans = core.ConjTrans // op(A) = Aᴴ

	Left  = core.Left  // op(A)·X
	Right = core.Right // X·op(A)

	NonUnit = core.NonUnit // the diagonal is read
	Unit    = core.Unit    // the diagonal is taken to be one and not read
)
