package cpu

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchlas/batchlas/internal/core"
)

// The Cholesky tests are self-contained: they hold their own complex128
// reference (residuals and the LAPACK info of a failing matrix) so they do
// not wait on internal/oracle.

var cholSizes = []int{1, 2, 3, 7, 8, 9, 16, 31, 32, 33, 63, 64, 65, 127, 128, 129}

// cholBig crosses cholParallelMin: factored alone with several workers it
// takes the shared blocked driver, inside the batch the plain kernel.
var cholBig = []int{cholParallelMin + 5}

func cholToC[T core.Scalar](v T) complex128 {
	switch v := any(v).(type) {
	case float32:
		return complex(float64(v), 0)
	case float64:
		return complex(v, 0)
	case complex64:
		return complex128(v)
	case complex128:
		return v
	}
	panic("unreachable")
}

func cholFromC[T core.Scalar](v complex128) T {
	var z T
	switch p := any(&z).(type) {
	case *float32:
		*p = float32(real(v))
	case *float64:
		*p = real(v)
	case *complex64:
		*p = complex64(v)
	case *complex128:
		*p = v
	}
	return z
}

// cholSame reports whether two elements are equal, a NaN equal to a NaN.
func cholSame[T core.Scalar](a, b T) bool { return a == b || (a != a && b != b) }

// cholHPD returns a random n×n Hermitian positive definite matrix, column-major
// with leading dimension n: M·Mᴴ + n·I with entries of M in [-1, 1).
func cholHPD(rng *rand.Rand, n int, cplx bool) []complex128 {
	m := make([]complex128, n*n)
	for i := range m {
		m[i] = complex(2*rng.Float64()-1, 0)
		if cplx {
			m[i] += complex(0, 2*rng.Float64()-1)
		}
	}
	a := make([]complex128, n*n)
	for j := 0; j < n; j++ {
		for i := j; i < n; i++ {
			var s complex128
			for k := 0; k < n; k++ {
				s += m[i+k*n] * cmplx.Conj(m[j+k*n])
			}
			if i == j {
				s = complex(real(s)+float64(n), 0)
			}
			a[i+j*n] = s
			a[j+i*n] = cmplx.Conj(s)
		}
	}
	return a
}

// cholLayout is a batch of count n×n matrices with room around each: ld > n and a
// gap between matrices, all of it (and the triangle uplo does not name)
// poisoned with NaN so a kernel that reads outside its triangle fails.
func cholLayout[T core.Scalar](n, count int) core.Strided[T] {
	ld := n + 3
	stride := ld*n + 5
	s := core.Strided[T]{Rows: n, Cols: n, LD: ld, Stride: stride, Count: count}
	s.Data = make([]T, (count-1)*stride+ld*n+2)
	nan := cholFromC[T](complex(math.NaN(), math.NaN()))
	for i := range s.Data {
		s.Data[i] = nan
	}
	return s
}

// put stores the uplo triangle of the full matrix a (leading dimension n) as matrix b.
func cholStore[T core.Scalar](s core.Strided[T], b int, uplo core.Uplo, a []complex128) {
	n := s.Rows
	m := s.Data[b*s.Stride:]
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			if (uplo == core.Lower && i >= j) || (uplo == core.Upper && i <= j) {
				m[i+j*s.LD] = cholFromC[T](a[i+j*n])
			}
		}
	}
}

// cholStored returns the Hermitian matrix held in the uplo triangle of matrix b, as complex128.
func cholStored[T core.Scalar](s core.Strided[T], b int, uplo core.Uplo) []complex128 {
	n := s.Rows
	m := s.Data[b*s.Stride:]
	a := make([]complex128, n*n)
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			if (uplo == core.Lower && i >= j) || (uplo == core.Upper && i <= j) {
				v := cholToC(m[i+j*s.LD])
				if i == j {
					v = complex(real(v), 0)
				}
				a[i+j*n] = v
				a[j+i*n] = cmplx.Conj(v)
			}
		}
	}
	return a
}

