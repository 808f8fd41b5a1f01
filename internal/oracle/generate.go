package oracle

import (
	"math"
	"math/cmplx"
	"math/rand/v2"

	"github.com/batchlas/batchlas/internal/core"
)

// Gen makes test matrices, deterministically from its seed. A Gen for real
// data makes matrices with zero imaginary parts.
type Gen struct {
	rng     *rand.Rand
	complex bool
}

// NewGen returns a generator seeded with seed, of complex data when
// complexData is set.
func NewGen(seed uint64, complexData bool) *Gen {
	return &Gen{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), complex: complexData}
}

// GenFor returns a generator for the kind of data T holds.
func GenFor[T core.Scalar](seed uint64) *Gen { return NewGen(seed, core.IsComplex[T]()) }

// Normal returns a standard normal scalar (for complex data, real and
// imaginary parts each of variance 1/2).
func (g *Gen) Normal() complex128 {
	if !g.complex {
		return complex(g.rng.NormFloat64(), 0)
	}
	return complex(g.rng.NormFloat64(), g.rng.NormFloat64()) * complex(math.Sqrt(0.5), 0)
}

// Uniform returns a scalar of modulus below 1 (uniform in [−1, 1) for real
// data, in the unit disc for complex data).
func (g *Gen) Uniform() complex128 {
	if !g.complex {
		return complex(2*g.rng.Float64()-1, 0)
	}
	return cmplx.Rect(math.Sqrt(g.rng.Float64()), 2*math.Pi*g.rng.Float64())
}

// Phase returns a scalar of modulus 1: ±1 for real data.
func (g *Gen) Phase() complex128 {
	if !g.complex {
		if g.rng.IntN(2) == 0 {
			return -1
		}
		return 1
	}
	return cmplx.Rect(1, 2*math.Pi*g.rng.Float64())
}

// Scalar returns a coefficient (alpha, beta) of modulus between 0.5 and 2.
func (g *Gen) Scalar() complex128 {
	return g.Phase() * complex(0.5+1.5*g.rng.Float64(), 0)
}

// General returns an m×n matrix of independent standard normal entries.
func (g *Gen) General(m, n int) *Mat {
	a := New(m, n)
	for i := range a.Data {
		a.Data[i] = g.Normal()
	}
	return a
}

// Unitary returns a random n×n unitary (orthogonal for real data) matrix Q,
// distributed uniformly (Haar): the Q of the Householder QR of a Gaussian
// matrix, its columns scaled so that R has a positive real diagonal.
func (g *Gen) Unitary(n int) *Mat {
	a := g.General(n, n)
	q := New(n, n)
	if g.complex {
		copy(q.Data, householderQ(n, a.Data))
		return q
	}
	re := make([]float64, n*n)
	for i, v := range a.Data {
		re[i] = real(v)
	}
	for i, v := range householderQ(n, re) {
		q.Data[i] = complex(v, 0)
	}
	return q
}

// householderQ returns Q·D from the Householder QR A = Q·R of the n×n
// column-major a (overwritten), D = diag(phase of R(k, k)), so that
// A = (Q·D)·(D*·R) with a positive diagonal in D*·R. Real data runs in
// float64, a quarter of the work of complex128.
func householderQ[E float64 | complex128](n int, a []E) []E {
	vs := make([][]E, n)  // Householder vectors
	vcs := make([][]E, n) // their conjugates, so no loop below conjugates
	taus := make([]E, n)
	phases := make([]E, n)
	for k := range n {
		x := a[k*n+k : (k+1)*n]
		norm := 0.0
		for _, v := range x {
			norm = math.Hypot(norm, modulus(v))
		}
		ph := E(1)
		if m := modulus(x[0]); m != 0 {
			ph = x[0] / fromReal[E](m)
		}
		// H = I − tau·v·vᴴ with v = x + ph·‖x‖·e₁ and tau = 2/(vᴴ·v) maps x
		// to −ph·‖x‖·e₁.
		v := append([]E(nil), x...)
		v[0] += ph * fromReal[E](norm)
		vv := 0.0
		for _, e := range v {
			vv += abs2(e)
		}
		vs[k], vcs[k] = v, conjugate(v)
		if vv > 0 {
			taus[k] = fromReal[E](2 / vv)
		}
		phases[k] = -ph
		for j := k; j < n; j++ {
			householder(v, vcs[k], taus[k], a[j*n+k:(j+1)*n])
		}
	}
	// Q = H₀·H₁·…·H₍ₙ₋₁₎ applied to I from the last reflector: H_k acts on
	// rows k and below, where the columns before k of the partial product
	// are still zero, so only columns k and after change.
	q := make([]E, n*n)
	for i := range n {
		q[i*n+i] = 1
	}
	for k := n - 1; k >= 0; k-- {
		for j := k; j < n; j++ {
			householder(vs[k], vcs[k], taus[k], q[j*n+k:(j+1)*n])
		}
	}
	// Without D, Q would not be Haar distributed.
	for k := range n {
		c := q[k*n : (k+1)*n]
		for i := range c {
			c[i] *= phases[k]
		}
	}
	return q
}

