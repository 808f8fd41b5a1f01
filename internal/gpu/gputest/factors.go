package gputest

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/oracle"
)

// Item is one matrix of a test batch: its kind (spd, illcond, notspd,
// nan, ...) and the info its construction promises.
type Item struct {
	Kind string
	Info int
}

// MixedBatch makes count Hermitian matrices of order n in a poisoned strided
// batch (lda > n, a gap between matrices), only the uplo triangle stored:
// mostly random positive definite ones, and ill-conditioned, not positive
// definite (info = k) and NaN items (on and off the diagonal) spread over it.
// Complex diagonals get a non-zero imaginary part, which a factorization must ignore.
func MixedBatch[T core.Scalar](n, count int, uplo core.Uplo, seed uint64) (core.Strided[T], []Item) {
	lda := n + 1 + n%3
	a := oracle.NewStridedLayout[T](n, n, count, lda, lda*n+3+n%5)
	cplx := core.IsComplex[T]()
	gen := oracle.GenFor[T](seed)
	rng := rand.New(rand.NewPCG(seed, 77))
	ill := 1e6
	if core.Eps[T]() > 1e-10 {
		ill = 1e3
	}
	var pool []*oracle.Mat
	for range 6 {
		pool = append(pool, gen.SPD(n, 100))
	}
	illPool := []*oracle.Mat{gen.SPD(n, ill), gen.SPD(n, ill)}
	items := make([]Item, count)
	for b := range count {
		m := oracle.Congruent(pool[b%len(pool)], rng, cplx)
		it := Item{Kind: "spd"}
		r := b / 10
		switch b % 10 {
		case 6:
			m, it = oracle.Congruent(illPool[r%2], rng, cplx), Item{Kind: "illcond"}
		case 7:
			k := 1 + r%n
			m, it = oracle.NotSPDFrom(m, k), Item{Kind: "notspd", Info: k}
		case 8:
			j := r % n
			oracle.PlantNaN(m, j, j)
			it = Item{Kind: "nan", Info: j + 1}
		case 9:
			if n == 1 {
				oracle.PlantNaN(m, 0, 0)
				it = Item{Kind: "nan", Info: 1}
				break
			}
			// A NaN in row i, column j < i of L spoils pivot i first.
			i := 1 + r%(n-1)
			j := r % i
			oracle.PlantNaN(m, i, j)
			oracle.PlantNaN(m, j, i)
			it = Item{Kind: "nan:offdiag", Info: i + 1}
		}
		if cplx {
			for i := range n {
				m.Set(i, i, complex(real(m.At(i, i)), 0.25))
			}
		}
		oracle.Store(a, b, m)
		oracle.PoisonTriangle(a, b, uplo, false)
		items[b] = it
	}
	return a, items
}

// MachineEps is the machine epsilon of T's precision (2⁻²³ or 2⁻⁵²), the
// eps of the bound ‖A − L·Lᴴ‖₁ ≤ 20·n·eps·‖A‖₁.
func MachineEps[T core.Scalar]() float64 { return 2 * core.Eps[T]() }

// lowerOf reads the leading k×k block of matrix b of s in L's orientation,
// row-major (element (i, c) at i·k + c, c ≤ i), from its uplo triangle;
// the diagonal's imaginary part is dropped when real is set.
func lowerOf[T core.Scalar, E float64 | complex128](s core.Strided[T], b int, uplo core.Uplo, k int, realDiag bool) []E {
	out := make([]E, k*k)
	for i := range k {
		for c := 0; c <= i; c++ {
			var z complex128
			if uplo == core.Lower {
				z = oracle.ToComplex(s.Data[b*s.Stride+i+c*s.LD])
			} else {
				z = cmplx.Conj(oracle.ToComplex(s.Data[b*s.Stride+c+i*s.LD]))
			}
			if realDiag && i == c {
				z = complex(real(z), 0)
			}
			var e E
			switch p := any(&e).(type) {
			case *float64:
				*p = real(z)
			case *complex128:
				*p = z
			}
			out[i*k+c] = e
		}
	}
	return out
}

