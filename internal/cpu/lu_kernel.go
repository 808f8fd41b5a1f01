package cpu

import (
	"math"
	"unsafe"

	"github.com/batchlas/batchlas/internal/core"
)

// The register-blocked LU kernel (LAPACK's xGETF2 with the update order of
// xGETRF at a block width of luW columns): factor luW columns with partial
// pivoting, then carry each trailing column through the block's row swaps,
// its 4×4 unit-lower solve and a rank-4 update in one pass.
//
// Go emits scalar SSE2: every multiply-add is a multiply, an add and a
// register copy or load, where gonum's assembly does two per packed
// instruction. The update loop already runs near the floating-point issue
// limit, so the speed comes from keeping that loop long and everything
// around it cheap:
//   - the trailing update handles two columns per pass with the four L
//     values loaded once (on float64, 4×2 beat 4×1, 4×3, 8×1 and 8×2; the
//     wider shapes spill, amd64's ABI leaves 15 SSE registers);
//   - the scaling of a pivot column, the rank-1 updates of the rest of its
//     block and the pivot search of the next column run as one loop, and
//     the trailing pass returns the pivot of the next block's first column;
//   - pivot magnitudes are compared as integers (IEEE bits without the
//     sign), branch-free, and the element type is resolved per
//     instantiation (luCplx), so no loop holds a type switch;
//   - the swaps of the columns left of a block are deferred to one pass at
//     the end.
//
// Where the CPU has AVX2 and FMA, real types take the rank-4 update of
// luTrail in assembly instead (luGer4FMA: simd_amd64.s, one call for all
// the columns of a block, each multiply-add rounded once). Every path that
// applies a full block (luGetf2, the blocked driver, Getrs) goes through
// luTrail, so they stay bit-identical to one another.

// luW is the column block of the unblocked kernel.
const luW = 4

// Safe minima (LAPACK's xLAMCH('S')): a pivot at least this large has a
// representable reciprocal, so its column is scaled by the reciprocal;
// smaller pivots divide.
const (
	luSafeMin32 = 0x1p-126
	luSafeMin64 = 0x1p-1022
)

// luCplx reports whether T is complex. It folds to a constant for each
// instantiation except for an 8-byte type aligned to 4 bytes, which is
// complex64 on 64-bit targets but may be float64 on 32-bit ones; there it
// trusts cf, the flag the entry point computed once per call.
func luCplx[T core.Scalar](cf bool) bool {
	var z T
	return unsafe.Sizeof(z) == 16 || (unsafe.Sizeof(z) == 8 && unsafe.Alignof(z) == 4 && cf)
}

// luKey orders real values by |x|: the IEEE bits without the sign, so
// integer order is numeric order and every NaN ranks above +Inf (a column
// holding a NaN pivots on it and its factors turn NaN). Ties keep the first
// index because callers compare with >. Complex values go through luKeyC.
func luKey[T core.Scalar](x T) uint64 {
	if unsafe.Sizeof(x) == 4 {
		return uint64(*(*uint32)(unsafe.Pointer(&x)) &^ (1 << 31))
	}
	return *(*uint64)(unsafe.Pointer(&x)) &^ (1 << 63)
}

// luKeyC is luKey for complex values: |Re|+|Im| (BLAS's cabs1, the measure
// of IxAMAX) rounded in T's precision, as sign-less bits.
//
//go:noinline
func luKeyC[T core.Scalar](p *T) uint64 {
	if unsafe.Sizeof(*p) == 16 {
		q := (*[2]float64)(unsafe.Pointer(p))
		return math.Float64bits(math.Abs(q[0])+math.Abs(q[1])) &^ (1 << 63)
	}
	q := (*[2]float32)(unsafe.Pointer(p))
	s := math.Float32frombits(math.Float32bits(q[0])&^(1<<31)) + math.Float32frombits(math.Float32bits(q[1])&^(1<<31))
	return uint64(math.Float32bits(s) &^ (1 << 31))
}

