package cpu

import (
	"unsafe"

	"github.com/batchlas/batchlas/internal/core"
)

// Solves with the LU factors (LAPACK's xGETRS). NoTrans runs the same
// rank-4 kernels as the factorization: P·B, then L (forward, unit), then U
// (backward). Trans solves Uᵀ then Lᵀ with four dot products per block of
// four unknowns, then applies the swaps in reverse. ConjTrans is Trans on
// conj(B), conjugated back: Aᴴ·X = B ⇔ Aᵀ·conj(X) = conj(B), so the inner
// loops never conjugate.

// luGetrs1 solves op(A)·X = B for one n×n factored A and n×nrhs B.
func luGetrs1[T core.Scalar](trans core.Transpose, n, nrhs int, a []T, lda int, piv []int32, b []T, ldb int, cf bool) {
	if n == 0 || nrhs == 0 {
		return
	}
	if trans == core.NoTrans {
		luSwapRows(b, ldb, 0, nrhs, n, piv[:n], 0)
		for j := 0; j < n; j += luW {
			luTrail(a, lda, b, ldb, nrhs, n, n, j, min(luW, n-j), nil, false, false, cf)
		}
		luSolveUpper(n, nrhs, a, lda, b, ldb)
		return
	}
	conjugate := trans == core.ConjTrans && luCplx[T](cf)
	if conjugate {
		luConjCols(n, nrhs, b, ldb, cf)
	}
	luSolveUpperT(n, nrhs, a, lda, b, ldb)
	luSolveLowerT(n, nrhs, a, lda, b, ldb)
	for c := range nrhs {
		col := b[c*ldb : c*ldb+n]
		for t := n - 1; t >= 0; t-- {
			p := piv[t] - 1
			col[t], col[p] = col[p], col[t]
		}
	}
	if conjugate {
		luConjCols(n, nrhs, b, ldb, cf)
	}
}

// luConjCols conjugates the n×nrhs complex matrix b in place.
func luConjCols[T core.Scalar](n, nrhs int, b []T, ldb int, cf bool) {
	var z T
	for c := range nrhs {
		col := b[c*ldb : c*ldb+n]
		if unsafe.Sizeof(z) == 16 {
			q := unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(col))), 2*n)
			for i := 1; i < len(q); i += 2 {
				q[i] = -q[i]
			}
		} else if luCplx[T](cf) {
			q := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(col))), 2*n)
			for i := 1; i < len(q); i += 2 {
				q[i] = -q[i]
			}
		}
	}
}

// luSolveUpper overwrites B with U⁻¹·B, U the upper triangle of a
// (non-unit): blocks of four unknowns from the bottom, each solved by
// division (as xTRSM) and then removed from the rows above by a rank-4
// update.
func luSolveUpper[T core.Scalar](n, nrhs int, a []T, lda int, b []T, ldb int) {
	top := n % luW
	for k := n - luW; k >= top; k -= luW {
		d0, d1, d2, d3 := a[k*lda+k], a[(k+1)*lda+k+1], a[(k+2)*lda+k+2], a[(k+3)*lda+k+3]
		u01, u02, u03 := a[(k+1)*lda+k], a[(k+2)*lda+k], a[(k+3)*lda+k]
		u12, u13, u23 := a[(k+2)*lda+k+1], a[(k+3)*lda+k+1], a[(k+3)*lda+k+2]
		l0 := a[k*lda : k*lda+k]
		l1 := a[(k+1)*lda : (k+1)*lda+k]
		l2 := a[(k+2)*lda : (k+2)*lda+k]
		l3 := a[(k+3)*lda : (k+3)*lda+k]
		for c := range nrhs {
			x := b[c*ldb : c*ldb+k+4]
			xb := x[k : k+4 : k+4]
			x3 := div(xb[3], d3)
			x2 := div(xb[2]-u23*x3, d2)
			x1 := div(xb[1]-u12*x2-u13*x3, d1)
			x0 := div(xb[0]-u01*x1-u02*x2-u03*x3, d0)
			xb[0], xb[1], xb[2], xb[3] = x0, x1, x2, x3
			if k > 0 {
				luUpd1(x[:k], l0, l1, l2, l3, x0, x1, x2, x3)
			}
		}
	}
	for k := top - 1; k >= 0; k-- {
		d := a[k*lda+k]
		u := a[k*lda : k*lda+k]
		for c := range nrhs {
			x := b[c*ldb : c*ldb+k+1]
			v := div(x[k], d)
			x[k] = v
			xs := x[:k]
			for i := range xs {
				xs[i] -= u[i] * v
			}
		}
	}
}