func abs[E float64 | complex128](v E) float64 {
	switch x := any(v).(type) {
	case float64:
		return math.Abs(x)
	case complex128:
		return cmplx.Abs(x)
	}
	return 0
}

func conj[E float64 | complex128](v E) E {
	if x, ok := any(v).(complex128); ok {
		return any(cmplx.Conj(x)).(E)
	}
	return v
}

// Residual1 is ‖A − L·Lᴴ‖₁ / (k·eps·‖A‖₁) over the leading k×k block, A the
// Hermitian matrix in the uplo triangle of matrix b of in, L the factor in
// that of out; k³/6 multiply-adds, in float64 for real T.
func Residual1[T core.Scalar](in, out core.Strided[T], b int, uplo core.Uplo, k int, eps float64) float64 {
	if core.IsComplex[T]() {
		return residualOf(lowerOf[T, complex128](in, b, uplo, k, true), lowerOf[T, complex128](out, b, uplo, k, false), k, eps)
	}
	return residualOf(lowerOf[T, float64](in, b, uplo, k, true), lowerOf[T, float64](out, b, uplo, k, false), k, eps)
}

func residualOf[E float64 | complex128](a, l []E, k int, eps float64) float64 {
	errCol, aCol := make([]float64, k), make([]float64, k)
	for i := range k {
		li := l[i*k : i*k+i+1]
		for c := 0; c <= i; c++ {
			lc := l[c*k : c*k+c+1]
			var s E
			for t := range lc {
				s += li[t] * conj(lc[t])
			}
			d, x := abs(a[i*k+c]-s), abs(a[i*k+c])
			errCol[c] += d
			aCol[c] += x
			if i != c { // the mirror element (c, i) of the Hermitian matrix
				errCol[i] += d
				aCol[i] += x
			}
		}
	}
	return slices.Max(errCol) / (float64(max(1, k)) * eps * slices.Max(aCol))
}

// CheckFactors checks the factored batch out and its info against the input
// in: info equal to the one the item's construction promises (and to the
// float64 reference's up to n = 160); for good matrices a real positive
// diagonal and ‖A − L·Lᴴ‖₁ ≤ 20·n·eps·‖A‖₁; for failing ones a pivot that is
// not positive, the leading block factored and the rest of the triangle as
// it was; outside the triangles nothing changed. It reports through errorf
// (at most 5 reports) and returns the worst residual ratio.
func CheckFactors[T core.Scalar](errorf func(string, ...any), uplo core.Uplo, in core.Strided[T], items []Item, out core.Strided[T], info []int32) float64 {
	return CheckFactorsWithin(errorf, 20, uplo, in, items, out, info)
}

