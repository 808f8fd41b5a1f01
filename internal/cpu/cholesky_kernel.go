package cpu

import (
	"math"
	"math/cmplx"
	"unsafe"

	"github.com/batchlas/batchlas/internal/core"
)

// Register-blocked Cholesky for one matrix (potrfRB), in panels of four
// columns of L (four rows of U), right-looking: factor the 4×4 diagonal
// block, solve the panel beside it, subtract the panel's rank-4 product from
// the trailing triangle two columns at a time, with one panel of lookahead
// (update the next panel's columns, factor its block, then the rest) so the
// block's sqrt/divide chain overlaps the rest of the update.
//
// Why this shape, measured on the 2-core AMD EPYC (Zen 5) dev box in ns per
// float64 multiply-add, min of 7 runs: the two-column update keeps its eight
// coefficients in registers, and each element of the four panel streams
// feeds two multiply-adds; its iterations are independent, so it runs at
// 0.19 on 16-long columns as on 256-long ones. That is the scalar limit
// here (two multipliers and two adders; math.FMA under GOAMD64=v1 is a
// feature branch and a call, slower). Left-looking dot tiles were slower at
// the orders that matter: 2×2 tiles 0.17 on long rows but latency-bound on
// the short rows of n ≤ 64 (the factorization ran 2× slower), 2×4 tiles
// 0.43 (SSE's two-operand multiply makes Go spill eight accumulators).
// Complex types update one column at a time (eight complex coefficients do
// not fit the registers). The loops sit in leaf functions (cholTrailLower,
// cholTrailUpper, cholSolve4*): inlined into the driver, its live values
// spilled the accumulators; a call per column pair with six slice
// arguments cost more than the short loops it ran.
//
// Where the CPU has AVX2 and FMA, real matrices take the same update in
// assembly instead (cholTrailFMA: simd_amd64.s, four or eight elements a
// vector, the column loop of a panel in one call). Potrf per matrix,
// float64 Lower, one worker, min of interleaved runs: 1541 → 916 ns at
// n = 32, 9485 → 3987 at n = 64, 69846 → 22668 at n = 128; float32 818,
// 3267, 15654.
//
// For complex T the conjugated panel is packed once per panel (for real L
// it is the panel itself), so inner loops are plain generic arithmetic. The
// diagonal block is the only place that needs the real type (the square
// root): cholDiagOf picks a concrete function once per call.
//
// The kernels return 0 on success or LAPACK's info: the 1-based column whose
// pivot is ≤ 0 or NaN, the pivot written back real, and they stop there.

// cholScratch is the length of w the kernels need for order n.
func cholScratch(n int) int { return 4*n + 16 }

// cholDiagFn factors the nb×nb (nb ≤ 4) diagonal block d in place as L·Lᴴ,
// element (r, c) of its lower triangle at d[r·rs+c·cs]: rs, cs = 1, lda for
// a Lower factor; lda, 1 for an Upper one, whose transpose holds the lower
// triangle of conj(A), factored by L = Uᵀ. It stores conj(L[c, q]) (q < c)
// by rows in cf[0:6] and the reciprocal pivots in cf[6:6+nb], and returns 0
// or the failing column as LAPACK's xPOTF2 does (the pivot's imaginary part
// ignored, a failing pivot written back real). One is chosen per call by
// cholDiagOf, so the square root costs no type switch per column.
type cholDiagFn[T core.Scalar] func(nb int, d []T, rs, cs int, cf *[10]T) int

func cholDiagOf[T core.Scalar]() cholDiagFn[T] {
	var f any
	var z T
	switch any(z).(type) {
	case float64:
		f = cholDiagReal[float64]
	case float32:
		f = cholDiagReal[float32]
	case complex128:
		f = cholDiagCplx[complex128, float64]
	case complex64:
		f = cholDiagCplx[complex64, float32]
	}
	return f.(func(int, []T, int, int, *[10]T) int)
}

// cholOff is the index in cf of conj(L[c, q]), q < c < 4.
var cholOff = [4][4]int{{}, {0}, {1, 2}, {3, 4, 5}}

