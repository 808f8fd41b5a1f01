package conformance

import (
	"fmt"
	"math"
	"testing"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/oracle"
)

// blasCount is the number of matrices in a BLAS test batch: first, middle
// and last positions all differ.
const blasCount = 3

// Special cases of the BLAS calls, each the reference BLAS's documented
// behaviour: beta = 0 does not read C (it holds NaN), alpha = 0 does not
// read A or B (they hold NaN), and both zero gives exact zeros.
const (
	plain     = ""
	beta0     = "beta=0"
	alpha0    = "alpha=0"
	bothZero  = "alpha=0,beta=0"
	betaOne   = "beta=1"
	tightCase = "tight"
)

// sizeAt returns the size i+off places along the sweep, capped at limit,
// to pair a large dimension with a moderate one.
func sizeAt(sizes []int, i, off, limit int) int {
	return min(limit, sizes[(i+off)%len(sizes)])
}

// coefficient draws a coefficient of the kind T carries, rounded to T.
func coefficient[T core.Scalar](g *oracle.Gen) (T, complex128) {
	v := oracle.FromComplex[T](g.Scalar())
	return v, oracle.ToComplex(v)
}

// realCoefficient draws a real coefficient exactly representable in float32.
func realCoefficient(g *oracle.Gen) float64 {
	return float64(float32(real(g.Scalar())))
}

// fillGeneral stores a fresh Gaussian matrix into each item of s.
func fillGeneral[T core.Scalar](g *oracle.Gen, s core.Strided[T]) {
	for b := range s.Count {
		oracle.Store(s, b, g.General(s.Rows, s.Cols))
	}
}

func allNaN[T core.Scalar](s core.Strided[T]) {
	for b := range s.Count {
		fillNaN(s, b)
	}
}

// checkZero fails t unless every element of every matrix of s is zero.
func checkZero[T core.Scalar](t *testing.T, key, operand string, s core.Strided[T]) {
	t.Helper()
	for b := range s.Count {
		m := oracle.Load(s, b)
		for x, v := range m.Data {
			if v != 0 {
				t.Errorf("%s: item %d: %s(%d,%d) = %v, want exactly 0 (alpha = 0 must not read its operands)", key, b, operand, x%m.Rows, x/m.Rows, v)
				return
			}
		}
	}
}

// ---- Gemm ----

var allTrans = []core.Transpose{core.NoTrans, core.Trans, core.ConjTrans}

// dims returns the stored shape of an operand whose op() is r×c.
func dims(t core.Transpose, r, c int) (int, int) {
	if t == core.NoTrans {
		return r, c
	}
	return c, r
}

