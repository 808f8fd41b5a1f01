package conformance

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/oracle"
)

var uplos = []core.Uplo{core.Lower, core.Upper}

// item is one matrix of a test batch: what it is, the matrix as generated
// (before rounding to T), and the info its construction promises (−1: none).
type item struct {
	kind string
	a    *oracle.Mat
	info int
}

// cholMix is the composition of a Cholesky test batch of order n: good,
// ill-conditioned, not positive definite and NaN matrices in one batch, a
// good one after the failures, and one whose middle pivot is a subnormal of
// T that must not fail (tinyPivot). Large orders keep one of each failure.
func cholMix(n int) []string {
	if n > 255 {
		return []string{"random", "notspd", "nan"}
	}
	return []string{"random", "notspd", "illcond", "nan", "notspd:last", "nan:offdiag", "random", "tinypivot"}
}

// tinyPivot is a subnormal of T's precision whose square root is exact:
// 2⁻¹⁴⁰ (√: 2⁻⁷⁰) for float32 and complex64, 2⁻¹⁰⁶⁰ (2⁻⁵³⁰) for the
// others. A positive pivot that small is not a failure for LAPACK, which
// scales by 1/√p; 1/p overflows.
func tinyPivot[T core.Scalar]() float64 {
	if core.Eps[T]() > 1e-10 {
		return 0x1p-140
	}
	return 0x1p-1060
}

// cholItems makes the Hermitian matrices of a Cholesky batch.
func cholItems[T core.Scalar](n int, kinds []string) []item {
	cplx := dataOf[T]()
	seen := map[string]int{}
	spd := func(cond float64, v int) *oracle.Mat {
		return generate("spd", n, n, cplx, cond, v, func(g *oracle.Gen) *oracle.Mat { return g.SPD(n, cond) })
	}
	var items []item
	for _, kind := range kinds {
		v := seen[kind]
		seen[kind]++
		// Each failing kind starts from its own random matrix, except at
		// large orders, where they share the one that is slow to make.
		off := func(o int) int {
			if n >= 100 {
				return v
			}
			return v + o
		}
		it := item{kind: kind, info: 0}
		switch kind {
		case "random":
			it.a = spd(100, v)
		case "illcond":
			it.a = spd(condFor[T](), v)
		case "notspd", "notspd:last":
			k := n/2 + 1
			if kind == "notspd:last" {
				k = n
			}
			it.a, it.info = oracle.NotSPDFrom(spd(100, off(1)), k), k
		case "nan":
			j := 2 * n / 3
			it.a, it.info = spd(100, off(2)).Clone(), j+1
			oracle.PlantNaN(it.a, j, j)
		case "tinypivot":
			k := (n + 1) / 2
			it.a = oracle.TinyPivotFrom(spd(100, off(4)), k, tinyPivot[T](), rand.New(rand.NewPCG(uint64(n), uint64(k))))
		case "nan:offdiag":
			// A NaN in the stored triangle at row n−1 (column n−1 for Upper)
			// spoils the last pivot only: info = n.
			it.a, it.info = spd(100, off(3)).Clone(), n
			if n > 1 {
				oracle.PlantNaN(it.a, n-1, 0)
				oracle.PlantNaN(it.a, 0, n-1)
			} else {
				oracle.PlantNaN(it.a, 0, 0)
			}
		default:
			panic("conformance: unknown Cholesky item " + kind)
		}
		items = append(items, it)
	}
	return items
}

// storeHermitian writes the items into a poisoned batch, the triangle
// opposite to uplo poisoned as well.
func storeHermitian[T core.Scalar](a core.Strided[T], uplo core.Uplo, items []item) {
	for b, it := range items {
		oracle.Store(a, b, it.a)
		oracle.PoisonTriangle(a, b, uplo, false)
	}
}