func cholDiagReal[R ~float32 | ~float64](nb int, d []R, rs, cs int, cf *[10]R) int {
	if nb == 4 {
		k := cholDiag4Real(d, rs, cs, cf)
		if k < 0 {
			k = cholDiagLoopReal(nb, d, rs, cs, cf, -k-1)
		}
		return k
	}
	return cholDiagLoopReal(nb, d, rs, cs, cf, 0)
}

// cholDiagLoopReal is cholDiagReal by columns, with 1/√p as xPOTF2 forms it,
// from column j0 on: columns 0…j0−1 of the block already hold L's.
func cholDiagLoopReal[R ~float32 | ~float64](nb int, d []R, rs, cs int, cf *[10]R, j0 int) int {
	var l [4][4]R
	for q := 0; q < j0; q++ {
		cf[6+q] = 1 / d[q*(rs+cs)]
		for i := q + 1; i < nb; i++ {
			l[i][q] = d[i*rs+q*cs]
			cf[cholOff[i][q]] = l[i][q]
		}
	}
	for j := j0; j < nb; j++ {
		s := d[j*(rs+cs)]
		for q := 0; q < j; q++ {
			s -= l[j][q] * l[j][q]
		}
		if !(s > 0) {
			d[j*(rs+cs)] = s
			return j + 1
		}
		s = R(math.Sqrt(float64(s)))
		r := 1 / s
		d[j*(rs+cs)] = s
		cf[6+j] = r
		for i := j + 1; i < nb; i++ {
			t := d[i*rs+j*cs]
			for q := 0; q < j; q++ {
				t -= l[i][q] * l[j][q]
			}
			t *= r
			l[i][j] = t
			d[i*rs+j*cs] = t
			cf[cholOff[i][j]] = t
		}
	}
	return 0
}

// cholDiag4Real is cholDiagReal for a full 4×4 block, straight-line. The
// pivots come from the unscaled Schur complements (LDLᴴ order: pⱼ = aⱼⱼ −
// Σ uⱼₖ²/pₖ), so the critical path is one division per column and the
// square roots run beside it; with √ then 1/√ on the path the block took
// 100 ns, 4× the work it holds. That order needs 1/pⱼ, which overflows
// where 1/√pⱼ does not (a subnormal pivot), and is 0 for pⱼ = +Inf, where
// √pⱼ·(1/pⱼ) is NaN: where the reciprocal pivot rⱼ = √pⱼ·(1/pⱼ) is not
// finite, it returns −(j+1) before writing column j, and cholDiagLoopReal
// takes the block over from there (the columns before it are L's, the rest
// still A's), as xPOTF2 would have it. Checked there, after the division,
// the guard costs Potrf 1–5 % at n = 8, up to 2 % at 32, nothing at 128
// (BenchmarkPotrf, GOMAXPROCS=1; bench/results/cpu/extreme-pivots.txt);
// range checks on pⱼ cost float64 n = 8 10 %, and so did a call to the
// loop from in here (the block's live values spilled).
func cholDiag4Real[R ~float32 | ~float64](d []R, rs, cs int, cf *[10]R) int {
	d = d[:3*rs+3*cs+1]
	a00, a10, a20, a30 := d[0], d[rs], d[2*rs], d[3*rs]
	a11, a21, a31 := d[rs+cs], d[2*rs+cs], d[3*rs+cs]
	a22, a32 := d[2*rs+2*cs], d[3*rs+2*cs]
	a33 := d[3*rs+3*cs]

	p0 := a00
	if !(p0 > 0) {
		return 1
	}
	i0 := 1 / p0
	s0 := R(math.Sqrt(float64(p0)))
	r0 := s0 * i0
	if r0-r0 != 0 { // p0 subnormal (1/p0 = +Inf) or +Inf
		return -1
	}
	l10, l20, l30 := a10*r0, a20*r0, a30*r0
	d[0], d[rs], d[2*rs], d[3*rs] = s0, l10, l20, l30

	// Column 1.
	v10 := a10 * i0
	p1 := a11 - a10*v10
	u21 := a21 - a20*v10
	u31 := a31 - a30*v10
	if !(p1 > 0) {
		d[rs+cs] = p1
		return 2
	}
	i1 := 1 / p1
	s1 := R(math.Sqrt(float64(p1)))
	r1 := s1 * i1
	if r1-r1 != 0 { // p1 subnormal (1/p1 = +Inf) or +Inf
		return -2
	}
	l21, l31 := u21*r1, u31*r1
	d[rs+cs], d[2*rs+cs], d[3*rs+cs] = s1, l21, l31

	// Column 2.
	v20 := a20 * i0
	v21 := u21 * i1
	p2 := a22 - a20*v20 - u21*v21
	u32 := a32 - a30*v20 - u31*v21
	if !(p2 > 0) {
		d[2*rs+2*cs] = p2
		return 3
	}
	i2 := 1 / p2
	s2 := R(math.Sqrt(float64(p2)))
	r2 := s2 * i2
	if r2-r2 != 0 { // p2 subnormal (1/p2 = +Inf) or +Inf
		return -3
	}
	l32 := u32 * r2
	d[2*rs+2*cs], d[3*rs+2*cs] = s2, l32

	// Column 3.
	p3 := a33 - a30*(a30*i0) - u31*(u31*i1) - u32*(u32*i2)
	if !(p3 > 0) {
		d[3*rs+3*cs] = p3
		return 4
	}
	s3 := R(math.Sqrt(float64(p3)))
	r3 := s3 * (1 / p3)
	if r3-r3 != 0 {
		return -4
	}
	d[3*rs+3*cs] = s3
	*cf = [10]R{l10, l20, l21, l30, l31, l32, r0, r1, r2, r3}
	return 0
}

