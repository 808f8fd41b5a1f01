package cpu

import (
	"github.com/batchlas/batchlas/internal/core"
)

// Blocked Cholesky: the register-blocked kernel (potrfRB) with its updates
// delayed by super-panel. Each super-panel of cholSuper columns of L (rows
// of U) is factored with only the updates among its own panels (phase 1),
// then its panels' products are subtracted from the rest of the trailing
// triangle slab by slab, each slab taking all of them while it sits in
// cache (phase 2). Phase 2's slabs are independent tasks, so a matrix can
// be shared among goroutines.
//
// Every element receives the same panel updates as in potrfRB, in the same
// order and with the same expressions, only at other times; so the result
// is bit-identical to potrfRB's for any slab order and worker count, and a
// matrix factored alone (batch 1, shared) equals the same matrix factored
// inside a batch (one worker).
//
// This replaces a blocked driver built on gemm1, trsm1 and herk1 (LAPACK's
// xPOTRF): on the Zen 5 dev box their float64 rates, 0.23, 0.23–0.32 and
// 0.36–0.5 ns per multiply-add, left it 1.3–2× slower than potrfRB at every
// order from 96 to 1024 (n = 1024 Lower: 63 ms against 46 ms, gonum 56 ms),
// while potrfRB's update runs at 0.19.

const (
	// cholSuper is the super-panel width: 8 panels. Phase 1 is serial and
	// costs about cholSuper/(n−j) of a step; phase 2 streams the trailing
	// matrix once per super-panel instead of once per panel.
	cholSuper = 32
	// cholSlab is the width of a phase-2 task: a 32-column slab of a
	// 1024-row matrix (256 KiB in float64) stays in L2 through its updates.
	cholSlab = 32
	// cholBlockedMin is the order from which one worker uses the blocked
	// driver: see the table in cholesky_bench_test.go.
	cholBlockedMin = 1024
	// cholParallelMin is the order from which a matrix is shared among
	// workers when the batch has fewer matrices than workers.
	cholParallelMin = 256
)

// cholFactorScratch is the scratch potrf1 needs for order n with driver d.
func cholFactorScratch(n int, d Driver) int {
	if d == DriverBlocked || d == DriverAuto && n >= min(cholBlockedMin, cholParallelMin) {
		return cholScratch(n) + cholSuper*n
	}
	return cholScratch(n)
}

// potrf1 factors one n×n matrix with driver d (DriverAuto: whichever suits
// n), sharing it among inner goroutines when inner > 1 and the driver is
// blocked; w holds cholFactorScratch(n, d) elements.
func potrf1[T core.Scalar](uplo core.Uplo, n int, a []T, lda int, w []T, diag cholDiagFn[T], cplx bool, inner int, d Driver) int {
	if d == DriverBlocked || d == DriverAuto && (n >= cholBlockedMin || inner > 1 && n >= cholParallelMin) {
		return potrfBlocked(uplo, n, a, lda, w, diag, cplx, inner)
	}
	return potrfRB(uplo, n, a, lda, w, diag, cplx)
}

func potrfBlocked[T core.Scalar](uplo core.Uplo, n int, a []T, lda int, w []T, diag cholDiagFn[T], cplx bool, inner int) int {
	s := newCholRB(uplo, n, a, lda, w[:cholScratch(n)], diag, cplx)
	keep := w[cholScratch(n):] // each panel's conjugated streams, kept for phase 2
	var panels [cholSuper / 4]struct {
		j0   int
		l, p [4][]T
	}
	if k := cholFactorDiag(&s, 0); k != 0 {
		return k
	}
	for J := 0; J+4 < n; J += cholSuper {
		end := min(J+cholSuper, n) // the super-panel is [J, end)

		// Phase 1: the super-panel's panels with the updates among them
		// (Lower: its columns, all rows; Upper: its rows, all columns).
		np := 0
		for j0 := J; j0 < end && j0+4 < n; j0 += 4 {
			m := n - j0 - 4
			cholSolvePanel(&s, j0, keep[np*4*n:np*4*n+4*m])
			panels[np].j0, panels[np].l, panels[np].p = j0, s.l, s.p
			np++
			if j0+4 >= end {
				break // the next diagonal block waits for phase 2
			}
			in := end - j0 - 4 // columns (rows) of the super-panel left
			next := min(4, m)
			if s.lower {
				cholUpdate(&s, j0, 0, next, 0, m)
				if k := cholFactorDiag(&s, j0+4); k != 0 {
					return k
				}
				cholUpdate(&s, j0, next, in, 0, m)
			} else {
				cholUpdate(&s, j0, 0, next, 0, in)
				if k := cholFactorDiag(&s, j0+4); k != 0 {
					return k
				}
				cholUpdate(&s, j0, next, m, 0, in)
			}
		}
		if end >= n {
			break
		}

		// Phase 2: columns [end, n) of the trailing triangle, all rows from
		// end on, one slab a task, the costliest first.
		slabs := (n - end + cholSlab - 1) / cholSlab
		runTasks(inner, slabs, func(t int) {
			if !s.lower {
				t = slabs - 1 - t
			}
			c0 := end + t*cholSlab
			c1 := min(c0+cholSlab, n)
			for i := range panels[:np] {
				pn := &panels[i]
				base := pn.j0 + 4
				cholTrail(&s, pn.j0, c0-base, c1-base, end-base, n-base, &pn.l, &pn.p)
			}
		})
		if k := cholFactorDiag(&s, end); k != 0 {
			return k
		}
	}
	return 0
}