// GemmTest checks Gemm for all nine transpose pairs on shapes straddling
// block edges, the element-wise error against the oracle, the special
// cases (beta = 0 with C holding NaN, alpha = 0 with A and B holding NaN,
// k = 0, beta = 1), inputs and padding untouched, and each matrix
// bit-identical to its product alone.
func GemmTest[T core.Scalar](t *testing.T, impl Gemmer[T], cfg ...Config) {
	s := setup(t, cfg)
	t.Run("Empty", func(t *testing.T) {
		for _, sh := range [][4]int{{0, 3, 2, 3}, {3, 0, 2, 3}, {3, 3, 2, 0}} {
			gemmCase(t, s, impl, caseKey[T]("Gemm", fmt.Sprintf("Empty/m=%d/n=%d/k=%d/count=%d", sh[0], sh[1], sh[2], sh[3])),
				core.NoTrans, core.NoTrans, sh[0], sh[1], sh[2], sh[3], plain)
		}
	})
	for _, sp := range []string{beta0, alpha0, bothZero, betaOne} {
		for _, tr := range [][2]core.Transpose{{core.NoTrans, core.NoTrans}, {core.ConjTrans, core.Trans}} {
			name := fmt.Sprintf("%s/%v/%v", sp, tr[0], tr[1])
			t.Run(name, func(t *testing.T) {
				gemmCase(t, s, impl, caseKey[T]("Gemm", name), tr[0], tr[1], 9, 7, 5, blasCount, sp)
			})
		}
	}
	t.Run("k=0", func(t *testing.T) {
		gemmCase(t, s, impl, caseKey[T]("Gemm", "k=0"), core.NoTrans, core.Trans, 4, 3, 0, blasCount, plain)
	})
	var combos [][2]core.Transpose
	for _, ta := range allTrans {
		for _, tb := range allTrans {
			combos = append(combos, [2]core.Transpose{ta, tb})
		}
	}
	run := func(c [2]core.Transpose, m, n, k int, sp string) {
		name := fmt.Sprintf("%v/%v/m=%d/n=%d/k=%d", c[0], c[1], m, n, k)
		if sp != plain {
			name += "/" + sp
		}
		t.Run(name, func(t *testing.T) { gemmCase(t, s, impl, caseKey[T]("Gemm", name), c[0], c[1], m, n, k, blasCount, sp) })
	}
	for _, c := range combos {
		for _, sh := range [][3]int{{1, 1, 1}, {2, 3, 4}, {7, 9, 5}, {17, 16, 33}} {
			run(c, sh[0], sh[1], sh[2], plain)
		}
	}
	for i, n := range s.sizes {
		c := combos[i%len(combos)]
		if n <= 255 {
			run(c, n, n, n, plain)
			run(combos[(i+4)%len(combos)], n, sizeAt(s.sizes, i, 4, 65), sizeAt(s.sizes, i, 7, 65), plain)
		} else {
			run(c, n, 33, n, plain)
			run(combos[(i+4)%len(combos)], 33, n, n, plain)
		}
	}
	for _, n := range tightSizes(s.sizes) {
		run(combos[n%len(combos)], n, n, n, tightCase)
	}
}

func gemmCase[T core.Scalar](t *testing.T, s *settings, impl Gemmer[T], key string, ta, tb core.Transpose, m, n, k, count int, special string) {
	g := oracle.GenFor[T](seedOf(key))
	ar, ac := dims(ta, m, k)
	br, bc := dims(tb, k, n)
	var a, b, c core.Strided[T]
	if special == tightCase {
		a = oracle.NewStrided[T](ar, ac, count, 0, 0)
		b = oracle.NewStrided[T](br, bc, count, 0, 0)
		c = oracle.NewStrided[T](m, n, count, 0, 0)
	} else {
		a = batch[T](key, "A", ar, ac, count)
		b = batch[T](key, "B", br, bc, count)
		c = batch[T](key, "C", m, n, count)
	}
	fillGeneral(g, a)
	fillGeneral(g, b)
	fillGeneral(g, c)
	alpha, al := coefficient[T](g)
	beta, be := coefficient[T](g)
	switch special {
	case beta0:
		beta, be = 0, 0
		allNaN(c)
	case alpha0:
		alpha, al = 0, 0
		allNaN(a)
		allNaN(b)
	case bothZero:
		alpha, al, beta, be = 0, 0, 0, 0
		allNaN(a)
		allNaN(b)
		allNaN(c)
	case betaOne:
		beta, be = 1, 1
	}
	ina, inb, inc := oracle.Clone(a), oracle.Clone(b), oracle.Clone(c)
	s.must(t, key, impl.Gemm(ta, tb, alpha, a, b, beta, c))
	checkUntouched(t, key, "A", ina, a, nothing)
	checkUntouched(t, key, "B", inb, b, nothing)
	checkUntouched(t, key, "C", inc, c, everything)
	eps := core.Eps[T]()
	for i := range count {
		ai, bi, ci := oracle.Load(ina, i), oracle.Load(inb, i), oracle.Load(inc, i)
		ref := oracle.Gemm(ta, tb, al, ai, bi, be, ci)
		bound := oracle.GemmBound(ta, tb, al, ai, bi, be, ci)
		r := oracle.ComponentwiseError(oracle.Load(c, i), ref, bound, k, eps)
		checkBound(t, key, i, "random", "|C − Cref|/((|α|·|A|·|B| + |β|·|C₀|)·(k+2)·eps)", r, BLASBound)
		oa, ob, oc := oracle.Item(ina, i), oracle.Item(inb, i), oracle.Item(inc, i)
		s.must(t, key, impl.Gemm(ta, tb, alpha, oa, ob, beta, oc))
		checkSameItem(t, s, key, "C", c, i, oc)
	}
}