// luIamax returns the index of the first element of x with the largest
// LAPACK pivot magnitude (0 for an empty or all-zero x).
func luIamax[T core.Scalar](x []T, cf bool) int {
	cplx := luCplx[T](cf)
	var best uint64
	idx := 0
	for i := range x {
		var k uint64
		if cplx {
			k = luKeyC(&x[i])
		} else {
			k = luKey(x[i])
		}
		if k > best {
			best, idx = k, i
		}
	}
	return idx
}

// luParts returns the real and imaginary parts of x as float64.
func luParts[T core.Scalar](x T, cf bool) (re, im float64) {
	switch {
	case unsafe.Sizeof(x) == 4:
		return float64(*(*float32)(unsafe.Pointer(&x))), 0
	case unsafe.Sizeof(x) == 16:
		q := (*[2]float64)(unsafe.Pointer(&x))
		return q[0], q[1]
	case luCplx[T](cf):
		q := (*[2]float32)(unsafe.Pointer(&x))
		return float64(q[0]), float64(q[1])
	}
	return *(*float64)(unsafe.Pointer(&x)), 0
}

// luSafe reports whether |x| (the modulus for complex T) is at least the
// safe minimum of T's precision, as xGETF2 tests before scaling by 1/x.
func luSafe[T core.Scalar](x T, cf bool) bool {
	switch {
	case luCplx[T](cf):
		return luSafeC(x, cf)
	case unsafe.Sizeof(x) == 4:
		// Real: compare magnitude bits with those of the safe minimum.
		return luKey(x) >= uint64(math.Float32bits(luSafeMin32))
	}
	return luKey(x) >= math.Float64bits(luSafeMin64)
}

//go:noinline
func luSafeC[T core.Scalar](x T, cf bool) bool {
	re, im := luParts(x, cf)
	s := luSafeMin64
	if unsafe.Sizeof(x) == 8 {
		s = luSafeMin32
	}
	return math.Hypot(re, im) >= s
}

// luGetf2 factors the m×n matrix a (column-major, leading dimension lda) in
// place as A = P·L·U with partial pivoting. piv[0:min(m,n)] receives the
// 1-based pivot rows. The result is LAPACK's info: the first 1-based j with
// U(j,j) exactly zero, else 0; such a column is not scaled and the
// factorization goes on.
func luGetf2[T core.Scalar](m, n int, a []T, lda int, piv []int32, cf bool) int {
	mn := min(m, n)
	info := 0
	next := -1
	for j := 0; j < mn; j += luW {
		w := min(luW, mn-j)
		info = luPanel(m, j, w, a, lda, piv, next, info, cf)
		next = -1
		if j+w < n {
			next = luTrail(a, lda, a[(j+w)*lda:], lda, n-j-w, m, m, j, w, piv, true, j+w < mn, cf)
		}
	}
	luSwapLeft(m, mn, a, lda, piv)
	return info
}

