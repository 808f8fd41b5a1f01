package cpu

import (
	"fmt"

	"github.com/batchlas/batchlas/internal/core"
)

// Potrf factors A = L·Lᴴ (Lower) or A = Uᴴ·U (Upper) in place; info[b] = k > 0
// when the leading minor of order k of matrix b is not positive definite.
//
// Only the uplo triangle is read and written; the other strict triangle is
// not touched. As in LAPACK, the imaginary parts of the diagonal are ignored
// and the factor's diagonal is real, and a matrix whose pivot k is ≤ 0 or NaN
// is left partly factored at column k. info needs a.Count entries.
func Potrf[T core.Scalar](x Exec, uplo core.Uplo, a core.Strided[T], info []int32) error {
	if err := cholCheck("Potrf", uplo, a, info, true); err != nil {
		return err
	}
	n, lda := a.Rows, a.LD
	inner := cholInner(x, a.Count, n)
	cplx, diag := cholComplex[T](), cholDiagOf[T]()
	return cholForEach(x, a.Count, n, cholFactorScratch(n, x.Driver), func(b int, w []T) {
		info[b] = 0
		if n > 0 {
			info[b] = int32(potrf1(uplo, n, a.Matrix(b), lda, w, diag, cplx, inner, x.Driver))
		}
	})
}

// Potrs solves A·X = B with the factor from Potrf; B is overwritten by X.
func Potrs[T core.Scalar](x Exec, uplo core.Uplo, a, b core.Strided[T]) error {
	if err := cholCheck("Potrs", uplo, a, nil, false); err != nil {
		return err
	}
	if err := cholCheckB("Potrs", a, b); err != nil {
		return err
	}
	n, nrhs := a.Rows, b.Cols
	return cholForEach(x, a.Count, n, n, func(i int, w []T) {
		if n > 0 && nrhs > 0 {
			potrs1(uplo, n, nrhs, a.Matrix(i), a.LD, b.Matrix(i), b.LD, w)
		}
	})
}

// Posv factors A (as Potrf) and solves A·X = B; matrices whose factorization fails keep B unchanged.
func Posv[T core.Scalar](x Exec, uplo core.Uplo, a, b core.Strided[T], info []int32) error {
	if err := cholCheck("Posv", uplo, a, info, true); err != nil {
		return err
	}
	if err := cholCheckB("Posv", a, b); err != nil {
		return err
	}
	n, nrhs, lda := a.Rows, b.Cols, a.LD
	inner := cholInner(x, a.Count, n)
	cplx, diag := cholComplex[T](), cholDiagOf[T]()
	return cholForEach(x, a.Count, n, max(n, cholFactorScratch(n, x.Driver)), func(i int, w []T) {
		info[i] = 0
		if n == 0 {
			return
		}
		m := a.Matrix(i)
		if k := potrf1(uplo, n, m, lda, w, diag, cplx, inner, x.Driver); k != 0 {
			info[i] = int32(k)
			return
		}
		if nrhs > 0 {
			potrs1(uplo, n, nrhs, m, lda, b.Matrix(i), b.LD, w)
		}
	})
}

func cholCheck[T core.Scalar](op string, uplo core.Uplo, a core.Strided[T], info []int32, needInfo bool) error {
	if !uplo.Valid() {
		return fmt.Errorf("%w: %s: uplo is %v", core.ErrArgument, op, uplo)
	}
	if err := a.Check("a"); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if a.Rows != a.Cols {
		return fmt.Errorf("%w: %s: a is %d×%d, must be square", core.ErrShape, op, a.Rows, a.Cols)
	}
	if needInfo && len(info) < a.Count {
		return fmt.Errorf("%w: %s: info has %d entries, a has %d matrices", core.ErrShape, op, len(info), a.Count)
	}
	return nil
}

func cholCheckB[T core.Scalar](op string, a, b core.Strided[T]) error {
	if err := b.Check("b"); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if b.Rows != a.Rows || b.Count != a.Count {
		return fmt.Errorf("%w: %s: b is %d×%d×%d, a is %d×%d×%d", core.ErrShape, op,
			b.Rows, b.Cols, b.Count, a.Rows, a.Cols, a.Count)
	}
	return nil
}

// cholInner is how many goroutines share one matrix: all the workers the
// batch leaves idle, when the matrix is large enough to be worth splitting.
func cholInner(x Exec, count, n int) int {
	if x.Driver == DriverUnblocked {
		return 1
	}
	if w := x.workers(); count > 0 && count < w && (n >= cholParallelMin || x.Driver == DriverBlocked) {
		return w / count
	}
	return 1
}

// cholForEach runs fn(i, w) for each matrix i of the batch through
// x.ForEach, w being pooled scratch of scratch elements. Small matrices are
// taken in groups that share one buffer, so the pool is not paid per matrix.
func cholForEach[T core.Scalar](x Exec, count, n, scratch int, fn func(i int, w []T)) error {
	group := 1
	if n < 64 {
		group = min(16, max(1, count/(8*x.workers())))
	}
	groups := (count + group - 1) / group
	return x.ForEach(groups, func(g int) {
		buf := cholGet[T](scratch)
		w := (*buf)[:scratch]
		for i := g * group; i < min(count, (g+1)*group); i++ {
			fn(i, w)
		}
		cholPut(buf)
	})
}
