package cpu

import (
	"slices"

	"github.com/batchlas/batchlas/internal/core"
)

// triBlock is the order of the diagonal blocks that trsm1 and trmm1 solve
// or multiply directly; everything off the diagonal blocks goes to gemm1.
const triBlock = 32

// opUpper reports whether op(A) is upper triangular.
func opUpper(uplo core.Uplo, trans core.Transpose) bool {
	return (uplo == core.Upper) == (trans == core.NoTrans)
}

// packTri copies the nb×nb diagonal block of op(A) whose (0, 0) element
// starts a into t (column-major, leading dimension nb), conjugated for
// ConjTrans; only the triangle of op(A) is read and the other is left
// stale. The diagonal is set to 1 for Unit, and to its reciprocal when
// invDiag (so solvers multiply instead of divide).
func packTri[T core.Scalar](upper bool, trans core.Transpose, diag core.Diag, nb int, a []T, lda int, t []T, invDiag bool) {
	for j := 0; j < nb; j++ {
		lo, hi := j, nb
		if upper {
			lo, hi = 0, j+1
		}
		col := t[j*nb+lo : j*nb+hi]
		if trans == core.NoTrans {
			copy(col, a[j*lda+lo:j*lda+hi])
		} else {
			// op(A)(i, j) = A(j, i): row j of A, read along a column of t.
			for i := range col {
				col[i] = a[j+(lo+i)*lda]
			}
		}
		if trans == core.ConjTrans {
			conjSlice(col)
		}
		switch {
		case diag == core.Unit:
			t[j*nb+j] = 1
		case invDiag:
			t[j*nb+j] = div(1, t[j*nb+j])
		}
	}
}

// trsm1 solves op(A)·X = alpha·B (Left, A m×m) or X·op(A) = alpha·B (Right,
// A n×n) for one m×n matrix B, overwriting B with X. A is triangular (uplo),
// with an implicit unit diagonal for Unit; the other triangle is not read.
// alpha == 0 sets B to zero without reading A or B. Blocked, left-looking:
// each diagonal block's right-hand side is first updated by one gemm1 with
// everything already solved, then solved directly, multiplying by the
// diagonal's reciprocals (trsmAny takes the A whose reciprocals overflow
// elsewhere).
func trsm1[T core.Scalar](side core.Side, uplo core.Uplo, trans core.Transpose, diag core.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int) {
	if m == 0 || n == 0 {
		return
	}
	if alpha == 0 {
		scaleMat(m, n, alpha, b, ldb)
		return
	}
	upper := opUpper(uplo, trans)
	nb := min(triBlock, max(m, n))
	buf := getScratch[T](nb * nb)
	t := (*buf)[:nb*nb]
	// oa is the index of element (i, j) of op(A).
	oa := func(i, j int) int { return opIndex(trans, i, j, lda) }
	if side == core.Left {
		if !upper {
			for i0 := 0; i0 < m; i0 += triBlock {
				ib := min(triBlock, m-i0)
				gemm1(trans, core.NoTrans, ib, n, i0, -1, a[oa(i0, 0):], lda, b, ldb, alpha, b[i0:], ldb)
				packTri(false, trans, diag, ib, a[oa(i0, i0):], lda, t, true)
				solveLeftLower(ib, n, t, b[i0:], ldb)
			}
		} else {
			for i1 := m; i1 > 0; i1 -= triBlock {
				i0 := max(0, i1-triBlock)
				ib := i1 - i0
				gemm1(trans, core.NoTrans, ib, n, m-i1, -1, a[oa(i0, min(i1, m-1)):], lda, b[min(i1, m-1):], ldb, alpha, b[i0:], ldb)
				packTri(true, trans, diag, ib, a[oa(i0, i0):], lda, t, true)
				solveLeftUpper(ib, n, t, b[i0:], ldb)
			}
		}
	} else {
		if upper {
			for j0 := 0; j0 < n; j0 += triBlock {
				jb := min(triBlock, n-j0)
				gemm1(core.NoTrans, trans, m, jb, j0, -1, b, ldb, a[oa(0, j0):], lda, alpha, b[j0*ldb:], ldb)
				packTri(true, trans, diag, jb, a[oa(j0, j0):], lda, t, true)
				solveRightUpper(m, jb, t, b[j0*ldb:], ldb)
			}
		} else {
			for j1 := n; j1 > 0; j1 -= triBlock {
				j0 := max(0, j1-triBlock)
				jb := j1 - j0
				gemm1(core.NoTrans, trans, m, jb, n-j1, -1, b[min(j1, n-1)*ldb:], ldb, a[oa(min(j1, n-1), j0):], lda, alpha, b[j0*ldb:], ldb)
				packTri(false, trans, diag, jb, a[oa(j0, j0):], lda, t, true)
				solveRightLower(m, jb, t, b[j0*ldb:], ldb)
			}
		}
	}
	putScratch(buf)
}