// ---- Trsm and Trmm ----

type triCombo struct {
	side  core.Side
	uplo  core.Uplo
	trans core.Transpose
	diag  core.Diag
}

func (c triCombo) String() string { return fmt.Sprintf("%v/%v/%v/%v", c.side, c.uplo, c.trans, c.diag) }

func triCombos() []triCombo {
	var r []triCombo
	for _, side := range []core.Side{core.Left, core.Right} {
		for _, uplo := range uplos {
			for _, tr := range allTrans {
				for _, d := range []core.Diag{core.NonUnit, core.Unit} {
					r = append(r, triCombo{side, uplo, tr, d})
				}
			}
		}
	}
	return r
}

// triSweep calls run for every combination on small shapes, then along the
// sizes with the triangular order swept (and a square B up to 129), the
// combinations rotating.
func triSweep(t *testing.T, sizes []int, run func(c triCombo, m, n int, special string)) {
	combos := triCombos()
	for _, c := range combos {
		for _, sh := range [][2]int{{1, 1}, {4, 3}, {9, 7}, {33, 17}, {9, 33}} { // 9×33: a Right solve's diagonal block of 32
			run(c, sh[0], sh[1], plain)
		}
	}
	for i, n := range sizes {
		for j, c := range []triCombo{combos[(7*i)%24], combos[(7*i+12)%24]} {
			other := sizeAt(sizes, i, 3+j, 33)
			if c.side == core.Left {
				run(c, n, other, plain)
			} else {
				run(c, other, n, plain)
			}
		}
		if n <= 129 {
			run(combos[(7*i+5)%24], n, n, plain)
		}
	}
	for _, n := range tightSizes(sizes) {
		run(combos[n%24], n, n, tightCase)
	}
}

// triOperands makes the A (k×k, other triangle and, for a unit diagonal,
// the diagonal poisoned) and B (m×n) batches of a Trsm or Trmm case.
func triOperands[T core.Scalar](key string, c triCombo, m, n int, special string, g *oracle.Gen, makeA func(k int) *oracle.Mat) (a, b core.Strided[T]) {
	k := m
	if c.side == core.Right {
		k = n
	}
	if special == tightCase {
		a = oracle.NewStrided[T](k, k, blasCount, 0, 0)
		b = oracle.NewStrided[T](m, n, blasCount, 0, 0)
	} else {
		a = batch[T](key, "A", k, k, blasCount)
		b = batch[T](key, "B", m, n, blasCount)
	}
	for i := range blasCount {
		oracle.Store(a, i, makeA(k))
		oracle.PoisonTriangle(a, i, c.uplo, c.diag == core.Unit)
	}
	fillGeneral(g, b)
	return a, b
}

// TrsmTest checks Trsm for all 24 side/uplo/trans/diag combinations: the
// element-wise residual |op(A)·X − α·B| against (|op(A)|·|X| + |α|·|B|)·(k+2)·eps
// (triangular solves are backward stable element by element), alpha = 0
// giving exact zeros without reading A or B, A (its other triangle and a
// unit diagonal poisoned) and padding untouched, each matrix bit-identical
// to its solve alone.
func TrsmTest[T core.Scalar](t *testing.T, impl Trsmer[T], cfg ...Config) {
	s := setup(t, cfg)
	run := func(c triCombo, m, n int, special string) {
		name := fmt.Sprintf("%v/m=%d/n=%d", c, m, n)
		if special != plain {
			name += "/" + special
		}
		t.Run(name, func(t *testing.T) { trsmCase(t, s, impl, caseKey[T]("Trsm", name), c, m, n, special) })
	}
	t.Run("Empty", func(t *testing.T) {
		for _, sh := range [][2]int{{0, 3}, {3, 0}} {
			for _, side := range []core.Side{core.Left, core.Right} {
				c := triCombo{side, core.Lower, core.NoTrans, core.NonUnit}
				trsmCase(t, s, impl, caseKey[T]("Trsm", fmt.Sprintf("Empty/%v/m=%d/n=%d", c, sh[0], sh[1])), c, sh[0], sh[1], plain)
			}
		}
	})
	for _, c := range []triCombo{{core.Left, core.Upper, core.NoTrans, core.NonUnit}, {core.Right, core.Lower, core.ConjTrans, core.Unit}} {
		run(c, 6, 5, alpha0)
	}
	triSweep(t, s.sizes, run)
}

