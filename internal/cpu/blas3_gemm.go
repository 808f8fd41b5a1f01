package cpu

import (
	"sync"
	"unsafe"

	"github.com/batchlas/batchlas/internal/core"
)

// gemm1 computes C = alpha·op(A)·op(B) + beta·C for one m×n matrix C with
// inner dimension k; a, b and c start at element (0, 0). As in reference
// BLAS, beta == 0 means C is not read and alpha == 0 that A and B are not.
func gemm1[T core.Scalar](transA, transB core.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	if m == 0 || n == 0 || ((alpha == 0 || k == 0) && beta == 1) {
		return
	}
	if alpha == 0 || k == 0 {
		scaleMat(m, n, beta, c, ldc)
		return
	}
	gemmMasked(triMask{}, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// triMask limits a product to a triangle of C: element (i, j) is computed
// and written only where i ≥ j + d (lowerPart) or i ≤ j + d (upperPart);
// tiles wholly outside are skipped, so syrk1 and herk1 do half of gemm's
// work with gemm's kernel.
type triMask struct {
	part int8 // fullPart, lowerPart or upperPart
	d    int
}

const (
	fullPart int8 = iota
	lowerPart
	upperPart
)

// Tile classes for triMask.tile.
const (
	tileSkip = iota
	tileFull
	tilePartial
)

// tile classifies the block of rows [r0, r1) and columns [q0, q1).
func (t triMask) tile(r0, r1, q0, q1 int) int {
	switch t.part {
	case lowerPart:
		if r1-1 < q0+t.d {
			return tileSkip
		}
		if r0 >= q1-1+t.d {
			return tileFull
		}
		return tilePartial
	case upperPart:
		if r0 > q1-1+t.d {
			return tileSkip
		}
		if r1-1 <= q0+t.d {
			return tileFull
		}
		return tilePartial
	}
	return tileFull
}

// rows returns the rows [lo, hi) ⊆ [0, mr) of a tile starting at row r0
// that column q keeps.
func (t triMask) rows(r0, q, mr int) (lo, hi int) {
	switch t.part {
	case lowerPart:
		return min(max(q+t.d-r0, 0), mr), mr
	case upperPart:
		return 0, min(max(q+t.d-r0+1, 0), mr)
	}
	return 0, mr
}

// gemmMasked is gemm1 without the quick returns, limited to mask.
func gemmMasked[T core.Scalar](mask triMask, transA, transB core.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	// One type switch per call; everything below runs on float32 or float64
	// slices, complex matrices seen as interleaved (re, im) pairs.
	switch av := any(a).(type) {
	case []float64:
		al, be := any(alpha).(float64), any(beta).(float64)
		gemmFloat(mask, false, transA, transB, m, n, k, pair[float64]{al, 0}, av, lda, any(b).([]float64), ldb, pair[float64]{be, 0}, any(c).([]float64), ldc)
	case []float32:
		al, be := any(alpha).(float32), any(beta).(float32)
		gemmFloat(mask, false, transA, transB, m, n, k, pair[float32]{al, 0}, av, lda, any(b).([]float32), ldb, pair[float32]{be, 0}, any(c).([]float32), ldc)
	case []complex128:
		al, be := any(alpha).(complex128), any(beta).(complex128)
		gemmFloat(mask, true, transA, transB, m, n, k, pair[float64]{real(al), imag(al)}, floatView64(av), lda,
			floatView64(any(b).([]complex128)), ldb, pair[float64]{real(be), imag(be)}, floatView64(any(c).([]complex128)), ldc)
	case []complex64:
		al, be := any(alpha).(complex64), any(beta).(complex64)
		gemmFloat(mask, true, transA, transB, m, n, k, pair[float32]{real(al), imag(al)}, floatView32(av), lda,
			floatView32(any(b).([]complex64)), ldb, pair[float32]{real(be), imag(be)}, floatView32(any(c).([]complex64)), ldc)
	default:
		gemmSimple(mask, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	}
}

// floatView64 returns the memory of s as interleaved (re, im) float64s;
// complex128 is laid out as exactly that pair.
func floatView64(s []complex128) []float64 {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(s))), 2*len(s))
}