// luPanel factors columns j..j+w-1, rows j..m-1, right-looking: swaps touch
// only these w columns. first is the pivot of column j relative to row j
// when the caller already found it, else -1.
func luPanel[T core.Scalar](m, j, w int, a []T, lda int, piv []int32, first, info int, cf bool) int {
	// The panel's columns, each m long (fewer than luW only at the end).
	var cols [luW][]T
	for t := range w {
		cols[t] = a[(j+t)*lda : (j+t)*lda+m]
	}
	next := first
	for t := range w {
		jj := j + t
		col := cols[t]
		p := next
		if p < 0 {
			p = luIamax(col[jj:], cf)
		}
		p += jj
		piv[jj] = int32(p + 1)
		r := T(1)
		if pv := col[p]; pv != 0 {
			// Swapping a row with itself is harmless and cheaper than a
			// branch that random pivots mispredict.
			if w == luW {
				cols[0][jj], cols[0][p] = cols[0][p], cols[0][jj]
				cols[1][jj], cols[1][p] = cols[1][p], cols[1][jj]
				cols[2][jj], cols[2][p] = cols[2][p], cols[2][jj]
				cols[3][jj], cols[3][p] = cols[3][p], cols[3][jj]
			} else {
				for _, x := range cols[:w] {
					x[jj], x[p] = x[p], x[jj]
				}
			}
			if luSafe(pv, cf) {
				r = div(1, pv)
			} else {
				for i := jj + 1; i < m; i++ {
					col[i] = div(col[i], pv)
				}
			}
		} else if info == 0 {
			info = jj + 1
		}
		l := col[jj+1:]
		next = -1
		switch w - t - 1 {
		case 0:
			if r != 1 {
				for i := range l {
					l[i] *= r
				}
			}
		case 1:
			c1 := cols[t+1][jj:]
			next = luFuse1(l, c1[1:], r, c1[0], cf)
		case 2:
			c1, c2 := cols[t+1][jj:], cols[t+2][jj:]
			next = luFuse2(l, c1[1:], c2[1:], r, c1[0], c2[0], cf)
		default:
			c1, c2, c3 := cols[t+1][jj:], cols[t+2][jj:], cols[t+3][jj:]
			next = luFuse3(l, c1[1:], c2[1:], c3[1:], r, c1[0], c2[0], c3[0], cf)
		}
	}
	return info
}

// luFuse1 scales the pivot column l by r, subtracts l·u1 from c1 and
// returns the pivot index of c1 (the next column), all in one pass.
func luFuse1[T core.Scalar](l, c1 []T, r, u1 T, cf bool) int {
	cplx := luCplx[T](cf)
	c1 = c1[:len(l)]
	var best uint64
	idx := 0
	for i := range l {
		v := l[i] * r
		l[i] = v
		t := c1[i] - v*u1
		c1[i] = t
		var k uint64
		if cplx {
			k = luKeyC(&c1[i])
		} else {
			k = luKey(t)
		}
		if k > best {
			best, idx = k, i
		}
	}
	return idx
}

// luFuse2 is luFuse1 with a second column c2 updated alongside.
func luFuse2[T core.Scalar](l, c1, c2 []T, r, u1, u2 T, cf bool) int {
	cplx := luCplx[T](cf)
	c1 = c1[:len(l)]
	c2 = c2[:len(l)]
	var best uint64
	idx := 0
	for i := range l {
		v := l[i] * r
		l[i] = v
		c2[i] -= v * u2
		t := c1[i] - v*u1
		c1[i] = t
		var k uint64
		if cplx {
			k = luKeyC(&c1[i])
		} else {
			k = luKey(t)
		}
		if k > best {
			best, idx = k, i
		}
	}
	return idx
}

// luFuse3 is luFuse1 with columns c2 and c3 updated alongside.
func luFuse3[T core.Scalar](l, c1, c2, c3 []T, r, u1, u2, u3 T, cf bool) int {
	cplx := luCplx[T](cf)
	c1 = c1[:len(l)]
	c2 = c2[:len(l)]
	c3 = c3[:len(l)]
	var best uint64
	idx := 0
	for i := range l {
		v := l[i] * r
		l[i] = v
		c2[i] -= v * u2
		c3[i] -= v * u3
		t := c1[i] - v*u1
		c1[i] = t
		var k uint64
		if cplx {
			k = luKeyC(&c1[i])
		} else {
			k = luKey(t)
		}
		if k > best {
			best, idx = k, i
		}
	}
	return idx
}