func trsmCase[T core.Scalar](t *testing.T, s *settings, impl Trsmer[T], key string, c triCombo, m, n int, special string) {
	g := oracle.GenFor[T](seedOf(key))
	a, b := triOperands[T](key, c, m, n, special, g, g.TriangularOperand)
	alpha, al := coefficient[T](g)
	if special == alpha0 {
		alpha, al = 0, 0
		allNaN(a)
		allNaN(b)
	}
	ina, inb := oracle.Clone(a), oracle.Clone(b)
	s.must(t, key, impl.Trsm(c.side, c.uplo, c.trans, c.diag, alpha, a, b))
	checkUntouched(t, key, "A", ina, a, nothing)
	checkUntouched(t, key, "B", inb, b, everything)
	if special == alpha0 {
		checkZero(t, key, "X", b)
		return
	}
	eps := core.Eps[T]()
	for i := range blasCount {
		op := oracle.Op(oracle.Triangle(oracle.Load(ina, i), c.uplo, c.diag), c.trans)
		x, b0 := oracle.Load(b, i), oracle.Load(inb, i)
		var lhs, scale *oracle.Mat
		if c.side == core.Left {
			lhs, scale = oracle.Mul(op, x), oracle.Mul(oracle.Abs(op), oracle.Abs(x))
		} else {
			lhs, scale = oracle.Mul(x, op), oracle.Mul(oracle.Abs(x), oracle.Abs(op))
		}
		rhs := oracle.Add(al, b0, 0, nil)
		bound := oracle.Add(1, scale, complex(math.Hypot(real(al), imag(al)), 0), oracle.Abs(b0))
		r := oracle.ComponentwiseError(lhs, rhs, bound, op.Rows, eps)
		checkBound(t, key, i, "random", "|op(A)·X − α·B|/((|op(A)|·|X| + |α|·|B|)·(k+2)·eps)", r, BLASBound)
		oa, ob := oracle.Item(ina, i), oracle.Item(inb, i)
		s.must(t, key, impl.Trsm(c.side, c.uplo, c.trans, c.diag, alpha, oa, ob))
		checkSameItem(t, s, key, "B", b, i, ob)
	}
}

// TrmmTest checks Trmm for all 24 side/uplo/trans/diag combinations: the
// element-wise error against the oracle, alpha = 0 giving exact zeros
// without reading A or B, A (other triangle and unit diagonal poisoned) and
// padding untouched, each matrix bit-identical to its product alone.
func TrmmTest[T core.Scalar](t *testing.T, impl Trmmer[T], cfg ...Config) {
	s := setup(t, cfg)
	run := func(c triCombo, m, n int, special string) {
		name := fmt.Sprintf("%v/m=%d/n=%d", c, m, n)
		if special != plain {
			name += "/" + special
		}
		t.Run(name, func(t *testing.T) { trmmCase(t, s, impl, caseKey[T]("Trmm", name), c, m, n, special) })
	}
	t.Run("Empty", func(t *testing.T) {
		for _, sh := range [][2]int{{0, 3}, {3, 0}} {
			for _, side := range []core.Side{core.Left, core.Right} {
				c := triCombo{side, core.Upper, core.Trans, core.Unit}
				trmmCase(t, s, impl, caseKey[T]("Trmm", fmt.Sprintf("Empty/%v/m=%d/n=%d", c, sh[0], sh[1])), c, sh[0], sh[1], plain)
			}
		}
	})
	for _, c := range []triCombo{{core.Left, core.Lower, core.Trans, core.Unit}, {core.Right, core.Upper, core.NoTrans, core.NonUnit}} {
		run(c, 6, 5, alpha0)
	}
	triSweep(t, s.sizes, run)
}