// PotrfTest checks Potrf on batches mixing random, ill-conditioned, not
// positive definite and NaN matrices and one with a subnormal pivot (up to
// n = 255), for both triangles and every size:
// exact info per matrix, the factor residual of the good ones, padding and
// the other triangle untouched, and each good matrix bit-identical to its
// factorization alone.
func PotrfTest[T core.Scalar](t *testing.T, impl Potrfer[T], cfg ...Config) {
	s := setup(t, cfg)
	t.Run("Empty", func(t *testing.T) {
		for _, uplo := range uplos {
			for _, sh := range [][2]int{{0, 3}, {4, 0}} {
				key := caseKey[T]("Potrf", fmt.Sprintf("Empty/%v/n=%d/count=%d", uplo, sh[0], sh[1]))
				a := batch[T](key, "A", sh[0], sh[0], sh[1])
				in := oracle.Clone(a)
				info := newInfo(sh[1])
				s.must(t, key, impl.Potrf(uplo, a, info))
				checkUntouched(t, key, "A", in, a, nothing)
				for b := range info {
					checkInfo(t, key, b, "empty", info, 0)
				}
			}
		}
	})
	for _, uplo := range uplos {
		for _, n := range s.sizes {
			name := fmt.Sprintf("%v/n=%d", uplo, n)
			t.Run(name, func(t *testing.T) { potrfCase(t, s, impl, caseKey[T]("Potrf", name), uplo, n, false) })
		}
		for _, n := range tightSizes(s.sizes) {
			name := fmt.Sprintf("%v/n=%d/tight", uplo, n)
			t.Run(name, func(t *testing.T) { potrfCase(t, s, impl, caseKey[T]("Potrf", name), uplo, n, true) })
		}
	}
}

// tightSizes are the sizes also run with ld = rows and stride = ld·cols, where
// engines are likely to take a contiguous fast path.
func tightSizes(sizes []int) []int {
	var r []int
	for _, n := range sizes {
		if n == 8 || n == 33 || n == 64 {
			r = append(r, n)
		}
	}
	return r
}

func potrfCase[T core.Scalar](t *testing.T, s *settings, impl Potrfer[T], key string, uplo core.Uplo, n int, tight bool) {
	items := cholItems[T](n, s.kinds(t, key, cholMix(n)))
	a := batch[T](key, "A", n, n, len(items))
	if tight {
		a = oracle.NewStrided[T](n, n, len(items), 0, 0)
	}
	storeHermitian(a, uplo, items)
	in := oracle.Clone(a)
	info := newInfo(len(items))
	s.must(t, key, impl.Potrf(uplo, a, info))
	checkUntouched(t, key, "A", in, a, inTriangle(uplo))
	eps := core.Eps[T]()
	for b, it := range items {
		ab := oracle.Load(in, b)
		_, want := oracle.Potrf(uplo, ab)
		if want != it.info {
			t.Fatalf("%s: item %d (%s): test matrix has oracle info %d, its generator promised %d", key, b, it.kind, want, it.info)
		}
		checkInfo(t, key, b, it.kind, info, want)
		if want != 0 {
			continue
		}
		r := oracle.CholeskyResidual(oracle.Hermitian(ab, uplo), oracle.Load(a, b), uplo, eps)
		checkBound(t, key, b, it.kind, "‖A − L·Lᴴ‖_F/(n·‖A‖_F·eps)", r, FactorBound)
		one, oneInfo := oracle.Item(in, b), newInfo(1)
		s.must(t, key, impl.Potrf(uplo, one, oneInfo))
		checkSameItem(t, s, key, "A", a, b, one)
		sameInt32(t, s, key, "info", b, info[b:b+1], oneInfo)
	}
}

// nrhsFor picks the number of right-hand sides for the i-th size.
func nrhsFor(i int) int { return []int{1, 3, 2, 5}[i%4] }