// cholFactorResidual returns ‖A − L·Lᴴ‖_F / (n·‖A‖_F·eps) (or Uᴴ·U) for the
// factor held in matrix b of f and the Hermitian matrix a.
func cholFactorResidual[T core.Scalar](f core.Strided[T], b int, uplo core.Uplo, a []complex128) float64 {
	n := f.Rows
	m := f.Data[b*f.Stride:]
	// l is the lower factor L (for Upper, L = Uᴴ).
	l := make([]complex128, n*n)
	for j := 0; j < n; j++ {
		for i := j; i < n; i++ {
			if uplo == core.Lower {
				l[i+j*n] = cholToC(m[i+j*f.LD])
			} else {
				l[i+j*n] = cmplx.Conj(cholToC(m[j+i*f.LD]))
			}
		}
	}
	var num, den float64
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			var s complex128
			for k := 0; k <= min(i, j); k++ {
				s += l[i+k*n] * cmplx.Conj(l[j+k*n])
			}
			d := a[i+j*n] - s
			num += real(d)*real(d) + imag(d)*imag(d)
			den += real(a[i+j*n])*real(a[i+j*n]) + imag(a[i+j*n])*imag(a[i+j*n])
		}
	}
	return math.Sqrt(num) / (float64(n) * math.Sqrt(den) * core.Eps[T]())
}

// cholRefInfo is LAPACK's info for the Hermitian matrix a (unblocked Cholesky in complex128).
func cholRefInfo(n int, a []complex128) int32 {
	l := append([]complex128(nil), a...)
	for j := 0; j < n; j++ {
		d := real(l[j+j*n])
		for k := 0; k < j; k++ {
			d -= real(l[j+k*n] * cmplx.Conj(l[j+k*n]))
		}
		if !(d > 0) {
			return int32(j + 1)
		}
		d = math.Sqrt(d)
		l[j+j*n] = complex(d, 0)
		for i := j + 1; i < n; i++ {
			s := l[i+j*n]
			for k := 0; k < j; k++ {
				s -= l[i+k*n] * cmplx.Conj(l[j+k*n])
			}
			l[i+j*n] = s / complex(d, 0)
		}
	}
	return 0
}

// cholCheckOutside fails the test when anything but the uplo triangles of got
// differs from before (padding rows, the other triangle, gaps between matrices).
func cholCheckOutside[T core.Scalar](t *testing.T, uplo core.Uplo, before, got core.Strided[T]) {
	t.Helper()
	n := got.Rows
	inside := func(p int) bool {
		b := p / got.Stride
		r := p - b*got.Stride
		if b >= got.Count || r >= got.LD*n {
			return false
		}
		i, j := r%got.LD, r/got.LD
		return i < n && ((uplo == core.Lower && i >= j) || (uplo == core.Upper && i <= j))
	}
	for p := range got.Data {
		if !inside(p) && !cholSame(before.Data[p], got.Data[p]) {
			t.Fatalf("element %d outside the %v triangles changed: %v → %v", p, uplo, before.Data[p], got.Data[p])
		}
	}
}

func cholClone[T core.Scalar](s core.Strided[T]) core.Strided[T] {
	s.Data = append([]T(nil), s.Data...)
	return s
}

func TestPotrf(t *testing.T) {
	t.Run("float32", testPotrf[float32])
	t.Run("float64", testPotrf[float64])
	t.Run("complex64", testPotrf[complex64])
	t.Run("complex128", testPotrf[complex128])
}