func trmmCase[T core.Scalar](t *testing.T, s *settings, impl Trmmer[T], key string, c triCombo, m, n int, special string) {
	g := oracle.GenFor[T](seedOf(key))
	a, b := triOperands[T](key, c, m, n, special, g, func(k int) *oracle.Mat { return g.General(k, k) })
	alpha, al := coefficient[T](g)
	if special == alpha0 {
		alpha, al = 0, 0
		allNaN(a)
		allNaN(b)
	}
	ina, inb := oracle.Clone(a), oracle.Clone(b)
	s.must(t, key, impl.Trmm(c.side, c.uplo, c.trans, c.diag, alpha, a, b))
	checkUntouched(t, key, "A", ina, a, nothing)
	checkUntouched(t, key, "B", inb, b, everything)
	if special == alpha0 {
		checkZero(t, key, "B", b)
		return
	}
	eps := core.Eps[T]()
	for i := range blasCount {
		ai, b0 := oracle.Load(ina, i), oracle.Load(inb, i)
		ref := oracle.Trmm(c.side, c.uplo, c.trans, c.diag, al, ai, b0)
		bound := oracle.Trmm(c.side, c.uplo, c.trans, c.diag, complex(math.Hypot(real(al), imag(al)), 0), oracle.Abs(ai), oracle.Abs(b0))
		r := oracle.ComponentwiseError(oracle.Load(b, i), ref, bound, ai.Rows, eps)
		checkBound(t, key, i, "random", "|B − Bref|/(|α|·|op(A)|·|B₀|·(k+2)·eps)", r, BLASBound)
		oa, ob := oracle.Item(ina, i), oracle.Item(inb, i)
		s.must(t, key, impl.Trmm(c.side, c.uplo, c.trans, c.diag, alpha, oa, ob))
		checkSameItem(t, s, key, "B", b, i, ob)
	}
}

// ---- Syrk and Herk ----

// rankKSweep calls run(uplo, trans, n, k, special) for every uplo and the
// two transposes on small shapes, the special cases, and along the sizes
// with n and then k swept.
func rankKSweep(t *testing.T, sizes []int, trans [2]core.Transpose, run func(uplo core.Uplo, tr core.Transpose, n, k int, special string)) {
	for _, uplo := range uplos {
		for _, tr := range trans {
			for _, sh := range [][2]int{{1, 1}, {3, 5}, {9, 7}, {33, 17}, {17, 33}} {
				run(uplo, tr, sh[0], sh[1], plain)
			}
			for _, sp := range []string{beta0, alpha0, bothZero, betaOne} {
				run(uplo, tr, 7, 4, sp)
			}
			run(uplo, tr, 5, 0, plain)
		}
	}
	for i, n := range sizes {
		uplo, tr := uplos[i%2], trans[(i/2)%2]
		run(uplo, tr, n, sizeAt(sizes, i, 5, 65), plain)
		k := n
		if n > 255 {
			k = 65
		}
		run(uplos[(i+1)%2], trans[(i/2+1)%2], sizeAt(sizes, i, 3, 65), k, plain)
	}
}

// rankKOperands makes the A (op(A) n×k) and C (n×n, the other triangle
// poisoned) batches of a Syrk or Herk case, applying the special case.
func rankKOperands[T core.Scalar](key string, uplo core.Uplo, tr core.Transpose, n, k int, special string, g *oracle.Gen) (a, c core.Strided[T]) {
	ar, ac := dims(tr, n, k)
	a = batch[T](key, "A", ar, ac, blasCount)
	c = batch[T](key, "C", n, n, blasCount)
	fillGeneral(g, a)
	fillGeneral(g, c)
	if special == alpha0 || special == bothZero {
		allNaN(a)
	}
	for i := range blasCount {
		if special == beta0 || special == bothZero {
			fillNaN(c, i)
		}
		oracle.PoisonTriangle(c, i, uplo, false)
	}
	return a, c
}