// PotrsTest checks Potrs on factors computed by the oracle and rounded to T:
// the solve residual against the matrix those factors represent, A and the
// padding untouched, each matrix bit-identical to its solve alone.
func PotrsTest[T core.Scalar](t *testing.T, impl Potrser[T], cfg ...Config) {
	s := setup(t, cfg)
	t.Run("Empty", func(t *testing.T) {
		for _, sh := range [][3]int{{0, 2, 3}, {3, 0, 2}, {3, 2, 0}} {
			key := caseKey[T]("Potrs", fmt.Sprintf("Empty/n=%d/nrhs=%d/count=%d", sh[0], sh[1], sh[2]))
			a := batch[T](key, "A", sh[0], sh[0], sh[2])
			b := batch[T](key, "B", sh[0], sh[1], sh[2])
			if sh[0] > 0 {
				for i := range sh[2] {
					oracle.Store(a, i, oracle.Identity(sh[0]))
				}
			}
			ina, inb := oracle.Clone(a), oracle.Clone(b)
			s.must(t, key, impl.Potrs(core.Lower, a, b))
			checkUntouched(t, key, "A", ina, a, nothing)
			checkUntouched(t, key, "B", inb, b, nothing)
		}
	})
	for _, uplo := range uplos {
		for i, n := range s.sizes {
			nrhs := nrhsFor(i)
			name := fmt.Sprintf("%v/n=%d/nrhs=%d", uplo, n, nrhs)
			t.Run(name, func(t *testing.T) { potrsCase(t, s, impl, caseKey[T]("Potrs", name), uplo, n, nrhs) })
		}
	}
}

func potrsCase[T core.Scalar](t *testing.T, s *settings, impl Potrser[T], key string, uplo core.Uplo, n, nrhs int) {
	kinds := []string{"random", "illcond", "random"}
	if n > 255 {
		kinds = []string{"random"}
	}
	items := cholItems[T](n, s.kinds(t, key, kinds))
	a := batch[T](key, "A", n, n, len(items))
	b := batch[T](key, "B", n, nrhs, len(items))
	g := oracle.GenFor[T](seedOf(key))
	for i, it := range items {
		f, info := cholOf[T](it.a, uplo)
		if info != 0 {
			t.Fatalf("%s: item %d (%s): oracle cannot factor the test matrix (info %d)", key, i, it.kind, info)
		}
		oracle.Store(a, i, f)
		oracle.PoisonTriangle(a, i, uplo, false)
		oracle.Store(b, i, g.General(n, nrhs))
	}
	ina, inb := oracle.Clone(a), oracle.Clone(b)
	s.must(t, key, impl.Potrs(uplo, a, b))
	checkUntouched(t, key, "A", ina, a, nothing)
	checkUntouched(t, key, "B", inb, b, everything)
	eps := core.Eps[T]()
	for i, it := range items {
		// The matrix the T-rounded factor represents, so that rounding the
		// factor is not charged to the solve.
		l := oracle.Factor(oracle.Load(ina, i), uplo)
		ap := oracle.Mul(oracle.Op(l, core.ConjTrans), l)
		if uplo == core.Lower {
			ap = oracle.Mul(l, oracle.Op(l, core.ConjTrans))
		}
		r := oracle.SolveResidual(ap, core.NoTrans, oracle.Load(b, i), oracle.Load(inb, i), eps)
		checkBound(t, key, i, it.kind, "‖A·X − B‖₁/(‖A‖₁·‖X‖₁·n·eps)", r, SolveBound)
		oa, ob := oracle.Item(ina, i), oracle.Item(inb, i)
		s.must(t, key, impl.Potrs(uplo, oa, ob))
		checkSameItem(t, s, key, "B", b, i, ob)
	}
}

