package oracle

import (
	"fmt"
	"math"
	"math/cmplx"

	"github.com/batchlas/batchlas/internal/core"
)

// Op returns a new matrix holding A, Aᵀ or Aᴴ.
func Op(a *Mat, t core.Transpose) *Mat {
	if t == core.NoTrans {
		return a.Clone()
	}
	r := New(a.Cols, a.Rows)
	for j := range a.Cols {
		for i := range a.Rows {
			v := a.At(i, j)
			if t == core.ConjTrans {
				v = cmplx.Conj(v)
			}
			r.Set(j, i, v)
		}
	}
	return r
}

// Mul returns the product A·B.
func Mul(a, b *Mat) *Mat {
	if a.Cols != b.Rows {
		panic(fmt.Sprintf("oracle: Mul of %d×%d by %d×%d", a.Rows, a.Cols, b.Rows, b.Cols))
	}
	finite := finiteColumns(a)
	if isReal(a) && isReal(b) {
		return mulReal(a, b, finite)
	}
	c := New(a.Rows, b.Cols)
	for j := range b.Cols {
		cj := c.Col(j)
		for p := range a.Cols {
			bp := b.At(p, j)
			if bp == 0 && finite[p] {
				continue // the zeros of triangular operands; 0·NaN must still count
			}
			ap := a.Col(p)
			for i := range cj {
				cj[i] += ap[i] * bp
			}
		}
	}
	return c
}

// finiteColumns reports for each column of a whether all its elements are
// finite, so that a product may skip it against a zero without losing the
// NaN that 0·Inf or 0·NaN makes.
func finiteColumns(a *Mat) []bool {
	f := make([]bool, a.Cols)
	for j := range a.Cols {
		f[j] = true
		for _, v := range a.Col(j) {
			if math.IsNaN(real(v)) || math.IsNaN(imag(v)) || math.IsInf(real(v), 0) || math.IsInf(imag(v), 0) {
				f[j] = false
				break
			}
		}
	}
	return f
}

// isReal reports whether every element of a has a zero imaginary part.
func isReal(a *Mat) bool {
	for _, v := range a.Data {
		if imag(v) != 0 {
			return false
		}
	}
	return true
}

// mulReal is Mul for real operands: the same sums in the same order (the
// zero imaginary parts contribute exact zeros), in half the time.
func mulReal(a, b *Mat, finite []bool) *Mat {
	m := a.Rows
	ar := make([]float64, len(a.Data))
	for i, v := range a.Data {
		ar[i] = real(v)
	}
	cr := make([]float64, m*b.Cols)
	for j := range b.Cols {
		cj := cr[j*m : (j+1)*m]
		for p := range a.Cols {
			bp := real(b.At(p, j))
			if bp == 0 && finite[p] {
				continue
			}
			ap := ar[p*m : (p+1)*m]
			for i := range cj {
				cj[i] += ap[i] * bp
			}
		}
	}
	c := New(m, b.Cols)
	for i, v := range cr {
		c.Data[i] = complex(v, 0)
	}
	return c
}

// Abs returns the matrix of element moduli |A|.
func Abs(a *Mat) *Mat {
	r := New(a.Rows, a.Cols)
	for i, v := range a.Data {
		r.Data[i] = complex(cmplx.Abs(v), 0)
	}
	return r
}

// Add returns alpha·A + beta·B; a zero coefficient skips its operand, so a
// NaN there does not leak in.
func Add(alpha complex128, a *Mat, beta complex128, b *Mat) *Mat {
	r := New(a.Rows, a.Cols)
	for i := range r.Data {
		var v complex128
		if alpha != 0 {
			v = alpha * a.Data[i]
		}
		if beta != 0 {
			v += beta * b.Data[i]
		}
		r.Data[i] = v
	}
	return r
}

// Gemm returns alpha·op(A)·op(B) + beta·C. As in the reference BLAS, A and B
// are not read when alpha = 0 and C is not read when beta = 0.
func Gemm(transA, transB core.Transpose, alpha complex128, a, b *Mat, beta complex128, c *Mat) *Mat {
	var p *Mat
	if alpha != 0 {
		p = Mul(Op(a, transA), Op(b, transB))
	} else {
		p = New(c.Rows, c.Cols)
	}
	return Add(alpha, p, beta, c)
}

// Triangle returns the uplo triangle of A as a dense square matrix with zeros
// elsewhere and, for a Unit diagonal, ones on the diagonal (A's own diagonal
// is then not read).
func Triangle(a *Mat, uplo core.Uplo, diag core.Diag) *Mat {
	n := a.Rows
	t := New(n, n)
	for j := range n {
		for i := range n {
			switch {
			case i == j && diag == core.Unit:
				t.Set(i, j, 1)
			case i == j, uplo == core.Lower && i > j, uplo == core.Upper && i < j:
				t.Set(i, j, a.At(i, j))
			}
		}
	}
	return t
}

