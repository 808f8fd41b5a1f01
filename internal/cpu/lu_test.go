package cpu

import (
	"errors"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchlas/batchlas/internal/core"
)

// The LU tests check every result in complex128 against residual bounds of
// the form ratio ≤ luTol, ratio = ‖residual‖/(n·‖A‖·…·eps), and against a
// plain partial-pivoting reference where the pivot order is unambiguous.

const luTol = 30

var luSizes = []int{1, 2, 3, 7, 8, 9, 16, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257}

func luTestSizes() []int {
	if testing.Short() {
		return []int{1, 2, 3, 7, 8, 9, 31, 33, 64, 65, 129, 161}
	}
	return luSizes
}

// luTypes runs f once per element type.
func luTypes(t *testing.T, f32, f64, c64, c128 func(t *testing.T)) {
	t.Run("float32", f32)
	t.Run("float64", f64)
	t.Run("complex64", c64)
	t.Run("complex128", c128)
}

func luTo[T core.Scalar](re, im float64) T {
	var v T
	switch p := any(&v).(type) {
	case *float32:
		*p = float32(re)
	case *float64:
		*p = re
	case *complex64:
		*p = complex(float32(re), float32(im))
	case *complex128:
		*p = complex(re, im)
	}
	return v
}

func luC[T core.Scalar](v T) complex128 {
	switch p := any(v).(type) {
	case float32:
		return complex(float64(p), 0)
	case float64:
		return complex(p, 0)
	case complex64:
		return complex128(p)
	case complex128:
		return p
	}
	panic("unreachable")
}

// luSentinel poisons padding; it must survive every op bit for bit.
func luSentinel[T core.Scalar]() T { return luTo[T](-7777.25, 3.5) }

// luBatch builds count random m×n matrices with leading dimension ld and
// batch stride stride, entries uniform in [-1, 1] (both parts for complex),
// everything outside the matrices poisoned.
func luBatch[T core.Scalar](r *rand.Rand, m, n, ld, stride, count int) core.Strided[T] {
	s := core.Strided[T]{Rows: m, Cols: n, LD: ld, Stride: stride, Count: count}
	s.Data = make([]T, max(s.Need(), count*stride))
	for i := range s.Data {
		s.Data[i] = luSentinel[T]()
	}
	for b := range count {
		for j := range n {
			for i := range m {
				s.Data[b*stride+j*ld+i] = luTo[T](2*r.Float64()-1, 2*r.Float64()-1)
			}
		}
	}
	return s
}

// luDense copies matrix b of s into a packed column-major complex128 slice.
func luDense[T core.Scalar](s core.Strided[T], b int) []complex128 {
	out := make([]complex128, s.Rows*s.Cols)
	for j := range s.Cols {
		for i := range s.Rows {
			out[j*s.Rows+i] = luC(s.Data[b*s.Stride+j*s.LD+i])
		}
	}
	return out
}

func luFrob(a []complex128) float64 {
	s := 0.0
	for _, v := range a {
		s += real(v)*real(v) + imag(v)*imag(v)
	}
	return math.Sqrt(s)
}

// luPadding reports the first poisoned element of s that changed, or -1.
func luPadding[T core.Scalar](s core.Strided[T]) int {
	sent := luSentinel[T]()
	in := func(k int) bool {
		b, off := 0, k
		if s.Count > 1 {
			b, off = k/s.Stride, k%s.Stride
		}
		if b >= s.Count {
			return false
		}
		j, i := off/s.LD, off%s.LD
		return j < s.Cols && i < s.Rows
	}
	for k, v := range s.Data {
		if !in(k) && v != sent {
			return k
		}
	}
	return -1
}

// luFactorRatio returns ‖P·A − L·U‖_F / (max(m,n)·‖A‖_F·eps) for the m×n
// matrix a0 and the factors f (both packed) with pivots piv.
func luFactorRatio(m, n int, a0, f []complex128, piv []int32, eps float64) float64 {
	k := min(m, n)
	pa := slices.Clone(a0)
	for t := range k {
		p := int(piv[t]) - 1
		for j := range n {
			pa[j*m+t], pa[j*m+p] = pa[j*m+p], pa[j*m+t]
		}
	}
	for j := range n {
		for i := range m {
			var s complex128
			for t := 0; t <= min(i, j, k-1); t++ {
				l := complex(1, 0)
				if i != t {
					l = f[t*m+i]
				}
				s += l * f[j*m+t]
			}
			pa[j*m+i] -= s
		}
	}
	num := luFrob(pa)
	if num == 0 {
		return 0
	}
	return num / (float64(max(m, n)) * luFrob(a0) * eps)
}