// floatView32 is floatView64 for complex64.
func floatView32(s []complex64) []float32 {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(s))), 2*len(s))
}

type float interface{ ~float32 | ~float64 }

// pair is a scalar as (re, im); im is zero for real matrices.
type pair[F float] struct{ re, im F }

// Cache blocking, GotoBLAS order jc → pc → ic → jr → ir. A packed kc×2 B
// sliver and 4×kc A sliver stay in L1 while the micro-kernel runs, the packed
// mc×kc block of A in L2.
const (
	gemmKC = 256
	gemmMC = 128
	gemmNC = 2048
)

// gemmFloat is gemm1 on float slices. For complex matrices (cplx) every
// index and leading dimension is in complex elements and each element is two
// floats. The micro-tile is 4×2 floats: 4×2 elements of a real C, and 2×1
// elements of a complex C, whose 4×2 real partial products (re·re, im·re,
// re·im, im·im of two rows and one column) combine into the complex result,
// so one real kernel serves all four types.
func gemmFloat[F float](mask triMask, cplx bool, transA, transB core.Transpose, m, n, k int, alpha pair[F], a []F, lda int, b []F, ldb int, beta pair[F], c []F, ldc int) {
	mr, nr, w := 4, 2, 1
	if cplx {
		mr, nr, w = 2, 1, 2
	}
	conjA := cplx && transA == core.ConjTrans
	conjB := cplx && transB == core.ConjTrans
	kcMax := min(k, gemmKC)
	apLen := 4 * kcMax * ((min(m, gemmMC) + mr - 1) / mr)
	bpLen := 2 * kcMax * ((min(n, gemmNC) + nr - 1) / nr)
	buf := getBuf[F](apLen + bpLen)
	ap, bp := (*buf)[:apLen], (*buf)[apLen:apLen+bpLen]
	for jc := 0; jc < n; jc += gemmNC {
		nc := min(gemmNC, n-jc)
		for pc := 0; pc < k; pc += gemmKC {
			kc := min(gemmKC, k-pc)
			packB(cplx, transB, kc, nc, b[w*opIndex(transB, pc, jc, ldb):], ldb, bp, conjB)
			be := beta
			if pc > 0 {
				be = pair[F]{1, 0}
			}
			for ic := 0; ic < m; ic += gemmMC {
				mc := min(gemmMC, m-ic)
				if mask.tile(ic, ic+mc, jc, jc+nc) == tileSkip {
					continue
				}
				packA(cplx, transA, mc, kc, a[w*opIndex(transA, ic, pc, lda):], lda, ap, conjA)
				macroKernel(mask, cplx, ic, jc, mc, nc, kc, ap, bp, c[w*(ic+jc*ldc):], ldc, alpha, be)
			}
		}
	}
	putBuf(buf)
}

// opIndex is the index in a of element (i, l) of op(A).
func opIndex(t core.Transpose, i, l, ld int) int {
	if t == core.NoTrans {
		return i + l*ld
	}
	return l + i*ld
}

