package cpu

import "github.com/batchlas/batchlas/internal/core"

// Inversion from the LU factors (LAPACK's xGETRI): invert U in place
// (xTRTI2, column by column with a triangular matrix-vector product), then
// solve X·L = U⁻¹ for X = A⁻¹·P from the right, luW columns at a time with
// the rank-4 kernel, and finally undo the column interchanges.
//
// Blocking the second phase by 16–64 columns with gemm1 was no faster at
// any order measured (float64, one goroutine, µs per matrix, 2026-11-29):
//
//	n     luW blocks  gemm1 nb=16  gemm1 nb=32  gemm1 nb=64
//	128          402          521          436          508
//	256         3395         3743         3501         3436
//	512        21533        23790        22678        21792

// luInvScratch is the workspace luGetri1 needs for order n.
func luInvScratch(n int) int { return n * luW }

// luGetri1 overwrites the factors of one n×n matrix with A⁻¹ and returns 0,
// or returns k when U(k,k) is exactly zero and leaves a unchanged. w holds
// luInvScratch(n) elements.
func luGetri1[T core.Scalar](n int, a []T, lda int, piv []int32, w []T, cf bool) int {
	for k := range n {
		if a[k*lda+k] == 0 {
			return k + 1
		}
	}
	luInvertUpper(n, a, lda)
	// Column blocks [k, k+jb) from the right; the short block is the first.
	for k := n - luW; ; k -= luW {
		jb := luW
		if k < 0 {
			k, jb = 0, n%luW
		}
		if jb > 0 {
			luInvBlock(n, k, jb, a, lda, w, n, cf)
		}
		if k == 0 {
			break
		}
	}
	for j := n - 2; j >= 0; j-- {
		if p := int(piv[j]) - 1; p != j {
			x := a[j*lda : j*lda+n]
			y := a[p*lda : p*lda+n]
			for i := range x {
				x[i], y[i] = y[i], x[i]
			}
		}
	}
	return 0
}

// luInvertUpper overwrites the upper triangle of a with its inverse
// (non-unit diagonal, none zero): for each column j, x = U(0:j, j) becomes
// -T·x/U(j,j) with T the already inverted leading block.
func luInvertUpper[T core.Scalar](n int, a []T, lda int) {
	for j := range n {
		col := a[j*lda : j*lda+j+1]
		col[j] = div(1, col[j])
		ajj := -col[j]
		x := col[:j]
		// x ← T·x, T upper: blocks of four columns from the left; a block
		// adds its original entries to the rows above it, then is
		// multiplied by its own 4×4 triangle.
		k := 0
		for ; k+luW <= j; k += luW {
			x0, x1, x2, x3 := x[k], x[k+1], x[k+2], x[k+3]
			if k > 0 {
				luUpd1(x[:k], a[k*lda:k*lda+k], a[(k+1)*lda:(k+1)*lda+k], a[(k+2)*lda:(k+2)*lda+k], a[(k+3)*lda:(k+3)*lda+k], -x0, -x1, -x2, -x3)
			}
			t1 := a[(k+1)*lda : (k+1)*lda+k+2]
			t2 := a[(k+2)*lda : (k+2)*lda+k+3]
			t3 := a[(k+3)*lda : (k+3)*lda+k+4]
			x[k] = a[k*lda+k]*x0 + t1[k]*x1 + t2[k]*x2 + t3[k]*x3
			x[k+1] = t1[k+1]*x1 + t2[k+1]*x2 + t3[k+1]*x3
			x[k+2] = t2[k+2]*x2 + t3[k+2]*x3
			x[k+3] = t3[k+3] * x3
		}
		for ; k < j; k++ {
			v := x[k]
			t := a[k*lda : k*lda+k+1]
			xs := x[:k]
			xs = xs[:k]
			for i := range xs {
				xs[i] += t[i] * v
			}
			x[k] = t[k] * v
		}
		for i := range x {
			x[i] *= ajj
		}
	}
}

// luInvBlock handles columns k..k+jb-1 of the second phase: move the
// strictly lower part of those columns (L) to w and zero it, subtract
// A(:, k+jb:n)·L(k+jb:n, block) from the block, then solve X·L11 = block
// with the unit lower jb×jb L11 from the right.
func luInvBlock[T core.Scalar](n, k, jb int, a []T, lda int, w []T, ldw int, cf bool) {
	for c := 0; c < jb; c++ {
		col := a[(k+c)*lda : (k+c)*lda+n]
		wc := w[c*ldw : c*ldw+n]
		for i := k + c + 1; i < n; i++ {
			wc[i] = col[i]
			col[i] = 0
		}
	}
	if r := k + jb; r < n {
		luInvUpdate(n, k, jb, r, n, a, lda, w, ldw, cf)
	}
	// Right solve with the unit lower L11 = w(k:k+jb, 0:jb): the last
	// column is final; each earlier one subtracts the later ones.
	for c := jb - 2; c >= 0; c-- {
		luInvUpdate(n, k+c, 1, k+c+1, k+jb, a, lda, w[c*ldw:], ldw, cf)
	}
}

// luInvUpdate subtracts A(:, r0:r1)·W(r0:r1, 0:jb) from the n×jb block
// A(:, k:k+jb), W's column c at w[c*ldw:], four terms at a time and, for
// real T, two columns at a time.
func luInvUpdate[T core.Scalar](n, k, jb, r0, r1 int, a []T, lda int, w []T, ldw int, cf bool) {
	c := 0
	if !luCplx[T](cf) {
		for ; c+1 < jb; c += 2 {
			x := a[(k+c)*lda : (k+c)*lda+n]
			y := a[(k+c+1)*lda : (k+c+1)*lda+n]
			wx := w[c*ldw : c*ldw+r1]
			wy := w[(c+1)*ldw : (c+1)*ldw+r1]
			t := r0
			for ; t+luW <= r1; t += luW {
				lc := luCols[T]{a[t*lda : t*lda+n], a[(t+1)*lda : (t+1)*lda+n], a[(t+2)*lda : (t+2)*lda+n], a[(t+3)*lda : (t+3)*lda+n]}
				luUpd2(x, y, &lc, wx[t], wx[t+1], wx[t+2], wx[t+3], wy[t], wy[t+1], wy[t+2], wy[t+3])
			}
			for ; t < r1; t++ {
				u, v := wx[t], wy[t]
				z := a[t*lda : t*lda+n]
				z = z[:len(x)]
				y := y[:len(x)]
				for i, e := range z {
					x[i] -= e * u
					y[i] -= e * v
				}
			}
		}
	}
	for ; c < jb; c++ {
		x := a[(k+c)*lda : (k+c)*lda+n]
		wc := w[c*ldw : c*ldw+r1]
		t := r0
		for ; t+luW <= r1; t += luW {
			luUpd1(x, a[t*lda:t*lda+n], a[(t+1)*lda:(t+1)*lda+n], a[(t+2)*lda:(t+2)*lda+n], a[(t+3)*lda:(t+3)*lda+n], wc[t], wc[t+1], wc[t+2], wc[t+3])
		}
		for ; t < r1; t++ {
			u := wc[t]
			y := a[t*lda : t*lda+n]
			y = y[:len(x)]
			for i, v := range y {
				x[i] -= v * u
			}
		}
	}
}