// cholDiag4Cplx is cholDiag4Real for complex C with real part R.
func cholDiag4Cplx[C ~complex64 | ~complex128, R ~float32 | ~float64](d []C, rs, cs int, cf *[10]C) int {
	re := func(v C) R { return R(real(complex128(v))) }
	abs2 := func(v C) R { c := complex128(v); return R(real(c))*R(real(c)) + R(imag(c))*R(imag(c)) }
	cj := func(v C) C { return C(cmplx.Conj(complex128(v))) }
	of := func(x R) C { return C(complex(float64(x), 0)) }

	d = d[:3*rs+3*cs+1]
	a10, a20, a30 := d[rs], d[2*rs], d[3*rs]
	a21, a31, a32 := d[2*rs+cs], d[3*rs+cs], d[3*rs+2*cs]
	p0 := re(d[0])
	if !(p0 > 0) {
		d[0] = of(p0)
		return 1
	}
	i0 := 1 / p0
	s0 := R(math.Sqrt(float64(p0)))
	r0 := s0 * i0
	if r0-r0 != 0 { // as in cholDiag4Real
		return -1
	}
	l10, l20, l30 := a10*of(r0), a20*of(r0), a30*of(r0)
	d[0], d[rs], d[2*rs], d[3*rs] = of(s0), l10, l20, l30

	v10 := cj(a10 * of(i0))
	p1 := re(d[rs+cs]) - abs2(a10)*i0
	u21 := a21 - a20*v10
	u31 := a31 - a30*v10
	if !(p1 > 0) {
		d[rs+cs] = of(p1)
		return 2
	}
	i1 := 1 / p1
	s1 := R(math.Sqrt(float64(p1)))
	r1 := s1 * i1
	if r1-r1 != 0 { // as in cholDiag4Real
		return -2
	}
	l21, l31 := u21*of(r1), u31*of(r1)
	d[rs+cs], d[2*rs+cs], d[3*rs+cs] = of(s1), l21, l31

	v20 := cj(a20 * of(i0))
	v21 := cj(u21 * of(i1))
	p2 := re(d[2*rs+2*cs]) - abs2(a20)*i0 - abs2(u21)*i1
	u32 := a32 - a30*v20 - u31*v21
	if !(p2 > 0) {
		d[2*rs+2*cs] = of(p2)
		return 3
	}
	i2 := 1 / p2
	s2 := R(math.Sqrt(float64(p2)))
	r2 := s2 * i2
	if r2-r2 != 0 { // as in cholDiag4Real
		return -3
	}
	l32 := u32 * of(r2)
	d[2*rs+2*cs], d[3*rs+2*cs] = of(s2), l32

	p3 := re(d[3*rs+3*cs]) - abs2(a30)*i0 - abs2(u31)*i1 - abs2(u32)*i2
	if !(p3 > 0) {
		d[3*rs+3*cs] = of(p3)
		return 4
	}
	s3 := R(math.Sqrt(float64(p3)))
	r3 := s3 * (1 / p3)
	if r3-r3 != 0 {
		return -4
	}
	d[3*rs+3*cs] = of(s3)
	*cf = [10]C{cj(l10), cj(l20), cj(l21), cj(l30), cj(l31), cj(l32), of(r0), of(r1), of(r2), of(r3)}
	return 0
}