// packA copies the m×k block of op(A) whose (0, 0) element starts a into dst
// as panels of 4 floats per column step (4 real rows or 2 complex rows):
// panel p holds element rows p·mr… at dst[p·4k:], float r of step l at
// 4l + r. Rows past m are zero, so the kernel has no edge case; conjugate
// negates the imaginary parts (the odd floats).
func packA[F float](cplx bool, trans core.Transpose, m, k int, a []F, lda int, dst []F, conjugate bool) {
	mr := 4
	if cplx {
		mr = 2
	}
	np := (m + mr - 1) / mr
	for p := range np {
		i0, rows := p*mr, min(mr, m-p*mr)
		panel := dst[p*4*k : (p+1)*4*k]
		switch {
		case trans == core.NoTrans && rows == mr:
			// Four contiguous floats per step in both cases.
			w := 4 / mr
			for l := 0; l < k; l++ {
				o := w * (i0 + l*lda)
				s := a[o : o+4 : o+4]
				d := panel[4*l : 4*l+4 : 4*l+4]
				d[0], d[1], d[2], d[3] = s[0], s[1], s[2], s[3]
			}
		case trans == core.NoTrans:
			w := 4 / mr
			for l := 0; l < k; l++ {
				o := w * (i0 + l*lda)
				d := panel[4*l : 4*l+4]
				copy(d, a[o:o+w*rows])
				clear(d[w*rows:])
			}
		case !cplx:
			for r := 0; r < rows; r++ {
				s := a[(i0+r)*lda : (i0+r)*lda+k]
				d := panel[r:]
				for l, v := range s {
					d[4*l] = v
				}
			}
			for r := rows; r < 4; r++ {
				for l := 0; l < k; l++ {
					panel[4*l+r] = 0
				}
			}
		default:
			for r := 0; r < rows; r++ {
				s := a[2*(i0+r)*lda : 2*((i0+r)*lda+k)]
				d := panel[2*r:]
				for l := 0; l < k; l++ {
					d[4*l], d[4*l+1] = s[2*l], s[2*l+1]
				}
			}
			if rows < 2 {
				for l := 0; l < k; l++ {
					panel[4*l+2], panel[4*l+3] = 0, 0
				}
			}
		}
	}
	if conjugate {
		negateOdd(dst[:np*4*k])
	}
}

// packB copies the k×n block of op(B) whose (0, 0) element starts b into dst
// as panels of 2 floats per step (2 real columns or 1 complex column): panel
// q at dst[q·2k:], float c of step l at 2l + c. Columns past n are zero.
func packB[F float](cplx bool, trans core.Transpose, k, n int, b []F, ldb int, dst []F, conjugate bool) {
	nr := 2
	if cplx {
		nr = 1
	}
	np := (n + nr - 1) / nr
	for q := range np {
		j0, cols := q*nr, min(nr, n-q*nr)
		panel := dst[q*2*k : (q+1)*2*k]
		switch {
		case cplx && trans == core.NoTrans:
			copy(panel, b[2*j0*ldb:2*(j0*ldb+k)])
		case cplx:
			for l := 0; l < k; l++ {
				o := 2 * (j0 + l*ldb)
				panel[2*l], panel[2*l+1] = b[o], b[o+1]
			}
		case trans == core.NoTrans && cols == 2:
			s0 := b[j0*ldb : j0*ldb+k]
			s1 := b[(j0+1)*ldb : (j0+1)*ldb+k]
			for l := range s0 {
				d := panel[2*l : 2*l+2 : 2*l+2]
				d[0], d[1] = s0[l], s1[l]
			}
		case trans == core.NoTrans:
			s0 := b[j0*ldb : j0*ldb+k]
			for l := range s0 {
				d := panel[2*l : 2*l+2 : 2*l+2]
				d[0], d[1] = s0[l], 0
			}
		case cols == 2:
			for l := 0; l < k; l++ {
				s := b[j0+l*ldb : j0+l*ldb+2 : j0+l*ldb+2]
				d := panel[2*l : 2*l+2 : 2*l+2]
				d[0], d[1] = s[0], s[1]
			}
		default:
			for l := 0; l < k; l++ {
				d := panel[2*l : 2*l+2 : 2*l+2]
				d[0], d[1] = b[j0+l*ldb], 0
			}
		}
	}
	if conjugate {
		negateOdd(dst[:np*2*k])
	}
}

func negateOdd[F float](s []F) {
	for i := 1; i < len(s); i += 2 {
		s[i] = -s[i]
	}
}