// The four direct solvers below take a packed triangle t (nb×nb, leading
// dimension nb) whose diagonal holds reciprocals, and work by columns so
// every inner loop is an axpy over contiguous memory.

// solveLeftLower overwrites the nb×n matrix B with T⁻¹·B, T lower.
func solveLeftLower[T core.Scalar](nb, n int, t []T, b []T, ldb int) {
	if simdFMA && nb >= solveFMAMin && !core.IsComplex[T]() && finiteBelow(nb, t) {
		solveLeftLowerFMA(nb, n, t, b, ldb)
		return
	}
	solveLowerRows(nb, n, t, b, ldb, 0, nb)
}

// solveFMAMin is the smallest block solveLeftLowerFMA takes: float64
// Trsm, one core, 262,144 elements a batch, against the axpy form: n = 8
// 11 % slower, 12 2 % faster, 16 12 %, 24 27 %
// (bench/results/cpu/gemm-fma-raw.txt).
const solveFMAMin = 12

// solveLeftLowerFMA is solveLeftLower for float32 and float64 where the
// AVX2+FMA kernels run (simdFMA), four rows at a time: each block's 4×4
// triangle is solved in every column as above, then one luGer4FMA call
// takes the block's four columns of T out of all the rows below, in every
// column, instead of an axpy per unknown. The axpy loop's speed depended
// on where the linker put it (±30 % at n = 32 from unrelated changes,
// bench/results/cpu/trsm-placement.txt); the kernel's does not, and is
// faster (bench/results/cpu/gemm-fma.txt). Only for a T finite below the
// diagonal: the axpy form skips zero unknowns, as reference BLAS does, so
// that an infinite element of T times a zero unknown does not make a NaN.
func solveLeftLowerFMA[T core.Scalar](nb, n int, t []T, b []T, ldb int) {
	i0 := 0
	for ; i0+4 <= nb; i0 += 4 {
		solveLowerRows(nb, n, t, b, ldb, i0, i0+4)
		lc := luCols[T]{t[i0*nb+i0+4 : i0*nb+nb], t[(i0+1)*nb+i0+4 : (i0+1)*nb+nb],
			t[(i0+2)*nb+i0+4 : (i0+2)*nb+nb], t[(i0+3)*nb+i0+4 : (i0+3)*nb+nb]}
		luGer4FMA(b[i0:], ldb, n, nb-i0-4, &lc)
	}
	solveLowerRows(nb, n, t, b, ldb, i0, nb)
}

// solveLowerRows solves rows [r0, r1) of T⁻¹·B in every column, rows above
// r0 already taken out, updating only rows below them up to r1.
func solveLowerRows[T core.Scalar](nb, n int, t []T, b []T, ldb, r0, r1 int) {
	for j := range n {
		x := b[j*ldb : j*ldb+r1]
		for i := r0; i < r1; i++ {
			xi := x[i] * t[i*nb+i]
			x[i] = xi
			if xi == 0 {
				continue
			}
			axpyNeg(xi, t[i*nb+i+1:i*nb+r1], x[i+1:])
		}
	}
}

// finiteBelow reports whether the strictly lower triangle of the packed
// nb×nb t is finite.
func finiteBelow[T core.Scalar](nb int, t []T) bool {
	var acc T
	for j := range nb {
		for _, v := range t[j*nb+j+1 : j*nb+nb] {
			acc += v * 0 // NaN exactly where some element is not finite
		}
	}
	return acc == 0
}

