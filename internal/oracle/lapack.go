package oracle

import (
	"math"
	"math/cmplx"

	"github.com/batchlas/batchlas/internal/core"
)

// Hermitian returns the full Hermitian matrix whose uplo triangle is that of
// A; the other triangle of A is not read and the diagonal's imaginary parts
// are dropped.
func Hermitian(a *Mat, uplo core.Uplo) *Mat {
	n := a.Rows
	h := New(n, n)
	for j := range n {
		for i := range n {
			switch {
			case i == j:
				h.Set(i, i, complex(real(a.At(i, i)), 0))
			case (uplo == core.Lower) == (i > j):
				h.Set(i, j, a.At(i, j))
			default:
				h.Set(i, j, cmplx.Conj(a.At(j, i)))
			}
		}
	}
	return h
}

// Potrf is the unblocked Cholesky factorization (LAPACK dpotf2/zpotf2) of the
// Hermitian matrix held in the uplo triangle of A: A = L·Lᴴ (Lower) or
// A = Uᴴ·U (Upper). It returns a copy of A with that triangle overwritten by
// the factor, and info = k > 0 when the leading minor of order k is not
// positive definite (its pivot is ≤ 0 or NaN); columns from k on are then
// left as they were, except the pivot, which holds the failing value. The
// other triangle is not read and is copied unchanged.
func Potrf(uplo core.Uplo, a *Mat) (factor *Mat, info int) {
	f := a.Clone()
	n := a.Rows
	if uplo == core.Lower {
		// Left-looking by columns: column j of L from A(:, j) and columns 0..j-1.
		col := make([]complex128, n)
		for j := range n {
			copy(col[j:], f.Col(j)[j:])
			for p := range j {
				ljp := cmplx.Conj(f.At(j, p))
				cp := f.Col(p)
				for i := j; i < n; i++ {
					col[i] -= cp[i] * ljp
				}
			}
			d := real(col[j])
			if !(d > 0) {
				f.Set(j, j, complex(d, 0))
				return f, j + 1
			}
			d = math.Sqrt(d)
			fj := f.Col(j)
			fj[j] = complex(d, 0)
			for i := j + 1; i < n; i++ {
				fj[i] = col[i] / complex(d, 0)
			}
		}
		return f, 0
	}
	// Upper: column j of U from A(0:j, j) by dot products with earlier columns.
	for j := range n {
		fj := f.Col(j)
		for i := range j {
			s := fj[i]
			fi := f.Col(i)
			for p := range i {
				s -= cmplx.Conj(fi[p]) * fj[p]
			}
			fj[i] = s / fi[i]
		}
		d := real(fj[j])
		for p := range j {
			d -= real(fj[p])*real(fj[p]) + imag(fj[p])*imag(fj[p])
		}
		if !(d > 0) {
			fj[j] = complex(d, 0)
			return f, j + 1
		}
		fj[j] = complex(math.Sqrt(d), 0)
	}
	return f, 0
}

// Factor returns the triangular Cholesky factor held in f's uplo triangle as
// a dense matrix (zeros elsewhere).
func Factor(f *Mat, uplo core.Uplo) *Mat { return Triangle(f, uplo, core.NonUnit) }

// Potrs solves A·X = B given the factor from Potrf in f's uplo triangle.
func Potrs(uplo core.Uplo, f, b *Mat) *Mat {
	if uplo == core.Lower {
		y := Trsm(core.Left, core.Lower, core.NoTrans, core.NonUnit, 1, f, b)
		return Trsm(core.Left, core.Lower, core.ConjTrans, core.NonUnit, 1, f, y)
	}
	y := Trsm(core.Left, core.Upper, core.ConjTrans, core.NonUnit, 1, f, b)
	return Trsm(core.Left, core.Upper, core.NoTrans, core.NonUnit, 1, f, y)
}

// Cabs1 is |re| + |im|, the magnitude LAPACK's pivot search compares.
func Cabs1(v complex128) float64 { return math.Abs(real(v)) + math.Abs(imag(v)) }

// LU is the result of Getrf.
type LU struct {
	// Factors holds L below the diagonal (unit diagonal implied) and U on
	// and above it, as LAPACK stores them.
	Factors *Mat
	// Pivots holds min(m, n) 1-based row interchanges: row k was swapped
	// with row Pivots[k]-1 at step k.
	Pivots []int32
	// Info is k > 0 when U(k, k) is exactly zero (the first such k).
	Info int
	// Margins[k] is the ratio of the runner-up to the winner of the pivot
	// search at step k (cabs1): near 1 means rounding could flip the
	// choice, 1 when the winner is zero or NaN, 0 with one candidate.
	Margins []float64
}