func testPotrf[T core.Scalar](t *testing.T) {
	sizes := append(append([]int(nil), cholSizes...), cholBig...)
	if testing.Short() {
		sizes = []int{1, 3, 8, 9, 33, 64, 65, cholBig[0]}
	}
	cplx := core.IsComplex[T]()
	for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
		for _, n := range sizes {
			rng := rand.New(rand.NewPCG(uint64(n), uint64(uplo)))
			count := 3
			if n > 150 {
				count = 2
			}
			a := cholLayout[T](n, count)
			for b := 0; b < count; b++ {
				cholStore(a, b, uplo, cholHPD(rng, n, cplx))
			}
			before := cholClone(a)
			info := make([]int32, count)
			for i := range info {
				info[i] = -7
			}
			if err := Potrf(Exec{}, uplo, a, info); err != nil {
				t.Fatal(err)
			}
			cholCheckOutside(t, uplo, before, a)
			for b := 0; b < count; b++ {
				if info[b] != 0 {
					t.Fatalf("%v n=%d matrix %d: info %d, want 0", uplo, n, b, info[b])
				}
				r := cholFactorResidual(a, b, uplo, cholStored(before, b, uplo))
				if r > 30 || math.IsNaN(r) {
					t.Fatalf("%v n=%d matrix %d: residual %.3g > 30", uplo, n, b, r)
				}
				cholCheckRealDiagonal(t, a, b)
			}
			// Batch 1 and large n shares the matrix among workers: the result
			// must not depend on it.
			if n >= cholParallelMin {
				for _, workers := range []int{1, 2, 3} {
					one := cholLayout[T](n, 1)
					copy(one.Data, before.Data[:len(one.Data)])
					inf := []int32{-1}
					if err := Potrf(Exec{Workers: workers}, uplo, one, inf); err != nil {
						t.Fatal(err)
					}
					for p := range one.Data {
						if !cholSame(one.Data[p], a.Data[p]) {
							t.Fatalf("%v n=%d workers=%d: element %d is %v alone, %v in the batch", uplo, n, workers, p, one.Data[p], a.Data[p])
						}
					}
				}
			}
		}
	}
}

func cholCheckRealDiagonal[T core.Scalar](t *testing.T, a core.Strided[T], b int) {
	t.Helper()
	for j := 0; j < a.Rows; j++ {
		v := cholToC(a.Data[b*a.Stride+j*a.LD+j])
		if imag(v) != 0 || !(real(v) > 0) {
			t.Fatalf("matrix %d: diagonal %d of the factor is %v", b, j, v)
		}
	}
}

// A batch mixing good, indefinite, singular and NaN-holding matrices: each
// bad one reports LAPACK's info, each good one is bit-identical to factoring
// it alone.
func TestPotrfInfo(t *testing.T) {
	t.Run("float32", testPotrfInfo[float32])
	t.Run("float64", testPotrfInfo[float64])
	t.Run("complex64", testPotrfInfo[complex64])
	t.Run("complex128", testPotrfInfo[complex128])
}

// cholBad returns a full Hermitian matrix of order n of the given kind whose
// failing pivot is at k (1-based), or a good one for kind "good".
func cholBad(rng *rand.Rand, n int, kind string, k int, cplx bool) []complex128 {
	a := cholHPD(rng, n, cplx)
	switch kind {
	case "indefinite": // a negative diagonal: pivot k is below -1
		a[(k-1)*(n+1)] = -1
	case "zero": // row and column k zero: pivot k is exactly 0
		for i := 0; i < n; i++ {
			a[i+(k-1)*n], a[(k-1)+i*n] = 0, 0
		}
	case "singular": // rows k-1 and k of the leading block equal: [[4 2] [2 1]] and no coupling
		for i := 0; i < n; i++ {
			for _, c := range []int{k - 2, k - 1} {
				a[i+c*n], a[c+i*n] = 0, 0
			}
		}
		a[(k-2)*(n+1)], a[(k-1)*(n+1)] = 4, 1
		a[(k-1)+(k-2)*n], a[(k-2)+(k-1)*n] = 2, 2
	case "nandiag":
		a[(k-1)*(n+1)] = complex(math.NaN(), 0)
	case "nanoff": // NaN at (k-1, k/2): the first pivot it reaches is k
		j := (k - 1) / 2
		a[(k-1)+j*n] = complex(math.NaN(), 0)
		a[j+(k-1)*n] = complex(math.NaN(), 0)
	}
	return a
}