// luTrail applies block j..j+w-1 of a factorization to the ncols columns of
// b (leading dimension ldb): when swap is set it first exchanges rows
// j+t and piv[j+t]-1 (rows below m untouched), then solves the unit lower
// triangle L(j:j+w, j:j+w) for rows j..j+w-1 and subtracts
// L(j+w:mEnd, j:j+w) times them from rows j+w..mEnd-1. L is read from l
// (leading dimension ldl) with the same row numbering as b. With wantMax
// it returns the pivot index, relative to row j+w, of the updated first
// column (rows j+w..m-1, so mEnd must equal m); otherwise -1.
func luTrail[T core.Scalar](l []T, ldl int, b []T, ldb, ncols, m, mEnd, j, w int, piv []int32, swap, wantMax bool, cf bool) int {
	if ncols <= 0 {
		return -1
	}
	if w != luW {
		luTrailNarrow(l, ldl, b, ldb, ncols, m, mEnd, j, w, piv, swap)
		if wantMax {
			return luIamax(b[j+w:m], cf)
		}
		return -1
	}
	var p0, p1, p2, p3 int
	if swap {
		p0, p1, p2, p3 = int(piv[j])-1, int(piv[j+1])-1, int(piv[j+2])-1, int(piv[j+3])-1
	}
	// The strictly lower part of the 4×4 diagonal block: lts is L(j+t, j+s).
	l10, l20, l30 := l[j*ldl+j+1], l[j*ldl+j+2], l[j*ldl+j+3]
	l21, l31, l32 := l[(j+1)*ldl+j+2], l[(j+1)*ldl+j+3], l[(j+2)*ldl+j+3]
	r0 := j + luW
	k := max(0, mEnd-r0)
	lc := &luCols[T]{
		l[j*ldl+r0 : j*ldl+r0+k],
		l[(j+1)*ldl+r0 : (j+1)*ldl+r0+k],
		l[(j+2)*ldl+r0 : (j+2)*ldl+r0+k],
		l[(j+3)*ldl+r0 : (j+3)*ldl+r0+k],
	}
	rows := max(m, mEnd)
	if simdFMA && !luCplx[T](cf) {
		// AVX2+FMA (simd_amd64.s): every column's swaps and 4×4 solve,
		// then all their rank-4 updates in one call, then the pivot search.
		for c := range ncols {
			x := b[c*ldb : c*ldb+rows]
			if swap {
				x[j], x[p0] = x[p0], x[j]
				x[j+1], x[p1] = x[p1], x[j+1]
				x[j+2], x[p2] = x[p2], x[j+2]
				x[j+3], x[p3] = x[p3], x[j+3]
			}
			xb := x[j : j+4 : j+4]
			x0 := xb[0]
			x1 := xb[1] - l10*x0
			x2 := xb[2] - l20*x0 - l21*x1
			x3 := xb[3] - l30*x0 - l31*x1 - l32*x2
			xb[1], xb[2], xb[3] = x1, x2, x3
		}
		luGer4FMA(b[j:], ldb, ncols, k, lc)
		if wantMax {
			return luIamax(b[r0:r0+k], cf)
		}
		return -1
	}
	next := -1
	c := 0
	// The swaps and the 4×4 solve are written out for each column: as a
	// function they are not inlined and the call costs more than they do.
	if wantMax {
		x := b[:rows]
		if swap {
			x[j], x[p0] = x[p0], x[j]
			x[j+1], x[p1] = x[p1], x[j+1]
			x[j+2], x[p2] = x[p2], x[j+2]
			x[j+3], x[p3] = x[p3], x[j+3]
		}
		xb := x[j : j+4 : j+4]
		x0 := xb[0]
		x1 := xb[1] - l10*x0
		x2 := xb[2] - l20*x0 - l21*x1
		x3 := xb[3] - l30*x0 - l31*x1 - l32*x2
		xb[1], xb[2], xb[3] = x1, x2, x3
		next = luUpd1Max(x[r0:r0+k], lc, x0, x1, x2, x3, cf)
		c = 1
	}
	if !luCplx[T](cf) {
		// Complex columns go one at a time: eight complex multipliers
		// would not stay in registers.
		for ; c+1 < ncols; c += 2 {
			x := b[c*ldb : c*ldb+rows]
			y := b[(c+1)*ldb : (c+1)*ldb+rows]
			if swap {
				x[j], x[p0] = x[p0], x[j]
				x[j+1], x[p1] = x[p1], x[j+1]
				x[j+2], x[p2] = x[p2], x[j+2]
				x[j+3], x[p3] = x[p3], x[j+3]
				y[j], y[p0] = y[p0], y[j]
				y[j+1], y[p1] = y[p1], y[j+1]
				y[j+2], y[p2] = y[p2], y[j+2]
				y[j+3], y[p3] = y[p3], y[j+3]
			}
			xb := x[j : j+4 : j+4]
			x0 := xb[0]
			x1 := xb[1] - l10*x0
			x2 := xb[2] - l20*x0 - l21*x1
			x3 := xb[3] - l30*x0 - l31*x1 - l32*x2
			xb[1], xb[2], xb[3] = x1, x2, x3
			yb := y[j : j+4 : j+4]
			y0 := yb[0]
			y1 := yb[1] - l10*y0
			y2 := yb[2] - l20*y0 - l21*y1
			y3 := yb[3] - l30*y0 - l31*y1 - l32*y2
			yb[1], yb[2], yb[3] = y1, y2, y3
			luUpd2(x[r0:r0+k], y[r0:r0+k], lc, x0, x1, x2, x3, y0, y1, y2, y3)
		}
	}
	for ; c < ncols; c++ {
		x := b[c*ldb : c*ldb+rows]
		if swap {
			x[j], x[p0] = x[p0], x[j]
			x[j+1], x[p1] = x[p1], x[j+1]
			x[j+2], x[p2] = x[p2], x[j+2]
			x[j+3], x[p3] = x[p3], x[j+3]
		}
		xb := x[j : j+4 : j+4]
		x0 := xb[0]
		x1 := xb[1] - l10*x0
		x2 := xb[2] - l20*x0 - l21*x1
		x3 := xb[3] - l30*x0 - l31*x1 - l32*x2
		xb[1], xb[2], xb[3] = x1, x2, x3
		luUpd1(x[r0:r0+k], lc.c0, lc.c1, lc.c2, lc.c3, x0, x1, x2, x3)
	}
	return next
}

