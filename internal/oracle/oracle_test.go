package oracle

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas/batchlas/internal/core"
)

const eps64 = 0x1p-53

var crossSizes = []int{1, 2, 3, 7, 16, 33, 65, 100}

// rowMajor copies a real Mat into gonum's row-major layout.
func rowMajor(a *Mat) []float64 {
	r := make([]float64, a.Rows*a.Cols)
	for i := range a.Rows {
		for j := range a.Cols {
			r[i*a.Cols+j] = real(a.At(i, j))
		}
	}
	return r
}

// maxDiff is the largest |a(i,j) − r[i*cols+j]| over the elements keep selects.
func maxDiff(a *Mat, r []float64, keep func(i, j int) bool) float64 {
	d := 0.0
	for i := range a.Rows {
		for j := range a.Cols {
			if keep(i, j) {
				d = nanMax(d, math.Abs(real(a.At(i, j))-r[i*a.Cols+j]))
			}
		}
	}
	return d
}

func TestPotrfAgainstGonum(t *testing.T) {
	impl := gonum.Implementation{}
	for _, n := range crossSizes {
		for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
			a := NewGen(uint64(n), false).SPD(n, 1e4)
			f, info := Potrf(uplo, a)
			if info != 0 {
				t.Fatalf("n=%d %v: info %d for an SPD matrix", n, uplo, info)
			}
			r := rowMajor(a)
			gu := blas.Lower
			if uplo == core.Upper {
				gu = blas.Upper
			}
			if !impl.Dpotrf(gu, n, r, n) {
				t.Fatalf("n=%d %v: gonum Dpotrf failed", n, uplo)
			}
			inTri := func(i, j int) bool { return (uplo == core.Lower) == (i >= j) || i == j }
			// Both are backward stable; with cond 1e4 the factors agree to about cond·eps.
			if d := maxDiff(f, r, inTri); !(d <= 1e4*float64(n)*eps64*NormMax(a)*10) {
				t.Errorf("n=%d %v: factor differs from gonum by %g", n, uplo, d)
			}
			if res := CholeskyResidual(a, f, uplo, eps64); !(res <= 4) {
				t.Errorf("n=%d %v: residual %g", n, uplo, res)
			}
		}
	}
}

func TestGetrfGetriAgainstGonum(t *testing.T) {
	impl := gonum.Implementation{}
	shapes := [][2]int{{5, 3}, {3, 5}, {40, 31}}
	for _, n := range crossSizes {
		shapes = append(shapes, [2]int{n, n})
	}
	for _, sh := range shapes {
		m, n := sh[0], sh[1]
		for _, kind := range []string{"dominant", "general"} {
			g := NewGen(uint64(m*1000+n), false)
			a := g.DominantPermuted(m, n)
			if kind == "general" {
				a = g.General(m, n)
			}
			lu := Getrf(a)
			r := rowMajor(a)
			ipiv := make([]int, min(m, n))
			impl.Dgetrf(m, n, r, n, ipiv)
			for k, p := range ipiv {
				// Compare pivots while no choice is within rounding of a tie.
				if lu.Margins[k] > 1-1e-8 {
					break
				}
				if int(lu.Pivots[k])-1 != p {
					t.Fatalf("%s %d×%d: pivot %d is %d, gonum %d", kind, m, n, k, lu.Pivots[k]-1, p)
				}
			}
			if kind == "dominant" {
				for k, mg := range lu.Margins {
					if !(mg < 0.5) {
						t.Errorf("%d×%d: dominant matrix has margin %g at step %d", m, n, mg, k)
					}
				}
			}
			if d := maxDiff(lu.Factors, r, func(i, j int) bool { return true }); !(d <= 1e3*float64(max(m, n))*eps64*NormMax(a)) {
				t.Errorf("%s %d×%d: factors differ from gonum by %g", kind, m, n, d)
			}
			if res := LUResidual(a, lu.Factors, lu.Pivots, eps64); !(res <= 4) {
				t.Errorf("%s %d×%d: LU residual %g", kind, m, n, res)
			}
			if m != n {
				continue
			}
			inv, info := Getri(lu.Factors, lu.Pivots)
			if info != 0 {
				t.Fatalf("%s n=%d: Getri info %d", kind, n, info)
			}
			work := make([]float64, 4*n)
			if !impl.Dgetri(n, r, n, ipiv, work, len(work)) {
				t.Fatalf("%s n=%d: gonum Dgetri failed", kind, n)
			}
			scale := NormMax(inv)
			if d := maxDiff(inv, r, func(i, j int) bool { return true }); !(d <= 1e5*float64(n)*eps64*scale) {
				t.Errorf("%s n=%d: inverse differs from gonum by %g (scale %g)", kind, n, d, scale)
			}
			if res := InverseResidual(a, inv, eps64); !(res <= 4) {
				t.Errorf("%s n=%d: inverse residual %g", kind, n, res)
			}
		}
	}
}