func testPotrfInfo[T core.Scalar](t *testing.T) {
	cplx := core.IsComplex[T]()
	type item struct {
		kind string
		k    int
	}
	for _, n := range []int{5, 8, 37, 64, 150} {
		items := []item{
			{"good", 0}, {"indefinite", 1}, {"good", 0}, {"indefinite", n}, {"nandiag", 1},
			{"zero", (n + 1) / 2}, {"good", 0}, {"singular", max(2, n-1)}, {"nanoff", n},
			{"nanoff", max(2, n/2+1)}, {"nandiag", n}, {"good", 0}, {"indefinite", max(1, n-5)},
		}
		for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
			rng := rand.New(rand.NewPCG(uint64(n), 99))
			a := cholLayout[T](n, len(items))
			full := make([][]complex128, len(items))
			for b, it := range items {
				full[b] = cholBad(rng, n, it.kind, it.k, cplx)
				cholStore(a, b, uplo, full[b])
			}
			before := cholClone(a)
			info := make([]int32, len(items))
			if err := Potrf(Exec{}, uplo, a, info); err != nil {
				t.Fatal(err)
			}
			cholCheckOutside(t, uplo, before, a)
			for b, it := range items {
				want := cholRefInfo(n, cholStored(before, b, uplo))
				if want != int32(it.k) {
					t.Fatalf("reference gives info %d for %s at %d", want, it.kind, it.k)
				}
				if info[b] != want {
					t.Errorf("%v n=%d matrix %d (%s): info %d, want %d", uplo, n, b, it.kind, info[b], want)
				}
				if it.kind != "good" {
					continue
				}
				one := cholLayout[T](n, 1)
				copy(one.Data, before.Data[b*a.Stride:])
				inf := []int32{-1}
				if err := Potrf(Exec{Workers: 1}, uplo, one, inf); err != nil || inf[0] != 0 {
					t.Fatal(err, inf)
				}
				for p := 0; p < one.LD*n; p++ {
					if !cholSame(one.Data[p], a.Data[b*a.Stride+p]) {
						t.Fatalf("%v n=%d matrix %d: element %d is %v alone, %v in the batch", uplo, n, b, p, one.Data[p], a.Data[b*a.Stride+p])
					}
				}
			}
		}
	}
}

// TestPotrfExtremePivots: positive pivots whose reciprocal is not a normal
// number of T (a subnormal one, +Inf) are not failures, as in xPOTF2, which
// forms 1/√p: a subnormal pivot p gives L(k, k) = √p and column k scaled by
// 1/√p; +Inf gives L(k, k) = +Inf and zeros below it. Both kinds at every
// place of the 4×4 diagonal blocks, in the batched kernel and in the blocked
// driver that shares one matrix among workers.
func TestPotrfExtremePivots(t *testing.T) {
	t.Run("float32", testPotrfExtremePivots[float32])
	t.Run("float64", testPotrfExtremePivots[float64])
	t.Run("complex64", testPotrfExtremePivots[complex64])
	t.Run("complex128", testPotrfExtremePivots[complex128])
}

// cholTinyPivot returns a Hermitian positive definite matrix of order n whose
// k-th pivot (1-based) is exactly p and whose column k of L is v, coupled to
// every row below: row and column k−1 of a random one are replaced by those
// of v·vᵀ, which is added to the trailing block, with v zero above k−1, √p at
// k−1 and ½·u·√A(i, i) below it (u uniform in [−1, 1]).
func cholTinyPivot(rng *rand.Rand, n, k int, p float64, cplx bool) (a []complex128, v []float64) {
	a = cholHPD(rng, n, cplx)
	j := k - 1
	v = make([]float64, n)
	v[j] = math.Sqrt(p)
	for i := j + 1; i < n; i++ {
		v[i] = 0.5 * (2*rng.Float64() - 1) * math.Sqrt(real(a[i*(n+1)]))
	}
	for c := 0; c < n; c++ {
		a[j+c*n], a[c+j*n] = complex(v[j]*v[c], 0), complex(v[c]*v[j], 0)
	}
	for c := j + 1; c < n; c++ {
		for i := j + 1; i < n; i++ {
			a[i+c*n] += complex(v[i]*v[c], 0)
		}
	}
	return a, v
}

