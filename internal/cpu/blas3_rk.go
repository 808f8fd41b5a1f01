package cpu

import "github.com/batchlas/batchlas/internal/core"

// syrk1 computes the uplo triangle of C = alpha·A·Aᵀ + beta·C (NoTrans, A
// n×k) or C = alpha·Aᵀ·A + beta·C (Trans, A k×n) for one n×n matrix C;
// complex T is not conjugated, and ConjTrans is read as Trans. The other
// triangle of C is not touched; beta == 0 does not read C, alpha == 0 does
// not read A.
func syrk1[T core.Scalar](uplo core.Uplo, trans core.Transpose, n, k int, alpha T, a []T, lda int, beta T, c []T, ldc int) {
	if trans == core.ConjTrans {
		trans = core.Trans
	}
	rankK(false, uplo, trans, n, k, alpha, beta, a, lda, c, ldc, 0, n)
}

// herk1 computes the uplo triangle of C = alpha·A·Aᴴ + beta·C (NoTrans, A
// n×k) or C = alpha·Aᴴ·A + beta·C (ConjTrans; Trans is read as ConjTrans, A
// k×n) for one n×n matrix C, alpha and beta real; the diagonal of C comes out
// real (as in reference BLAS, except on the quick return for alpha == 0 or
// k == 0 with beta == 1, which leaves C untouched). For real T it equals
// syrk1.
func herk1[T core.Scalar](uplo core.Uplo, trans core.Transpose, n, k int, alpha, beta float64, a []T, lda int, c []T, ldc int) {
	if trans != core.NoTrans {
		trans = core.ConjTrans
	}
	rankK(isCplx[T](), uplo, trans, n, k, fromReal[T](alpha), fromReal[T](beta), a, lda, c, ldc, 0, n)
}

// rankK is syrk1 (herm false) and herk1 (herm true: the second factor is
// conjugated, the diagonal made real) restricted to columns [c0, c1) of C,
// so that workers can share one matrix.
func rankK[T core.Scalar](herm bool, uplo core.Uplo, trans core.Transpose, n, k int, alpha, beta T, a []T, lda int, c []T, ldc int, c0, c1 int) {
	if n == 0 || c0 >= c1 || ((alpha == 0 || k == 0) && beta == 1) {
		return
	}
	if herm && beta != 0 {
		// Reference zherk reads only the real part of C's diagonal: a NaN
		// or infinite imaginary part there must not reach the result.
		for j := c0; j < c1; j++ {
			c[j+j*ldc] = realOf(c[j+j*ldc])
		}
	}
	if alpha == 0 || k == 0 {
		for j := c0; j < c1; j++ {
			lo, hi := j, n
			if uplo == core.Upper {
				lo, hi = 0, j+1
			}
			scaleMat(hi-lo, 1, beta, c[lo+j*ldc:], ldc)
			if herm {
				c[j+j*ldc] = realOf(c[j+j*ldc])
			}
		}
		return
	}
	// C(r, c) = op(A)[row r] · op(A)[row c]ᴴ, op(A) the n×k factor: A
	// itself (NoTrans) or Aᵀ/Aᴴ; one masked gemm covers the triangle's
	// columns [c0, c1).
	tA, tB := core.NoTrans, core.Trans
	if herm {
		tB = core.ConjTrans
	}
	if trans != core.NoTrans {
		tA, tB = trans, core.NoTrans
	}
	rowOf := func(i int) []T { // op(A) from row i on
		if trans == core.NoTrans {
			return a[i:]
		}
		return a[i*lda:]
	}
	if uplo == core.Lower {
		// Rows c0… of columns c0…c1; the diagonal is where i = j.
		gemmMasked(triMask{lowerPart, 0}, tA, tB, n-c0, c1-c0, k, alpha, rowOf(c0), lda, rowOf(c0), lda, beta, c[c0+c0*ldc:], ldc)
	} else {
		// Rows 0…c1 of columns c0…c1; the diagonal is where i = j + c0.
		gemmMasked(triMask{upperPart, c0}, tA, tB, c1, c1-c0, k, alpha, rowOf(0), lda, rowOf(c0), lda, beta, c[c0*ldc:], ldc)
	}
	if herm {
		for j := c0; j < c1; j++ {
			c[j+j*ldc] = realOf(c[j+j*ldc])
		}
	}
}
