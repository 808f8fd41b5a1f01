package conformance

import (
	"fmt"
	"math"
	"math/cmplx"
	"testing"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/oracle"
)

// luItems makes the general matrices of an LU batch. Kinds: random
// (Gaussian), illcond (condition condFor[T], square only), dominant
// (diagonally dominant with rows permuted: unambiguous pivots), zerocol (a
// zero column: info = its index + 1), zerorow (square, a zero row: info = n)
// and nan (a NaN element: no promise about info).
func luItems[T core.Scalar](m, n int, kinds []string) []item {
	cplx := dataOf[T]()
	seen := map[string]int{}
	var items []item
	for _, kind := range kinds {
		v := seen[kind]
		seen[kind]++
		gen := func(f func(g *oracle.Gen) *oracle.Mat) *oracle.Mat {
			return generate(kind, m, n, cplx, 0, v, f)
		}
		it := item{kind: kind}
		switch kind {
		case "random":
			it.a = gen(func(g *oracle.Gen) *oracle.Mat { return g.General(m, n) })
		case "illcond":
			c := condFor[T]()
			it.a = generate(kind, m, n, cplx, c, v, func(g *oracle.Gen) *oracle.Mat { return g.WithCond(n, c) })
		case "dominant":
			it.a = gen(func(g *oracle.Gen) *oracle.Mat { return g.DominantPermuted(m, n) })
		case "zerocol":
			j := min(m, n) / 3
			it.a, it.info = gen(func(g *oracle.Gen) *oracle.Mat { return g.ZeroColumn(m, n, j) }), j+1
		case "zerorow":
			it.a, it.info = gen(func(g *oracle.Gen) *oracle.Mat { return g.ZeroRow(n, n/2) }), n
		case "nan":
			it.a, it.info = gen(func(g *oracle.Gen) *oracle.Mat { return g.General(m, n) }).Clone(), -1
			oracle.PlantNaN(it.a, m/2, n/4)
		default:
			panic("conformance: unknown LU item " + kind)
		}
		items = append(items, it)
	}
	return items
}

// getrfMix is the composition of a Getrf test batch.
func getrfMix(m, n int) []string {
	switch {
	case m != n:
		return []string{"random", "dominant", "zerocol", "nan"}
	case n > 255:
		return []string{"random", "zerocol", "dominant", "nan"}
	}
	return []string{"random", "zerocol", "dominant", "nan", "illcond", "zerorow", "random"}
}

// rectShapes are the non-square Getrf shapes, both sides of 32 and 64.
var rectShapes = [][2]int{{5, 3}, {3, 5}, {40, 33}, {33, 40}, {130, 65}, {65, 130}}

func maxOf(sizes []int) int {
	m := 0
	for _, n := range sizes {
		m = max(m, n)
	}
	return m
}

// GetrfTest checks Getrf on square and rectangular batches mixing random,
// ill-conditioned, dominant-permuted, exactly singular and NaN matrices:
// exact info for the singular ones, the pivot sequence against the oracle's
// (all of it on the dominant matrices, up to the first near-tie elsewhere),
// pivot growth, the factor residual, padding untouched, a NaN never hidden,
// and each matrix bit-identical to its factorization alone.
func GetrfTest[T core.Scalar](t *testing.T, impl Getrfer[T], cfg ...Config) {
	s := setup(t, cfg)
	t.Run("Empty", func(t *testing.T) {
		for _, sh := range [][3]int{{0, 0, 3}, {0, 4, 2}, {4, 0, 2}, {4, 4, 0}} {
			key := caseKey[T]("Getrf", fmt.Sprintf("Empty/m=%d/n=%d/count=%d", sh[0], sh[1], sh[2]))
			a := batch[T](key, "A", sh[0], sh[1], sh[2])
			in := oracle.Clone(a)
			pivots, info := make([]int32, 0), newInfo(sh[2])
			s.must(t, key, impl.Getrf(a, pivots, info))
			checkUntouched(t, key, "A", in, a, nothing)
			for b := range info {
				checkInfo(t, key, b, "empty", info, 0)
			}
		}
	})
	for _, n := range s.sizes {
		name := fmt.Sprintf("n=%d", n)
		t.Run(name, func(t *testing.T) { getrfCase(t, s, impl, caseKey[T]("Getrf", name), n, n, false) })
	}
	for _, n := range tightSizes(s.sizes) {
		name := fmt.Sprintf("n=%d/tight", n)
		t.Run(name, func(t *testing.T) { getrfCase(t, s, impl, caseKey[T]("Getrf", name), n, n, true) })
	}
	for _, sh := range rectShapes {
		if max(sh[0], sh[1]) > maxOf(s.sizes) {
			continue
		}
		name := fmt.Sprintf("m=%d/n=%d", sh[0], sh[1])
		t.Run(name, func(t *testing.T) { getrfCase(t, s, impl, caseKey[T]("Getrf", name), sh[0], sh[1], false) })
	}
}

