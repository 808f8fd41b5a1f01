package cpu

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchlas/batchlas/internal/core"
)

// TestLUNearOverflow factors, solves with and inverts matrices scaled by a
// power of two just below the largest finite number of their type. The
// scaling is exact, so the results must be those of the unscaled matrix
// scaled back: L unchanged, U, B and A⁻¹ scaled. Complex division in Go
// (Smith's method) overflows inside for such operands and returned zeros.
func TestLUNearOverflow(t *testing.T) {
	luTypes(t, testLUNearOverflow[float32], testLUNearOverflow[float64], testLUNearOverflow[complex64], testLUNearOverflow[complex128])
}

// luBigPivots returns count n×n matrices (leading dimension ld) that are
// s·P·(1.5·(1+i)·I + E), P a random permutation and E uniform with entries
// below 0.5/n in modulus: every pivot has both parts near 1.5·s, every
// entry of U and of B stays finite, and partial pivoting undoes P.
func luBigPivots[T core.Scalar](r *rand.Rand, n, ld, count int, s float64) core.Strided[T] {
	a := luBatch[T](r, n, n, ld, ld*n, count)
	d := complex(1.5, 0)
	if core.IsComplex[T]() {
		d = complex(1.5, 1.5)
	}
	for b := range count {
		perm := r.Perm(n)
		m := a.Matrix(b)
		for j := range n {
			for i := range n {
				v := luC(m[j*ld+i]) * complex(0.25/float64(n), 0)
				if perm[i] == j {
					v += d
				}
				m[j*ld+i] = luTo[T](real(v)*s, imag(v)*s)
			}
		}
	}
	return a
}

func testLUNearOverflow[T core.Scalar](t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	eps := core.Eps[T]()
	// s·1.5·(1 + 1/4) stays below the largest finite value.
	s := 0x1p1023
	if eps > 1e-10 {
		s = 0x1p127
	}
	for _, c := range []struct {
		n int
		d Driver
	}{{1, DriverAuto}, {2, DriverAuto}, {3, DriverAuto}, {4, DriverAuto}, {5, DriverAuto}, {8, DriverAuto}, {9, DriverAuto}, {33, DriverAuto}, {33, DriverBlocked}, {65, DriverBlocked}} {
		n, ex := c.n, Exec{Driver: c.d}
		const count, nrhs = 2, 3
		a := luBigPivots[T](r, n, n+1, count, s)
		// The unscaled A/s of each matrix, the system every check solves.
		as := [][]complex128{unscale(luDense(a, 0), 1/s), unscale(luDense(a, 1), 1/s)}
		piv := make([]int32, count*n)
		info := make([]int32, count)
		if err := Getrf(ex, a, piv, info); err != nil {
			t.Fatal(err)
		}
		factors := slices.Clone(a.Data)
		for m := range count {
			// U/s and L together must factor A/s.
			f := luDense(a, m)
			for j := range n {
				for i := 0; i <= j; i++ {
					f[j*n+i] = complex(real(f[j*n+i])/s, imag(f[j*n+i])/s)
				}
			}
			ratio := luFactorRatio(n, n, as[m], f, piv[m*n:(m+1)*n], eps)
			if info[m] != 0 || !(ratio <= luTol) {
				t.Errorf("n=%d %v matrix %d: Getrf info %d, ‖PA−LU‖ ratio %.3g", n, c.d, m, info[m], ratio)
			}
		}

		// Parts of B up to s: Smith's numerator overflowed.
		b := luBatch[T](r, n, nrhs, n, n*nrhs, count)
		for i, v := range b.Data {
			b.Data[i] = luTo[T](real(luC(v))*s, imag(luC(v))*s)
		}
		bs := [][]complex128{unscale(luDense(b, 0), 1/s), unscale(luDense(b, 1), 1/s)}
		if err := Getrs(ex, core.NoTrans, a, piv, b); err != nil {
			t.Fatal(err)
		}
		for m := range count {
			// X itself is not scaled: (s·A)⁻¹·(s·B).
			x, res := luDense(b, m), bs[m]
			for k := range nrhs {
				for i := range n {
					for j := range n {
						res[k*n+i] -= as[m][j*n+i] * x[k*n+j]
					}
				}
			}
			ratio := luFrob(res) / (float64(n) * luFrob(as[m]) * luFrob(x) * eps)
			if !(ratio <= luTol) {
				t.Errorf("n=%d %v matrix %d: Getrs residual ratio %.3g", n, c.d, m, ratio)
			}
		}

		copy(a.Data, factors)
		if err := Getri(ex, a, piv, info); err != nil {
			t.Fatal(err)
		}
		for m := range count {
			// A⁻¹ has entries near 1/s, some below the smallest normal
			// number: compare s·A⁻¹ with the inverse of A/s.
			inv, am := unscale(luDense(a, m), s), as[m]
			res := make([]complex128, n*n)
			for j := range n {
				for i := range n {
					var v complex128
					for k := range n {
						v += am[k*n+i] * inv[j*n+k]
					}
					if i == j {
						v--
					}
					res[j*n+i] = v
				}
			}
			ratio := luFrob(res) / (float64(n) * luFrob(am) * luFrob(inv) * eps)
			if info[m] != 0 || !(ratio <= luTol) || math.IsNaN(ratio) {
				t.Errorf("n=%d %v matrix %d: Getri info %d, ‖A·A⁻¹−I‖ ratio %.3g", n, c.d, m, info[m], ratio)
			}
		}
	}
}

