package cpu

import "github.com/batchlas/batchlas/internal/core"

// Gemm computes C = alpha·op(A)·op(B) + beta·C for every matrix of the batch.
func Gemm[T core.Scalar](x Exec, transA, transB core.Transpose, alpha T, a, b core.Strided[T], beta T, c core.Strided[T]) error {
	m, n := c.Rows, c.Cols
	k := a.Cols
	if transA != core.NoTrans {
		k = a.Rows
	}
	// Split the larger side of C when there are spare workers.
	byCols := n >= m
	chunks := x.split(c.Count, m*n*k, max(m, n))
	return x.ForEach(c.Count*chunks, func(t int) {
		i, lo, hi := t/chunks, 0, 0
		am, bm, cm := mat(a, i), mat(b, i), mat(c, i)
		if byCols {
			lo, hi = span(t%chunks, chunks, n)
			if lo < hi {
				gemm1(transA, transB, m, hi-lo, k, alpha, am, a.LD, bm[opIndex(transB, 0, lo, b.LD)*min(k, 1):], b.LD, beta, cm[lo*c.LD:], c.LD)
			}
			return
		}
		lo, hi = span(t%chunks, chunks, m)
		if lo < hi {
			gemm1(transA, transB, hi-lo, n, k, alpha, am[opIndex(transA, lo, 0, a.LD)*min(k, 1):], a.LD, bm, b.LD, beta, cm[lo:], c.LD)
		}
	})
}

// Trsm solves op(A)·X = alpha·B (Left) or X·op(A) = alpha·B (Right); B is overwritten by X.
func Trsm[T core.Scalar](x Exec, side core.Side, uplo core.Uplo, trans core.Transpose, diag core.Diag, alpha T, a, b core.Strided[T]) error {
	return triBatch(x, trsmAny[T], side, uplo, trans, diag, alpha, a, b)
}

// Trmm computes B = alpha·op(A)·B (Left) or B = alpha·B·op(A) (Right), A triangular.
func Trmm[T core.Scalar](x Exec, side core.Side, uplo core.Uplo, trans core.Transpose, diag core.Diag, alpha T, a, b core.Strided[T]) error {
	return triBatch(x, trmm1[T], side, uplo, trans, diag, alpha, a, b)
}

// triBatch runs trsm1 or trmm1 over a batch. Left, the columns of B are
// independent; Right, its rows: those are what spare workers split.
func triBatch[T core.Scalar](x Exec, op func(core.Side, core.Uplo, core.Transpose, core.Diag, int, int, T, []T, int, []T, int),
	side core.Side, uplo core.Uplo, trans core.Transpose, diag core.Diag, alpha T, a, b core.Strided[T]) error {
	m, n := b.Rows, b.Cols
	na, free := m, n
	if side == core.Right {
		na, free = n, m
	}
	chunks := x.split(b.Count, na*na*free, free)
	return x.ForEach(b.Count*chunks, func(t int) {
		i := t / chunks
		lo, hi := span(t%chunks, chunks, free)
		if lo >= hi {
			return
		}
		am, bm := mat(a, i), mat(b, i)
		if side == core.Left {
			op(side, uplo, trans, diag, m, hi-lo, alpha, am, a.LD, bm[lo*b.LD:], b.LD)
		} else {
			op(side, uplo, trans, diag, hi-lo, n, alpha, am, a.LD, bm[lo:], b.LD)
		}
	})
}

// Syrk computes the uplo triangle of C = alpha·A·Aᵀ + beta·C (NoTrans) or alpha·Aᵀ·A + beta·C (Trans).
func Syrk[T core.Scalar](x Exec, uplo core.Uplo, trans core.Transpose, alpha T, a core.Strided[T], beta T, c core.Strided[T]) error {
	if trans == core.ConjTrans {
		trans = core.Trans
	}
	return rkBatch(x, false, uplo, trans, alpha, a, beta, c)
}

// Herk computes the uplo triangle of C = alpha·A·Aᴴ + beta·C (NoTrans) or alpha·Aᴴ·A + beta·C (ConjTrans),
// alpha and beta real, the diagonal of C real.
func Herk[T core.Scalar](x Exec, uplo core.Uplo, trans core.Transpose, alpha float64, a core.Strided[T], beta float64, c core.Strided[T]) error {
	if trans != core.NoTrans {
		trans = core.ConjTrans
	}
	return rkBatch(x, isCplx[T](), uplo, trans, fromReal[T](alpha), a, fromReal[T](beta), c)
}

// rkBatch runs rankK over a batch; spare workers split the columns of C
// into spans of equal work (a column of the lower triangle is longer the
// further left it is).
func rkBatch[T core.Scalar](x Exec, herm bool, uplo core.Uplo, trans core.Transpose, alpha T, a core.Strided[T], beta T, c core.Strided[T]) error {
	n := c.Rows
	k := a.Cols
	if trans != core.NoTrans {
		k = a.Rows
	}
	chunks := x.split(c.Count, n*n*k/2, n)
	return x.ForEach(c.Count*chunks, func(t int) {
		i, p := t/chunks, t%chunks
		c0, c1 := triSpan(uplo, p, chunks, n)
		rankK(herm, uplo, trans, n, k, alpha, beta, mat(a, i), a.LD, mat(c, i), c.LD, c0, c1)
	})
}

// parallelWork is the flop count (m·n·k) from which one matrix is worth
// sharing between workers.
const parallelWork = 64 * 64 * 64

// split returns how many pieces each of count matrices is cut into: one,
// unless there are fewer matrices than workers and each is large, when the
// spare workers share the matrices (pieces of at least 16 along a side of
// length side).
func (x Exec) split(count, work, side int) int {
	w := x.workers()
	if count == 0 || count >= w || work < parallelWork {
		return 1
	}
	return max(1, min((w+count-1)/count, side/16))
}

// span returns piece p of [0, n) cut into pieces, boundaries at multiples of 8.
func span(p, pieces, n int) (lo, hi int) {
	units := (n + 7) / 8
	lo = min(n, 8*(units*p/pieces))
	hi = min(n, 8*(units*(p+1)/pieces))
	return lo, hi
}

// triSpan returns piece p of the columns of an n×n triangle cut into pieces
// of about equal area.
func triSpan(uplo core.Uplo, p, pieces, n int) (lo, hi int) {
	if pieces == 1 {
		return 0, n
	}
	// Column j holds n−j elements (Lower) or j+1 (Upper); cut where the
	// running total crosses p/pieces and (p+1)/pieces of the whole.
	total := n * (n + 1) / 2
	cut := func(q int) int {
		if q == pieces {
			return n
		}
		want, sum := total*q/pieces, 0
		for j := 0; j < n; j++ {
			if sum >= want {
				return j
			}
			if uplo == core.Lower {
				sum += n - j
			} else {
				sum += j + 1
			}
		}
		return n
	}
	return cut(p), cut(p + 1)
}

// mat returns matrix i of s, or nil when it is empty (so a zero-size
// operand never indexes its data).
func mat[T core.Scalar](s core.Strided[T], i int) []T {
	if s.Rows == 0 || s.Cols == 0 {
		return nil
	}
	return s.Matrix(i)
}

// opElem returns element (i, l) of op(A) for column-major a.
func opElem[T core.Scalar](t core.Transpose, a []T, lda, i, l int) T {
	switch t {
	case core.NoTrans:
		return a[i+l*lda]
	case core.Trans:
		return a[l+i*lda]
	}
	return conj(a[l+i*lda])
}