func getrfCase[T core.Scalar](t *testing.T, s *settings, impl Getrfer[T], key string, m, n int, tight bool) {
	items := luItems[T](m, n, s.kinds(t, key, getrfMix(m, n)))
	a := batch[T](key, "A", m, n, len(items))
	if tight {
		a = oracle.NewStrided[T](m, n, len(items), 0, 0)
	}
	for b, it := range items {
		oracle.Store(a, b, it.a)
	}
	in := oracle.Clone(a)
	k := min(m, n)
	pivots, info := newInfo(len(items)*k), newInfo(len(items))
	s.must(t, key, impl.Getrf(a, pivots, info))
	checkUntouched(t, key, "A", in, a, everything)
	checkLU(t, s, key, items, in, a, pivots, info, func(b int) {
		one, p1, i1 := oracle.Item(in, b), newInfo(k), newInfo(1)
		s.must(t, key, impl.Getrf(one, p1, i1))
		checkSameItem(t, s, key, "A", a, b, one)
		sameInt32(t, s, key, "pivots", b, pivots[b*k:(b+1)*k], p1)
		sameInt32(t, s, key, "info", b, info[b:b+1], i1)
	})
}

// checkLU checks the factors, pivots and info an engine left for each item
// (shared by Getrf and Gesv), and runs alone(b) for every matrix without a NaN.
func checkLU[T core.Scalar](t *testing.T, s *settings, key string, items []item, in, a core.Strided[T], pivots, info []int32, alone func(b int)) {
	t.Helper()
	m, n := in.Rows, in.Cols
	k := min(m, n)
	eps := core.Eps[T]()
	for b, it := range items {
		pb := pivots[b*k : (b+1)*k]
		if it.kind == "nan" {
			// No promise about info or pivots, except that the failure shows.
			if info[b] == 0 && !hasNaN(a, b) {
				t.Errorf("%s: item %d (nan): info 0 and no NaN in the factors: the NaN was lost", key, b)
			}
			checkPivots(t, key, b, it.kind, pb, oracle.LU{}, m, 0, false)
			continue
		}
		ab := oracle.Load(in, b)
		lu := luOf[T](it.a, ab)
		if it.info > 0 && lu.Info != it.info {
			t.Fatalf("%s: item %d (%s): test matrix has oracle info %d, its generator promised %d", key, b, it.kind, lu.Info, it.info)
		}
		checkInfo(t, key, b, it.kind, info, lu.Info)
		got := oracle.Load(a, b)
		if s.modulusPivots && core.IsComplex[T]() {
			// Pivots chosen by |z|: valid interchanges, |L(i,k)| ≤ 1.
			checkPivots(t, key, b, it.kind, pb, oracle.LU{}, m, 0, false)
			checkBound(t, key, b, it.kind, "pivot growth max |L(i,k)|", modulusGrowth(got), 1+64*eps)
		} else {
			checkPivots(t, key, b, it.kind, pb, lu, m, pivotTolerance[T](), it.kind == "dominant")
			checkBound(t, key, b, it.kind, "pivot growth max cabs1(L(i,k)·U(k,k))/cabs1(U(k,k))", oracle.Growth(got), 1+64*eps)
		}
		r := oracle.LUResidual(ab, got, pb, eps)
		checkBound(t, key, b, it.kind, "‖P·A − L·U‖_F/(n·‖A‖_F·eps)", r, FactorBound)
		alone(b)
	}
}