// macroKernel adds alpha times the packed mc×kc block of A times the packed
// kc×nc block of B to C (scaled by beta first; beta == 0 does not read C),
// one 4×2-float tile at a time: 4×2 elements of a real C, 2×1 of a complex
// one. (i0, j0) is where the block sits in the masked matrix.
//
// The k loop is unrolled four times: the compiler schedules each step's
// multiplies before the additions that feed the loop's phis, and only in the
// last unrolled step does that need more than the 15 usable SSE registers,
// so spills are paid once per four steps (measured on float64, k = 256, one
// core: 4×2 unrolled four times ≈ 11 GFLOP/s, not unrolled ≈ 7; a 4×4 tile,
// which spills in every step, under half of the 4×2 rate). The kernel and
// the store share one loop nest: for small matrices a call and an
// accumulator copy per tile cost about as much as the arithmetic (n = 8
// float64 went from 320 to 240 ns a call).
func macroKernel[F float](mask triMask, cplx bool, i0, j0, mc, nc, kc int, ap, bp []F, c []F, ldc int, alphaPair, betaPair pair[F]) {
	mr, nr := 4, 2
	if cplx {
		mr, nr = 2, 1
	}
	if simdFMA {
		macroKernelFMA(mask, cplx, i0, j0, mc, nc, kc, ap, bp, c, ldc, alphaPair, betaPair)
		return
	}
	alpha, beta := alphaPair.re, betaPair.re
	for q := 0; q*nr < nc; q++ {
		jr := q * nr
		cols := min(nr, nc-jr)
		bPanel := bp[q*2*kc : (q+1)*2*kc]
		for p := 0; p*mr < mc; p++ {
			ir := p * mr
			rows := min(mr, mc-ir)
			class := mask.tile(i0+ir, i0+ir+rows, j0+jr, j0+jr+cols)
			if class == tileSkip {
				continue
			}
			as, bs := ap[p*4*kc:(p+1)*4*kc], bPanel
			var c00, c10, c20, c30, c01, c11, c21, c31 F
			for len(as) >= 16 && len(bs) >= 8 {
				a0, a1, a2, a3 := as[0], as[1], as[2], as[3]
				b0, b1 := bs[0], bs[1]
				c00 += a0 * b0
				c10 += a1 * b0
				c20 += a2 * b0
				c30 += a3 * b0
				c01 += a0 * b1
				c11 += a1 * b1
				c21 += a2 * b1
				c31 += a3 * b1
				a0, a1, a2, a3 = as[4], as[5], as[6], as[7]
				b0, b1 = bs[2], bs[3]
				c00 += a0 * b0
				c10 += a1 * b0
				c20 += a2 * b0
				c30 += a3 * b0
				c01 += a0 * b1
				c11 += a1 * b1
				c21 += a2 * b1
				c31 += a3 * b1
				a0, a1, a2, a3 = as[8], as[9], as[10], as[11]
				b0, b1 = bs[4], bs[5]
				c00 += a0 * b0
				c10 += a1 * b0
				c20 += a2 * b0
				c30 += a3 * b0
				c01 += a0 * b1
				c11 += a1 * b1
				c21 += a2 * b1
				c31 += a3 * b1
				a0, a1, a2, a3 = as[12], as[13], as[14], as[15]
				b0, b1 = bs[6], bs[7]
				c00 += a0 * b0
				c10 += a1 * b0
				c20 += a2 * b0
				c30 += a3 * b0
				c01 += a0 * b1
				c11 += a1 * b1
				c21 += a2 * b1
				c31 += a3 * b1
				as = as[16:]
				bs = bs[8:]
			}
			for len(as) >= 4 && len(bs) >= 2 {
				a0, a1, a2, a3 := as[0], as[1], as[2], as[3]
				b0, b1 := bs[0], bs[1]
				c00 += a0 * b0
				c10 += a1 * b0
				c20 += a2 * b0
				c30 += a3 * b0
				c01 += a0 * b1
				c11 += a1 * b1
				c21 += a2 * b1
				c31 += a3 * b1
				as = as[4:]
				bs = bs[2:]
			}
			if cplx {
				acc := [8]F{c00, c10, c20, c30, c01, c11, c21, c31}
				lo, hi := mask.rows(i0+ir, j0+jr, rows)
				storeComplex(&acc, c[2*(ir+jr*ldc):], lo, hi, alphaPair, betaPair)
				continue
			}
			cc := c[ir+jr*ldc:]
			if rows == 4 && cols == 2 && class == tileFull {
				x := cc[:4:4]
				y := cc[ldc : ldc+4 : ldc+4]
				switch beta {
				case 0:
					x[0], x[1], x[2], x[3] = alpha*c00, alpha*c10, alpha*c20, alpha*c30
					y[0], y[1], y[2], y[3] = alpha*c01, alpha*c11, alpha*c21, alpha*c31
				case 1:
					x[0] += alpha * c00
					x[1] += alpha * c10
					x[2] += alpha * c20
					x[3] += alpha * c30
					y[0] += alpha * c01
					y[1] += alpha * c11
					y[2] += alpha * c21
					y[3] += alpha * c31
				default:
					x[0] = beta*x[0] + alpha*c00
					x[1] = beta*x[1] + alpha*c10
					x[2] = beta*x[2] + alpha*c20
					x[3] = beta*x[3] + alpha*c30
					y[0] = beta*y[0] + alpha*c01
					y[1] = beta*y[1] + alpha*c11
					y[2] = beta*y[2] + alpha*c21
					y[3] = beta*y[3] + alpha*c31
				}
				continue
			}
			acc := [8]F{c00, c10, c20, c30, c01, c11, c21, c31}
			storeReal(&acc, cc, ldc, rows, cols, alpha, beta, mask, i0+ir, j0+jr)
		}
	}
}