// solveLeftUpper overwrites the nb×n matrix B with T⁻¹·B, T upper.
func solveLeftUpper[T core.Scalar](nb, n int, t []T, b []T, ldb int) {
	if simdFMA && nb >= solveFMAMin && !core.IsComplex[T]() && solveReversed(nb, n, t, b, ldb) {
		return
	}
	for j := 0; j < n; j++ {
		x := b[j*ldb : j*ldb+nb]
		for i := nb - 1; i >= 0; i-- {
			xi := x[i] * t[i*nb+i]
			x[i] = xi
			if xi == 0 {
				continue
			}
			axpyNeg(xi, t[i*nb:i*nb+i], x[:i])
		}
	}
}

// solveReversed solves T·X = B for upper T as solveLeftLowerFMA solves the
// lower J·T·J with the rows of B reversed (J reverses the order): a
// backward substitution, the unknowns found last to first as before. It
// reports true; false, doing nothing, where T is not finite above the
// diagonal.
func solveReversed[T core.Scalar](nb, n int, t []T, b []T, ldb int) bool {
	buf := getScratch[T](nb * nb)
	defer putScratch(buf)
	rev := (*buf)[:nb*nb]
	for j := range nb {
		for i := j; i < nb; i++ {
			// (i, j) of J·T·J is (nb−1−i, nb−1−j) of T, upper.
			rev[j*nb+i] = t[(nb-1-j)*nb+nb-1-i]
		}
	}
	if !finiteBelow(nb, rev) {
		return false
	}
	for j := range n {
		slices.Reverse(b[j*ldb : j*ldb+nb])
	}
	solveLeftLowerFMA(nb, n, rev, b, ldb)
	for j := range n {
		slices.Reverse(b[j*ldb : j*ldb+nb])
	}
	return true
}

// solveRightUpper overwrites the m×nb matrix B with B·T⁻¹, T upper.
func solveRightUpper[T core.Scalar](m, nb int, t []T, b []T, ldb int) {
	if !solveRightFMA(true, m, nb, t, b, ldb) {
		solveRightUpperAxpy(m, nb, t, b, ldb)
	}
}

// solveRightUpperAxpy is solveRightUpper by axpys over B's columns.
func solveRightUpperAxpy[T core.Scalar](m, nb int, t []T, b []T, ldb int) {
	for j := 0; j < nb; j++ {
		y := b[j*ldb : j*ldb+m]
		for l := 0; l < j; l++ {
			if s := t[j*nb+l]; s != 0 {
				axpyNeg(s, b[l*ldb:l*ldb+m], y)
			}
		}
		scaleVec(t[j*nb+j], y)
	}
}

// solveRightLower overwrites the m×nb matrix B with B·T⁻¹, T lower.
func solveRightLower[T core.Scalar](m, nb int, t []T, b []T, ldb int) {
	if !solveRightFMA(false, m, nb, t, b, ldb) {
		solveRightLowerAxpy(m, nb, t, b, ldb)
	}
}

// solveRightLowerAxpy is solveRightLower by axpys over B's columns.
func solveRightLowerAxpy[T core.Scalar](m, nb int, t []T, b []T, ldb int) {
	for j := nb - 1; j >= 0; j-- {
		y := b[j*ldb : j*ldb+m]
		for l := j + 1; l < nb; l++ {
			if s := t[j*nb+l]; s != 0 {
				axpyNeg(s, b[l*ldb:l*ldb+m], y)
			}
		}
		scaleVec(t[j*nb+j], y)
	}
}

// solveRightMinRows and solveRightMinOrder are the fewest rows of B and the
// smallest order of T that solveRightFMA takes: it copies B and T, which
// short solves do not repay. float64, one diagonal block on one core,
// against the axpy form (BenchmarkSolveRight with both thresholds at 1,
// bench/cpu-trsm-right.sh; bench/results/cpu/trsm-right.txt): order 32 at
// 4, 8 and 128 rows 1.3×, 1.35× and 1.6× faster; order 24 1.0×, 1.1×,
// 1.3×; 20 even; 12 and 16 slower by up to 1.6× (the kernel's four-row
// steps leave short columns below them). Fewer than 4 rows were not timed.
const (
	solveRightMinRows  = 4
	solveRightMinOrder = 24
)

