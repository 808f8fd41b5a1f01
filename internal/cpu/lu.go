package cpu

import (
	"fmt"
	"reflect"
	"sync"
	"unsafe"

	"github.com/batchlas/batchlas/internal/core"
)

// Getrf factors A = P·L·U with partial pivoting in place. pivots holds
// min(m, n) 1-based row interchanges per matrix, matrix b's at
// pivots[b*min(m,n):]; info[b] = k > 0 when U(k, k) is exactly zero (the
// factorization still completes).
//
// The pivot of a column is its first entry of largest |a| (|Re|+|Im| for
// complex T), as LAPACK's xGETRF; a NaN outranks every number, so a matrix
// holding one comes out with NaN factors instead of being silently pivoted
// around. A is m×n with m ≠ n allowed: L is m×min(m,n) unit lower
// trapezoidal, U min(m,n)×n upper trapezoidal.
func Getrf[T core.Scalar](x Exec, a core.Strided[T], pivots []int32, info []int32) error {
	if err := a.Check("a"); err != nil {
		return fmt.Errorf("Getrf: %w", err)
	}
	m, n := a.Rows, a.Cols
	k := min(m, n)
	if err := luCheckInfo("Getrf", a.Count, k, pivots, info); err != nil {
		return err
	}
	cf := luComplex[T]()
	inner := luInner(x, a.Count, k)
	return luForEach[T](x, a.Count, k, 0, cf, func(b int, _ []T) {
		info[b] = 0
		if k > 0 {
			info[b] = int32(luGetrf1(m, n, a.Matrix(b), a.LD, pivots[b*k:(b+1)*k], cf, inner, x.Driver))
		}
	})
}

// Getrs solves op(A)·X = B with the factors and pivots from Getrf; B is overwritten by X.
//
// A is n×n and B n×nrhs; every pivot must lie in [1, n]. A singular U
// gives Inf or NaN in X, as in LAPACK (check Getrf's info first).
func Getrs[T core.Scalar](x Exec, trans core.Transpose, a core.Strided[T], pivots []int32, b core.Strided[T]) error {
	if !trans.Valid() {
		return fmt.Errorf("%w: Getrs: trans is %v", core.ErrArgument, trans)
	}
	if err := luCheckSquare("Getrs", a); err != nil {
		return err
	}
	if err := luCheckB("Getrs", a, b); err != nil {
		return err
	}
	if err := luCheckPivots("Getrs", a.Count, a.Rows, pivots); err != nil {
		return err
	}
	n, nrhs := a.Rows, b.Cols
	cf := luComplex[T]()
	return luForEach[T](x, a.Count, n, 0, cf, func(i int, _ []T) {
		luGetrs1(trans, n, nrhs, a.Matrix(i), a.LD, pivots[i*n:(i+1)*n], b.Matrix(i), b.LD, cf)
	})
}

// Getri overwrites the LU factors in A with A⁻¹; info[b] = k > 0 when U(k, k)
// is exactly zero, and then matrix b is left as the factors.
//
// Every pivot must lie in [1, n]. Workspace comes from a pool.
func Getri[T core.Scalar](x Exec, a core.Strided[T], pivots []int32, info []int32) error {
	if err := luCheckSquare("Getri", a); err != nil {
		return err
	}
	n := a.Rows
	if err := luCheckInfo("Getri", a.Count, n, pivots, info); err != nil {
		return err
	}
	if err := luCheckPivots("Getri", a.Count, n, pivots); err != nil {
		return err
	}
	cf := luComplex[T]()
	return luForEach(x, a.Count, n, luInvScratch(n), cf, func(i int, w []T) {
		info[i] = 0
		if n > 0 {
			info[i] = int32(luGetri1(n, a.Matrix(i), a.LD, pivots[i*n:(i+1)*n], w, cf))
		}
	})
}

// Gesv factors A (as Getrf) and solves A·X = B; matrices whose U is singular keep B unchanged.
func Gesv[T core.Scalar](x Exec, a core.Strided[T], pivots []int32, b core.Strided[T], info []int32) error {
	if err := luCheckSquare("Gesv", a); err != nil {
		return err
	}
	if err := luCheckB("Gesv", a, b); err != nil {
		return err
	}
	n, nrhs := a.Rows, b.Cols
	if err := luCheckInfo("Gesv", a.Count, n, pivots, info); err != nil {
		return err
	}
	cf := luComplex[T]()
	inner := luInner(x, a.Count, n)
	return luForEach[T](x, a.Count, n, 0, cf, func(i int, _ []T) {
		info[i] = 0
		if n == 0 {
			return
		}
		m, piv := a.Matrix(i), pivots[i*n:(i+1)*n]
		if k := luGetrf1(n, n, m, a.LD, piv, cf, inner, x.Driver); k != 0 {
			info[i] = int32(k)
			return
		}
		luGetrs1(core.NoTrans, n, nrhs, m, a.LD, piv, b.Matrix(i), b.LD, cf)
	})
}