// macroKernelFMA is macroKernel where the AVX2+FMA micro-kernels run
// (simdFMA): a call takes two B panels and two A panels for float64
// (gemmTile8x4F64), four for float32 while more than two are left
// (gemmTile16x4F32, whole 256-bit registers; else gemmTile8x4F32), a panel
// of zeros standing in for a missing one. Every kernel gives a tile the
// same fused chain, so its sums do not depend on its place or the kernel.
// BenchmarkGemm1 on the 2-vCPU development VM (AMD EPYC), GFLOP/s with the
// Go tile and with these kernels: n = 128 float64 7.5 and 36.9, float32
// 7.6 and 54.3; n = 32 6.6 and 18.7, 6.6 and 22.2 (through the API:
// bench/results/cpu/gemm-fma.txt).
func macroKernelFMA[F float](mask triMask, cplx bool, i0, j0, mc, nc, kc int, ap, bp []F, c []F, ldc int, alphaPair, betaPair pair[F]) {
	mr, nr := 4, 2
	if cplx {
		mr, nr = 2, 1
	}
	np, nq := (mc+mr-1)/mr, (nc+nr-1)/nr
	wide := unsafe.Sizeof(F(0)) == 4 // float32: four A panels a call while more than two are left
	// One pooled buffer: a zero panel, then the tiles' sums (written
	// whole by every kernel call, so not cleared).
	buf := getBuf[F](4*kc + 64)
	defer putBuf(buf)
	zero := (*buf)[:4*kc]
	clear(zero)
	acc := (*[64]F)((*buf)[4*kc : 4*kc+64])
	panel := func(i int) []F {
		if i < np {
			return ap[i*4*kc : (i+1)*4*kc]
		}
		return zero
	}
	for q := 0; q < nq; q += 2 {
		b0, b1 := bp[q*2*kc:(q+1)*2*kc], zero[:2*kc]
		if q+1 < nq {
			b1 = bp[(q+1)*2*kc : (q+2)*2*kc]
		}
		for p := 0; p < np; {
			pa := 2 // A panels this call
			if wide && np-p > 2 {
				pa = 4
			}
			computed := false
			for dp := range min(pa, np-p) {
				for dq := range min(2, nq-q) {
					ir, jr := (p+dp)*mr, (q+dq)*nr
					rows, cols := min(mr, mc-ir), min(nr, nc-jr)
					class := mask.tile(i0+ir, i0+ir+rows, j0+jr, j0+jr+cols)
					if class == tileSkip {
						continue
					}
					if !computed {
						if pa == 2 {
							gemmTile2(kc, panel(p), panel(p+1), b0, b1, acc)
						} else {
							gemmTile16x4(kc, panel(p), panel(p+1), panel(p+2), panel(p+3), b0, b1, acc)
						}
						computed = true
					}
					t := (*[8]F)(acc[8*(2*dp+dq):])
					if cplx {
						lo, hi := mask.rows(i0+ir, j0+jr, rows)
						storeComplex(t, c[2*(ir+jr*ldc):], lo, hi, alphaPair, betaPair)
						continue
					}
					if rows == 4 && cols == 2 && class == tileFull {
						storeFull(t, c[ir+jr*ldc:], ldc, alphaPair.re, betaPair.re)
						continue
					}
					storeReal(t, c[ir+jr*ldc:], ldc, rows, cols, alphaPair.re, betaPair.re, mask, i0+ir, j0+jr)
				}
			}
			p += pa
		}
	}
}