func TestGenerators(t *testing.T) {
	for _, cplx := range []bool{false, true} {
		for _, n := range []int{1, 2, 5, 17, 40} {
			name := fmt.Sprintf("complex=%v/n=%d", cplx, n)
			g := NewGen(uint64(n)+7, cplx)
			q := g.Unitary(n)
			if res := InverseResidual(q, Op(q, core.ConjTrans), eps64); !(res <= 4) {
				t.Errorf("%s: Qᴴ is not Q⁻¹: residual %g", name, res)
			}
			a := g.SPD(n, 1e6)
			if _, info := Potrf(core.Lower, a); info != 0 {
				t.Errorf("%s: SPD matrix has info %d", name, info)
			}
			// ‖A‖₂ = 1 and ‖A⁻¹‖₂ = cond; the 1-norms are within a factor n.
			inv, _ := Inverse(a)
			if c := Norm1(a) * Norm1(inv); n > 1 && !(c >= 1e6/float64(n) && c <= 1e6*float64(n)) {
				t.Errorf("%s: condition estimate %g for cond 1e6", name, c)
			}
			for _, k := range []int{1, (n + 1) / 2, n} {
				for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
					if _, info := Potrf(uplo, g.NotSPD(n, k)); info != k {
						t.Errorf("%s: NotSPD(k=%d) %v gives info %d", name, k, uplo, info)
					}
				}
			}
			for _, k := range []int{1, (n + 1) / 2, n} {
				const pivot = 0x1p-140
				a := TinyPivotFrom(g.SPD(n, 10), k, pivot, rand.New(rand.NewPCG(uint64(n), uint64(k))))
				f, info := Potrf(core.Lower, a)
				if info != 0 || real(f.At(k-1, k-1)) != 0x1p-70 {
					t.Errorf("%s: TinyPivotFrom(k=%d): info %d, L(k,k) = %v, want 0 and 2⁻⁷⁰", name, k, info, f.At(k-1, k-1))
				}
				if k < n && real(f.At(n-1, k-1)) == 0 {
					t.Errorf("%s: TinyPivotFrom(k=%d): L(n,k) is zero, not coupled", name, k)
				}
			}
			for _, j := range []int{0, n / 2, n - 1} {
				if lu := Getrf(g.ZeroColumn(n, n, j)); lu.Info != j+1 {
					t.Errorf("%s: ZeroColumn(%d) gives info %d", name, j, lu.Info)
				}
				if lu := Getrf(g.ZeroRow(n, j)); lu.Info != n {
					t.Errorf("%s: ZeroRow(%d) gives info %d", name, j, lu.Info)
				}
			}
			lu := Getrf(g.DominantPermuted(n, n))
			for k, mg := range lu.Margins {
				if !(mg < 0.5) {
					t.Errorf("%s: dominant permuted margin %g at %d", name, mg, k)
				}
			}
			if n == 1 {
				continue
			}
			w := g.WithCond(n, 1e3)
			winv, _ := Inverse(w)
			if c := Norm1(w) * Norm1(winv); !(c >= 1e3/float64(n) && c <= 1e3*float64(n)) {
				t.Errorf("%s: WithCond condition estimate %g for 1e3", name, c)
			}
		}
	}
	// Determinism: the same seed gives the same bits.
	x, y := NewGen(42, true).SPD(9, 100), NewGen(42, true).SPD(9, 100)
	for i := range x.Data {
		if x.Data[i] != y.Data[i] {
			t.Fatal("generator is not deterministic")
		}
	}
}