// TestTrsmNearOverflow solves with a complex128 triangle whose diagonal
// parts are near the largest float64, through both solvers (the one that
// multiplies by the diagonal's reciprocals and, with one subnormal diagonal
// element, the one that divides): X must solve the unscaled system.
func TestTrsmNearOverflow(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	const s = 0x1p1023
	for _, n := range []int{1, 5, 40} {
		for _, tiny := range []bool{false, true} {
			a := luBigPivots[complex128](r, n, n, 1, s)
			m := a.Matrix(0)
			for j := range n {
				for i := range n {
					if i == j {
						m[j*n+i] = complex(1.5*s, 1.5*s)
					} else if i < j {
						m[j*n+i] = 0
					}
				}
			}
			b := luBatch[complex128](r, n, 2, n, 2*n, 1)
			if tiny && n > 1 {
				// Row n−1 is tiny·e: x(n−1) = b(n−1)/tiny stays finite.
				for k := range n - 1 {
					m[k*n+n-1] = 0
				}
				m[n*n-1] = complex(0x1p-1060, 0)
				b.Data[n-1], b.Data[2*n-1] = 0x1p-1061, complex(0, 0x1p-1062)
			}
			b0 := slices.Clone(b.Data)
			if err := Trsm(Exec{}, core.Left, core.Lower, core.NoTrans, core.NonUnit, 1, a, b); err != nil {
				t.Fatal(err)
			}
			// Componentwise, in the raw values (A near 2¹⁰²³, X near 2⁻¹⁰²³,
			// their products near 1): the tiny row, whose x is far larger
			// than the others, must not hide the others' error.
			x := b.Data
			for c := range 2 {
				for i := range n {
					res, size := b0[c*n+i], cmplx.Abs(b0[c*n+i])
					for k := range n {
						res -= m[k*n+i] * x[c*n+k]
						size += cmplx.Abs(m[k*n+i]) * cmplx.Abs(x[c*n+k])
					}
					ratio := 0.0
					if res != 0 { // size·eps underflows in the tiny row
						ratio = cmplx.Abs(res) / (float64(n) * size * core.Eps[complex128]())
					}
					if !(ratio <= luTol) {
						t.Errorf("n=%d tiny pivot %v: row %d column %d: residual ratio %.3g", n, tiny, i, c, ratio)
					}
				}
			}
		}
	}
}

// unscale returns m with both parts of each element multiplied by f.
func unscale(m []complex128, f float64) []complex128 {
	out := slices.Clone(m)
	for i, v := range out {
		out[i] = complex(real(v)*f, imag(v)*f)
	}
	return out
}