// gemmTile2 runs the assembly micro-kernel of F's width on two A panels.
func gemmTile2[F float](kc int, a0, a1, b0, b1 []F, acc *[64]F) {
	switch t := any(acc).(type) {
	case *[64]float64:
		gemmTile8x4F64(kc, ptr64(a0), ptr64(a1), ptr64(b0), ptr64(b1), (*[32]float64)(t[:32]))
	case *[64]float32:
		gemmTile8x4F32(kc, ptr32(a0), ptr32(a1), ptr32(b0), ptr32(b1), (*[32]float32)(t[:32]))
	default:
		panic("cpu: gemmTile2 of a named float type (gemmMasked sends those to gemmSimple)")
	}
}

// gemmTile16x4 runs gemmTile16x4F32 on four A panels (F is float32).
func gemmTile16x4[F float](kc int, a0, a1, a2, a3, b0, b1 []F, acc *[64]F) {
	gemmTile16x4F32(kc, ptr32(a0), ptr32(a1), ptr32(a2), ptr32(a3), ptr32(b0), ptr32(b1), (*[64]float32)(unsafe.Pointer(acc)))
}

func ptr64[F float](s []F) *float64 { return (*float64)(unsafe.Pointer(unsafe.SliceData(s))) }
func ptr32[F float](s []F) *float32 { return (*float32)(unsafe.Pointer(unsafe.SliceData(s))) }

// storeFull writes C = alpha·acc + beta·C on a whole 4×2 tile of a real C
// (beta == 0 does not read C): macroKernel's Go path has the same store
// inline, where a call per tile cost small matrices a quarter of their time.
func storeFull[F float](t *[8]F, c []F, ldc int, alpha, beta F) {
	x := c[:4:4]
	y := c[ldc : ldc+4 : ldc+4]
	switch beta {
	case 0:
		x[0], x[1], x[2], x[3] = alpha*t[0], alpha*t[1], alpha*t[2], alpha*t[3]
		y[0], y[1], y[2], y[3] = alpha*t[4], alpha*t[5], alpha*t[6], alpha*t[7]
	case 1:
		for i := range 4 {
			x[i] += alpha * t[i]
			y[i] += alpha * t[4+i]
		}
	default:
		for i := range 4 {
			x[i] = beta*x[i] + alpha*t[i]
			y[i] = beta*y[i] + alpha*t[4+i]
		}
	}
}