// luRefGetrf is the textbook right-looking partial-pivoting LU in
// complex128 with LAPACK's pivot rule (cabs1 for complex data).
func luRefGetrf(m, n int, a []complex128, cplx bool) []int32 {
	mag := func(v complex128) float64 {
		if cplx {
			return math.Abs(real(v)) + math.Abs(imag(v))
		}
		return math.Abs(real(v))
	}
	piv := make([]int32, min(m, n))
	for j := range piv {
		p := j
		for i := j + 1; i < m; i++ {
			if mag(a[j*m+i]) > mag(a[j*m+p]) {
				p = i
			}
		}
		piv[j] = int32(p + 1)
		for c := range n {
			a[c*m+j], a[c*m+p] = a[c*m+p], a[c*m+j]
		}
		if a[j*m+j] == 0 {
			continue
		}
		for i := j + 1; i < m; i++ {
			a[j*m+i] /= a[j*m+j]
		}
		for c := j + 1; c < n; c++ {
			for i := j + 1; i < m; i++ {
				a[c*m+i] -= a[j*m+i] * a[c*m+j]
			}
		}
	}
	return piv
}

func testGetrfResidual[T core.Scalar](t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	eps := core.Eps[T]()
	shapes := [][2]int{}
	for _, n := range luTestSizes() {
		shapes = append(shapes, [2]int{n, n})
	}
	// Rectangular, on both sides of the unblocked/blocked crossover.
	shapes = append(shapes, [2]int{9, 5}, [2]int{5, 9}, [2]int{70, 33}, [2]int{33, 70}, [2]int{200, 130}, [2]int{130, 200}, [2]int{300, 64}, [2]int{64, 150})
	for _, sh := range shapes {
		m, n := sh[0], sh[1]
		count := 3
		if m*n > 20000 {
			count = 1
		}
		a := luBatch[T](r, m, n, m+3, (m+3)*n+5, count)
		orig := slices.Clone(a.Data)
		k := min(m, n)
		piv := make([]int32, count*k)
		info := make([]int32, count)
		if err := Getrf(Exec{}, a, piv, info); err != nil {
			t.Fatal(err)
		}
		if p := luPadding(a); p >= 0 {
			t.Fatalf("%d×%d: padding element %d changed", m, n, p)
		}
		src := core.Strided[T]{Data: orig, Rows: m, Cols: n, LD: a.LD, Stride: a.Stride, Count: count}
		for b := range count {
			if info[b] != 0 {
				t.Errorf("%d×%d matrix %d: info = %d", m, n, b, info[b])
			}
			for _, p := range piv[b*k : (b+1)*k] {
				if p < 1 || int(p) > m {
					t.Fatalf("%d×%d matrix %d: pivot %d out of range", m, n, b, p)
				}
			}
			ratio := luFactorRatio(m, n, luDense(src, b), luDense(a, b), piv[b*k:(b+1)*k], eps)
			if !(ratio <= luTol) {
				t.Errorf("%d×%d matrix %d: ‖PA−LU‖ ratio %.3g", m, n, b, ratio)
			}
		}
	}
}

func TestGetrfResidual(t *testing.T) {
	luTypes(t, testGetrfResidual[float32], testGetrfResidual[float64], testGetrfResidual[complex64], testGetrfResidual[complex128])
}

// testGetrfPivots compares the pivots with the reference on row-permuted
// column-diagonally-dominant matrices, where every pivot choice has a wide
// margin, and the factors within a rounding bound.
func testGetrfPivots[T core.Scalar](t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	cplx := core.IsComplex[T]()
	eps := core.Eps[T]()
	for _, n := range luTestSizes() {
		a := luBatch[T](r, n, n, n, n*n, 1)
		perm := r.Perm(n)
		d := slices.Clone(a.Data)
		for j := range n {
			// Off-diagonal |Re|+|Im| ≤ 2 per entry: a diagonal of 4n dominates
			// every column even after elimination.
			d[j*n+j] = luTo[T](float64(4*n)*(1+r.Float64()), 0)
			for i := range n {
				a.Data[j*n+perm[i]] = d[j*n+i]
			}
		}
		ref := luDense(a, 0)
		refPiv := luRefGetrf(n, n, ref, cplx)
		piv := make([]int32, n)
		info := make([]int32, 1)
		if err := Getrf(Exec{}, a, piv, info); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(piv, refPiv) {
			t.Fatalf("n=%d: pivots %v, reference %v", n, piv, refPiv)
		}
		got := luDense(a, 0)
		diff := make([]complex128, len(got))
		for i := range got {
			diff[i] = got[i] - ref[i]
		}
		if ratio := luFrob(diff) / (float64(n) * luFrob(ref) * eps); !(ratio <= luTol) {
			t.Errorf("n=%d: factors differ from the reference by ratio %.3g", n, ratio)
		}
	}
}

