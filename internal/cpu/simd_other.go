//go:build !amd64 || purego

package cpu

import "unsafe"

// simdFMA is false without the amd64 assembly: the Cholesky update runs the
// scalar Go loops (cholTrailLower, cholTrailUpper), which round each
// product and sum.
var simdFMA = false

// cholSyrk4F64 is cholSyrk4Go behind the assembly kernels' signature, so
// the callers compile (and tests run) without them; it is not used for
// speed (math.FMA may be emulated in software).
func cholSyrk4F64(t *float64, lda, c0, c1, r0, r1, dlo, dhi int, s *[4]*float64) {
	cholSyrk4Ptr(t, lda, c0, c1, r0, r1, dlo, dhi, s)
}

// cholSyrk4F32 is cholSyrk4F64 for float32.
func cholSyrk4F32(t *float32, lda, c0, c1, r0, r1, dlo, dhi int, s *[4]*float32) {
	cholSyrk4Ptr(t, lda, c0, c1, r0, r1, dlo, dhi, s)
}

func cholSyrk4Ptr[R float32 | float64](t *R, lda, c0, c1, r0, r1, dlo, dhi int, s *[4]*R) {
	if c0 >= c1 {
		return
	}
	hi := min(r1, c1-1+dhi)
	m := max(hi, c1)
	var ss [4][]R
	for q := range ss {
		ss[q] = unsafe.Slice(s[q], m)
	}
	cholSyrk4Go(unsafe.Slice(t, (c1-1)*lda+max(hi, 0)), lda, c0, c1, r0, r1, dlo, dhi, &ss)
}

// luGer4F64 is luGer4Go behind the assembly kernels' signature.
func luGer4F64(y *float64, ldy, ncols, rows int, l *[4]*float64) { luGer4Ptr(y, ldy, ncols, rows, l) }

// luGer4F32 is luGer4F64 for float32.
func luGer4F32(y *float32, ldy, ncols, rows int, l *[4]*float32) { luGer4Ptr(y, ldy, ncols, rows, l) }

func luGer4Ptr[R float32 | float64](y *R, ldy, ncols, rows int, l *[4]*R) {
	if ncols <= 0 {
		return
	}
	var ll [4][]R
	for q := range ll {
		ll[q] = unsafe.Slice(l[q], rows)
	}
	luGer4Go(unsafe.Slice(y, (ncols-1)*ldy+4+rows), ldy, ncols, rows, &ll)
}

// gemmTile8x4F64 is gemmTileGo behind the assembly kernel's signature.
func gemmTile8x4F64(kc int, a0, a1, b0, b1 *float64, acc *[32]float64) {
	gemmTilePtr(kc, []*float64{a0, a1}, b0, b1, acc[:])
}

// gemmTile8x4F32 is gemmTile8x4F64 for float32.
func gemmTile8x4F32(kc int, a0, a1, b0, b1 *float32, acc *[32]float32) {
	gemmTilePtr(kc, []*float32{a0, a1}, b0, b1, acc[:])
}

// gemmTile16x4F32 is gemmTile8x4F32 with four A panels.
func gemmTile16x4F32(kc int, a0, a1, a2, a3, b0, b1 *float32, acc *[64]float32) {
	gemmTilePtr(kc, []*float32{a0, a1, a2, a3}, b0, b1, acc[:])
}

// gemmTilePtr is gemmTileGo on panels given by their first elements.
func gemmTilePtr[R float32 | float64](kc int, a []*R, b0, b1 *R, acc []R) {
	var panels [4][]R
	for i, p := range a {
		panels[i] = unsafe.Slice(p, 4*kc)
	}
	gemmTileGo(kc, panels[:len(a)], unsafe.Slice(b0, 2*kc), unsafe.Slice(b1, 2*kc), acc)
}