// CheckFactorsWithin is CheckFactors with the residual bound bound·n·eps·‖A‖₁
// instead of 20·n·eps·‖A‖₁: for a factorization whose products are
// knowingly less accurate than T (reduced-precision tensor-core updates).
func CheckFactorsWithin[T core.Scalar](errorf func(string, ...any), bound float64, uplo core.Uplo, in core.Strided[T], items []Item, out core.Strided[T], info []int32) float64 {
	n := in.Rows
	eps := MachineEps[T]()
	worst := 0.0
	errs := 0
	fail := func(format string, args ...any) {
		if errs++; errs <= 5 {
			errorf(format, args...)
		}
	}
	for b, it := range items {
		want := it.Info
		if n <= 160 {
			if _, ref := oracle.Potrf(uplo, oracle.Load(in, b)); ref != want {
				fail("item %d (%s): the reference says info %d, the construction %d", b, it.Kind, ref, want)
				continue
			}
		}
		if int(info[b]) != want {
			fail("item %d (%s): info %d, want %d", b, it.Kind, info[b], want)
			continue
		}
		// Outside the stored triangle nothing changes (padding, gaps, the
		// other triangle); inside, a failing matrix changes only its first
		// k−1 columns of L (rows of U) and the pivot.
		base := b * in.Stride
		for x := base; x < base+in.Stride && x < len(in.Data); x++ {
			i, j := (x-base)%in.LD, (x-base)/in.LD
			inside := i < n && j < n && (uplo == core.Lower && i >= j || uplo == core.Upper && i <= j)
			if want != 0 && inside {
				line := j // column of L
				if uplo == core.Upper {
					line = i // row of U
				}
				inside = line < want-1 || i == want-1 && j == want-1
			}
			if !inside && !oracle.SameBits(in.Data[x], out.Data[x]) {
				fail("item %d (%s, info %d): element (%d,%d) of its stride changed from %v to %v", b, it.Kind, want, i, j, in.Data[x], out.Data[x])
				break
			}
		}
		if want != 0 {
			if p := oracle.ToComplex(out.Data[base+(want-1)*(in.LD+1)]); real(p) > 0 {
				fail("item %d (%s): info %d but the stored pivot is %v", b, it.Kind, want, p)
			}
			// The NaN items have NaN in the leading block of A only when it
			// is their pivot; the off-diagonal NaN lies in row want−1.
			if k := want - 1; k > 0 {
				if r := Residual1(in, out, b, uplo, k, eps); !(r <= bound) {
					fail("item %d (%s): the factored leading %d×%d block has residual %.3g n·eps·‖A‖₁, bound %.3g", b, it.Kind, k, k, r, bound)
				}
			}
			continue
		}
		for j := range n {
			if d := oracle.ToComplex(out.Data[base+j*(in.LD+1)]); !(real(d) > 0) || imag(d) != 0 {
				fail("item %d (%s): diagonal %d of the factor is %v", b, it.Kind, j, d)
				break
			}
		}
		r := Residual1(in, out, b, uplo, n, eps)
		if !(r <= bound) {
			fail("item %d (%s): ‖A − L·Lᴴ‖₁ = %.3g·n·eps·‖A‖₁, bound %.3g", b, it.Kind, r, bound)
		}
		worst = max(worst, r)
	}
	return worst
}

// Plants checks the checks: each plant breaks a copy of a result that
// passes CheckFactors (out and info, for in and items), and t fails for any
// break that CheckFactors does not report, labelled with label.
func Plants[T core.Scalar](t testing.TB, label string, uplo core.Uplo, in core.Strided[T], items []Item, out core.Strided[T], info []int32,
	plants map[string]func(o core.Strided[T], info []int32)) {
	t.Helper()
	for plant, edit := range plants {
		o, i := oracle.Clone(out), slices.Clone(info)
		edit(o, i)
		reported := false
		CheckFactors(func(string, ...any) { reported = true }, uplo, in, items, o, i)
		if !reported {
			t.Errorf("%s: planted %q was not reported", label, plant)
		}
	}
}

// SPDBatch is count packed n×n Hermitian positive definite matrices for
// timing: distinct random ones (condition about 100, complex when cplx is
// set), each matrix a fresh congruence D·A·Dᴴ of one of them, so building
// count of them costs distinct·n³ + count·n², not count·n³.
func SPDBatch[T core.Scalar](n, count, distinct int, cplx bool) core.Strided[T] {
	gen := oracle.GenFor[T](uint64(n))
	rng := rand.New(rand.NewPCG(uint64(n), 5))
	pool := make([]*oracle.Mat, distinct)
	for i := range pool {
		pool[i] = gen.SPD(n, 100)
	}
	host := core.Strided[T]{Data: make([]T, count*n*n), Rows: n, Cols: n, LD: n, Stride: n * n, Count: count}
	for b := range count {
		oracle.Store(host, b, oracle.Congruent(pool[b%len(pool)], rng, cplx))
	}
	return host
}
