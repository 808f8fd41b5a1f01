package cpu

import (
	"math"

	"github.com/batchlas/batchlas/internal/core"
)

// trsmAny is trsm1, except where a diagonal element of A is so small that
// its reciprocal may overflow (a subnormal one): trsmDivide solves those,
// dividing by the diagonal as reference BLAS does.
//
// Timing Trsm around this change showed how much code placement moves it:
// float32 n = 32 (batchlas bench trsm, 2000 matrices, one core) took 16.3
// or 22.0 ms depending only on whether trsmDivide's body was built in (a
// build with it replaced by a panic, never reached, ran at 16.5), and
// float64 16.6 or 18.1 (bench/results/cpu/trsm-placement.txt).
func trsmAny[T core.Scalar](side core.Side, uplo core.Uplo, trans core.Transpose, diag core.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int) {
	if k := m; diag == core.NonUnit && alpha != 0 && m > 0 && n > 0 {
		if side == core.Right {
			k = n
		}
		if tinyDiagonal(k, a, lda) {
			trsmDivide(side, uplo, trans, m, n, alpha, a, lda, b, ldb)
			return
		}
	}
	trsm1(side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb)
}

// tinyDiagonal reports whether a diagonal element of the k×k matrix a is
// nonzero with both parts below the smallest normal number, where its
// reciprocal may overflow. Compares only, with one type switch a call (one
// an element boxed each element: 4 % on Trsm at n = 32).
func tinyDiagonal[T core.Scalar](k int, a []T, lda int) bool {
	switch x := any(a).(type) {
	case []float32:
		return tinyReal(k, x, lda, 0x1p-126)
	case []float64:
		return tinyReal(k, x, lda, 0x1p-1022)
	case []complex64:
		for j := 0; j < k; j++ {
			if d := x[j*(lda+1)]; d != 0 && math.Abs(float64(real(d))) < 0x1p-126 && math.Abs(float64(imag(d))) < 0x1p-126 {
				return true
			}
		}
	case []complex128:
		for j := 0; j < k; j++ {
			if d := x[j*(lda+1)]; d != 0 && math.Abs(real(d)) < 0x1p-1022 && math.Abs(imag(d)) < 0x1p-1022 {
				return true
			}
		}
	}
	return false
}

func tinyReal[F float32 | float64](k int, a []F, lda int, minNormal F) bool {
	for j := 0; j < k; j++ {
		if d := a[j*(lda+1)]; d != 0 && d < minNormal && -d < minNormal {
			return true
		}
	}
	return false
}

// trsmDivide is trsm1 unblocked, by substitution that divides by the
// diagonal (NonUnit): for the rare A whose diagonal's reciprocals overflow.
func trsmDivide[T core.Scalar](side core.Side, uplo core.Uplo, trans core.Transpose, m, n int, alpha T, a []T, lda int, b []T, ldb int) {
	upper := opUpper(uplo, trans)
	op := func(i, j int) T { // op(A)(i, j)
		v := a[opIndex(trans, i, j, lda)]
		if trans == core.ConjTrans {
			v = conj(v)
		}
		return v
	}
	scaleMat(m, n, alpha, b, ldb)
	if side == core.Left { // op(A)·X = B, column by column
		for j := 0; j < n; j++ {
			x := b[j*ldb : j*ldb+m]
			for s := 0; s < m; s++ {
				i := s
				if upper {
					i = m - 1 - s
				}
				v := x[i]
				for k := 0; k < m; k++ {
					if k != i && (upper == (k > i)) {
						v -= op(i, k) * x[k]
					}
				}
				x[i] = div(v, op(i, i))
			}
		}
		return
	}
	for i := 0; i < m; i++ { // X·op(A) = B, row by row
		for s := 0; s < n; s++ {
			j := s
			if !upper {
				j = n - 1 - s
			}
			v := b[i+j*ldb]
			for k := 0; k < n; k++ {
				if k != j && (upper == (k < j)) {
					v -= b[i+k*ldb] * op(k, j)
				}
			}
			b[i+j*ldb] = div(v, op(j, j))
		}
	}
}