func TestGetrfPivots(t *testing.T) {
	luTypes(t, testGetrfPivots[float32], testGetrfPivots[float64], testGetrfPivots[complex64], testGetrfPivots[complex128])
}

// TestGetrfPivotRule pins LAPACK's rule on ties and on complex magnitudes.
func TestGetrfPivotRule(t *testing.T) {
	// Column 0 is (1, -3, 3, 2): the first of the two |3| wins.
	a := core.Strided[float64]{Data: []float64{1, -3, 3, 2, 1, 1, 1, 1}, Rows: 4, Cols: 2, LD: 4, Count: 1}
	piv := make([]int32, 2)
	if err := Getrf(Exec{}, a, piv, make([]int32, 1)); err != nil {
		t.Fatal(err)
	}
	if piv[0] != 2 {
		t.Errorf("tie: pivot %d, want 2", piv[0])
	}
	// |Re|+|Im| picks 2+2i (4) over 3 (3) although |3| > |2+2i|.
	c := core.Strided[complex128]{Data: []complex128{3, 2 + 2i}, Rows: 2, Cols: 1, LD: 2, Count: 1}
	if err := Getrf(Exec{}, c, piv[:1], make([]int32, 1)); err != nil {
		t.Fatal(err)
	}
	if piv[0] != 2 {
		t.Errorf("cabs1: pivot %d, want 2", piv[0])
	}
}

// testGetrfMixed factors a batch mixing good, exactly singular and NaN
// matrices and checks each against the same matrix factored alone.
func testGetrfMixed[T core.Scalar](t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 5, 8, 13, 40, 130, 260} {
		const count = 7
		a := luBatch[T](r, n, n, n+1, (n+1)*n+3, count)
		nan := luTo[T](math.NaN(), 0)
		wantInfo := make([]int32, count)
		// Matrix 1: column n/2 zero, so U(n/2+1, n/2+1) = 0 exactly.
		// Matrix 3: first column zero (info 1). Matrix 5: a NaN entry.
		// Matrix 6: last column zero (info n).
		zeroCol := func(b, j int) {
			for i := range n {
				a.Data[b*a.Stride+j*a.LD+i] = 0
			}
			wantInfo[b] = int32(j + 1)
		}
		zeroCol(1, n/2)
		zeroCol(3, 0)
		zeroCol(6, n-1)
		a.Data[5*a.Stride+(n/3)*a.LD+n/2] = nan
		orig := slices.Clone(a.Data)
		piv := make([]int32, count*n)
		info := make([]int32, count)
		if err := Getrf(Exec{Workers: 3}, a, piv, info); err != nil {
			t.Fatal(err)
		}
		if p := luPadding(a); p >= 0 {
			t.Fatalf("n=%d: padding element %d changed", n, p)
		}
		for b := range count {
			for _, p := range piv[b*n : (b+1)*n] {
				if p < 1 || int(p) > n {
					t.Fatalf("n=%d matrix %d: pivot %d out of range", n, b, p)
				}
			}
			if b == 5 {
				hasNaN := false
				for _, v := range luDense(a, b) {
					hasNaN = hasNaN || cmplx.IsNaN(v)
				}
				if !hasNaN && info[b] == 0 {
					t.Errorf("n=%d: the NaN matrix came out finite with info 0", n)
				}
				continue
			}
			if info[b] != wantInfo[b] {
				t.Errorf("n=%d matrix %d: info %d, want %d", n, b, info[b], wantInfo[b])
			}
			// Alone, in a fresh buffer with the same layout.
			one := core.Strided[T]{Data: slices.Clone(orig[b*a.Stride : b*a.Stride+a.Span()]), Rows: n, Cols: n, LD: a.LD, Count: 1}
			p1, i1 := make([]int32, n), make([]int32, 1)
			if err := Getrf(Exec{Workers: 1}, one, p1, i1); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(one.Data, a.Matrix(b)) || !slices.Equal(p1, piv[b*n:(b+1)*n]) || i1[0] != info[b] {
				t.Errorf("n=%d matrix %d: batch result differs from factoring it alone", n, b)
			}
			if wantInfo[b] != 0 {
				// Singular factors still reproduce P·A.
				src := core.Strided[T]{Data: orig, Rows: n, Cols: n, LD: a.LD, Stride: a.Stride, Count: count}
				if ratio := luFactorRatio(n, n, luDense(src, b), luDense(a, b), piv[b*n:(b+1)*n], core.Eps[T]()); !(ratio <= luTol) {
					t.Errorf("n=%d singular matrix %d: ratio %.3g", n, b, ratio)
				}
			}
		}
	}
}