func testPotrfExtremePivots[T core.Scalar](t *testing.T) {
	cplx := core.IsComplex[T]()
	// A subnormal of T's precision with an exact square root: 2⁻¹⁴⁰ (√ 2⁻⁷⁰)
	// for float32 and complex64, 2⁻¹⁰⁶⁰ (√ 2⁻⁵³⁰) for the others.
	tiny := 0x1p-1060
	if core.Eps[T]() > 1e-10 {
		tiny = 0x1p-140
	}
	type run struct {
		n, workers int
	}
	runs := []run{{4, 0}, {5, 0}, {8, 0}, {9, 0}, {33, 0}, {cholBig[0], 2}}
	for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
		for _, r := range runs {
			n := r.n
			var ks []int
			for _, k := range []int{1, 2, 3, 4, 5, 8, n - 1, n} {
				if k >= 1 && k <= n && !slices.Contains(ks, k) {
					ks = append(ks, k)
				}
			}
			for _, kind := range []string{"subnormal", "inf"} {
				rng := rand.New(rand.NewPCG(uint64(n), uint64(uplo)))
				a := cholLayout[T](n, len(ks))
				vs := make([][]float64, len(ks))
				for b, k := range ks {
					var m []complex128
					if kind == "subnormal" {
						m, vs[b] = cholTinyPivot(rng, n, k, tiny, cplx)
					} else {
						m = cholHPD(rng, n, cplx)
						m[(k-1)*(n+1)] = complex(math.Inf(1), 0)
					}
					cholStore(a, b, uplo, m)
				}
				before := cholClone(a)
				info := make([]int32, len(ks))
				for b := range info {
					info[b] = -7
				}
				if err := Potrf(Exec{Workers: r.workers}, uplo, a, info); err != nil {
					t.Fatal(err)
				}
				cholCheckOutside(t, uplo, before, a)
				for b, k := range ks {
					name := fmt.Sprintf("%v n=%d %s pivot at %d", uplo, n, kind, k)
					if info[b] != 0 {
						t.Fatalf("%s: info %d, want 0", name, info[b])
					}
					at := func(i, j int) complex128 { // L(i, j)
						if uplo == core.Upper {
							return cmplx.Conj(cholToC(a.Data[b*a.Stride+j+i*a.LD]))
						}
						return cholToC(a.Data[b*a.Stride+i+j*a.LD])
					}
					for j := 0; j < n; j++ {
						for i := j; i < n; i++ {
							if l := at(i, j); cmplx.IsNaN(l) || (cmplx.IsInf(l) && (kind != "inf" || i != k-1 || j != k-1)) {
								t.Fatalf("%s: L(%d, %d) = %v", name, i, j, l)
							}
						}
					}
					j := k - 1
					if kind == "inf" {
						if l := at(j, j); l != complex(math.Inf(1), 0) {
							t.Fatalf("%s: L(%d, %d) = %v, want +Inf", name, j, j, l)
						}
						for i := j + 1; i < n; i++ {
							if l := at(i, j); l != 0 {
								t.Fatalf("%s: L(%d, %d) = %v, want 0 below an infinite pivot", name, i, j, l)
							}
						}
						continue
					}
					if l := at(j, j); l != complex(math.Sqrt(tiny), 0) {
						t.Fatalf("%s: L(%d, %d) = %v, want √p = %v", name, j, j, l, math.Sqrt(tiny))
					}
					// A(i, k−1) is T(v(i))·√p exactly and 1/√p is a power of 2,
					// so L(i, k−1) is v(i) rounded to T.
					for i := j + 1; i < n; i++ {
						want := cholToC(cholFromC[T](complex(vs[b][i], 0)))
						if l := at(i, j); cmplx.Abs(l-want) > 2*core.Eps[T]()*cmplx.Abs(want) {
							t.Fatalf("%s: L(%d, %d) = %v, want %v", name, i, j, l, want)
						}
					}
					if res := cholFactorResidual(a, b, uplo, cholStored(before, b, uplo)); res > 30 || math.IsNaN(res) {
						t.Fatalf("%s: residual %.3g > 30", name, res)
					}
				}
			}
		}
	}
}