func cholDiagCplx[C ~complex64 | ~complex128, R ~float32 | ~float64](nb int, d []C, rs, cs int, cf *[10]C) int {
	if nb == 4 {
		k := cholDiag4Cplx[C, R](d, rs, cs, cf)
		if k < 0 {
			k = cholDiagLoopCplx[C, R](nb, d, rs, cs, cf, -k-1)
		}
		return k
	}
	return cholDiagLoopCplx[C, R](nb, d, rs, cs, cf, 0)
}

// cholDiagLoopCplx is cholDiagLoopReal for complex C with real part R.
func cholDiagLoopCplx[C ~complex64 | ~complex128, R ~float32 | ~float64](nb int, d []C, rs, cs int, cf *[10]C, j0 int) int {
	var l, lc [4][4]C // L and conj(L)
	for q := 0; q < j0; q++ {
		cf[6+q] = C(complex(1/real(complex128(d[q*(rs+cs)])), 0))
		for i := q + 1; i < nb; i++ {
			l[i][q] = d[i*rs+q*cs]
			lc[i][q] = C(cmplx.Conj(complex128(l[i][q])))
			cf[cholOff[i][q]] = lc[i][q]
		}
	}
	for j := j0; j < nb; j++ {
		s := d[j*(rs+cs)]
		for q := 0; q < j; q++ {
			s -= l[j][q] * lc[j][q]
		}
		re := real(complex128(s))
		if !(re > 0) {
			d[j*(rs+cs)] = C(complex(re, 0))
			return j + 1
		}
		// math.Sqrt in float64 rounds to the correctly rounded complex64 part.
		sq := C(complex(math.Sqrt(re), 0))
		r := C(complex(1/real(complex128(sq)), 0))
		d[j*(rs+cs)] = sq
		cf[6+j] = r
		for i := j + 1; i < nb; i++ {
			t := d[i*rs+j*cs]
			for q := 0; q < j; q++ {
				t -= l[i][q] * lc[j][q]
			}
			t *= r
			l[i][j] = t
			lc[i][j] = C(cmplx.Conj(complex128(t)))
			d[i*rs+j*cs] = t
			cf[cholOff[i][j]] = lc[i][j]
		}
	}
	return 0
}

// cholRB is one matrix under the register-blocked factorization, cut into
// the steps (cholFactorDiag, cholSolvePanel, cholUpdate) that potrfRB and
// the blocked driver (potrfBlocked) share. Element (i, j) is a[i+j·lda];
// lower says which triangle holds A.
type cholRB[T core.Scalar] struct {
	n, lda      int
	a           []T
	lower, cplx bool
	fma         bool // the update runs cholTrailFMA
	diag        cholDiagFn[T]
	cf          *[10]T // the last factored diagonal block's coefficients
	l, p        [4][]T // the solved panel (Lower: its columns) and its conjugate by rows
}

func newCholRB[T core.Scalar](uplo core.Uplo, n int, a []T, lda int, w []T, diag cholDiagFn[T], cplx bool) cholRB[T] {
	return cholRB[T]{n: n, lda: lda, a: a, lower: uplo == core.Lower, cplx: cplx, diag: diag,
		fma: cholUseFMA(cplx),
		cf:  (*[10]T)(w[4*n : 4*n+10])} // cf in w: a local array would escape through diag
}