func TestGetrfMixed(t *testing.T) {
	luTypes(t, testGetrfMixed[float32], testGetrfMixed[float64], testGetrfMixed[complex64], testGetrfMixed[complex128])
}

// TestGetrfBlockedIdentical checks that the blocked driver, with its slabs
// run by one goroutine or shared among several, gives the unblocked
// kernel's result bit for bit, and that Getrf takes the shared path for a
// lone large matrix.
func TestGetrfBlockedIdentical(t *testing.T) {
	if luInner(Exec{Workers: 4}, 1, luParallelMin) < 2 {
		t.Fatal("a lone large matrix is not shared among goroutines")
	}
	r := rand.New(rand.NewPCG(7, 8))
	for _, sh := range [][2]int{{300, 300}, {290, 260}, {260, 333}} {
		m, n := sh[0], sh[1]
		k := min(m, n)
		a := luBatch[float64](r, m, n, m, m*n, 1)
		ref := slices.Clone(a.Data)
		refPiv := make([]int32, k)
		refInfo := luGetf2(m, n, ref, m, refPiv, false)
		for _, inner := range []int{1, 3} {
			b := slices.Clone(a.Data)
			piv := make([]int32, k)
			info := luGetrfBlocked(m, n, b, m, piv, false, inner)
			if !slices.Equal(b, ref) || !slices.Equal(piv, refPiv) || info != refInfo {
				t.Errorf("%d×%d inner=%d: blocked result differs from the kernel's", m, n, inner)
			}
		}
	}
	c := luBatch[complex64](r, 270, 270, 271, 0, 1)
	ref := slices.Clone(c.Data)
	refPiv := make([]int32, 270)
	luGetf2(270, 270, ref, 271, refPiv, true)
	piv := make([]int32, 270)
	if err := Getrf(Exec{Workers: 2}, c, piv, make([]int32, 1)); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Data, ref) || !slices.Equal(piv, refPiv) {
		t.Error("complex64 270×270: Getrf with two goroutines differs from the kernel")
	}
}

// luOp returns element (i, j) of op(A) for the packed n×n A.
func luOp(trans core.Transpose, a []complex128, n, i, j int) complex128 {
	switch trans {
	case core.Trans:
		return a[i*n+j]
	case core.ConjTrans:
		return cmplx.Conj(a[i*n+j])
	}
	return a[j*n+i]
}

func testGetrs[T core.Scalar](t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	eps := core.Eps[T]()
	for _, n := range luTestSizes() {
		for _, nrhs := range []int{1, 3, 16} {
			if testing.Short() && nrhs == 3 && n > 64 {
				continue
			}
			const count = 2
			a := luBatch[T](r, n, n, n+2, (n+2)*n+1, count)
			a0 := []([]complex128){luDense(a, 0), luDense(a, 1)}
			piv := make([]int32, count*n)
			info := make([]int32, count)
			if err := Getrf(Exec{}, a, piv, info); err != nil {
				t.Fatal(err)
			}
			factors := slices.Clone(a.Data)
			for _, trans := range []core.Transpose{core.NoTrans, core.Trans, core.ConjTrans} {
				b := luBatch[T](r, n, nrhs, n+1, (n+1)*nrhs+2, count)
				b0 := []([]complex128){luDense(b, 0), luDense(b, 1)}
				if err := Getrs(Exec{}, trans, a, piv, b); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(a.Data, factors) {
					t.Fatalf("n=%d: Getrs modified A", n)
				}
				if p := luPadding(b); p >= 0 {
					t.Fatalf("n=%d nrhs=%d %v: padding element %d of B changed", n, nrhs, trans, p)
				}
				for m := range count {
					x := luDense(b, m)
					res := slices.Clone(b0[m])
					for c := range nrhs {
						for i := range n {
							var s complex128
							for j := range n {
								s += luOp(trans, a0[m], n, i, j) * x[c*n+j]
							}
							res[c*n+i] -= s
						}
					}
					ratio := luFrob(res) / (float64(n) * luFrob(a0[m]) * luFrob(x) * eps)
					if !(ratio <= luTol) {
						t.Errorf("n=%d nrhs=%d %v matrix %d: residual ratio %.3g", n, nrhs, trans, m, ratio)
					}
				}
			}
		}
	}
}