// luSolveUpperT overwrites B with U⁻ᵀ·B: forward, four unknowns at a time,
// each block first reduced by dot products with the columns of U above it.
func luSolveUpperT[T core.Scalar](n, nrhs int, a []T, lda int, b []T, ldb int) {
	k := 0
	for ; k+luW <= n; k += luW {
		d0, d1, d2, d3 := a[k*lda+k], a[(k+1)*lda+k+1], a[(k+2)*lda+k+2], a[(k+3)*lda+k+3]
		u01, u02, u03 := a[(k+1)*lda+k], a[(k+2)*lda+k], a[(k+3)*lda+k]
		u12, u13, u23 := a[(k+2)*lda+k+1], a[(k+3)*lda+k+1], a[(k+3)*lda+k+2]
		c0 := a[k*lda : k*lda+k]
		c1 := a[(k+1)*lda : (k+1)*lda+k]
		c2 := a[(k+2)*lda : (k+2)*lda+k]
		c3 := a[(k+3)*lda : (k+3)*lda+k]
		for c := range nrhs {
			x := b[c*ldb : c*ldb+k+4]
			s0, s1, s2, s3 := luDot4(x[:k], c0, c1, c2, c3)
			xb := x[k : k+4 : k+4]
			x0 := div(xb[0]-s0, d0)
			x1 := div(xb[1]-s1-u01*x0, d1)
			x2 := div(xb[2]-s2-u02*x0-u12*x1, d2)
			x3 := div(xb[3]-s3-u03*x0-u13*x1-u23*x2, d3)
			xb[0], xb[1], xb[2], xb[3] = x0, x1, x2, x3
		}
	}
	for ; k < n; k++ {
		d := a[k*lda+k]
		u := a[k*lda : k*lda+k]
		for c := range nrhs {
			x := b[c*ldb : c*ldb+k+1]
			s := x[k]
			xs := x[:k]
			xs = xs[:len(u)]
			for i, v := range u {
				s -= v * xs[i]
			}
			x[k] = div(s, d)
		}
	}
}

// luSolveLowerT overwrites B with L⁻ᵀ·B, L unit lower: backward, four
// unknowns at a time, each block first reduced by dot products with the
// columns of L below it.
func luSolveLowerT[T core.Scalar](n, nrhs int, a []T, lda int, b []T, ldb int) {
	top := n % luW
	for k := n - luW; k >= top; k -= luW {
		l10, l20, l30 := a[k*lda+k+1], a[k*lda+k+2], a[k*lda+k+3]
		l21, l31, l32 := a[(k+1)*lda+k+2], a[(k+1)*lda+k+3], a[(k+2)*lda+k+3]
		r := k + luW
		c0 := a[k*lda+r : k*lda+n]
		c1 := a[(k+1)*lda+r : (k+1)*lda+n]
		c2 := a[(k+2)*lda+r : (k+2)*lda+n]
		c3 := a[(k+3)*lda+r : (k+3)*lda+n]
		for c := range nrhs {
			x := b[c*ldb : c*ldb+n]
			s0, s1, s2, s3 := luDot4(x[r:], c0, c1, c2, c3)
			xb := x[k : k+4 : k+4]
			x3 := xb[3] - s3
			x2 := xb[2] - s2 - l32*x3
			x1 := xb[1] - s1 - l21*x2 - l31*x3
			x0 := xb[0] - s0 - l10*x1 - l20*x2 - l30*x3
			xb[0], xb[1], xb[2], xb[3] = x0, x1, x2, x3
		}
	}
	for k := top - 1; k >= 0; k-- {
		lc := a[k*lda+k+1 : k*lda+n]
		for c := range nrhs {
			x := b[c*ldb : c*ldb+n]
			s := x[k]
			xs := x[k+1:]
			xs = xs[:len(lc)]
			for i, v := range lc {
				s -= v * xs[i]
			}
			x[k] = s
		}
	}
}

// luDot4 returns the dot products of x with c0..c3 (all of x's length).
func luDot4[T core.Scalar](x, c0, c1, c2, c3 []T) (s0, s1, s2, s3 T) {
	c0 = c0[:len(x)]
	c1 = c1[:len(x)]
	c2 = c2[:len(x)]
	c3 = c3[:len(x)]
	for i, v := range x {
		s0 += c0[i] * v
		s1 += c1[i] * v
		s2 += c2[i] * v
		s3 += c3[i] * v
	}
	return
}