var syrkTrans = [2]core.Transpose{core.NoTrans, core.Trans}

// SyrkTest checks Syrk (C = α·A·Aᵀ + β·C or α·Aᵀ·A + β·C, the uplo triangle
// only; for complex types symmetric, not Hermitian) for both triangles and
// both transposes: element-wise error against the oracle, the special cases
// (beta = 0 with NaN in C, alpha = 0 with NaN in A, k = 0), A, the other
// triangle of C and padding untouched, each matrix bit-identical to its
// update alone.
func SyrkTest[T core.Scalar](t *testing.T, impl Syrker[T], cfg ...Config) {
	s := setup(t, cfg)
	t.Run("Empty", func(t *testing.T) {
		rankKEmpty(t, s, "Syrk", syrkTrans, func(uplo core.Uplo, tr core.Transpose, a, c core.Strided[T]) error {
			return impl.Syrk(uplo, tr, 1, a, 1, c)
		})
	})
	rankKSweep(t, s.sizes, syrkTrans, func(uplo core.Uplo, tr core.Transpose, n, k int, special string) {
		name := fmt.Sprintf("%v/%v/n=%d/k=%d", uplo, tr, n, k)
		if special != plain {
			name += "/" + special
		}
		t.Run(name, func(t *testing.T) {
			key := caseKey[T]("Syrk", name)
			g := oracle.GenFor[T](seedOf(key))
			a, c := rankKOperands[T](key, uplo, tr, n, k, special, g)
			alpha, al := coefficient[T](g)
			beta, be := coefficient[T](g)
			switch special {
			case beta0:
				beta, be = 0, 0
			case alpha0:
				alpha, al = 0, 0
			case bothZero:
				alpha, al, beta, be = 0, 0, 0, 0
			case betaOne:
				beta, be = 1, 1
			}
			rankKCheck(t, s, key, uplo, a, c, k, false,
				func(a, c core.Strided[T]) error { return impl.Syrk(uplo, tr, alpha, a, beta, c) },
				func(ai, ci *oracle.Mat) (ref, bound *oracle.Mat) {
					ref = oracle.Syrk(uplo, tr, al, ai, be, ci)
					abs := func(z complex128) complex128 { return complex(math.Hypot(real(z), imag(z)), 0) }
					bound = oracle.Syrk(uplo, tr, abs(al), oracle.Abs(ai), abs(be), oracle.Abs(ci))
					return ref, bound
				})
		})
	})
}

var herkTrans = [2]core.Transpose{core.NoTrans, core.ConjTrans}

// HerkTest checks Herk (C = α·A·Aᴴ + β·C or α·Aᴴ·A + β·C, α and β real, the
// uplo triangle only) for both triangles and both transposes: what SyrkTest
// checks, plus an exactly real diagonal on exit for complex types (the
// imaginary parts of C's diagonal on entry are garbage the op must ignore).
func HerkTest[T core.Scalar](t *testing.T, impl Herker[T], cfg ...Config) {
	s := setup(t, cfg)
	t.Run("Empty", func(t *testing.T) {
		rankKEmpty(t, s, "Herk", herkTrans, func(uplo core.Uplo, tr core.Transpose, a, c core.Strided[T]) error {
			return impl.Herk(uplo, tr, 1, a, 1, c)
		})
	})
	rankKSweep(t, s.sizes, herkTrans, func(uplo core.Uplo, tr core.Transpose, n, k int, special string) {
		name := fmt.Sprintf("%v/%v/n=%d/k=%d", uplo, tr, n, k)
		if special != plain {
			name += "/" + special
		}
		t.Run(name, func(t *testing.T) {
			key := caseKey[T]("Herk", name)
			g := oracle.GenFor[T](seedOf(key))
			a, c := rankKOperands[T](key, uplo, tr, n, k, special, g)
			alpha, beta := realCoefficient(g), realCoefficient(g)
			switch special {
			case beta0:
				beta = 0
			case alpha0:
				alpha = 0
			case bothZero:
				alpha, beta = 0, 0
			case betaOne:
				beta = 1
			}
			rankKCheck(t, s, key, uplo, a, c, k, core.IsComplex[T](),
				func(a, c core.Strided[T]) error { return impl.Herk(uplo, tr, alpha, a, beta, c) },
				func(ai, ci *oracle.Mat) (ref, bound *oracle.Mat) {
					ref = oracle.Herk(uplo, tr, alpha, ai, beta, ci)
					bound = oracle.Herk(uplo, tr, math.Abs(alpha), oracle.Abs(ai), math.Abs(beta), oracle.Abs(ci))
					return ref, bound
				})
		})
	})
}

