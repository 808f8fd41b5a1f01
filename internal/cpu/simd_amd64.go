//go:build amd64 && !purego

package cpu

import xcpu "golang.org/x/sys/cpu"

// simdFMA reports whether the AVX2+FMA kernels of simd_amd64.s can run
// (x/sys/cpu also checks that the OS saves the YMM registers).
var simdFMA = xcpu.X86.HasAVX2 && xcpu.X86.HasFMA

// cholSyrk4F64 is cholSyrk4Go for float64 in AVX2+FMA: see simd_amd64.s.
//
//go:noescape
func cholSyrk4F64(t *float64, lda, c0, c1, r0, r1, dlo, dhi int, s *[4]*float64)

// cholSyrk4F32 is cholSyrk4Go for float32 in AVX2+FMA: see simd_amd64.s.
//
//go:noescape
func cholSyrk4F32(t *float32, lda, c0, c1, r0, r1, dlo, dhi int, s *[4]*float32)

// luGer4F64 is luGer4Go for float64 in AVX2+FMA: see simd_amd64.s.
//
//go:noescape
func luGer4F64(y *float64, ldy, ncols, rows int, l *[4]*float64)

// luGer4F32 is luGer4Go for float32 in AVX2+FMA: see simd_amd64.s.
//
//go:noescape
func luGer4F32(y *float32, ldy, ncols, rows int, l *[4]*float32)

// gemmTile8x4F64 is gemmTileGo for float64 with two A panels in AVX2+FMA:
// see simd_amd64.s.
//
//go:noescape
func gemmTile8x4F64(kc int, a0, a1, b0, b1 *float64, acc *[32]float64)

// gemmTile8x4F32 is gemmTileGo for float32 with two A panels: see
// simd_amd64.s.
//
//go:noescape
func gemmTile8x4F32(kc int, a0, a1, b0, b1 *float32, acc *[32]float32)

// gemmTile16x4F32 is gemmTileGo for float32 with four A panels: see
// simd_amd64.s.
//
//go:noescape
func gemmTile16x4F32(kc int, a0, a1, a2, a3, b0, b1 *float32, acc *[64]float32)
