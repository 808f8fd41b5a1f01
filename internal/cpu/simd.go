package cpu

import (
	"math"
	"unsafe"
)

// cholSyrk4Go defines what the AVX2+FMA kernels cholSyrk4F64 and
// cholSyrk4F32 compute, in Go: for each column c in [c0, c1) and each row i
// in [max(r0, c+dlo), min(r1, c+dhi)),
//
//	t[c·lda+i] −= s0[i]·s0[c], then s1[i]·s1[c], s2[i]·s2[c], s3[i]·s3[c],
//
// each step a fused multiply-add (one rounding). It is the reference the
// kernels are tested against bit for bit, and their stand-in where the
// assembly is not built (simd_other.go). The bounds must grow by at most
// one per column (dlo and dhi are fixed offsets), as the kernels assume.
func cholSyrk4Go[R float32 | float64](t []R, lda, c0, c1, r0, r1, dlo, dhi int, s *[4][]R) {
	s0, s1, s2, s3 := s[0], s[1], s[2], s[3]
	for c := c0; c < c1; c++ {
		k0, k1, k2, k3 := s0[c], s1[c], s2[c], s3[c]
		for i := max(r0, c+dlo); i < min(r1, c+dhi); i++ {
			y := &t[c*lda+i]
			*y = fnma(s3[i], k3, fnma(s2[i], k2, fnma(s1[i], k1, fnma(s0[i], k0, *y))))
		}
	}
}

// fnma returns y − a·b rounded once in R's precision.
func fnma[R float32 | float64](a, b, y R) R {
	if unsafe.Sizeof(a) == 4 {
		return R(fma32(-float32(a), float32(b), float32(y)))
	}
	return R(math.FMA(-float64(a), float64(b), float64(y)))
}

// fma32 returns a·b+c rounded once to float32. The product is exact in
// float64; the sum is rounded to odd (its exact error from TwoSum picks the
// odd neighbour) so that the final rounding to float32, 29 bits shorter, is
// not a double rounding.
func fma32(a, b, c float32) float32 {
	p := float64(a) * float64(b)
	x := float64(c)
	s := p + x
	v := s - p
	e := (p - (s - v)) + (x - v)
	if e != 0 && !math.IsInf(s, 0) && math.Float64bits(s)&1 == 0 {
		s = math.Nextafter(s, math.Copysign(math.Inf(1), e))
	}
	return float32(s)
}

// luGer4Go defines what the AVX2+FMA kernels luGer4F64 and luGer4F32
// compute: for each column c < ncols, held from y[c·ldy] on, and each row
// i < rows,
//
//	y[c·ldy+4+i] −= l0[i]·y[c·ldy], then l1[i]·y[c·ldy+1], l2[i]·y[c·ldy+2], l3[i]·y[c·ldy+3],
//
// each step a fused multiply-add: the rank-4 update of an LU block, the
// coefficients being the column's four rows just above those it updates.
func luGer4Go[R float32 | float64](y []R, ldy, ncols, rows int, l *[4][]R) {
	l0, l1, l2, l3 := l[0][:rows], l[1][:rows], l[2][:rows], l[3][:rows]
	for c := range ncols {
		x := y[c*ldy : c*ldy+4+rows]
		k0, k1, k2, k3 := x[0], x[1], x[2], x[3]
		for i := range rows {
			x[4+i] = fnma(l3[i], k3, fnma(l2[i], k2, fnma(l1[i], k1, fnma(l0[i], k0, x[4+i]))))
		}
	}
}

// gemmTileGo defines what the AVX2+FMA kernels gemmTile8x4F64 and
// gemmTile8x4F32 (two A panels) and gemmTile16x4F32 (four) compute: the
// 4×2 tiles of the packed A panels a[dp] (4 floats a step) times two
// packed B panels (2 floats a step),
//
//	acc[8·(2·dp+dq) + 4·c + r] = Σ_k a[dp][4k+r]·b_dq[2k+c],
//
// summed for k ascending from zero, each step a fused multiply-add.
func gemmTileGo[R float32 | float64](kc int, a [][]R, b0, b1 []R, acc []R) {
	bs := [2][]R{b0, b1}
	for dp := range a {
		for dq := range 2 {
			for c := range 2 {
				for r := range 4 {
					var s R
					for k := range kc {
						s = fnma(-a[dp][4*k+r], bs[dq][2*k+c], s)
					}
					acc[8*(2*dp+dq)+4*c+r] = s
				}
			}
		}
	}
}