// The blocked driver (delayed updates, phase 2 shared among workers) gives
// the plain kernel's result bit for bit, also when it stops on a failure.
func TestPotrfBlocked(t *testing.T) {
	t.Run("float32", testPotrfBlocked[float32])
	t.Run("float64", testPotrfBlocked[float64])
	t.Run("complex64", testPotrfBlocked[complex64])
	t.Run("complex128", testPotrfBlocked[complex128])
}

func testPotrfBlocked[T core.Scalar](t *testing.T) {
	cplx := core.IsComplex[T]()
	diag := cholDiagOf[T]()
	for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
		for _, n := range []int{3, 5, 33, 36, 37, 64, 70, 101} {
			for _, kind := range []string{"good", "indefinite"} {
				rng := rand.New(rand.NewPCG(uint64(n), 7))
				full := cholBad(rng, n, kind, max(1, n-2), cplx)
				a := cholLayout[T](n, 1)
				cholStore(a, 0, uplo, full)
				before := cholClone(a)
				w := make([]T, cholScratch(n)+cholSuper*n)
				want := potrfRB(uplo, n, a.Data, a.LD, w, diag, cplx)
				if kind == "good" {
					if r := cholFactorResidual(a, 0, uplo, cholStored(before, 0, uplo)); want != 0 || r > 30 {
						t.Fatalf("%v n=%d: plain kernel info %d residual %.3g", uplo, n, want, r)
					}
				}
				for _, inner := range []int{1, 2, 3} {
					b := cholClone(before)
					if got := potrfBlocked(uplo, n, b.Data, b.LD, w, diag, cplx, inner); got != want {
						t.Fatalf("%v n=%d %s inner=%d: info %d, plain kernel %d", uplo, n, kind, inner, got, want)
					}
					// All of it for a good matrix; for a failed one the panels
					// finished before the failing one (what follows the
					// failure is partial work, as in LAPACK).
					done := n
					if want != 0 {
						done = (want - 1) / 4 * 4
					}
					for j := 0; j < n; j++ {
						for i := 0; i < n; i++ {
							if (uplo == core.Lower && (j >= done || i < j)) || (uplo == core.Upper && (i >= done || j < i)) {
								continue
							}
							if p := i + j*a.LD; !cholSame(a.Data[p], b.Data[p]) {
								t.Fatalf("%v n=%d %s inner=%d: (%d, %d) is %v, plain kernel %v", uplo, n, kind, inner, i, j, b.Data[p], a.Data[p])
							}
						}
					}
				}
			}
		}
	}
}

// The imaginary part of a complex diagonal is ignored, as in LAPACK.
func TestPotrfImagDiagonal(t *testing.T) {
	for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
		for _, n := range []int{3, 12, 70, cholParallelMin + 1} {
			rng := rand.New(rand.NewPCG(5, uint64(n)))
			a := cholLayout[complex128](n, 2)
			full := cholHPD(rng, n, true)
			cholStore(a, 0, uplo, full)
			cholStore(a, 1, uplo, full)
			for j := 0; j < n; j++ {
				a.Data[a.Stride+j*a.LD+j] += complex(0, 0.25+float64(j))
			}
			info := make([]int32, 2)
			if err := Potrf(Exec{}, uplo, a, info); err != nil || info[0] != 0 || info[1] != 0 {
				t.Fatal(err, info)
			}
			for p := 0; p < a.LD*n; p++ {
				if !cholSame(a.Data[p], a.Data[a.Stride+p]) {
					t.Fatalf("%v n=%d: element %d differs with an imaginary diagonal: %v vs %v", uplo, n, p, a.Data[p], a.Data[a.Stride+p])
				}
			}
		}
	}
}

