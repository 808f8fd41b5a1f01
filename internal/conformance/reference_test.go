package conformance_test

import (
	"testing"

	"github.com/batchlas/batchlas/internal/conformance"
	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/oracle"
)

// reference is an engine built from the oracle: every op computed in
// float64/complex128 and rounded to T. The suites must pass on it; the
// planted breaks in guards_test.go wrap it.
type reference[T core.Scalar] struct{}

func z[T core.Scalar](x T) complex128 { return oracle.ToComplex(x) }

func (reference[T]) Gemm(ta, tb core.Transpose, alpha T, a, b core.Strided[T], beta T, c core.Strided[T]) error {
	for i := range c.Count {
		oracle.Store(c, i, oracle.Gemm(ta, tb, z(alpha), oracle.Load(a, i), oracle.Load(b, i), z(beta), oracle.Load(c, i)))
	}
	return nil
}

func (reference[T]) Trsm(side core.Side, uplo core.Uplo, tr core.Transpose, diag core.Diag, alpha T, a, b core.Strided[T]) error {
	for i := range b.Count {
		oracle.Store(b, i, oracle.Trsm(side, uplo, tr, diag, z(alpha), oracle.Load(a, i), oracle.Load(b, i)))
	}
	return nil
}

func (reference[T]) Trmm(side core.Side, uplo core.Uplo, tr core.Transpose, diag core.Diag, alpha T, a, b core.Strided[T]) error {
	for i := range b.Count {
		oracle.Store(b, i, oracle.Trmm(side, uplo, tr, diag, z(alpha), oracle.Load(a, i), oracle.Load(b, i)))
	}
	return nil
}

func (reference[T]) Syrk(uplo core.Uplo, tr core.Transpose, alpha T, a core.Strided[T], beta T, c core.Strided[T]) error {
	for i := range c.Count {
		oracle.Store(c, i, oracle.Syrk(uplo, tr, z(alpha), oracle.Load(a, i), z(beta), oracle.Load(c, i)))
	}
	return nil
}

func (reference[T]) Herk(uplo core.Uplo, tr core.Transpose, alpha float64, a core.Strided[T], beta float64, c core.Strided[T]) error {
	for i := range c.Count {
		oracle.Store(c, i, oracle.Herk(uplo, tr, alpha, oracle.Load(a, i), beta, oracle.Load(c, i)))
	}
	return nil
}

func (reference[T]) Potrf(uplo core.Uplo, a core.Strided[T], info []int32) error {
	for i := range a.Count {
		f, k := oracle.Potrf(uplo, oracle.Load(a, i))
		oracle.Store(a, i, f)
		info[i] = int32(k)
	}
	return nil
}

func (reference[T]) Potrs(uplo core.Uplo, a, b core.Strided[T]) error {
	for i := range b.Count {
		oracle.Store(b, i, oracle.Potrs(uplo, oracle.Load(a, i), oracle.Load(b, i)))
	}
	return nil
}

func (e reference[T]) Posv(uplo core.Uplo, a, b core.Strided[T], info []int32) error {
	for i := range a.Count {
		f, k := oracle.Potrf(uplo, oracle.Load(a, i))
		oracle.Store(a, i, f)
		info[i] = int32(k)
		if k == 0 {
			oracle.Store(b, i, oracle.Potrs(uplo, f, oracle.Load(b, i)))
		}
	}
	return nil
}

func (reference[T]) Getrf(a core.Strided[T], pivots, info []int32) error {
	k := min(a.Rows, a.Cols)
	for i := range a.Count {
		lu := oracle.Getrf(oracle.Load(a, i))
		oracle.Store(a, i, lu.Factors)
		copy(pivots[i*k:], lu.Pivots)
		info[i] = int32(lu.Info)
	}
	return nil
}

func (reference[T]) Getrs(tr core.Transpose, a core.Strided[T], pivots []int32, b core.Strided[T]) error {
	n := a.Rows
	for i := range b.Count {
		oracle.Store(b, i, oracle.Getrs(tr, oracle.Load(a, i), pivots[i*n:(i+1)*n], oracle.Load(b, i)))
	}
	return nil
}

func (reference[T]) Getri(a core.Strided[T], pivots, info []int32) error {
	n := a.Rows
	for i := range a.Count {
		inv, k := oracle.Getri(oracle.Load(a, i), pivots[i*n:(i+1)*n])
		if k == 0 {
			oracle.Store(a, i, inv)
		}
		info[i] = int32(k)
	}
	return nil
}

func (e reference[T]) Gesv(a core.Strided[T], pivots []int32, b core.Strided[T], info []int32) error {
	if err := e.Getrf(a, pivots, info); err != nil {
		return err
	}
	n := a.Rows
	for i := range a.Count {
		if info[i] == 0 {
			oracle.Store(b, i, oracle.Getrs(core.NoTrans, oracle.Load(a, i), pivots[i*n:(i+1)*n], oracle.Load(b, i)))
		}
	}
	return nil
}

func (reference[T]) Inv(a, c core.Strided[T], info []int32) error {
	for i := range a.Count {
		inv, k := oracle.Inverse(oracle.Load(a, i))
		oracle.Store(c, i, inv)
		info[i] = int32(k)
	}
	return nil
}

// referenceSizes keeps the self-test of the suites quick: the oracle engine
// is as slow as the oracle.
var referenceSizes = conformance.Config{Sizes: []int{1, 2, 3, 7, 8, 9, 16, 31, 33, 64, 65}}

func runAll[T core.Scalar](t *testing.T, cfg conformance.Config) {
	var e reference[T]
	t.Run("Cholesky", func(t *testing.T) { conformance.CholeskySuite[T](t, e, cfg) })
	t.Run("LU", func(t *testing.T) { conformance.LUSuite[T](t, e, cfg) })
	t.Run("BLAS3", func(t *testing.T) { conformance.BLAS3Suite[T](t, e, cfg) })
}

// TestReference runs every suite on the oracle engine: a suite that fails a
// correct engine is a broken suite.
func TestReference(t *testing.T) {
	t.Run("float32", func(t *testing.T) { runAll[float32](t, referenceSizes) })
	t.Run("float64", func(t *testing.T) { runAll[float64](t, referenceSizes) })
	t.Run("complex64", func(t *testing.T) { runAll[complex64](t, referenceSizes) })
	t.Run("complex128", func(t *testing.T) { runAll[complex128](t, referenceSizes) })
}
