package oracle

import (
	"math"
	"math/cmplx"
	"runtime"

	"github.com/batchlas/batchlas/internal/core"
)

// nanMax returns the larger of a and b, and NaN when either is NaN.
func nanMax(a, b float64) float64 {
	if a != a || b != b {
		return math.NaN()
	}
	return max(a, b)
}

// ratio is num/den for non-negative num and den, with 0/0 = 0 (an exact
// result against a zero scale), x/0 = +Inf for x > 0, and NaN in either
// giving NaN.
func ratio(num, den float64) float64 {
	switch {
	case num != num || den != den:
		return math.NaN()
	case num == 0:
		return 0
	case den == 0:
		return math.Inf(1)
	}
	return num / den
}

// Norm1 is the largest column sum of moduli.
func Norm1(a *Mat) float64 {
	r := 0.0
	for j := range a.Cols {
		s := 0.0
		for _, v := range a.Col(j) {
			s += cmplx.Abs(v)
		}
		r = nanMax(r, s)
	}
	return r
}

// NormFrob is the Frobenius norm.
func NormFrob(a *Mat) float64 {
	// Scaled sum of squares would avoid overflow; the test data is far from it.
	s := 0.0
	for _, v := range a.Data {
		s += real(v)*real(v) + imag(v)*imag(v)
	}
	return math.Sqrt(s)
}

// NormMax is the largest element modulus.
func NormMax(a *Mat) float64 {
	r := 0.0
	for _, v := range a.Data {
		r = nanMax(r, cmplx.Abs(v))
	}
	return r
}

// CholeskyResidual is ‖A − L·Lᴴ‖_F / (n·‖A‖_F·eps) for Lower or
// ‖A − Uᴴ·U‖_F / (n·‖A‖_F·eps) for Upper, A the full Hermitian matrix and the
// factor read from the uplo triangle of f (the other triangle not read).
func CholeskyResidual(a, f *Mat, uplo core.Uplo, eps float64) float64 {
	l := Factor(f, uplo)
	if uplo == core.Upper {
		l = Op(l, core.ConjTrans)
	}
	// L·Lᴴ and A are Hermitian: the lower triangle, off-diagonal elements
	// counted twice, gives the Frobenius norm in a sixth of a full product.
	// Each column's sum is its own, added up in column order afterwards, so
	// the value does not depend on how many workers made it.
	n := a.Rows
	colSums := make([]float64, n)
	workers := runtime.GOMAXPROCS(0)
	accs := make([][]complex128, workers) // one accumulator a worker
	column := func(worker, j int) {
		if accs[worker] == nil {
			accs[worker] = make([]complex128, n)
		}
		acc := accs[worker]
		clear(acc[j:])
		for p := 0; p <= j; p++ {
			c := cmplx.Conj(l.At(j, p))
			lp := l.Col(p)
			for i := j; i < n; i++ {
				acc[i] += lp[i] * c
			}
		}
		aj := a.Col(j)
		s := 0.0
		for i := j; i < n; i++ {
			d := aj[i] - acc[i]
			e := real(d)*real(d) + imag(d)*imag(d)
			if i != j {
				e *= 2
			}
			s += e
		}
		colSums[j] = s
	}
	if n < parallelCheckOrder {
		for j := range n {
			column(0, j)
		}
	} else {
		ParallelForN(n, workers, column)
	}
	sum := 0.0
	for _, s := range colSums {
		sum += s
	}
	return ratio(math.Sqrt(sum), float64(max(1, n))*NormFrob(a)*eps)
}

// LUResidual is ‖P·A − L·U‖_F / (k·‖A‖_F·eps), k = min(m, n), the factors
// and pivots as Getrf stores them.
func LUResidual(a, f *Mat, pivots []int32, eps float64) float64 {
	l, u := Unpack(f)
	d := Add(1, Permute(a, pivots), -1, Mul(l, u))
	k := max(1, min(a.Rows, a.Cols))
	return ratio(NormFrob(d), float64(k)*NormFrob(a)*eps)
}

// SolveResidual is the largest over the columns j of
// ‖b_j − op(A)·x_j‖₁ / (‖op(A)‖₁·‖x_j‖₁·n·eps), the measure of LAPACK's
// dget02: small exactly when each column is solved with a small backward error.
func SolveResidual(a *Mat, trans core.Transpose, x, b *Mat, eps float64) float64 {
	oa := Op(a, trans)
	r := Add(1, b, -1, Mul(oa, x))
	an := Norm1(oa)
	n := float64(max(1, a.Rows))
	worst := 0.0
	for j := range x.Cols {
		xn := 0.0
		for _, v := range x.Col(j) {
			xn += cmplx.Abs(v)
		}
		rn := 0.0
		for _, v := range r.Col(j) {
			rn += cmplx.Abs(v)
		}
		worst = nanMax(worst, ratio(rn, an*xn*n*eps))
	}
	return worst
}

// InverseResidual is ‖A·X − I‖₁ / (n·‖A‖₁·‖X‖₁·eps) for a computed inverse
// X of A, the measure of LAPACK's dget03.
func InverseResidual(a, x *Mat, eps float64) float64 {
	n := a.Rows
	d := Add(1, Mul(a, x), -1, Identity(n))
	return ratio(Norm1(d), float64(max(1, n))*Norm1(a)*Norm1(x)*eps)
}

// ComponentwiseError is the largest over the elements of
// |got − want| / (bound·(k+2)·eps), bound holding the element-wise scale of
// the computation (for Gemm |α|·|op(A)|·|op(B)| + |β|·|C₀|). An element whose
// bound is zero must match exactly.
func ComponentwiseError(got, want, bound *Mat, k int, eps float64) float64 {
	worst := 0.0
	f := float64(k+2) * eps
	for i, g := range got.Data {
		worst = nanMax(worst, ratio(cmplx.Abs(g-want.Data[i]), real(bound.Data[i])*f))
	}
	return worst
}

// GemmBound is |α|·|op(A)|·|op(B)| + |β|·|C|, the scale ComponentwiseError
// divides a Gemm error by; operands with a zero coefficient are not read.
func GemmBound(transA, transB core.Transpose, alpha complex128, a, b *Mat, beta complex128, c *Mat) *Mat {
	return Gemm(transA, transB, complex(cmplx.Abs(alpha), 0), Abs(a), Abs(b), complex(cmplx.Abs(beta), 0), Abs(c))
}

// Growth is the LU pivot growth max cabs1(L(i,k)·U(k,k)) / cabs1(U(k,k)) over
// the columns of the factors: at most 1 for exact partial pivoting, at most
// 1 plus a few eps for a computed one.
func Growth(f *Mat) float64 {
	g := 0.0
	for k := range min(f.Rows, f.Cols) {
		ukk := f.At(k, k)
		d := Cabs1(ukk)
		for i := k + 1; i < f.Rows; i++ {
			g = nanMax(g, ratio(Cabs1(f.At(i, k)*ukk), d))
		}
	}
	return g
}