func TestComplexFactorizations(t *testing.T) {
	for _, n := range []int{1, 4, 19} {
		g := NewGen(uint64(n), true)
		a := g.SPD(n, 1e5)
		for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
			// Only the uplo triangle may be read: spoil the other.
			in := a.Clone()
			for j := range n {
				for i := range n {
					if (uplo == core.Lower && i < j) || (uplo == core.Upper && i > j) {
						in.Set(i, j, complex(Poison, 1))
					}
				}
			}
			f, info := Potrf(uplo, in)
			if info != 0 {
				t.Fatalf("n=%d %v: info %d", n, uplo, info)
			}
			if res := CholeskyResidual(a, f, uplo, eps64); !(res <= 4) {
				t.Errorf("n=%d %v: Cholesky residual %g", n, uplo, res)
			}
			b := g.General(n, 3)
			if res := SolveResidual(a, core.NoTrans, Potrs(uplo, f, b), b, eps64); !(res <= 4) {
				t.Errorf("n=%d %v: Potrs residual %g", n, uplo, res)
			}
		}
		w := g.WithCond(n, 1e4)
		lu := Getrf(w)
		if res := LUResidual(w, lu.Factors, lu.Pivots, eps64); !(res <= 4) {
			t.Errorf("n=%d: complex LU residual %g", n, res)
		}
		if gr := Growth(lu.Factors); !(gr <= 1+64*eps64) {
			t.Errorf("n=%d: pivot growth %g", n, gr)
		}
		b := g.General(n, 2)
		for _, tr := range []core.Transpose{core.NoTrans, core.Trans, core.ConjTrans} {
			x := Getrs(tr, lu.Factors, lu.Pivots, b)
			if res := SolveResidual(w, tr, x, b, eps64); !(res <= 4) {
				t.Errorf("n=%d %v: Getrs residual %g", n, tr, res)
			}
		}
	}
}

// TestTriangular checks Trsm against Trmm (each undoes the other) and Trmm
// against Gemm on the explicit triangle, for every combination.
func TestTriangular(t *testing.T) {
	g := NewGen(5, true)
	for _, side := range []core.Side{core.Left, core.Right} {
		for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
			for _, tr := range []core.Transpose{core.NoTrans, core.Trans, core.ConjTrans} {
				for _, diag := range []core.Diag{core.NonUnit, core.Unit} {
					name := fmt.Sprintf("%v/%v/%v/%v", side, uplo, tr, diag)
					m, n := 6, 4
					k := m
					if side == core.Right {
						k = n
					}
					a := g.TriangularOperand(k)
					b := g.General(m, n)
					alpha := g.Scalar()
					y := Trmm(side, uplo, tr, diag, alpha, a, b)
					x := Trsm(side, uplo, tr, diag, alpha, a, y)
					// x = alpha²·b up to rounding.
					want := Add(alpha*alpha, b, 0, nil)
					if d := NormMax(Add(1, x, -1, want)); !(d <= 100*eps64*NormMax(want)) {
						t.Errorf("%s: Trsm(Trmm(B)) differs from alpha²·B by %g", name, d)
					}
					tri := Triangle(a, uplo, diag)
					var ref *Mat
					if side == core.Left {
						ref = Gemm(tr, core.NoTrans, alpha, tri, b, 0, nil)
					} else {
						ref = Gemm(core.NoTrans, tr, alpha, b, tri, 0, nil)
					}
					if d := NormMax(Add(1, y, -1, ref)); !(d <= 100*eps64*NormMax(ref)) {
						t.Errorf("%s: Trmm differs from Gemm by %g", name, d)
					}
				}
			}
		}
	}
}

func TestRankK(t *testing.T) {
	g := NewGen(9, true)
	a := g.General(5, 3)
	c := g.General(5, 5)
	for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
		h := Herk(uplo, core.NoTrans, 0.5, a, 2, c)
		full := Add(0.5, Mul(a, Op(a, core.ConjTrans)), 0, nil)
		for j := range 5 {
			for i := range 5 {
				inTri := i == j || (uplo == core.Lower) == (i > j)
				want := c.At(i, j)
				if inTri {
					cij := c.At(i, j)
					if i == j {
						cij = complex(real(cij), 0)
					}
					want = full.At(i, j) + 2*cij
				}
				if i == j && imag(h.At(i, i)) != 0 {
					t.Errorf("%v: Herk diagonal (%d) not real", uplo, i)
				}
				if i == j {
					want = complex(real(want), 0)
				}
				if cmplx.Abs(h.At(i, j)-want) > 1e-13 {
					t.Errorf("%v: Herk(%d,%d) = %v, want %v", uplo, i, j, h.At(i, j), want)
				}
			}
		}
		s := Syrk(uplo, core.Trans, 1, a, 0, c.Sub(0, 0, 3, 3))
		sf := Mul(Op(a, core.Trans), a)
		for j := range 3 {
			for i := range 3 {
				if (i == j || (uplo == core.Lower) == (i > j)) && cmplx.Abs(s.At(i, j)-sf.At(i, j)) > 1e-13 {
					t.Errorf("%v: Syrk(%d,%d) wrong", uplo, i, j)
				}
			}
		}
	}
}

