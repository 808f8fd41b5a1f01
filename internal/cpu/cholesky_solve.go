package cpu

import "github.com/batchlas/batchlas/internal/core"

// Triangular solves with a Cholesky factor, one right-hand side column at a
// time (LAPACK's xPOTRS with xTRSV in place of xTRSM). Each sweep over the
// factor handles two of its columns at once, so every element of x loaded
// feeds two multiply-adds. The conjugated half of each solve runs on conj(x),
// conjugated in place before and after (one type switch per column), which
// keeps the inner loops free of conjugation.

const (
	// cholSolveTrsmMin is the smallest order, and cholSolveTrsmRHS the fewest
	// right-hand sides, for which Potrs hands the two solves to trsm1.
	cholSolveTrsmMin = 256
	cholSolveTrsmRHS = 64
)

// potrs1 overwrites the n×nrhs matrix b with the solution of A·X = B, A's
// factor in the uplo triangle of a; w holds n elements (the reciprocal pivots).
func potrs1[T core.Scalar](uplo core.Uplo, n, nrhs int, a []T, lda int, b []T, ldb int, w []T) {
	if n == 0 || nrhs == 0 {
		return
	}
	if n >= cholSolveTrsmMin && nrhs >= cholSolveTrsmRHS {
		if uplo == core.Lower {
			trsm1(core.Left, core.Lower, core.NoTrans, core.NonUnit, n, nrhs, 1, a, lda, b, ldb)
			trsm1(core.Left, core.Lower, core.ConjTrans, core.NonUnit, n, nrhs, 1, a, lda, b, ldb)
		} else {
			trsm1(core.Left, core.Upper, core.ConjTrans, core.NonUnit, n, nrhs, 1, a, lda, b, ldb)
			trsm1(core.Left, core.Upper, core.NoTrans, core.NonUnit, n, nrhs, 1, a, lda, b, ldb)
		}
		return
	}
	rd := w[:n]
	for j := range rd {
		rd[j] = 1 / a[j*lda+j]
	}
	for r := 0; r < nrhs; r++ {
		x := b[r*ldb : r*ldb+n]
		if uplo == core.Lower {
			cholForwardAxpy(n, a, lda, rd, x) // L·y = b
			cholConj(x)
			cholBackwardDot(n, a, lda, rd, x) // Lᴴ·x = y, on conj(x)
			cholConj(x)
		} else {
			cholConj(x)
			cholForwardDot(n, a, lda, rd, x) // Uᴴ·y = b, on conj(y)
			cholConj(x)
			cholBackwardAxpy(n, a, lda, rd, x) // U·x = y
		}
	}
}

// cholForwardAxpy solves L·y = x in place, L lower (its columns contiguous).
func cholForwardAxpy[T core.Scalar](n int, a []T, lda int, rd, x []T) {
	j := 0
	for ; j+1 < n; j += 2 {
		c0 := a[j*lda+j+1 : j*lda+n]
		c1 := a[(j+1)*lda+j+1 : (j+1)*lda+n]
		y0 := x[j] * rd[j]
		y1 := (x[j+1] - y0*c0[0]) * rd[j+1]
		x[j], x[j+1] = y0, y1
		c0, c1 = c0[1:], c1[1:]
		rest := x[j+2 : n]
		c0, c1 = c0[:len(rest)], c1[:len(rest)]
		for i := range rest {
			rest[i] -= y0*c0[i] + y1*c1[i]
		}
	}
	if j < n {
		x[j] *= rd[j]
	}
}

// cholBackwardDot solves Lᵀ·z = z in place (z = conj(x) of Lᴴ·x = y).
func cholBackwardDot[T core.Scalar](n int, a []T, lda int, rd, z []T) {
	j := n - 1
	for ; j >= 1; j -= 2 {
		// Columns j and j-1 against z[j+1:].
		c1 := a[j*lda+j+1 : j*lda+n]
		c0 := a[(j-1)*lda+j+1 : (j-1)*lda+n]
		zz := z[j+1 : n]
		c0 = c0[:len(c1)]
		zz = zz[:len(c1)]
		var s0, s1 T
		for i, v := range c1 {
			s1 += v * zz[i]
			s0 += c0[i] * zz[i]
		}
		z1 := (z[j] - s1) * rd[j]
		z[j] = z1
		z[j-1] = (z[j-1] - s0 - a[(j-1)*lda+j]*z1) * rd[j-1]
	}
	if j == 0 {
		var s T
		c := a[1:n]
		zz := z[1:n]
		zz = zz[:len(c)]
		for i, v := range c {
			s += v * zz[i]
		}
		z[0] = (z[0] - s) * rd[0]
	}
}

// cholForwardDot solves Uᵀ·z = z in place (z = conj(y) of Uᴴ·y = b).
func cholForwardDot[T core.Scalar](n int, a []T, lda int, rd, z []T) {
	j := 0
	for ; j+1 < n; j += 2 {
		// Columns j and j+1 against z[:j].
		c0 := a[j*lda : j*lda+j]
		c1 := a[(j+1)*lda : (j+1)*lda+j]
		zz := z[:j]
		c1 = c1[:len(c0)]
		zz = zz[:len(c0)]
		var s0, s1 T
		for i, v := range c0 {
			s0 += v * zz[i]
			s1 += c1[i] * zz[i]
		}
		z0 := (z[j] - s0) * rd[j]
		z[j] = z0
		z[j+1] = (z[j+1] - s1 - a[(j+1)*lda+j]*z0) * rd[j+1]
	}
	if j < n {
		c := a[j*lda : j*lda+j]
		zz := z[:j]
		zz = zz[:len(c)]
		var s T
		for i, v := range c {
			s += v * zz[i]
		}
		z[j] = (z[j] - s) * rd[j]
	}
}

// cholBackwardAxpy solves U·x = y in place, U upper (its columns contiguous).
func cholBackwardAxpy[T core.Scalar](n int, a []T, lda int, rd, x []T) {
	j := n - 1
	for ; j >= 1; j -= 2 {
		c1 := a[j*lda : j*lda+j]
		c0 := a[(j-1)*lda : (j-1)*lda+j-1]
		x1 := x[j] * rd[j]
		x0 := (x[j-1] - x1*c1[j-1]) * rd[j-1]
		x[j], x[j-1] = x1, x0
		rest := x[:j-1]
		c1 = c1[:len(rest)]
		c0 = c0[:len(rest)]
		for i := range rest {
			rest[i] -= x1*c1[i] + x0*c0[i]
		}
	}
	if j == 0 {
		x[0] *= rd[0]
	}
}