// luGer4FMA runs luGer4F64 or luGer4F32 (real T only) on columns y,
// y+ldy, …: each holds its four coefficients, then the rows to update.
func luGer4FMA[T core.Scalar](y []T, ldy, ncols, rows int, lc *luCols[T]) {
	if ncols <= 0 || rows <= 0 {
		return
	}
	// The kernels do not check bounds: check the far ends here.
	_ = y[(ncols-1)*ldy+4+rows-1]
	_, _, _, _ = lc.c0[rows-1], lc.c1[rows-1], lc.c2[rows-1], lc.c3[rows-1]
	if unsafe.Sizeof(y[0]) == 8 {
		l := [4]*float64{luPtr[float64](lc.c0), luPtr[float64](lc.c1), luPtr[float64](lc.c2), luPtr[float64](lc.c3)}
		luGer4F64(luPtr[float64](y), ldy, ncols, rows, &l)
		return
	}
	l := [4]*float32{luPtr[float32](lc.c0), luPtr[float32](lc.c1), luPtr[float32](lc.c2), luPtr[float32](lc.c3)}
	luGer4F32(luPtr[float32](y), ldy, ncols, rows, &l)
}

// luPtr is x's first element as an R (T's underlying real type).
func luPtr[R float32 | float64, T core.Scalar](x []T) *R {
	return (*R)(unsafe.Pointer(unsafe.SliceData(x)))
}

// luCols holds the four L columns of a block, each cut to the rows the
// update touches; passed by pointer, the update kernels' arguments all fit
// in registers.
type luCols[T core.Scalar] struct{ c0, c1, c2, c3 []T }