func TestMetricsPropagateNaN(t *testing.T) {
	g := NewGen(3, false)
	a := g.SPD(6, 10)
	f, _ := Potrf(core.Lower, a)
	bad := f.Clone()
	PlantNaN(bad, 4, 2)
	if r := CholeskyResidual(a, bad, core.Lower, eps64); !math.IsNaN(r) {
		t.Errorf("CholeskyResidual with a NaN factor = %g, want NaN", r)
	}
	lu := Getrf(a)
	badLU := lu.Factors.Clone()
	PlantNaN(badLU, 0, 5)
	if r := LUResidual(a, badLU, lu.Pivots, eps64); !math.IsNaN(r) {
		t.Errorf("LUResidual with NaN = %g", r)
	}
	x := a.Clone()
	PlantNaN(x, 5, 5)
	if r := InverseResidual(a, x, eps64); !math.IsNaN(r) {
		t.Errorf("InverseResidual with NaN = %g", r)
	}
	if r := SolveResidual(a, core.NoTrans, x, a, eps64); !math.IsNaN(r) {
		t.Errorf("SolveResidual with NaN = %g", r)
	}
	if r := ComponentwiseError(x, a, Abs(a), 3, eps64); !math.IsNaN(r) {
		t.Errorf("ComponentwiseError with NaN = %g", r)
	}
	for _, norm := range []func(*Mat) float64{Norm1, NormFrob, NormMax} {
		if r := norm(x); !math.IsNaN(r) {
			t.Errorf("norm with NaN = %g", r)
		}
	}
	// A NaN in the first element must survive later larger elements.
	y := New(2, 1)
	PlantNaN(y, 0, 0)
	y.Set(1, 0, 1e300)
	if !math.IsNaN(NormMax(y)) || !math.IsNaN(Norm1(y)) {
		t.Error("a leading NaN is hidden by a later maximum")
	}
	// Exact results against a zero scale are zero, inexact ones infinite.
	z := New(2, 2)
	if r := ComponentwiseError(z, z, z, 1, eps64); r != 0 {
		t.Errorf("0 error on 0 scale = %g", r)
	}
	z1 := z.Clone()
	z1.Set(1, 1, 1e-300)
	if r := ComponentwiseError(z1, z, z, 1, eps64); !math.IsInf(r, 1) {
		t.Errorf("nonzero error on 0 scale = %g", r)
	}
}

func TestStridedRoundTrip(t *testing.T) {
	s := NewStrided[complex64](3, 2, 3, 2, 5)
	if s.LD != 5 || s.Stride != 15 || len(s.Data) != 45 {
		t.Fatalf("layout %+v", s)
	}
	if err := s.Check("s"); err != nil {
		t.Fatal(err)
	}
	m := NewGen(1, true).General(3, 2)
	Store(s, 1, m)
	got := Load(s, 1)
	for i := range m.Data {
		if got.Data[i] != complex128(complex64(m.Data[i])) {
			t.Fatalf("round trip element %d", i)
		}
	}
	touched := 0
	for _, v := range s.Data {
		if !SameBits(v, PoisonValue[complex64]()) {
			touched++
		}
	}
	if touched != 6 {
		t.Errorf("Store wrote %d elements, want 6", touched)
	}
	one := Item(s, 1)
	if one.Count != 1 || !SameBits(one.Data[0], s.Data[s.Stride]) {
		t.Error("Item does not copy matrix 1")
	}
	if SameBits[float64](0, math.Copysign(0, -1)) {
		t.Error("SameBits does not tell +0 from −0")
	}
	type named float32
	if ToComplex(named(2)) != 2 || FromComplex[named](3) != 3 {
		t.Error("named scalar conversion")
	}
}

func TestCongruent(t *testing.T) {
	for _, cplx := range []bool{false, true} {
		a := NewGen(5, cplx).SPD(12, 100)
		rng := rand.New(rand.NewPCG(1, 2))
		b, c := Congruent(a, rng, cplx), Congruent(a, rng, cplx)
		if _, info := Potrf(core.Lower, b); info != 0 {
			t.Errorf("complex %v: D·A·Dᴴ is not positive definite (info %d)", cplx, info)
		}
		same := true
		for j := range 12 {
			for i := range 12 {
				if v, w := b.At(i, j), cmplx.Conj(b.At(j, i)); cmplx.Abs(v-w) > 1e-15*cmplx.Abs(v) {
					t.Fatalf("complex %v: (%d,%d) = %v, conj of (%d,%d) = %v", cplx, i, j, v, j, i, w)
				}
				if i == j && imag(b.At(i, i)) != 0 {
					t.Errorf("complex %v: diagonal %d = %v", cplx, i, b.At(i, i))
				}
				same = same && b.At(i, j) == c.At(i, j)
			}
		}
		if same {
			t.Errorf("complex %v: two calls gave the same matrix", cplx)
		}
	}
}