// transposes are the op(A) every solve is run with.
var transposes = []core.Transpose{core.NoTrans, core.Trans, core.ConjTrans}

// GetrsTest checks Getrs, all three transposes, on factors and pivots
// computed by the oracle and rounded to T: the solve residual against the
// matrix those factors represent, A, pivots and padding untouched, each
// matrix bit-identical to its solve alone.
func GetrsTest[T core.Scalar](t *testing.T, impl Getrser[T], cfg ...Config) {
	s := setup(t, cfg)
	t.Run("Empty", func(t *testing.T) {
		for _, sh := range [][3]int{{0, 2, 3}, {3, 0, 2}, {3, 2, 0}} {
			key := caseKey[T]("Getrs", fmt.Sprintf("Empty/n=%d/nrhs=%d/count=%d", sh[0], sh[1], sh[2]))
			a := batch[T](key, "A", sh[0], sh[0], sh[2])
			b := batch[T](key, "B", sh[0], sh[1], sh[2])
			pivots := make([]int32, sh[0]*sh[2])
			for i := range pivots {
				pivots[i] = int32(i%max(1, sh[0]) + 1)
			}
			for i := range sh[2] {
				oracle.Store(a, i, oracle.Identity(sh[0]))
			}
			ina, inb := oracle.Clone(a), oracle.Clone(b)
			s.must(t, key, impl.Getrs(core.NoTrans, a, pivots, b))
			checkUntouched(t, key, "A", ina, a, nothing)
			checkUntouched(t, key, "B", inb, b, nothing)
		}
	})
	for _, trans := range transposes {
		for i, n := range s.sizes {
			nrhs := nrhsFor(i)
			name := fmt.Sprintf("%v/n=%d/nrhs=%d", trans, n, nrhs)
			t.Run(name, func(t *testing.T) { getrsCase(t, s, impl, caseKey[T]("Getrs", name), trans, n, nrhs) })
		}
	}
}

// factored stores the oracle's LU factors of the T-rounded items into a and
// returns their pivots, count·n of them.
func factored[T core.Scalar](a core.Strided[T], items []item) []int32 {
	n := a.Rows
	pivots := make([]int32, 0, len(items)*n)
	for b, it := range items {
		lu := luOf[T](it.a, oracle.Round[T](it.a))
		oracle.Store(a, b, lu.Factors)
		pivots = append(pivots, lu.Pivots...)
	}
	return pivots
}

func getrsCase[T core.Scalar](t *testing.T, s *settings, impl Getrser[T], key string, trans core.Transpose, n, nrhs int) {
	kinds := []string{"random", "illcond", "dominant"}
	if n > 255 {
		kinds = []string{"random", "dominant"}
	}
	items := luItems[T](n, n, s.kinds(t, key, kinds))
	a := batch[T](key, "A", n, n, len(items))
	b := batch[T](key, "B", n, nrhs, len(items))
	pivots := factored(a, items)
	g := oracle.GenFor[T](seedOf(key))
	for i := range items {
		oracle.Store(b, i, g.General(n, nrhs))
	}
	ina, inb, inp := oracle.Clone(a), oracle.Clone(b), append([]int32(nil), pivots...)
	s.must(t, key, impl.Getrs(trans, a, pivots, b))
	checkUntouched(t, key, "A", ina, a, nothing)
	checkUntouched(t, key, "B", inb, b, everything)
	checkInputInts(t, key, "pivots", inp, pivots)
	eps := core.Eps[T]()
	for i, it := range items {
		pi := inp[i*n : (i+1)*n]
		ap := reconOf[T](it.a, oracle.Load(ina, i), pi)
		r := oracle.SolveResidual(ap, trans, oracle.Load(b, i), oracle.Load(inb, i), eps)
		checkBound(t, key, i, it.kind, "‖op(A)·X − B‖₁/(‖A‖₁·‖X‖₁·n·eps)", r, SolveBound)
		oa, ob := oracle.Item(ina, i), oracle.Item(inb, i)
		s.must(t, key, impl.Getrs(trans, oa, append([]int32(nil), pi...), ob))
		checkSameItem(t, s, key, "B", b, i, ob)
	}
}

