package cpu_test

import (
	"testing"

	"github.com/batchlas/batchlas/internal/conformance"
	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cpu"
)

// engine adapts the CPU engine to the conformance interfaces.
type engine[T core.Scalar] struct{ x cpu.Exec }

func (e engine[T]) Gemm(ta, tb core.Transpose, alpha T, a, b core.Strided[T], beta T, c core.Strided[T]) error {
	return cpu.Gemm(e.x, ta, tb, alpha, a, b, beta, c)
}

func (e engine[T]) Trsm(side core.Side, uplo core.Uplo, tr core.Transpose, diag core.Diag, alpha T, a, b core.Strided[T]) error {
	return cpu.Trsm(e.x, side, uplo, tr, diag, alpha, a, b)
}

func (e engine[T]) Trmm(side core.Side, uplo core.Uplo, tr core.Transpose, diag core.Diag, alpha T, a, b core.Strided[T]) error {
	return cpu.Trmm(e.x, side, uplo, tr, diag, alpha, a, b)
}

func (e engine[T]) Syrk(uplo core.Uplo, tr core.Transpose, alpha T, a core.Strided[T], beta T, c core.Strided[T]) error {
	return cpu.Syrk(e.x, uplo, tr, alpha, a, beta, c)
}

func (e engine[T]) Herk(uplo core.Uplo, tr core.Transpose, alpha float64, a core.Strided[T], beta float64, c core.Strided[T]) error {
	return cpu.Herk(e.x, uplo, tr, alpha, a, beta, c)
}

func (e engine[T]) Potrf(uplo core.Uplo, a core.Strided[T], info []int32) error {
	return cpu.Potrf(e.x, uplo, a, info)
}

func (e engine[T]) Potrs(uplo core.Uplo, a, b core.Strided[T]) error {
	return cpu.Potrs(e.x, uplo, a, b)
}

func (e engine[T]) Posv(uplo core.Uplo, a, b core.Strided[T], info []int32) error {
	return cpu.Posv(e.x, uplo, a, b, info)
}

func (e engine[T]) Getrf(a core.Strided[T], pivots, info []int32) error {
	return cpu.Getrf(e.x, a, pivots, info)
}

func (e engine[T]) Getrs(tr core.Transpose, a core.Strided[T], pivots []int32, b core.Strided[T]) error {
	return cpu.Getrs(e.x, tr, a, pivots, b)
}

func (e engine[T]) Getri(a core.Strided[T], pivots, info []int32) error {
	return cpu.Getri(e.x, a, pivots, info)
}

func (e engine[T]) Gesv(a core.Strided[T], pivots []int32, b core.Strided[T], info []int32) error {
	return cpu.Gesv(e.x, a, pivots, b, info)
}

// Inv copies A into C (unless C is A), then factors and inverts C in place.
func (e engine[T]) Inv(a, c core.Strided[T], info []int32) error {
	if err := a.Check("a"); err != nil {
		return err
	}
	if err := c.Check("c"); err != nil {
		return err
	}
	if a.Rows != c.Rows || a.Cols != c.Cols || a.Count != c.Count {
		return core.ErrShape
	}
	same := len(a.Data) > 0 && len(c.Data) > 0 && &a.Data[0] == &c.Data[0] && a.LD == c.LD && a.Stride == c.Stride
	if !same {
		for b := range a.Count {
			for j := range a.Cols {
				copy(c.Data[b*c.Stride+j*c.LD:][:a.Rows], a.Data[b*a.Stride+j*a.LD:][:a.Rows])
			}
		}
	}
	pivots := make([]int32, c.Count*min(c.Rows, c.Cols))
	if err := cpu.Getrf(e.x, c, pivots, info); err != nil {
		return err
	}
	return cpu.Getri(e.x, c, pivots, info)
}

func conformanceAll[T core.Scalar](t *testing.T) {
	e := engine[T]{}
	t.Run("Cholesky", func(t *testing.T) { conformance.CholeskySuite[T](t, e) })
	t.Run("LU", func(t *testing.T) { conformance.LUSuite[T](t, e) })
	t.Run("BLAS3", func(t *testing.T) { conformance.BLAS3Suite[T](t, e) })
}

// TestConformance runs the shared suites on the CPU engine for all four types.
func TestConformance(t *testing.T) {
	t.Run("float32", conformanceAll[float32])
	t.Run("float64", conformanceAll[float64])
	t.Run("complex64", conformanceAll[complex64])
	t.Run("complex128", conformanceAll[complex128])
}

// TestConformanceDrivers runs the factorization suites with each driver
// forced at every size, since the router may pick either for any call.
func TestConformanceDrivers(t *testing.T) {
	for _, d := range []cpu.Driver{cpu.DriverUnblocked, cpu.DriverBlocked} {
		t.Run(d.String(), func(t *testing.T) {
			t.Run("float64", func(t *testing.T) { driverSuites[float64](t, d) })
			t.Run("complex64", func(t *testing.T) { driverSuites[complex64](t, d) })
		})
	}
}

func driverSuites[T core.Scalar](t *testing.T, d cpu.Driver) {
	e := engine[T]{x: cpu.Exec{Driver: d}}
	t.Run("Cholesky", func(t *testing.T) { conformance.CholeskySuite[T](t, e) })
	t.Run("LU", func(t *testing.T) { conformance.LUSuite[T](t, e) })
}