// solveRightFMA solves X·T = B for the m×nb B (T upper when upper) as a
// forward solve by solveLeftLowerFMA, on copies: Tᵀ·Xᵀ = Bᵀ for upper T,
// and for lower T the same with the order of the unknowns reversed, J·Tᵀ·J
// (lower) times J·Xᵀ = J·Bᵀ (J reverses the order, as in solveReversed).
// The axpy form works a column of B at a time against one element of T, the
// kernel four rows of the copy at once. It reports false, doing nothing,
// where the copies would not pay or where the results could differ from the
// axpy form's: that form skips a zero element of T, as reference BLAS does,
// so an infinite or NaN element of B times a zero of T makes no NaN there;
// it takes only a T finite off the diagonal and a finite B.
func solveRightFMA[T core.Scalar](upper bool, m, nb int, t []T, b []T, ldb int) bool {
	if !simdFMA || nb < solveRightMinOrder || m < solveRightMinRows || core.IsComplex[T]() {
		return false
	}
	// Row r of the copies is row src(r) = r0 + step·r of Tᵀ and Bᵀ:
	// L(i, j) = T(src(j), src(i)), C(r, i) = B(i, src(r)).
	r0, step := 0, 1
	if !upper {
		r0, step = nb-1, -1
	}
	src := func(r int) int { return r0 + step*r }
	tBuf := getScratch[T](nb * nb)
	defer putScratch(tBuf)
	l := (*tBuf)[:nb*nb]
	var acc T
	for j := range nb {
		for i := j; i < nb; i++ {
			l[j*nb+i] = t[src(i)*nb+src(j)]
			if i > j {
				acc += l[j*nb+i] * 0
			}
		}
	}
	bBuf := getScratch[T](nb * m)
	defer putScratch(bBuf)
	c := (*bBuf)[:nb*m]
	for r := range nb {
		for i, v := range b[src(r)*ldb : src(r)*ldb+m] {
			c[i*nb+r] = v
			acc += v * 0
		}
	}
	if acc != 0 { // NaN: an element of B or one of T off the diagonal is not finite
		return false
	}
	solveLeftLowerFMA(nb, m, l, c, nb)
	for r := range nb {
		col := b[src(r)*ldb : src(r)*ldb+m]
		for i := range col {
			col[i] = c[i*nb+r]
		}
	}
	return true
}

// axpyNeg computes y -= s·x (len(y) ≥ len(x)).
func axpyNeg[T core.Scalar](s T, x, y []T) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] -= s * v
	}
}

// axpy computes y += s·x (len(y) ≥ len(x)).
func axpy[T core.Scalar](s T, x, y []T) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += s * v
	}
}

func scaleVec[T core.Scalar](s T, x []T) {
	if s == 1 {
		return
	}
	for i := range x {
		x[i] *= s
	}
}