// GetriTest checks Getri on factors computed by the oracle and rounded to T,
// singular ones mixed in: exact info, the singular matrices left as their
// factors, the inverse residual of the others, pivots and padding
// untouched, each matrix bit-identical to its inversion alone.
func GetriTest[T core.Scalar](t *testing.T, impl Getrier[T], cfg ...Config) {
	s := setup(t, cfg)
	t.Run("Empty", func(t *testing.T) {
		for _, sh := range [][2]int{{0, 3}, {3, 0}} {
			key := caseKey[T]("Getri", fmt.Sprintf("Empty/n=%d/count=%d", sh[0], sh[1]))
			a := batch[T](key, "A", sh[0], sh[0], sh[1])
			in := oracle.Clone(a)
			info := newInfo(sh[1])
			s.must(t, key, impl.Getri(a, make([]int32, 0), info))
			checkUntouched(t, key, "A", in, a, nothing)
			for i := range info {
				checkInfo(t, key, i, "empty", info, 0)
			}
		}
	})
	for _, n := range s.sizes {
		name := fmt.Sprintf("n=%d", n)
		t.Run(name, func(t *testing.T) { getriCase(t, s, impl, caseKey[T]("Getri", name), n) })
	}
}

func getriCase[T core.Scalar](t *testing.T, s *settings, impl Getrier[T], key string, n int) {
	kinds := []string{"random", "zerocol", "illcond", "dominant"}
	if n > 255 {
		kinds = []string{"random", "zerocol"}
	}
	items := luItems[T](n, n, s.kinds(t, key, kinds))
	a := batch[T](key, "A", n, n, len(items))
	pivots := factored(a, items)
	in, inp := oracle.Clone(a), append([]int32(nil), pivots...)
	info := newInfo(len(items))
	s.must(t, key, impl.Getri(a, pivots, info))
	checkInputInts(t, key, "pivots", inp, pivots)
	eps := core.Eps[T]()
	want := make([]int, len(items))
	for i, it := range items {
		f, pi := oracle.Load(in, i), inp[i*n:(i+1)*n]
		want[i] = oracle.SingularInfo(f)
		if it.info > 0 && want[i] != it.info {
			t.Fatalf("%s: item %d (%s): test matrix has oracle info %d, its generator promised %d", key, i, it.kind, want[i], it.info)
		}
		checkInfo(t, key, i, it.kind, info, want[i])
		if want[i] != 0 {
			continue
		}
		r := oracle.InverseResidual(reconOf[T](it.a, f, pi), oracle.Load(a, i), eps)
		checkBound(t, key, i, it.kind, "‖A·A⁻¹ − I‖₁/(n·‖A‖₁·‖A⁻¹‖₁·eps)", r, SolveBound)
		one, oi := oracle.Item(in, i), newInfo(1)
		s.must(t, key, impl.Getri(one, append([]int32(nil), pi...), oi))
		checkSameItem(t, s, key, "A", a, i, one)
		sameInt32(t, s, key, "info", i, info[i:i+1], oi)
	}
	checkUntouched(t, key, "A (singular matrices keep their factors)", in, a, onlyItems(everything, func(i int) bool { return want[i] == 0 }))
}