// householder overwrites x by (I − tau·v·vᴴ)·x, vc holding the conjugate of v.
func householder[E float64 | complex128](v, vc []E, tau E, x []E) {
	var s E
	for i, e := range vc {
		s += e * x[i]
	}
	s *= tau
	for i, e := range v {
		x[i] -= e * s
	}
}

func modulus[E float64 | complex128](v E) float64 {
	switch x := any(v).(type) {
	case float64:
		return math.Abs(x)
	case complex128:
		return cmplx.Abs(x)
	}
	panic("unreachable")
}

func abs2[E float64 | complex128](v E) float64 {
	switch x := any(v).(type) {
	case float64:
		return x * x
	case complex128:
		return real(x)*real(x) + imag(x)*imag(x)
	}
	panic("unreachable")
}

func fromReal[E float64 | complex128](x float64) E {
	var e E
	switch p := any(&e).(type) {
	case *float64:
		*p = x
	case *complex128:
		*p = complex(x, 0)
	}
	return e
}

func conjugate[E float64 | complex128](v []E) []E {
	r := make([]E, len(v))
	for i, e := range v {
		if z, ok := any(e).(complex128); ok {
			r[i] = any(cmplx.Conj(z)).(E)
		} else {
			r[i] = e
		}
	}
	return r
}

// spectrum returns n values spaced geometrically from 1 down to 1/cond.
func spectrum(n int, cond float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		if n == 1 {
			s[i] = 1
			continue
		}
		s[i] = math.Pow(cond, -float64(i)/float64(n-1))
	}
	return s
}

// SPD returns a random Hermitian (symmetric for real data) positive definite
// n×n matrix Q·diag(σ)·Qᴴ, Q Haar-random and σ geometric from 1 to 1/cond,
// so its 2-norm condition number is cond. The result is exactly Hermitian
// with a real diagonal.
func (g *Gen) SPD(n int, cond float64) *Mat {
	q := g.Unitary(n)
	s := spectrum(n, cond)
	qs := q.Clone()
	for k := range n {
		c := qs.Col(k)
		for i := range c {
			c[i] *= complex(s[k], 0)
		}
	}
	return Hermitian(Mul(qs, Op(q, core.ConjTrans)), core.Lower)
}

// WithCond returns a random n×n matrix U·diag(σ)·Vᴴ with U and V Haar-random
// and σ geometric from 1 to 1/cond: 2-norm condition number cond.
func (g *Gen) WithCond(n int, cond float64) *Mat {
	u, v := g.Unitary(n), g.Unitary(n)
	s := spectrum(n, cond)
	for k := range n {
		c := u.Col(k)
		for i := range c {
			c[i] *= complex(s[k], 0)
		}
	}
	return Mul(u, Op(v, core.ConjTrans))
}

// NotSPD returns a Hermitian n×n matrix whose leading minors of order
// 1..k−1 are positive definite (condition about 10) and whose minor of order
// k is not: its k-th Cholesky pivot is −A(k,k)/2 (A(k,k) before the change),
// far from zero, so every correct Cholesky reports info = k (1 ≤ k ≤ n),
// whatever its precision or blocking.
func (g *Gen) NotSPD(n, k int) *Mat { return NotSPDFrom(g.SPD(n, 10), k) }

// Congruent returns D·A·Dᴴ for a random diagonal D, drawn from rng, of
// moduli in [0.5, 2) (with random phases when cplx is set): Hermitian (up
// to rounding off the diagonal, which is real) and positive definite when
// A is, and a distinct matrix for each call at the cost of n² operations,
// so a test batch can reuse a few O(n³) matrices.
func Congruent(a *Mat, rng *rand.Rand, cplx bool) *Mat {
	n := a.Rows
	d := make([]complex128, n)
	for i := range d {
		d[i] = complex(0.5+1.5*rng.Float64(), 0)
		if cplx {
			d[i] *= cmplx.Rect(1, 2*math.Pi*rng.Float64())
		}
	}
	r := New(n, n)
	for j := range n {
		for i := range n {
			v := d[i] * a.At(i, j) * cmplx.Conj(d[j])
			if i == j {
				v = complex(real(v), 0)
			}
			r.Set(i, j, v)
		}
	}
	return r
}