// cholFactorDiag factors the diagonal block at (j0, j0), of order min(4, n−j0),
// and returns 0 or LAPACK's info for the whole matrix.
func cholFactorDiag[T core.Scalar](s *cholRB[T], j0 int) int {
	d := s.a[j0*s.lda+j0:]
	nb := min(4, s.n-j0)
	var k int
	if s.lower {
		k = s.diag(nb, d, 1, s.lda, s.cf)
	} else {
		k = s.diag(nb, d, s.lda, 1, s.cf)
	}
	if k != 0 {
		return j0 + k
	}
	return 0
}

// cholSolvePanel solves the panel beside the diagonal block at j0, which
// cholFactorDiag has just factored: L₂₁ = A₂₁·L₁₁⁻ᴴ below it, or U₁₂ =
// U₁₁⁻ᴴ·A₁₂ right of it; and sets up the update's streams, the conjugated
// ones in w (4·(n−j0−4) elements).
func cholSolvePanel[T core.Scalar](s *cholRB[T], j0 int, w []T) {
	a, lda, n := s.a, s.lda, s.n
	base := j0 + 4
	m := n - base
	if s.lower {
		for q := range 4 {
			s.l[q] = a[(j0+q)*lda+base : (j0+q)*lda+n]
		}
		cholSolve4L(s.l[0], s.l[1], s.l[2], s.l[3], s.cf)
		s.p = s.l // conj(L₂₁) is L₂₁ itself for real T
		if s.cplx {
			for q := range 4 {
				s.p[q] = w[q*m : (q+1)*m : (q+1)*m]
				copy(s.p[q], s.l[q])
			}
			cholConj(w[:4*m])
		}
		return
	}
	for q := range 4 {
		s.p[q] = w[q*m : (q+1)*m : (q+1)*m]
	}
	cholSolve4U(a[base*lda+j0:], lda, s.p[0], s.p[1], s.p[2], s.p[3], s.cf)
	if s.cplx {
		cholConj(w[:4*m])
	}
}

// cholUpdate subtracts the solved panel's product from trailing columns
// [j0+4+c0, j0+4+c1) of the triangle, for Upper only in rows [j0+4+r0, j0+4+r1).
func cholUpdate[T core.Scalar](s *cholRB[T], j0, c0, c1, r0, r1 int) {
	cholTrail(s, j0, c0, c1, r0, r1, &s.l, &s.p)
}

// cholTrail is cholUpdate for the panel at j0 given by its columns l and
// conjugates p (the blocked driver keeps several).
func cholTrail[T core.Scalar](s *cholRB[T], j0, c0, c1, r0, r1 int, l, p *[4][]T) {
	base := j0 + 4
	switch {
	case s.fma:
		cholTrailFMA(s.a[base*s.lda+base:], s.lda, c0, c1, r0, r1, s.lower, p)
	case s.lower:
		cholTrailLower(s.a[base*s.lda+base:], s.lda, c0, c1, l[0], l[1], l[2], l[3], p[0], p[1], p[2], p[3], s.cplx)
	default:
		cholTrailUpper(s.a[base*s.lda:], s.lda, j0, c0, c1, r0, r1, p[0], p[1], p[2], p[3], s.cplx)
	}
}

// cholUseFMA reports whether a matrix is updated by the AVX2+FMA kernel:
// every real one where the CPU has it. The kernel was faster from the first
// order that has a trailing update (n = 5: 84 ns against 93; n = 8: 106
// against 118; n = 16: 265 against 357, float32 Lower), so there is no
// crossover order; and the choice must not depend on column lengths, which
// differ between potrfRB and potrfBlocked: the kernel rounds once per
// multiply-add where the Go loops round twice, and each element must get
// the same arithmetic whatever the driver and the split of its updates.
func cholUseFMA(cplx bool) bool { return simdFMA && !cplx }