// Getrf is the unblocked LU factorization with partial pivoting (LAPACK
// dgetf2/zgetf2) of the m×n matrix A: P·A = L·U. The pivot is the first row
// of largest cabs1, so a NaN candidate is never chosen over an earlier
// number. A zero pivot column is left unscaled and the factorization goes on.
func Getrf(a *Mat) LU {
	f := a.Clone()
	m, n := a.Rows, a.Cols
	k := min(m, n)
	r := LU{Factors: f, Pivots: make([]int32, k), Margins: make([]float64, k)}
	for j := range k {
		cj := f.Col(j)
		p, best := j, Cabs1(cj[j])
		for i := j + 1; i < m; i++ {
			if v := Cabs1(cj[i]); v > best {
				p, best = i, v
			}
		}
		second := 0.0
		for i := j; i < m; i++ {
			if v := Cabs1(cj[i]); i != p && !(v <= second) {
				second = v
			}
		}
		switch {
		case !(best > 0):
			r.Margins[j] = 1
		default:
			r.Margins[j] = second / best
			if !(r.Margins[j] <= 1) {
				r.Margins[j] = 1
			}
		}
		r.Pivots[j] = int32(p + 1)
		if cj[p] != 0 {
			if p != j {
				for q := range n {
					cq := f.Col(q)
					cq[p], cq[j] = cq[j], cq[p]
				}
			}
			piv := cj[j]
			for i := j + 1; i < m; i++ {
				cj[i] = Quo(cj[i], piv)
			}
		} else if r.Info == 0 {
			r.Info = j + 1
		}
		for q := j + 1; q < n; q++ {
			cq := f.Col(q)
			u := cq[j]
			if u == 0 {
				continue
			}
			for i := j + 1; i < m; i++ {
				cq[i] -= cj[i] * u
			}
		}
	}
	return r
}

// Unpack returns L (m×min(m,n), unit lower trapezoidal) and U (min(m,n)×n,
// upper trapezoidal) from LAPACK-packed factors.
func Unpack(f *Mat) (l, u *Mat) {
	m, n := f.Rows, f.Cols
	k := min(m, n)
	l, u = New(m, k), New(k, n)
	for j := range k {
		l.Set(j, j, 1)
		for i := j + 1; i < m; i++ {
			l.Set(i, j, f.At(i, j))
		}
	}
	for j := range n {
		for i := 0; i <= min(j, k-1); i++ {
			u.Set(i, j, f.At(i, j))
		}
	}
	return l, u
}

// Permute returns P·B: the rows of B interchanged in order, row k with row
// pivots[k]-1 for k = 0, 1, ...
func Permute(b *Mat, pivots []int32) *Mat {
	r := b.Clone()
	for k, p := range pivots {
		swapRows(r, k, int(p)-1)
	}
	return r
}

// Unpermute returns Pᵀ·B, the interchanges applied in reverse order.
func Unpermute(b *Mat, pivots []int32) *Mat {
	r := b.Clone()
	for k := len(pivots) - 1; k >= 0; k-- {
		swapRows(r, k, int(pivots[k])-1)
	}
	return r
}

func swapRows(r *Mat, i, p int) {
	if i == p {
		return
	}
	for q := range r.Cols {
		c := r.Col(q)
		c[i], c[p] = c[p], c[i]
	}
}

// Reconstruct returns Pᵀ·L·U, the matrix whose factors f and pivots are.
func Reconstruct(f *Mat, pivots []int32) *Mat {
	l, u := Unpack(f)
	return Unpermute(Mul(l, u), pivots)
}

// Getrs solves op(A)·X = B given the factors and pivots of A from Getrf.
func Getrs(trans core.Transpose, f *Mat, pivots []int32, b *Mat) *Mat {
	if trans == core.NoTrans {
		y := Trsm(core.Left, core.Lower, core.NoTrans, core.Unit, 1, f, Permute(b, pivots))
		return Trsm(core.Left, core.Upper, core.NoTrans, core.NonUnit, 1, f, y)
	}
	// op(A) = op(U)·op(L)·P.
	y := Trsm(core.Left, core.Upper, trans, core.NonUnit, 1, f, b)
	z := Trsm(core.Left, core.Lower, trans, core.Unit, 1, f, y)
	return Unpermute(z, pivots)
}

// SingularInfo is the info Getri reports for the factors f: k when U(k, k)
// is exactly zero (the first such k), else 0.
func SingularInfo(f *Mat) int {
	for k := range min(f.Rows, f.Cols) {
		if f.At(k, k) == 0 {
			return k + 1
		}
	}
	return 0
}

// Getri returns A⁻¹ from the factors and pivots of A. When U(k, k) is
// exactly zero it returns info = k (the first such k) and a copy of f.
func Getri(f *Mat, pivots []int32) (inv *Mat, info int) {
	if k := SingularInfo(f); k != 0 {
		return f.Clone(), k
	}
	return Getrs(core.NoTrans, f, pivots, Identity(f.Rows)), 0
}

// Inverse returns A⁻¹ by Getrf and Getri, and Getrf's info (then the
// returned matrix is the factors).
func Inverse(a *Mat) (inv *Mat, info int) {
	lu := Getrf(a)
	if lu.Info != 0 {
		return lu.Factors, lu.Info
	}
	return Getri(lu.Factors, lu.Pivots)
}

// Solve returns X solving A·X = B by Getrf and Getrs, and Getrf's info
// (then X is nil).
func Solve(a, b *Mat) (x *Mat, info int) {
	lu := Getrf(a)
	if lu.Info != 0 {
		return nil, lu.Info
	}
	return Getrs(core.NoTrans, lu.Factors, lu.Pivots, b), 0
}

// SolveSPD returns X solving A·X = B for the Hermitian A held in the uplo
// triangle of a by Potrf and Potrs, and Potrf's info (then X is nil).
func SolveSPD(uplo core.Uplo, a, b *Mat) (x *Mat, info int) {
	f, info := Potrf(uplo, a)
	if info != 0 {
		return nil, info
	}
	return Potrs(uplo, f, b), 0
}