func TestGetrs(t *testing.T) {
	luTypes(t, testGetrs[float32], testGetrs[float64], testGetrs[complex64], testGetrs[complex128])
}

func testGetri[T core.Scalar](t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	eps := core.Eps[T]()
	sizes := append(luTestSizes(), 160)
	for _, n := range sizes {
		const count = 3
		a := luBatch[T](r, n, n, n+1, (n+1)*n+2, count)
		// Matrix 1 is exactly singular at column n/2.
		for i := range n {
			a.Data[a.Stride+(n/2)*a.LD+i] = 0
		}
		a0 := []([]complex128){luDense(a, 0), nil, luDense(a, 2)}
		piv := make([]int32, count*n)
		info := make([]int32, count)
		if err := Getrf(Exec{}, a, piv, info); err != nil {
			t.Fatal(err)
		}
		singular := slices.Clone(a.Matrix(1))
		if err := Getri(Exec{}, a, piv, info); err != nil {
			t.Fatal(err)
		}
		if p := luPadding(a); p >= 0 {
			t.Fatalf("n=%d: padding element %d changed", n, p)
		}
		if info[1] != int32(n/2+1) || !slices.Equal(a.Matrix(1), singular) {
			t.Errorf("n=%d: singular matrix: info %d (want %d), unchanged %v", n, info[1], n/2+1, slices.Equal(a.Matrix(1), singular))
		}
		for _, m := range []int{0, 2} {
			if info[m] != 0 {
				t.Errorf("n=%d matrix %d: info %d", n, m, info[m])
			}
			inv := luDense(a, m)
			res := make([]complex128, n*n)
			for j := range n {
				for i := range n {
					var s complex128
					for k := range n {
						s += a0[m][k*n+i] * inv[j*n+k]
					}
					if i == j {
						s--
					}
					res[j*n+i] = s
				}
			}
			ratio := luFrob(res) / (float64(n) * luFrob(a0[m]) * luFrob(inv) * eps)
			if !(ratio <= luTol) {
				t.Errorf("n=%d matrix %d: ‖A·A⁻¹−I‖ ratio %.3g", n, m, ratio)
			}
		}
	}
}

func TestGetri(t *testing.T) {
	luTypes(t, testGetri[float32], testGetri[float64], testGetri[complex64], testGetri[complex128])
}

func testGesv[T core.Scalar](t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	eps := core.Eps[T]()
	for _, n := range []int{1, 4, 9, 33, 65, 130} {
		const count, nrhs = 3, 5
		a := luBatch[T](r, n, n, n, n*n, count)
		for i := range n {
			a.Data[a.Stride+(n-1)*a.LD+i] = 0 // matrix 1 singular: info n
		}
		a0 := []([]complex128){luDense(a, 0), nil, luDense(a, 2)}
		b := luBatch[T](r, n, nrhs, n+2, (n+2)*nrhs, count)
		b0 := slices.Clone(b.Data)
		piv := make([]int32, count*n)
		info := make([]int32, count)
		if err := Gesv(Exec{}, a, piv, b, info); err != nil {
			t.Fatal(err)
		}
		if p := luPadding(b); p >= 0 {
			t.Fatalf("n=%d: padding element %d changed", n, p)
		}
		if info[1] != int32(n) || !slices.Equal(b.Matrix(1), b0[b.Stride:b.Stride+b.Span()]) {
			t.Errorf("n=%d: singular matrix: info %d, B unchanged %v", n, info[1], slices.Equal(b.Matrix(1), b0[b.Stride:b.Stride+b.Span()]))
		}
		src := core.Strided[T]{Data: b0, Rows: n, Cols: nrhs, LD: b.LD, Stride: b.Stride, Count: count}
		for _, m := range []int{0, 2} {
			x, rhs := luDense(b, m), luDense(src, m)
			for c := range nrhs {
				for i := range n {
					for j := range n {
						rhs[c*n+i] -= a0[m][j*n+i] * x[c*n+j]
					}
				}
			}
			if ratio := luFrob(rhs) / (float64(n) * luFrob(a0[m]) * luFrob(x) * eps); !(info[m] == 0 && ratio <= luTol) {
				t.Errorf("n=%d matrix %d: info %d, residual ratio %.3g", n, m, info[m], ratio)
			}
		}
	}
}