// luTrailNarrow is luTrail for a block of fewer than luW columns (only the
// last block of a factorization): column axpys.
func luTrailNarrow[T core.Scalar](l []T, ldl int, b []T, ldb, ncols, m, mEnd, j, w int, piv []int32, swap bool) {
	rows := max(m, mEnd)
	for c := range ncols {
		x := b[c*ldb : c*ldb+rows]
		if swap {
			for t := j; t < j+w; t++ {
				p := int(piv[t]) - 1
				x[t], x[p] = x[p], x[t]
			}
		}
		for t := j; t < j+w; t++ {
			u := x[t]
			if t+1 >= mEnd {
				break
			}
			lc := l[t*ldl+t+1 : t*ldl+mEnd]
			xs := x[t+1 : mEnd]
			xs = xs[:len(lc)]
			for i, v := range lc {
				xs[i] -= v * u
			}
		}
	}
}

// luUpd2 computes xs -= c0·x0+c1·x1+c2·x2+c3·x3 and the same for ys with
// y0..y3 (c0..c3 from lc): a rank-4 update of two columns.
func luUpd2[T core.Scalar](xs, ys []T, lc *luCols[T], x0, x1, x2, x3, y0, y1, y2, y3 T) {
	ys = ys[:len(xs)]
	l0 := lc.c0[:len(xs)]
	l1 := lc.c1[:len(xs)]
	l2 := lc.c2[:len(xs)]
	l3 := lc.c3[:len(xs)]
	for i := range xs {
		v0, v1, v2, v3 := l0[i], l1[i], l2[i], l3[i]
		xs[i] -= v0*x0 + v1*x1 + v2*x2 + v3*x3
		ys[i] -= v0*y0 + v1*y1 + v2*y2 + v3*y3
	}
}

// luUpd1 is luUpd2 for one column.
func luUpd1[T core.Scalar](xs, l0, l1, l2, l3 []T, x0, x1, x2, x3 T) {
	l0 = l0[:len(xs)]
	l1 = l1[:len(xs)]
	l2 = l2[:len(xs)]
	l3 = l3[:len(xs)]
	for i := range xs {
		xs[i] -= l0[i]*x0 + l1[i]*x1 + l2[i]*x2 + l3[i]*x3
	}
}

// luUpd1Max is luUpd1 that also returns the pivot index of the result.
func luUpd1Max[T core.Scalar](xs []T, lc *luCols[T], x0, x1, x2, x3 T, cf bool) int {
	cplx := luCplx[T](cf)
	l0 := lc.c0[:len(xs)]
	l1 := lc.c1[:len(xs)]
	l2 := lc.c2[:len(xs)]
	l3 := lc.c3[:len(xs)]
	var best uint64
	idx := 0
	for i := range xs {
		t := xs[i] - (l0[i]*x0 + l1[i]*x1 + l2[i]*x2 + l3[i]*x3)
		xs[i] = t
		var k uint64
		if cplx {
			k = luKeyC(&xs[i])
		} else {
			k = luKey(t)
		}
		if k > best {
			best, idx = k, i
		}
	}
	return idx
}

// luSwapLeft applies the swaps deferred by luGetf2: the columns of each
// block get the pivots of every later block, in order, four columns per
// pivot so each pivot is read once.
func luSwapLeft[T core.Scalar](m, mn int, a []T, lda int, piv []int32) {
	for b := 0; b+luW < mn; b += luW {
		e := b + luW
		x0 := a[b*lda : b*lda+m]
		x1 := a[(b+1)*lda : (b+1)*lda+m]
		x2 := a[(b+2)*lda : (b+2)*lda+m]
		x3 := a[(b+3)*lda : (b+3)*lda+m]
		for t, p := range piv[e:mn] {
			r, q := e+t, int(p)-1
			x0[r], x0[q] = x0[q], x0[r]
			x1[r], x1[q] = x1[q], x1[r]
			x2[r], x2[q] = x2[q], x2[r]
			x3[r], x3[q] = x3[q], x3[r]
		}
	}
}