func TestPotrsPosv(t *testing.T) {
	t.Run("float32", testPotrsPosv[float32])
	t.Run("float64", testPotrsPosv[float64])
	t.Run("complex64", testPotrsPosv[complex64])
	t.Run("complex128", testPotrsPosv[complex128])
}

// cholSolveResidual returns ‖A·X − B‖_F / (‖A‖_F·‖X‖_F·n·eps) for matrix b of x.
func cholSolveResidual[T core.Scalar](a []complex128, x, bm core.Strided[T], b int) float64 {
	n, nrhs := x.Rows, x.Cols
	var num, na, nx float64
	for _, v := range a {
		na += real(v)*real(v) + imag(v)*imag(v)
	}
	for r := 0; r < nrhs; r++ {
		for i := 0; i < n; i++ {
			var s complex128
			for k := 0; k < n; k++ {
				s += a[i+k*n] * cholToC(x.Data[b*x.Stride+r*x.LD+k])
			}
			d := s - cholToC(bm.Data[b*bm.Stride+r*bm.LD+i])
			num += real(d)*real(d) + imag(d)*imag(d)
			v := cholToC(x.Data[b*x.Stride+r*x.LD+i])
			nx += real(v)*real(v) + imag(v)*imag(v)
		}
	}
	return math.Sqrt(num) / (math.Sqrt(na) * math.Sqrt(nx) * float64(n) * core.Eps[T]())
}

func testPotrsPosv[T core.Scalar](t *testing.T) {
	cplx := core.IsComplex[T]()
	sizes := []int{1, 2, 5, 8, 33, 64, 129, cholSolveTrsmMin + 3}
	if testing.Short() {
		sizes = []int{1, 5, 33, cholSolveTrsmMin + 3}
	}
	for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
		for _, n := range sizes {
			for _, nrhs := range []int{1, 3, 16} {
				rng := rand.New(rand.NewPCG(uint64(n), uint64(nrhs)))
				const count = 3
				a := cholLayout[T](n, count)
				full := make([][]complex128, count)
				for b := range count {
					full[b] = cholHPD(rng, n, cplx)
					if b == 1 {
						full[b][0] = -1 // fails at pivot 1: Posv must leave its B alone
					}
					cholStore(a, b, uplo, full[b])
				}
				bm := core.Strided[T]{Rows: n, Cols: nrhs, LD: n + 2, Stride: (n+2)*nrhs + 1, Count: count}
				bm.Data = make([]T, (count-1)*bm.Stride+bm.LD*nrhs)
				for i := range bm.Data {
					bm.Data[i] = cholFromC[T](complex(2*rng.Float64()-1, 2*rng.Float64()-1))
				}
				rhs := cholClone(bm)
				ab := cholStored(a, 0, uplo)

				// Posv.
				pa, px := cholClone(a), cholClone(bm)
				info := make([]int32, count)
				if err := Posv(Exec{}, uplo, pa, px, info); err != nil {
					t.Fatal(err)
				}
				if info[0] != 0 || info[1] != 1 || info[2] != 0 {
					t.Fatalf("%v n=%d nrhs=%d: Posv info %v, want [0 1 0]", uplo, n, nrhs, info)
				}
				for p := bm.Stride; p < 2*bm.Stride; p++ {
					if !cholSame(px.Data[p], rhs.Data[p]) {
						t.Fatalf("%v n=%d nrhs=%d: Posv changed the B of a failed matrix", uplo, n, nrhs)
					}
				}
				for _, b := range []int{0, 2} {
					if r := cholSolveResidual(cholStored(a, b, uplo), px, rhs, b); r > 30 || math.IsNaN(r) {
						t.Fatalf("%v n=%d nrhs=%d matrix %d: Posv residual %.3g > 30", uplo, n, nrhs, b, r)
					}
				}

				// Potrs from Potrf's factor of matrix 0, and gap bits untouched.
				fa := cholLayout[T](n, 1)
				copy(fa.Data, a.Data[:len(fa.Data)])
				if err := Potrf(Exec{}, uplo, fa, info[:1]); err != nil || info[0] != 0 {
					t.Fatal(err, info)
				}
				x := cholClone(bm)
				x.Count = 1
				if err := Potrs(Exec{}, uplo, fa, x); err != nil {
					t.Fatal(err)
				}
				if r := cholSolveResidual(ab, x, rhs, 0); r > 30 || math.IsNaN(r) {
					t.Fatalf("%v n=%d nrhs=%d: Potrs residual %.3g > 30", uplo, n, nrhs, r)
				}
				for r := 0; r < nrhs; r++ {
					for i := n; i < x.LD && r*x.LD+i < len(x.Data); i++ {
						if p := r*x.LD + i; !cholSame(x.Data[p], rhs.Data[p]) {
							t.Fatalf("Potrs wrote padding element %d", p)
						}
					}
				}
			}
		}
	}
}