// PosvTest checks Posv on batches mixing good, ill-conditioned, not positive
// definite and NaN matrices: exact info, factor and solve residuals of the
// good ones, B unchanged for the failing ones, padding and the other
// triangle untouched, good matrices bit-identical to their solve alone.
func PosvTest[T core.Scalar](t *testing.T, impl Posver[T], cfg ...Config) {
	s := setup(t, cfg)
	t.Run("Empty", func(t *testing.T) {
		for _, sh := range [][3]int{{0, 2, 3}, {3, 2, 0}} {
			key := caseKey[T]("Posv", fmt.Sprintf("Empty/n=%d/nrhs=%d/count=%d", sh[0], sh[1], sh[2]))
			a := batch[T](key, "A", sh[0], sh[0], sh[2])
			b := batch[T](key, "B", sh[0], sh[1], sh[2])
			ina, inb := oracle.Clone(a), oracle.Clone(b)
			info := newInfo(sh[2])
			s.must(t, key, impl.Posv(core.Upper, a, b, info))
			checkUntouched(t, key, "A", ina, a, nothing)
			checkUntouched(t, key, "B", inb, b, nothing)
			for i := range info {
				checkInfo(t, key, i, "empty", info, 0)
			}
		}
	})
	for _, uplo := range uplos {
		for i, n := range s.sizes {
			nrhs := nrhsFor(i + 1)
			name := fmt.Sprintf("%v/n=%d/nrhs=%d", uplo, n, nrhs)
			t.Run(name, func(t *testing.T) { posvCase(t, s, impl, caseKey[T]("Posv", name), uplo, n, nrhs) })
		}
	}
}

func posvCase[T core.Scalar](t *testing.T, s *settings, impl Posver[T], key string, uplo core.Uplo, n, nrhs int) {
	kinds := []string{"notspd", "random", "nan", "illcond", "notspd:last"}
	if n > 255 {
		kinds = []string{"random", "notspd", "nan"}
	}
	items := cholItems[T](n, s.kinds(t, key, kinds))
	a := batch[T](key, "A", n, n, len(items))
	b := batch[T](key, "B", n, nrhs, len(items))
	storeHermitian(a, uplo, items)
	g := oracle.GenFor[T](seedOf(key))
	for i := range items {
		oracle.Store(b, i, g.General(n, nrhs))
	}
	ina, inb := oracle.Clone(a), oracle.Clone(b)
	info := newInfo(len(items))
	s.must(t, key, impl.Posv(uplo, a, b, info))
	eps := core.Eps[T]()
	want := make([]int, len(items))
	for i, it := range items {
		ai := oracle.Load(ina, i)
		_, want[i] = oracle.Potrf(uplo, ai)
		if want[i] != it.info {
			t.Fatalf("%s: item %d (%s): test matrix has oracle info %d, its generator promised %d", key, i, it.kind, want[i], it.info)
		}
		checkInfo(t, key, i, it.kind, info, want[i])
		if want[i] != 0 {
			continue
		}
		full := oracle.Hermitian(ai, uplo)
		r := oracle.CholeskyResidual(full, oracle.Load(a, i), uplo, eps)
		checkBound(t, key, i, it.kind, "‖A − L·Lᴴ‖_F/(n·‖A‖_F·eps)", r, FactorBound)
		r = oracle.SolveResidual(full, core.NoTrans, oracle.Load(b, i), oracle.Load(inb, i), eps)
		checkBound(t, key, i, it.kind, "‖A·X − B‖₁/(‖A‖₁·‖X‖₁·n·eps)", r, SolveBound)
		oa, ob, oi := oracle.Item(ina, i), oracle.Item(inb, i), newInfo(1)
		s.must(t, key, impl.Posv(uplo, oa, ob, oi))
		checkSameItem(t, s, key, "A", a, i, oa)
		checkSameItem(t, s, key, "B", b, i, ob)
		sameInt32(t, s, key, "info", i, info[i:i+1], oi)
	}
	checkUntouched(t, key, "A", ina, a, inTriangle(uplo))
	checkUntouched(t, key, "B (failing matrices keep B)", inb, b, onlyItems(everything, func(i int) bool { return want[i] == 0 }))
}

// CholeskySuite runs PotrfTest, PotrsTest and PosvTest as subtests.
func CholeskySuite[T core.Scalar](t *testing.T, impl Cholesky[T], cfg ...Config) {
	t.Run("Potrf", func(t *testing.T) { PotrfTest(t, impl, cfg...) })
	t.Run("Potrs", func(t *testing.T) { PotrsTest(t, impl, cfg...) })
	t.Run("Posv", func(t *testing.T) { PosvTest(t, impl, cfg...) })
}