// Trmm returns alpha·op(T)·B (Left) or alpha·B·op(T) (Right), T the uplo
// triangle of A with the given diagonal. B is not read when alpha = 0.
func Trmm(side core.Side, uplo core.Uplo, trans core.Transpose, diag core.Diag, alpha complex128, a, b *Mat) *Mat {
	if alpha == 0 {
		return New(b.Rows, b.Cols)
	}
	t := Op(Triangle(a, uplo, diag), trans)
	var p *Mat
	if side == core.Left {
		p = Mul(t, b)
	} else {
		p = Mul(b, t)
	}
	return Add(alpha, p, 0, nil)
}

// Trsm returns X solving op(T)·X = alpha·B (Left) or X·op(T) = alpha·B
// (Right), T the uplo triangle of A with the given diagonal, by plain
// substitution. B is not read when alpha = 0 (X = 0).
func Trsm(side core.Side, uplo core.Uplo, trans core.Transpose, diag core.Diag, alpha complex128, a, b *Mat) *Mat {
	if alpha == 0 {
		return New(b.Rows, b.Cols)
	}
	t := Op(Triangle(a, uplo, diag), trans)
	lower := (uplo == core.Lower) == (trans == core.NoTrans)
	rhs := Add(alpha, b, 0, nil)
	if side == core.Left {
		return substitute(t, lower, rhs)
	}
	// X·M = R  ⇔  Mᵀ·Xᵀ = Rᵀ, and Mᵀ is triangular the other way.
	return Op(substitute(Op(t, core.Trans), !lower, Op(rhs, core.Trans)), core.Trans)
}

// substitute solves M·X = R for triangular M (lower or upper), column by
// column, in place of a copy of R: each unknown, once divided by its
// diagonal, is eliminated from the equations below (lower) or above it.
func substitute(m *Mat, lower bool, r *Mat) *Mat {
	x := r.Clone()
	n := m.Rows
	for j := range x.Cols {
		xj := x.Col(j)
		if lower {
			for p := range n {
				mp := m.Col(p)
				xj[p] = Quo(xj[p], mp[p])
				for i := p + 1; i < n; i++ {
					xj[i] -= mp[i] * xj[p]
				}
			}
		} else {
			for p := n - 1; p >= 0; p-- {
				mp := m.Col(p)
				xj[p] = Quo(xj[p], mp[p])
				for i := range p {
					xj[i] -= mp[i] * xj[p]
				}
			}
		}
	}
	return x
}

// Syrk returns C with its uplo triangle replaced by that of
// alpha·op(A)·op(A)ᵀ + beta·C (op(A) = A for NoTrans, Aᵀ for Trans); the
// other triangle is C's. C's triangle is not read when beta = 0, A is not
// read when alpha = 0.
func Syrk(uplo core.Uplo, trans core.Transpose, alpha complex128, a *Mat, beta complex128, c *Mat) *Mat {
	var p *Mat
	if alpha != 0 {
		oa := Op(a, trans)
		p = Mul(oa, Op(oa, core.Trans))
	} else {
		p = New(c.Rows, c.Cols)
	}
	return mergeTriangle(uplo, Add(alpha, p, beta, c), c)
}

// Herk returns C with its uplo triangle replaced by that of
// alpha·op(A)·op(A)ᴴ + beta·C (op(A) = A for NoTrans, Aᴴ for ConjTrans),
// alpha and beta real. The imaginary parts of C's diagonal are taken as zero
// on entry and set to zero on exit.
func Herk(uplo core.Uplo, trans core.Transpose, alpha float64, a *Mat, beta float64, c *Mat) *Mat {
	var p *Mat
	if alpha != 0 {
		oa := Op(a, trans)
		p = Mul(oa, Op(oa, core.ConjTrans))
	} else {
		p = New(c.Rows, c.Cols)
	}
	c0 := c.Clone()
	for i := range c0.Rows {
		c0.Set(i, i, complex(real(c0.At(i, i)), 0))
	}
	r := mergeTriangle(uplo, Add(complex(alpha, 0), p, complex(beta, 0), c0), c)
	for i := range r.Rows {
		r.Set(i, i, complex(real(r.At(i, i)), 0))
	}
	return r
}

// mergeTriangle returns full's uplo triangle (diagonal included) with rest's
// other strict triangle.
func mergeTriangle(uplo core.Uplo, full, rest *Mat) *Mat {
	r := rest.Clone()
	for j := range r.Cols {
		for i := range r.Rows {
			if i == j || (uplo == core.Lower && i > j) || (uplo == core.Upper && i < j) {
				r.Set(i, j, full.At(i, j))
			}
		}
	}
	return r
}