func TestCholeskyArguments(t *testing.T) {
	a := core.Strided[float64]{Data: make([]float64, 12), Rows: 3, Cols: 3, LD: 3, Stride: 9, Count: 1}
	info := make([]int32, 1)
	if err := Potrf(Exec{}, core.Uplo(7), a, info); !errors.Is(err, core.ErrArgument) {
		t.Errorf("bad uplo: %v", err)
	}
	rect := a
	rect.Cols = 2
	if err := Potrf(Exec{}, core.Lower, rect, info); !errors.Is(err, core.ErrShape) {
		t.Errorf("non-square: %v", err)
	}
	if err := Potrf(Exec{}, core.Lower, a, nil); !errors.Is(err, core.ErrShape) {
		t.Errorf("short info: %v", err)
	}
	b := core.Strided[float64]{Data: make([]float64, 8), Rows: 4, Cols: 2, LD: 4, Stride: 8, Count: 1}
	if err := Potrs(Exec{}, core.Lower, a, b); !errors.Is(err, core.ErrShape) {
		t.Errorf("b rows: %v", err)
	}
	if err := Posv(Exec{}, core.Lower, a, b, info); !errors.Is(err, core.ErrShape) {
		t.Errorf("Posv b rows: %v", err)
	}
	empty := core.Strided[float64]{Rows: 0, Cols: 0, LD: 1, Count: 2}
	info2 := []int32{5, 5}
	if err := Potrf(Exec{}, core.Upper, empty, info2); err != nil || info2[0] != 0 || info2[1] != 0 {
		t.Errorf("n = 0: %v %v", err, info2)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	big := cholLayout[float64](4, 64)
	if err := Potrf(Exec{Ctx: ctx}, core.Lower, big, make([]int32, 64)); !errors.Is(err, core.ErrCanceled) {
		t.Errorf("canceled: %v", err)
	}
}

// Potrf on a pooled batch allocates nothing per call.
func TestPotrfAllocs(t *testing.T) {
	if cholRace {
		t.Skip("-race instrumentation allocates")
	}
	for _, n := range []int{8, 32} {
		a := cholLayout[float64](n, 16)
		rng := rand.New(rand.NewPCG(1, 1))
		for b := 0; b < 16; b++ {
			cholStore(a, b, core.Lower, cholHPD(rng, n, false))
		}
		orig := cholClone(a)
		info := make([]int32, 16)
		allocs := testing.AllocsPerRun(20, func() {
			copy(a.Data, orig.Data)
			_ = Potrf(Exec{Workers: 1}, core.Lower, a, info)
		})
		if allocs > 2 {
			t.Errorf("n=%d: %v allocations per call", n, fmt.Sprint(allocs))
		}
	}
}