// GesvTest checks Gesv on batches mixing random, ill-conditioned,
// dominant-permuted, singular and NaN matrices: what GetrfTest checks of the
// factors, the solve residual of the nonsingular ones, B unchanged for the
// singular ones, padding untouched, each matrix bit-identical to its solve alone.
func GesvTest[T core.Scalar](t *testing.T, impl Gesver[T], cfg ...Config) {
	s := setup(t, cfg)
	t.Run("Empty", func(t *testing.T) {
		for _, sh := range [][3]int{{0, 2, 3}, {3, 0, 2}, {3, 2, 0}} {
			key := caseKey[T]("Gesv", fmt.Sprintf("Empty/n=%d/nrhs=%d/count=%d", sh[0], sh[1], sh[2]))
			a := batch[T](key, "A", sh[0], sh[0], sh[2])
			b := batch[T](key, "B", sh[0], sh[1], sh[2])
			for i := range sh[2] {
				oracle.Store(a, i, oracle.Identity(sh[0]))
			}
			ina, inb := oracle.Clone(a), oracle.Clone(b)
			pivots, info := newInfo(sh[0]*sh[2]), newInfo(sh[2])
			s.must(t, key, impl.Gesv(a, pivots, b, info))
			checkUntouched(t, key, "A", ina, a, everything)
			checkUntouched(t, key, "B", inb, b, func(int, int, int) bool { return sh[0] > 0 && sh[1] > 0 })
			for i := range info {
				checkInfo(t, key, i, "empty", info, 0)
			}
		}
	})
	for i, n := range s.sizes {
		nrhs := nrhsFor(i + 2)
		name := fmt.Sprintf("n=%d/nrhs=%d", n, nrhs)
		t.Run(name, func(t *testing.T) { gesvCase(t, s, impl, caseKey[T]("Gesv", name), n, nrhs) })
	}
}

func gesvCase[T core.Scalar](t *testing.T, s *settings, impl Gesver[T], key string, n, nrhs int) {
	kinds := []string{"random", "zerocol", "illcond", "nan", "dominant"}
	if n > 255 {
		kinds = []string{"random", "zerocol", "nan"}
	}
	items := luItems[T](n, n, s.kinds(t, key, kinds))
	a := batch[T](key, "A", n, n, len(items))
	b := batch[T](key, "B", n, nrhs, len(items))
	g := oracle.GenFor[T](seedOf(key))
	for i, it := range items {
		oracle.Store(a, i, it.a)
		oracle.Store(b, i, g.General(n, nrhs))
	}
	ina, inb := oracle.Clone(a), oracle.Clone(b)
	pivots, info := newInfo(len(items)*n), newInfo(len(items))
	s.must(t, key, impl.Gesv(a, pivots, b, info))
	checkUntouched(t, key, "A", ina, a, everything)
	eps := core.Eps[T]()
	checkLU(t, s, key, items, ina, a, pivots, info, func(i int) {
		if info[i] == 0 {
			r := oracle.SolveResidual(oracle.Load(ina, i), core.NoTrans, oracle.Load(b, i), oracle.Load(inb, i), eps)
			checkBound(t, key, i, items[i].kind, "‖A·X − B‖₁/(‖A‖₁·‖X‖₁·n·eps)", r, SolveBound)
		}
		oa, ob, p1, i1 := oracle.Item(ina, i), oracle.Item(inb, i), newInfo(n), newInfo(1)
		s.must(t, key, impl.Gesv(oa, p1, ob, i1))
		checkSameItem(t, s, key, "A", a, i, oa)
		checkSameItem(t, s, key, "B", b, i, ob)
		sameInt32(t, s, key, "pivots", i, pivots[i*n:(i+1)*n], p1)
		sameInt32(t, s, key, "info", i, info[i:i+1], i1)
	})
	for i, it := range items {
		if it.kind == "nan" && info[i] == 0 && !hasNaN(b, i) && !hasNaN(a, i) {
			t.Errorf("%s: item %d (nan): info 0 and no NaN in the factors or X: the NaN was lost", key, i)
		}
	}
	checkUntouched(t, key, "B (singular matrices keep B)", inb, b, onlyItems(everything, func(i int) bool { return info[i] == 0 }))
}

