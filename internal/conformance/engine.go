// Package conformance holds one test suite per op family, written once
// against small interfaces over host data and run unchanged against every
// engine: the pure-Go CPU engine, the public API on any device, the vendor
// GPU arm and each native GPU tier. An engine adapter copies the strided
// host batches in, runs the op, and copies the results back.
package conformance

import "github.com/batchlas/batchlas/internal/core"

type (
	Gemmer[T core.Scalar] interface {
		Gemm(transA, transB core.Transpose, alpha T, a, b core.Strided[T], beta T, c core.Strided[T]) error
	}
	Trsmer[T core.Scalar] interface {
		Trsm(side core.Side, uplo core.Uplo, trans core.Transpose, diag core.Diag, alpha T, a, b core.Strided[T]) error
	}
	Trmmer[T core.Scalar] interface {
		Trmm(side core.Side, uplo core.Uplo, trans core.Transpose, diag core.Diag, alpha T, a, b core.Strided[T]) error
	}
	Syrker[T core.Scalar] interface {
		Syrk(uplo core.Uplo, trans core.Transpose, alpha T, a core.Strided[T], beta T, c core.Strided[T]) error
	}
	Herker[T core.Scalar] interface {
		Herk(uplo core.Uplo, trans core.Transpose, alpha float64, a core.Strided[T], beta float64, c core.Strided[T]) error
	}
	Potrfer[T core.Scalar] interface {
		Potrf(uplo core.Uplo, a core.Strided[T], info []int32) error
	}
	Potrser[T core.Scalar] interface {
		Potrs(uplo core.Uplo, a, b core.Strided[T]) error
	}
	Posver[T core.Scalar] interface {
		Posv(uplo core.Uplo, a, b core.Strided[T], info []int32) error
	}
	Getrfer[T core.Scalar] interface {
		Getrf(a core.Strided[T], pivots, info []int32) error
	}
	Getrser[T core.Scalar] interface {
		Getrs(trans core.Transpose, a core.Strided[T], pivots []int32, b core.Strided[T]) error
	}
	Getrier[T core.Scalar] interface {
		Getri(a core.Strided[T], pivots, info []int32) error
	}
	Gesver[T core.Scalar] interface {
		Gesv(a core.Strided[T], pivots []int32, b core.Strided[T], info []int32) error
	}
	// Inver computes C = A⁻¹, leaving A unchanged (C may be A itself).
	Inver[T core.Scalar] interface {
		Inv(a, c core.Strided[T], info []int32) error
	}
)

// BLAS3 is what an engine implements to run the BLAS-3 suite.
type BLAS3[T core.Scalar] interface {
	Gemmer[T]
	Trsmer[T]
	Trmmer[T]
	Syrker[T]
	Herker[T]
}

// Cholesky is what an engine implements to run the Cholesky suite.
type Cholesky[T core.Scalar] interface {
	Potrfer[T]
	Potrser[T]
	Posver[T]
}

// LU is what an engine implements to run the LU suite.
type LU[T core.Scalar] interface {
	Getrfer[T]
	Getrser[T]
	Getrier[T]
	Gesver[T]
	Inver[T]
}