// NotSPDFrom returns a copy of the Hermitian positive definite A with
// A(k,k) (1-based) lowered so that the k-th Cholesky pivot becomes −A(k,k)/2:
// the leading minors of order below k stay as they were, the one of order k
// has one negative eigenvalue, and every correct Cholesky reports info = k.
func NotSPDFrom(spd *Mat, k int) *Mat {
	a := spd.Clone()
	j := k - 1
	// The k-th pivot is A(j,j) − ‖L₁₁⁻¹·a₁₂‖², L₁₁ the factor of the leading j×j block.
	d := real(a.At(j, j))
	if j > 0 {
		f, _ := Potrf(core.Lower, a.Sub(0, 0, j, j))
		y := Trsm(core.Left, core.Lower, core.NoTrans, core.NonUnit, 1, f, a.Sub(0, j, j, 1))
		for _, v := range y.Data {
			d -= real(v)*real(v) + imag(v)*imag(v)
		}
	}
	half := 0.5 * real(a.At(j, j))
	a.Set(j, j, complex(real(a.At(j, j))-d-half, 0))
	return a
}

// TinyPivotFrom returns a Hermitian positive definite matrix built on the
// positive definite A whose k-th Cholesky pivot (1-based) is exactly pivot
// (a float32 subnormal, say: pivot and its square root must be exact in
// the precision tested), with column k of L still coupled to the rows
// below it: row and column k−1 of A are replaced by those of v·vᵀ and v·vᵀ
// is added to the trailing block, where v is zero above k−1, √pivot at k−1
// and v(i) = ½·u·√A(i,i) below, u uniform in [−1, 1]. Row k−1 is zero left
// of the diagonal, so the first k−1 columns of L are A's, the pivot is
// A(k−1,k−1) = pivot, column k−1 of L is v, and the trailing Schur
// complement is A's with row and column k−1 removed.
func TinyPivotFrom(spd *Mat, k int, pivot float64, rng *rand.Rand) *Mat {
	a := spd.Clone()
	n, j := a.Rows, k-1
	v := make([]float64, n)
	v[j] = math.Sqrt(pivot)
	for i := j + 1; i < n; i++ {
		v[i] = 0.5 * (2*rng.Float64() - 1) * math.Sqrt(real(spd.At(i, i)))
	}
	for c := range n {
		a.Set(j, c, complex(v[j]*v[c], 0))
		a.Set(c, j, complex(v[c]*v[j], 0))
	}
	for c := j + 1; c < n; c++ {
		for i := j + 1; i < n; i++ {
			a.Set(i, c, a.At(i, c)+complex(v[i]*v[c], 0))
		}
	}
	return a
}

// ZeroColumn returns a random m×n matrix with column j zero: LU with partial
// pivoting keeps that column exactly zero, so info = j+1 (for j < min(m,n))
// in any precision and blocking.
func (g *Gen) ZeroColumn(m, n, j int) *Mat {
	a := g.General(m, n)
	clear(a.Col(j))
	return a
}

// ZeroRow returns a random n×n matrix with row i zero: that row's
// multipliers are exactly zero, so it stays zero, is never the unique
// largest candidate, and is chosen last, giving U(n, n) = 0 and info = n.
func (g *Gen) ZeroRow(n, i int) *Mat {
	a := g.General(n, n)
	for j := range n {
		a.Set(i, j, 0)
	}
	return a
}

// Dominant returns an m×n matrix with off-diagonal entries of modulus below 1
// and diagonal entries of modulus between 2·max(m,n) and 4·max(m,n): strictly
// diagonally dominant by columns, so LU with partial pivoting never
// interchanges rows and every pivot wins by a factor of at least about 2.
func (g *Gen) Dominant(m, n int) *Mat {
	a := New(m, n)
	for i := range a.Data {
		a.Data[i] = g.Uniform()
	}
	w := float64(max(m, n))
	for k := range min(m, n) {
		a.Set(k, k, g.Phase()*complex(2*w*(1+g.rng.Float64()), 0))
	}
	return a
}

// DominantPermuted returns P·D for a Dominant D and a random row
// permutation P: partial pivoting must recover the permutation, and no
// pivot choice is close, so the pivot sequence is unambiguous.
func (g *Gen) DominantPermuted(m, n int) *Mat {
	d := g.Dominant(m, n)
	a := New(m, n)
	perm := g.rng.Perm(m)
	for i, p := range perm {
		for j := range n {
			a.Set(p, j, d.At(i, j))
		}
	}
	return a
}

// TriangularOperand returns an n×n matrix whose triangles are both well
// conditioned: off-diagonal entries of modulus below 1/n, diagonal entries
// of modulus between 1 and 2 (so each triangle is diagonally dominant by
// rows and columns, with or without a unit diagonal).
func (g *Gen) TriangularOperand(n int) *Mat {
	a := New(n, n)
	for i := range a.Data {
		a.Data[i] = g.Uniform() / complex(float64(max(1, n)), 0)
	}
	for k := range n {
		a.Set(k, k, g.Phase()*complex(1+g.rng.Float64(), 0))
	}
	return a
}

// PlantNaN sets A(i, j) to NaN (real part NaN, imaginary part zero).
func PlantNaN(a *Mat, i, j int) { a.Set(i, j, complex(math.NaN(), 0)) }