// InvTest checks Inv, into a separate C and in place (C = A), on batches
// mixing random, ill-conditioned, dominant and singular matrices: exact
// info, the inverse residual of the nonsingular ones, A untouched when C is
// separate, padding untouched, each matrix bit-identical to its inversion alone.
func InvTest[T core.Scalar](t *testing.T, impl Inver[T], cfg ...Config) {
	s := setup(t, cfg)
	t.Run("Empty", func(t *testing.T) {
		for _, sh := range [][2]int{{0, 3}, {3, 0}} {
			key := caseKey[T]("Inv", fmt.Sprintf("Empty/n=%d/count=%d", sh[0], sh[1]))
			a := batch[T](key, "A", sh[0], sh[0], sh[1])
			c := batch[T](key, "C", sh[0], sh[0], sh[1])
			ina, inc := oracle.Clone(a), oracle.Clone(c)
			info := newInfo(sh[1])
			s.must(t, key, impl.Inv(a, c, info))
			checkUntouched(t, key, "A", ina, a, nothing)
			checkUntouched(t, key, "C", inc, c, nothing)
			for i := range info {
				checkInfo(t, key, i, "empty", info, 0)
			}
		}
	})
	for _, inPlace := range []bool{false, true} {
		mode := "separate"
		if inPlace {
			mode = "inplace"
		}
		for _, n := range s.sizes {
			name := fmt.Sprintf("%s/n=%d", mode, n)
			t.Run(name, func(t *testing.T) { invCase(t, s, impl, caseKey[T]("Inv", name), n, inPlace) })
		}
	}
}

func invCase[T core.Scalar](t *testing.T, s *settings, impl Inver[T], key string, n int, inPlace bool) {
	kinds := []string{"random", "zerocol", "illcond", "dominant"}
	if n > 255 {
		kinds = []string{"random", "zerocol"}
	}
	items := luItems[T](n, n, s.kinds(t, key, kinds))
	a := batch[T](key, "A", n, n, len(items))
	for i, it := range items {
		oracle.Store(a, i, it.a)
	}
	c := a
	if !inPlace {
		c = batch[T](key, "C", n, n, len(items))
	}
	ina, inc := oracle.Clone(a), oracle.Clone(c)
	info := newInfo(len(items))
	s.must(t, key, impl.Inv(a, c, info))
	if !inPlace {
		checkUntouched(t, key, "A", ina, a, nothing)
	}
	checkUntouched(t, key, "C", inc, c, everything)
	eps := core.Eps[T]()
	for i, it := range items {
		ai := oracle.Load(ina, i)
		want := luOf[T](it.a, ai).Info
		if it.info > 0 && want != it.info {
			t.Fatalf("%s: item %d (%s): test matrix has oracle info %d, its generator promised %d", key, i, it.kind, want, it.info)
		}
		checkInfo(t, key, i, it.kind, info, want)
		if want != 0 {
			continue
		}
		r := oracle.InverseResidual(ai, oracle.Load(c, i), eps)
		checkBound(t, key, i, it.kind, "‖A·A⁻¹ − I‖₁/(n·‖A‖₁·‖A⁻¹‖₁·eps)", r, SolveBound)
		oa, oi := oracle.Item(ina, i), newInfo(1)
		oc := oa
		if !inPlace {
			oc = oracle.Item(inc, i)
		}
		s.must(t, key, impl.Inv(oa, oc, oi))
		checkSameItem(t, s, key, "C", c, i, oc)
		sameInt32(t, s, key, "info", i, info[i:i+1], oi)
	}
}

// LUSuite runs GetrfTest, GetrsTest, GetriTest, GesvTest and InvTest as subtests.
func LUSuite[T core.Scalar](t *testing.T, impl LU[T], cfg ...Config) {
	t.Run("Getrf", func(t *testing.T) { GetrfTest(t, impl, cfg...) })
	t.Run("Getrs", func(t *testing.T) { GetrsTest(t, impl, cfg...) })
	t.Run("Getri", func(t *testing.T) { GetriTest(t, impl, cfg...) })
	t.Run("Gesv", func(t *testing.T) { GesvTest(t, impl, cfg...) })
	t.Run("Inv", func(t *testing.T) { InvTest(t, impl, cfg...) })
}

// modulusGrowth is the largest |L(i,k)| below the diagonal of an LU factor
// (NaN if any is NaN), for engines that pivot complex columns by modulus.
func modulusGrowth(f *oracle.Mat) float64 {
	g := 0.0
	for k := range min(f.Rows, f.Cols) {
		for i := k + 1; i < f.Rows; i++ {
			v := cmplx.Abs(f.At(i, k))
			if math.IsNaN(v) || v > g {
				g = v
			}
			if math.IsNaN(g) {
				return g
			}
		}
	}
	return g
}