// rankKEmpty runs the zero-size cases of Syrk or Herk.
func rankKEmpty[T core.Scalar](t *testing.T, s *settings, routine string, trans [2]core.Transpose, call func(uplo core.Uplo, tr core.Transpose, a, c core.Strided[T]) error) {
	for _, sh := range [][3]int{{0, 3, 3}, {3, 2, 0}} {
		for _, tr := range trans {
			key := caseKey[T](routine, fmt.Sprintf("Empty/%v/n=%d/k=%d/count=%d", tr, sh[0], sh[1], sh[2]))
			ar, ac := dims(tr, sh[0], sh[1])
			a := batch[T](key, "A", ar, ac, sh[2])
			c := batch[T](key, "C", sh[0], sh[0], sh[2])
			ina, inc := oracle.Clone(a), oracle.Clone(c)
			s.must(t, key, call(core.Lower, tr, a, c))
			checkUntouched(t, key, "A", ina, a, nothing)
			checkUntouched(t, key, "C", inc, c, nothing)
		}
	}
}

// rankKCheck runs a Syrk or Herk case and checks it.
func rankKCheck[T core.Scalar](t *testing.T, s *settings, key string, uplo core.Uplo, a, c core.Strided[T], k int, realDiag bool,
	call func(a, c core.Strided[T]) error, reference func(ai, ci *oracle.Mat) (ref, bound *oracle.Mat)) {
	t.Helper()
	ina, inc := oracle.Clone(a), oracle.Clone(c)
	s.must(t, key, call(a, c))
	checkUntouched(t, key, "A", ina, a, nothing)
	checkUntouched(t, key, "C", inc, c, inTriangle(uplo))
	eps := core.Eps[T]()
	for i := range c.Count {
		got := oracle.Load(c, i)
		ref, bound := reference(oracle.Load(ina, i), oracle.Load(inc, i))
		r := oracle.ComponentwiseError(got, ref, bound, k, eps)
		checkBound(t, key, i, "random", "|C − Cref|/((|α|·|A|·|Aᵀ| + |β|·|C₀|)·(k+2)·eps)", r, BLASBound)
		if realDiag {
			for j := range got.Rows {
				if imag(got.At(j, j)) != 0 {
					t.Errorf("%s: item %d: C(%d,%d) = %v, the diagonal must be exactly real", key, i, j, j, got.At(j, j))
					break
				}
			}
		}
		oa, oc := oracle.Item(ina, i), oracle.Item(inc, i)
		s.must(t, key, call(oa, oc))
		checkSameItem(t, s, key, "C", c, i, oc)
	}
}

// BLAS3Suite runs GemmTest, TrsmTest, TrmmTest, SyrkTest and HerkTest as subtests.
func BLAS3Suite[T core.Scalar](t *testing.T, impl BLAS3[T], cfg ...Config) {
	t.Run("Gemm", func(t *testing.T) { GemmTest(t, impl, cfg...) })
	t.Run("Trsm", func(t *testing.T) { TrsmTest(t, impl, cfg...) })
	t.Run("Trmm", func(t *testing.T) { TrmmTest(t, impl, cfg...) })
	t.Run("Syrk", func(t *testing.T) { SyrkTest(t, impl, cfg...) })
	t.Run("Herk", func(t *testing.T) { HerkTest(t, impl, cfg...) })
}