// trmm1 computes B = alpha·op(A)·B (Left, A m×m) or B = alpha·B·op(A)
// (Right, A n×n) for one m×n matrix B, A triangular (uplo, Unit: implicit
// unit diagonal; the other triangle is not read). alpha == 0 sets B to zero
// without reading A or B. Blocked: each block of B is multiplied in place by
// its diagonal block of op(A), then gets the rest of its row or column of
// op(A) times the part of B not yet overwritten, by one gemm1.
func trmm1[T core.Scalar](side core.Side, uplo core.Uplo, trans core.Transpose, diag core.Diag, m, n int, alpha T, a []T, lda int, b []T, ldb int) {
	if m == 0 || n == 0 {
		return
	}
	if alpha == 0 {
		scaleMat(m, n, alpha, b, ldb)
		return
	}
	upper := opUpper(uplo, trans)
	nb := min(triBlock, max(m, n))
	buf := getScratch[T](nb * nb)
	t := (*buf)[:nb*nb]
	oa := func(i, j int) int { return opIndex(trans, i, j, lda) }
	if side == core.Left {
		if upper {
			// Row blocks top to bottom: the rows below are still the input.
			for i0 := 0; i0 < m; i0 += triBlock {
				i1 := min(i0+triBlock, m)
				ib := i1 - i0
				packTri(true, trans, diag, ib, a[oa(i0, i0):], lda, t, false)
				mulLeftUpper(ib, n, alpha, t, b[i0:], ldb)
				if i1 < m {
					gemm1(trans, core.NoTrans, ib, n, m-i1, alpha, a[oa(i0, i1):], lda, b[i1:], ldb, 1, b[i0:], ldb)
				}
			}
		} else {
			for i1 := m; i1 > 0; i1 -= triBlock {
				i0 := max(0, i1-triBlock)
				ib := i1 - i0
				packTri(false, trans, diag, ib, a[oa(i0, i0):], lda, t, false)
				mulLeftLower(ib, n, alpha, t, b[i0:], ldb)
				gemm1(trans, core.NoTrans, ib, n, i0, alpha, a[oa(i0, 0):], lda, b, ldb, 1, b[i0:], ldb)
			}
		}
	} else {
		if upper {
			// Column blocks right to left: the columns to the left are still the input.
			for j1 := n; j1 > 0; j1 -= triBlock {
				j0 := max(0, j1-triBlock)
				jb := j1 - j0
				packTri(true, trans, diag, jb, a[oa(j0, j0):], lda, t, false)
				mulRightUpper(m, jb, alpha, t, b[j0*ldb:], ldb)
				gemm1(core.NoTrans, trans, m, jb, j0, alpha, b, ldb, a[oa(0, j0):], lda, 1, b[j0*ldb:], ldb)
			}
		} else {
			for j0 := 0; j0 < n; j0 += triBlock {
				j1 := min(j0+triBlock, n)
				jb := j1 - j0
				packTri(false, trans, diag, jb, a[oa(j0, j0):], lda, t, false)
				mulRightLower(m, jb, alpha, t, b[j0*ldb:], ldb)
				if j1 < n {
					gemm1(core.NoTrans, trans, m, jb, n-j1, alpha, b[j1*ldb:], ldb, a[oa(j1, j0):], lda, 1, b[j0*ldb:], ldb)
				}
			}
		}
	}
	putScratch(buf)
}

// The four direct multipliers take a packed triangle t (nb×nb, leading
// dimension nb, diagonal already 1 for Unit) and work by columns.

// mulLeftUpper overwrites the nb×n matrix B with alpha·T·B, T upper.
func mulLeftUpper[T core.Scalar](nb, n int, alpha T, t []T, b []T, ldb int) {
	for j := 0; j < n; j++ {
		x := b[j*ldb : j*ldb+nb]
		for l := 0; l < nb; l++ {
			xl := x[l]
			if xl != 0 {
				axpy(xl, t[l*nb:l*nb+l], x[:l])
			}
			x[l] = xl * t[l*nb+l]
		}
		scaleVec(alpha, x)
	}
}

// mulLeftLower overwrites the nb×n matrix B with alpha·T·B, T lower.
func mulLeftLower[T core.Scalar](nb, n int, alpha T, t []T, b []T, ldb int) {
	for j := 0; j < n; j++ {
		x := b[j*ldb : j*ldb+nb]
		for l := nb - 1; l >= 0; l-- {
			xl := x[l]
			if xl != 0 {
				axpy(xl, t[l*nb+l+1:l*nb+nb], x[l+1:])
			}
			x[l] = xl * t[l*nb+l]
		}
		scaleVec(alpha, x)
	}
}

// mulRightUpper overwrites the m×nb matrix B with alpha·B·T, T upper.
func mulRightUpper[T core.Scalar](m, nb int, alpha T, t []T, b []T, ldb int) {
	for j := nb - 1; j >= 0; j-- {
		y := b[j*ldb : j*ldb+m]
		scaleVec(alpha*t[j*nb+j], y)
		for l := 0; l < j; l++ {
			if s := alpha * t[j*nb+l]; s != 0 {
				axpy(s, b[l*ldb:l*ldb+m], y)
			}
		}
	}
}

// mulRightLower overwrites the m×nb matrix B with alpha·B·T, T lower.
func mulRightLower[T core.Scalar](m, nb int, alpha T, t []T, b []T, ldb int) {
	for j := 0; j < nb; j++ {
		y := b[j*ldb : j*ldb+m]
		scaleVec(alpha*t[j*nb+j], y)
		for l := j + 1; l < nb; l++ {
			if s := alpha * t[j*nb+l]; s != 0 {
				axpy(s, b[l*ldb:l*ldb+m], y)
			}
		}
	}
}