// storeReal writes C = alpha·acc + beta·C on the mr×nr corner of a 4×2
// tile (edge tiles, and tiles the mask cuts; (r0, q0) is the tile's place
// in the masked matrix); beta == 0 does not read C.
func storeReal[F float](acc *[8]F, c []F, ldc, mr, nr int, alpha, beta F, mask triMask, r0, q0 int) {
	for j := 0; j < nr; j++ {
		lo, hi := mask.rows(r0, q0+j, mr)
		if lo >= hi {
			continue
		}
		col := c[j*ldc+lo : j*ldc+hi]
		t := acc[4*j+lo : 4*j+hi]
		for i := range col {
			if beta == 0 {
				col[i] = alpha * t[i]
			} else {
				col[i] = beta*col[i] + alpha*t[i]
			}
		}
	}
}

// storeComplex writes C = alpha·P + beta·C for rows [lo, hi) of a complex
// 2×1 tile, P assembled from the real partial products in acc.
func storeComplex[F float](acc *[8]F, c []F, lo, hi int, alpha, beta pair[F]) {
	c = c[:2*hi]
	for r := lo; r < hi; r++ {
		pr := acc[2*r] - acc[2*r+5]
		pi := acc[2*r+4] + acc[2*r+1]
		re := alpha.re*pr - alpha.im*pi
		im := alpha.re*pi + alpha.im*pr
		switch cr, ci := c[2*r], c[2*r+1]; {
		case beta.im == 0 && beta.re == 1:
			// As reference zgemm, which does not multiply C by beta = 1:
			// 0·Inf in the product would turn an infinite part into NaN.
			re += cr
			im += ci
		case beta.im == 0 && beta.re != 0:
			re += beta.re * cr
			im += beta.re * ci
		case beta.im != 0:
			re += beta.re*cr - beta.im*ci
			im += beta.re*ci + beta.im*cr
		}
		c[2*r], c[2*r+1] = re, im
	}
}

// scaleMat sets C = beta·C for an m×n matrix; beta == 0 writes zeros
// without reading C.
func scaleMat[T core.Scalar](m, n int, beta T, c []T, ldc int) {
	if beta == 1 {
		return
	}
	for j := 0; j < n; j++ {
		col := c[j*ldc : j*ldc+m]
		if beta == 0 {
			clear(col)
			continue
		}
		for i := range col {
			col[i] *= beta
		}
	}
}

// gemmSimple is gemmMasked for element types that are not one of the four
// built-in ones (named types): correct, unblocked.
func gemmSimple[T core.Scalar](mask triMask, transA, transB core.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	for j := 0; j < n; j++ {
		lo, hi := mask.rows(0, j, m)
		for i := lo; i < hi; i++ {
			var s T
			for l := 0; l < k; l++ {
				s += opElem(transA, a, lda, i, l) * opElem(transB, b, ldb, l, j)
			}
			s *= alpha
			if beta != 0 {
				s += beta * c[i+j*ldc]
			}
			c[i+j*ldc] = s
		}
	}
}

// Work buffers, one pool per float type so a buffer is never reinterpreted.
var bufPools [2]sync.Pool

func poolOf[F float]() *sync.Pool {
	var z F
	if _, ok := any(z).(float32); ok {
		return &bufPools[0]
	}
	return &bufPools[1]
}

// getBuf returns a pooled buffer of at least n floats; contents are stale.
func getBuf[F float](n int) *[]F {
	if p, ok := poolOf[F]().Get().(*[]F); ok {
		if cap(*p) >= n {
			*p = (*p)[:cap(*p)]
			return p
		}
	}
	s := make([]F, max(n, 4096))
	return &s
}

func putBuf[F float](p *[]F) { poolOf[F]().Put(p) }