func TestGesv(t *testing.T) {
	luTypes(t, testGesv[float32], testGesv[float64], testGesv[complex64], testGesv[complex128])
}

func TestLUArguments(t *testing.T) {
	a := core.Strided[float64]{Data: make([]float64, 12), Rows: 3, Cols: 4, LD: 3, Count: 1}
	sq := core.Strided[float64]{Data: make([]float64, 9), Rows: 3, Cols: 3, LD: 3, Count: 1}
	b := core.Strided[float64]{Data: make([]float64, 6), Rows: 3, Cols: 2, LD: 3, Count: 1}
	piv := []int32{1, 2, 3}
	cases := []struct {
		name string
		err  error
		want error
	}{
		{"Getrf short pivots", Getrf(Exec{}, a, piv[:2], make([]int32, 1)), core.ErrShape},
		{"Getrf short info", Getrf(Exec{}, a, piv, nil), core.ErrShape},
		{"Getrf bad ld", Getrf(Exec{}, core.Strided[float64]{Data: make([]float64, 12), Rows: 3, Cols: 4, LD: 2, Count: 1}, piv, make([]int32, 1)), core.ErrShape},
		{"Getrs not square", Getrs(Exec{}, core.NoTrans, a, piv, b), core.ErrShape},
		{"Getrs bad trans", Getrs(Exec{}, core.Transpose(7), sq, piv, b), core.ErrArgument},
		{"Getrs bad pivot", Getrs(Exec{}, core.NoTrans, sq, []int32{1, 4, 3}, b), core.ErrArgument},
		{"Getrs b rows", Getrs(Exec{}, core.NoTrans, sq, piv, core.Strided[float64]{Data: make([]float64, 4), Rows: 2, Cols: 2, LD: 2, Count: 1}), core.ErrShape},
		{"Getri zero pivot", Getri(Exec{}, sq, []int32{0, 2, 3}, make([]int32, 1)), core.ErrArgument},
		{"Gesv short info", Gesv(Exec{}, sq, piv, b, nil), core.ErrShape},
	}
	for _, c := range cases {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, c.err, c.want)
		}
	}
	// Empty work is fine.
	empty := core.Strided[float64]{Rows: 0, Cols: 0, LD: 1, Count: 2}
	info := []int32{5, 5}
	if err := Getrf(Exec{}, empty, nil, info); err != nil || info[0] != 0 || info[1] != 0 {
		t.Errorf("empty Getrf: %v, info %v", err, info)
	}
}

// TestLUAllocs checks that the work allocates per call, never per matrix:
// kernels take no heap memory and Getri's workspace comes from a pool.
func TestLUAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	const n, count = 12, 256
	a := luBatch[float64](r, n, n, n, n*n, count)
	b := luBatch[float64](r, n, 3, n, n*3, count)
	piv := make([]int32, n*count)
	info := make([]int32, count)
	x := Exec{Workers: 1}
	if err := Getrf(x, a, piv, info); err != nil {
		t.Fatal(err)
	}
	allocs := map[string]float64{
		"Getrf": testing.AllocsPerRun(3, func() { Getrf(x, a, piv, info) }),
		"Getrs": testing.AllocsPerRun(3, func() { Getrs(x, core.Trans, a, piv, b) }),
		"Getri": testing.AllocsPerRun(3, func() { Getri(x, a, piv, info) }),
	}
	for op, v := range allocs {
		// A few per call (closures). Under the race detector sync.Pool
		// drops buffers at random, so Getri gets slack, still far below
		// one allocation per matrix.
		limit := 8.0
		if op == "Getri" {
			limit = count / 8
		}
		if v > limit {
			t.Errorf("%s: %.0f allocations for %d matrices", op, v, count)
		}
	}
}