// cholTrailFMA is cholTrailLower (lower) or cholTrailUpper for real T in
// the kernels of simd_amd64.s (cholSyrk4Go defines them): t starts at the
// trailing block's (0, 0), p holds the panel (real: its own conjugate) and
// supplies both the streams and the coefficients. Lower columns take rows
// [c, m); Upper ones rows [r0, min(r1, c+1)).
func cholTrailFMA[T core.Scalar](t []T, lda, c0, c1, r0, r1 int, lower bool, p *[4][]T) {
	if c0 >= c1 {
		return
	}
	m := len(p[0])
	dlo, dhi := math.MinInt32, 1
	if lower {
		r0, r1, dlo, dhi = 0, m, 0, m
	}
	// The kernels do not check bounds: check the far ends here.
	hi := min(r1, c1-1+dhi)
	if hi > 0 {
		_ = t[(c1-1)*lda+hi-1]
	}
	far := max(hi, c1) - 1
	_, _, _, _ = p[0][far], p[1][far], p[2][far], p[3][far]
	if c0 < 0 || r0 < 0 {
		panic("batchlas: cholTrailFMA: negative bound")
	}
	if unsafe.Sizeof(t[0]) == 8 {
		s := [4]*float64{cholPtr[float64](p[0]), cholPtr[float64](p[1]), cholPtr[float64](p[2]), cholPtr[float64](p[3])}
		cholSyrk4F64(cholPtr[float64](t), lda, c0, c1, r0, r1, dlo, dhi, &s)
		return
	}
	s := [4]*float32{cholPtr[float32](p[0]), cholPtr[float32](p[1]), cholPtr[float32](p[2]), cholPtr[float32](p[3])}
	cholSyrk4F32(cholPtr[float32](t), lda, c0, c1, r0, r1, dlo, dhi, &s)
}

// cholPtr is x's first element as an R (T's underlying real type).
func cholPtr[R float32 | float64, T core.Scalar](x []T) *R {
	return (*R)(unsafe.Pointer(unsafe.SliceData(x)))
}

// potrfRB factors the n×n uplo triangle of a in place (A = L·Lᴴ or Uᴴ·U),
// not touching the other strict triangle, and returns 0 or LAPACK's info.
func potrfRB[T core.Scalar](uplo core.Uplo, n int, a []T, lda int, w []T, diag cholDiagFn[T], cplx bool) int {
	s := newCholRB(uplo, n, a, lda, w, diag, cplx)
	if k := cholFactorDiag(&s, 0); k != 0 {
		return k
	}
	for j0 := 0; j0+4 < n; j0 += 4 {
		m := n - j0 - 4
		cholSolvePanel(&s, j0, w[:4*m])
		// Update the next panel's columns, factor its diagonal block, then
		// update the rest: the block's sqrt/divide chain (latency-bound)
		// overlaps the independent rest of the update (throughput-bound).
		next := min(4, m)
		cholUpdate(&s, j0, 0, next, 0, m)
		if k := cholFactorDiag(&s, j0+4); k != 0 {
			return k
		}
		cholUpdate(&s, j0, next, m, 0, m)
	}
	return 0
}

