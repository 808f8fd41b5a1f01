package cpu

import (
	"github.com/batchlas/batchlas/internal/core"
)

// Blocked right-looking LU for large matrices (the loop order of LAPACK's
// xGETRF): factor a panel of luNB columns with the register-blocked kernel,
// apply its swaps to the columns on its left, and carry the columns on its
// right through the panel's luW-column blocks one slab of luSlab columns at
// a time, so a slab takes all luNB/luW rank-4 updates while it is in cache.
// The first slab task also factors the next panel (look-ahead), taking the
// panel off the critical path when slabs are shared among goroutines.
//
// Every column receives exactly the operations of the unblocked kernel in
// the same order, so the blocked driver, the unblocked kernel and any split
// of the slabs among goroutines all give bit-identical results, and the
// choice between them is a matter of speed only. Slab boundaries depend
// only on the shape.
//
// The trailing update does not go through gemm1/trsm1: with the inner
// dimension of an LU update (luNB) the rank-4 kernel is faster. Float64,
// one goroutine, fastest of several runs, µs per matrix (2026-11-29):
//
//	n      unblocked  gemm1+trsm1 nb=32  nb=64  slabs nb=32
//	256         1216               1677   1621         1246
//	512        10040              13975  16631        10254
//	1024      112161             158328 154479       120667
//	2048      781619             878828 831747       700065

const (
	// luNB is the panel width. Sequentially 32 and 64 are within noise;
	// the panel is the serial part when slabs are shared among goroutines.
	luNB = 32
	// luBlockedMin is the min(m, n) from which one goroutine uses the
	// blocked driver: below it (the table above) the unblocked kernel is
	// as fast, the matrix being in L2 or L3 anyway.
	luBlockedMin = 1536
	// luSlab is the width of one task of the trailing update (≥ luNB, so
	// the next panel lies in the first slab).
	luSlab = 64
	// luParallelMin is the order from which one matrix is shared among the
	// workers a small batch leaves idle.
	luParallelMin = 256
)

// luGetrf1 factors one m×n matrix with driver d (DriverAuto: whichever
// suits its size), using up to inner goroutines, and returns LAPACK's info.
func luGetrf1[T core.Scalar](m, n int, a []T, lda int, piv []int32, cf bool, inner int, d Driver) int {
	if d == DriverBlocked || d == DriverAuto && (inner > 1 || min(m, n) >= luBlockedMin) {
		return luGetrfBlocked(m, n, a, lda, piv, cf, inner)
	}
	return luGetf2(m, n, a, lda, piv, cf)
}

func luGetrfBlocked[T core.Scalar](m, n int, a []T, lda int, piv []int32, cf bool, inner int) int {
	mn := min(m, n)
	info := 0
	// panel factors columns j..j+jb-1 and records its info; with look-ahead
	// it runs inside the first slab task of the previous step, overlapping
	// the rest of that step's update.
	panel := func(j int) {
		jb := min(luNB, mn-j)
		if k := luGetf2(m-j, jb, a[j*lda+j:], lda, piv[j:j+jb], cf); k > 0 && info == 0 {
			info = k + j
		}
		for t := j; t < j+jb; t++ {
			piv[t] += int32(j)
		}
	}
	panel(0)
	for j := 0; j < mn; j += luNB {
		jb := min(luNB, mn-j)
		luSwapRows(a, lda, 0, j, m, piv[j:j+jb], j)
		c0 := j + jb
		if c0 >= n {
			break
		}
		runTasks(inner, (n-c0+luSlab-1)/luSlab, func(t int) {
			c := c0 + t*luSlab
			cw := min(luSlab, n-c)
			// The panel's L columns already carry all of its swaps, so
			// the slab takes them all first too.
			luSwapRows(a[c*lda:], lda, 0, cw, m, piv[j:j+jb], j)
			for k := j; k < j+jb; k += luW {
				luTrail(a, lda, a[c*lda:], lda, cw, m, m, k, min(luW, j+jb-k), nil, false, false, cf)
			}
			if t == 0 && c0 < mn {
				panel(c0) // its columns lie in this slab: luNB ≤ luSlab
			}
		})
	}
	return info
}

// luSwapRows exchanges rows off+t and piv[t]-1 (1-based, absolute) for each
// t in order, in columns c0..c1-1 of a (m rows, leading dimension lda).
func luSwapRows[T core.Scalar](a []T, lda, c0, c1, m int, piv []int32, off int) {
	for c := c0; c < c1; c++ {
		col := a[c*lda : c*lda+m]
		for t, p := range piv {
			col[off+t], col[p-1] = col[p-1], col[off+t]
		}
	}
}