func luCheckSquare[T core.Scalar](op string, a core.Strided[T]) error {
	if err := a.Check("a"); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if a.Rows != a.Cols {
		return fmt.Errorf("%w: %s: a is %d×%d, must be square", core.ErrShape, op, a.Rows, a.Cols)
	}
	return nil
}

func luCheckB[T core.Scalar](op string, a, b core.Strided[T]) error {
	if err := b.Check("b"); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if b.Rows != a.Rows || b.Count != a.Count {
		return fmt.Errorf("%w: %s: b is %d×%d×%d, a is %d×%d×%d", core.ErrShape, op,
			b.Rows, b.Cols, b.Count, a.Rows, a.Cols, a.Count)
	}
	return nil
}

func luCheckInfo(op string, count, k int, pivots, info []int32) error {
	if len(info) < count {
		return fmt.Errorf("%w: %s: info has %d entries, a has %d matrices", core.ErrShape, op, len(info), count)
	}
	if len(pivots) < count*k {
		return fmt.Errorf("%w: %s: pivots has %d entries, needs %d (%d per matrix)", core.ErrShape, op, len(pivots), count*k, k)
	}
	return nil
}

// luCheckPivots rejects pivots that would index outside the matrix, so
// that a corrupt pivot array is an error and never a panic.
func luCheckPivots(op string, count, n int, pivots []int32) error {
	if len(pivots) < count*n {
		return fmt.Errorf("%w: %s: pivots has %d entries, needs %d (%d per matrix)", core.ErrShape, op, len(pivots), count*n, n)
	}
	for i, p := range pivots[:count*n] {
		if p < 1 || int(p) > n {
			return fmt.Errorf("%w: %s: pivots[%d] = %d, must lie in [1, %d]", core.ErrArgument, op, i, p, n)
		}
	}
	return nil
}

// luComplex reports whether T's kind is complex; reflect sees through
// named types, which a type switch on T would not.
func luComplex[T core.Scalar]() bool {
	k := reflect.TypeFor[T]().Kind()
	return k == reflect.Complex64 || k == reflect.Complex128
}

// luInner is how many goroutines share one matrix: all the workers the
// batch leaves idle, when the matrix is large enough to be worth splitting.
func luInner(x Exec, count, n int) int {
	if x.Driver == DriverUnblocked {
		return 1
	}
	if w := x.workers(); count > 0 && count < w && (n >= luParallelMin || x.Driver == DriverBlocked) {
		return w / count
	}
	return 1
}

// luForEach runs fn(i, w) for each matrix i through x.ForEach, w being
// pooled scratch of scratch elements (nil when scratch is 0). Small
// matrices go in groups that share one buffer and one closure call chain.
func luForEach[T core.Scalar](x Exec, count, n, scratch int, cf bool, fn func(i int, w []T)) error {
	group := 1
	if n < 64 {
		group = min(16, max(1, count/(8*x.workers())))
	}
	groups := (count + group - 1) / group
	return x.ForEach(groups, func(g int) {
		var buf *[]T
		var w []T
		if scratch > 0 {
			buf = luGetBuf[T](scratch, cf)
			w = (*buf)[:scratch]
		}
		for i := g * group; i < min(count, (g+1)*group); i++ {
			fn(i, w)
		}
		if buf != nil {
			luPool[T](cf).Put(buf)
		}
	})
}

// Work buffers, one pool per element size and kind so a buffer is reused
// only by its own type.
var luPools [4]sync.Pool

func luPool[T core.Scalar](cf bool) *sync.Pool {
	var z T
	switch {
	case unsafe.Sizeof(z) == 4:
		return &luPools[0]
	case unsafe.Sizeof(z) == 16:
		return &luPools[3]
	case cf:
		return &luPools[2]
	}
	return &luPools[1]
}

// luGetBuf returns a pooled buffer of at least n elements (stale contents).
func luGetBuf[T core.Scalar](n int, cf bool) *[]T {
	if p, ok := luPool[T](cf).Get().(*[]T); ok && cap(*p) >= n {
		*p = (*p)[:cap(*p)]
		return p
	}
	s := make([]T, n)
	return &s
}