// cholTrailLower subtracts L₂₁·L₂₁ᴴ from columns [c0, c1) of the lower
// triangle of the trailing block t (order len(l0)), l0..l3 the panel's
// columns and p0..p3 their conjugates, two columns at a time.
//
//go:noinline
func cholTrailLower[T core.Scalar](t []T, lda, c0, c1 int, l0, l1, l2, l3, p0, p1, p2, p3 []T, cplx bool) {
	m := len(l0)
	l1, l2, l3 = l1[:m], l2[:m], l3[:m]
	p0, p1, p2, p3 = p0[:m], p1[:m], p2[:m], p3[:m]
	c := c0
	if !cplx {
		for ; c+1 < c1; c += 2 {
			k00, k01, k02, k03 := p0[c], p1[c], p2[c], p3[c]
			k10, k11, k12, k13 := p0[c+1], p1[c+1], p2[c+1], p3[c+1]
			t[c*lda+c] -= (l0[c]*k00 + l1[c]*k01) + (l2[c]*k02 + l3[c]*k03)
			y0 := t[c*lda+c+1 : c*lda+m]
			y1 := t[(c+1)*lda+c+1 : (c+1)*lda+m]
			n := len(y0)
			y1 = y1[:n]
			s0, s1, s2, s3 := l0[c+1:], l1[c+1:], l2[c+1:], l3[c+1:]
			s0, s1, s2, s3 = s0[:n], s1[:n], s2[:n], s3[:n]
			for i := range y0 {
				t0, t1, t2, t3 := s0[i], s1[i], s2[i], s3[i]
				y0[i] -= (t0*k00 + t1*k01) + (t2*k02 + t3*k03)
				y1[i] -= (t0*k10 + t1*k11) + (t2*k12 + t3*k13)
			}
		}
	}
	for ; c < c1; c++ {
		k := [4]T{p0[c], p1[c], p2[c], p3[c]}
		t[c*lda+c] -= (l0[c]*k[0] + l1[c]*k[1]) + (l2[c]*k[2] + l3[c]*k[3])
		cholUpd14(l0[c+1:], l1[c+1:], l2[c+1:], l3[c+1:], t[c*lda+c+1:c*lda+m], k[:])
	}
}

// cholTrailUpper subtracts U₁₂ᴴ·U₁₂ from columns [c0, c1) of the upper
// triangle of the trailing block, rows [r0, r1) only; column c of the block
// starts at t[c·lda] and its rows at j0+4 (offsets are from there). U₁₂ is
// rows j0..j0+3 of those columns and p0..p3 its conjugate by rows.
//
//go:noinline
func cholTrailUpper[T core.Scalar](t []T, lda, j0, c0, c1, r0, r1 int, p0, p1, p2, p3 []T, cplx bool) {
	m := len(p0)
	p1, p2, p3 = p1[:m], p2[:m], p3[:m]
	base := j0 + 4
	c := c0
	if !cplx {
		for ; c+1 < c1; c += 2 {
			q := t[c*lda+j0 : c*lda+j0+4 : c*lda+j0+4]
			u := t[(c+1)*lda+j0 : (c+1)*lda+j0+4 : (c+1)*lda+j0+4]
			k00, k01, k02, k03 := q[0], q[1], q[2], q[3]
			k10, k11, k12, k13 := u[0], u[1], u[2], u[3]
			if e := min(c+1, r1); e > r0 {
				y0 := t[c*lda+base+r0 : c*lda+base+e]
				y1 := t[(c+1)*lda+base+r0 : (c+1)*lda+base+e]
				n := len(y0)
				y1 = y1[:n]
				s0, s1, s2, s3 := p0[r0:e], p1[r0:e], p2[r0:e], p3[r0:e]
				s0, s1, s2, s3 = s0[:n], s1[:n], s2[:n], s3[:n]
				for i := range y0 {
					t0, t1, t2, t3 := s0[i], s1[i], s2[i], s3[i]
					y0[i] -= (t0*k00 + t1*k01) + (t2*k02 + t3*k03)
					y1[i] -= (t0*k10 + t1*k11) + (t2*k12 + t3*k13)
				}
			}
			if r0 <= c+1 && c+1 < r1 {
				t[(c+1)*lda+base+c+1] -= (p0[c+1]*k10 + p1[c+1]*k11) + (p2[c+1]*k12 + p3[c+1]*k13)
			}
		}
	}
	for ; c < c1; c++ {
		if e := min(c+1, r1); e > r0 {
			q := t[c*lda+j0 : c*lda+j0+4 : c*lda+j0+4]
			cholUpd14(p0[r0:], p1[r0:], p2[r0:], p3[r0:], t[c*lda+base+r0:c*lda+base+e], q)
		}
	}
}

// cholUpd14 subtracts Σₚ sₚ·k[p] from y; the streams are at least len(y) long.
//
//go:noinline
func cholUpd14[T core.Scalar](s0, s1, s2, s3, y, k []T) {
	if y, ok := any(y).([]complex64); ok {
		// Go multiplies complex64 in float64 (widening and narrowing every
		// part); float32 arithmetic here is 1.6× faster. One assertion a call.
		cholUpd14C64(any(s0).([]complex64), any(s1).([]complex64), any(s2).([]complex64), any(s3).([]complex64), y, any(k).([]complex64))
		return
	}
	n := len(y)
	s0, s1, s2, s3 = s0[:n], s1[:n], s2[:n], s3[:n]
	k = k[:4]
	k0, k1, k2, k3 := k[0], k[1], k[2], k[3]
	for i := range y {
		y[i] -= (s0[i]*k0 + s1[i]*k1) + (s2[i]*k2 + s3[i]*k3)
	}
}

// cholUpd14C64 is cholUpd14 for complex64 in float32 arithmetic.
func cholUpd14C64(s0, s1, s2, s3, y, k []complex64) {
	n := len(y)
	s0, s1, s2, s3 = s0[:n], s1[:n], s2[:n], s3[:n]
	k = k[:4]
	r0, i0, r1, i1 := real(k[0]), imag(k[0]), real(k[1]), imag(k[1])
	r2, i2, r3, i3 := real(k[2]), imag(k[2]), real(k[3]), imag(k[3])
	for i := range y {
		a, b, c, d := s0[i], s1[i], s2[i], s3[i]
		re := ((real(a)*r0 - imag(a)*i0) + (real(b)*r1 - imag(b)*i1)) + ((real(c)*r2 - imag(c)*i2) + (real(d)*r3 - imag(d)*i3))
		im := ((real(a)*i0 + imag(a)*r0) + (real(b)*i1 + imag(b)*r1)) + ((real(c)*i2 + imag(c)*r2) + (real(d)*i3 + imag(d)*r3))
		y[i] = complex(real(y[i])-re, imag(y[i])-im)
	}
}

// cholSolve4L overwrites each row x = (x0[i], …, x3[i]) with the solution of
// x·L₁₁ᴴ = x, cf holding conj(L₁₁)'s strict lower triangle by rows and the
// reciprocal pivots.
//
//go:noinline
func cholSolve4L[T core.Scalar](x0, x1, x2, x3 []T, cf *[10]T) {
	n := len(x0)
	x1, x2, x3 = x1[:n], x2[:n], x3[:n]
	c10, c20, c21, c30, c31, c32 := cf[0], cf[1], cf[2], cf[3], cf[4], cf[5]
	r0, r1, r2, r3 := cf[6], cf[7], cf[8], cf[9]
	for i := range x0 {
		v0 := x0[i] * r0
		v1 := (x1[i] - v0*c10) * r1
		v2 := (x2[i] - v0*c20 - v1*c21) * r2
		v3 := (x3[i] - v0*c30 - v1*c31 - v2*c32) * r3
		x0[i], x1[i], x2[i], x3[i] = v0, v1, v2, v3
	}
}

// cholSolve4U overwrites each column x = a[c·lda : c·lda+4], c < len(p0),
// with the solution of U₁₁ᴴ·x = x (cf as in cholSolve4L with U₁₁ᴴ for L₁₁)
// and copies it into p0..p3 at c.
//
//go:noinline
func cholSolve4U[T core.Scalar](a []T, lda int, p0, p1, p2, p3 []T, cf *[10]T) {
	n := len(p0)
	p1, p2, p3 = p1[:n], p2[:n], p3[:n]
	c10, c20, c21, c30, c31, c32 := cf[0], cf[1], cf[2], cf[3], cf[4], cf[5]
	r0, r1, r2, r3 := cf[6], cf[7], cf[8], cf[9]
	for c := range p0 {
		q := a[c*lda : c*lda+4 : c*lda+4]
		v0 := q[0] * r0
		v1 := (q[1] - c10*v0) * r1
		v2 := (q[2] - c20*v0 - c21*v1) * r2
		v3 := (q[3] - c30*v0 - c31*v1 - c32*v2) * r3
		q[0], q[1], q[2], q[3] = v0, v1, v2, v3
		p0[c], p1[c], p2[c], p3[c] = v0, v1, v2, v3
	}
}
