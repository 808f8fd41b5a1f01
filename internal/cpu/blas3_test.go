package cpu

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"testing"

	"github.com/batchlas/batchlas/internal/core"
)

// poison fills the padding of every test matrix; it must survive every op.
const poison = 1e30

var blas3Sizes = []int{0, 1, 2, 3, 7, 8, 9, 16, 17, 31, 33, 64, 65, 129}

func shortSizes(t *testing.T) []int {
	if testing.Short() {
		return []int{0, 1, 2, 3, 7, 8, 9, 17, 33, 65}
	}
	return blas3Sizes
}

func toC[T core.Scalar](v T) complex128 {
	switch x := any(v).(type) {
	case float32:
		return complex(float64(x), 0)
	case float64:
		return complex(x, 0)
	case complex64:
		return complex128(x)
	case complex128:
		return x
	}
	panic("unreachable")
}

func fromC[T core.Scalar](v complex128) T {
	var r T
	switch p := any(&r).(type) {
	case *float32:
		*p = float32(real(v))
	case *float64:
		*p = real(v)
	case *complex64:
		*p = complex64(v)
	case *complex128:
		*p = v
	}
	return r
}

func randT[T core.Scalar](rng *rand.Rand) T {
	return fromC[T](complex(2*rng.Float64()-1, 2*rng.Float64()-1))
}

// tmat is a test matrix: rows×cols column-major with leading dimension ld,
// count copies stride elements apart, and every element outside the
// matrices poisoned.
type tmat[T core.Scalar] struct {
	s   core.Strided[T]
	pad []bool // true where an element is padding
}

func newTmat[T core.Scalar](rng *rand.Rand, rows, cols, count int) tmat[T] {
	ld := rows + 1 + rng.IntN(3)
	stride := ld*cols + rng.IntN(5)
	n := max(1, stride*count+3)
	s := core.Strided[T]{Data: make([]T, n), Rows: rows, Cols: cols, LD: ld, Stride: stride, Count: count}
	pad := make([]bool, n)
	for i := range pad {
		pad[i] = true
	}
	for b := range count {
		for j := range cols {
			for i := range rows {
				k := b*stride + j*ld + i
				pad[k] = false
				s.Data[k] = randT[T](rng)
			}
		}
	}
	for i := range pad {
		if pad[i] {
			s.Data[i] = fromC[T](complex(poison, poison))
		}
	}
	return tmat[T]{s: s, pad: pad}
}

func (m tmat[T]) clone() tmat[T] {
	s := m.s
	s.Data = append([]T(nil), m.s.Data...)
	return tmat[T]{s: s, pad: m.pad}
}

// at returns element (i, j) of matrix b as complex128.
func (m tmat[T]) at(b, i, j int) complex128 {
	return toC(m.s.Data[b*m.s.Stride+j*m.s.LD+i])
}

func (m tmat[T]) checkPad(t *testing.T, name string, orig tmat[T]) {
	t.Helper()
	for i, p := range m.pad {
		if p && m.s.Data[i] != orig.s.Data[i] {
			t.Fatalf("%s: padding element %d changed from %v to %v", name, i, orig.s.Data[i], m.s.Data[i])
		}
	}
}

// opAt is element (i, l) of op(M) for matrix b.
func opAt[T core.Scalar](m tmat[T], t core.Transpose, b, i, l int) complex128 {
	switch t {
	case core.NoTrans:
		return m.at(b, i, l)
	case core.Trans:
		return m.at(b, l, i)
	}
	return cmplx.Conj(m.at(b, l, i))
}

// opDense returns op(M) of matrix b as a dense column-major complex128
// array with leading dimension rows (its row count).
func opDense[T core.Scalar](m tmat[T], t core.Transpose, b int) (d []complex128, rows int) {
	rows, cols := m.s.Rows, m.s.Cols
	if t != core.NoTrans {
		rows, cols = cols, rows
	}
	d = make([]complex128, rows*cols)
	for j := range cols {
		for i := range rows {
			d[i+j*rows] = opAt(m, t, b, i, j)
		}
	}
	return d, rows
}

// abs1 is |re| + |im|, a cheap stand-in for the modulus in error bounds.
func abs1(z complex128) float64 { return math.Abs(real(z)) + math.Abs(imag(z)) }

// tolerance returns c·(k+2)·eps.
func tol[T core.Scalar](k int) float64 {
	return 4 * float64(k+2) * core.Eps[T]()
}

func closeEnough(got, want complex128, scale, tol float64) bool {
	if cmplx.IsNaN(got) || cmplx.IsInf(got) {
		return false
	}
	return abs1(got-want) <= tol*scale+1e-300
}

var transes = []core.Transpose{core.NoTrans, core.Trans, core.ConjTrans}

// blas3Config says how a test runs an op: the Exec, the sizes, and how many
// matrices a batch holds at most.
type blas3Config struct {
	x        Exec
	sizes    func(t *testing.T) []int
	maxCount int
}

// serial covers every size with batches of 1 to 3; split uses one or two
// large matrices and more workers than matrices, so every op also runs
// with a matrix shared between workers.
var (
	serial = blas3Config{x: Exec{}, sizes: shortSizes, maxCount: 3}
	split  = blas3Config{x: Exec{Workers: 5}, sizes: func(*testing.T) []int { return []int{64, 97} }, maxCount: 2}
)

// count picks a batch size: up to maxCount matrices, but only one of the
// serial runs' large sizes, where the reference dominates the test's time.
func (c blas3Config) count(rng *rand.Rand, size int) int {
	if c.maxCount > 2 && size >= 64 {
		return 1
	}
	return 1 + rng.IntN(c.maxCount)
}

func runTypes(t *testing.T, name string, f32, f64, c64, c128 func(*testing.T, blas3Config)) {
	for _, cfg := range []struct {
		name string
		c    blas3Config
	}{{"serial", serial}, {"split", split}} {
		for _, ty := range []struct {
			name string
			f    func(*testing.T, blas3Config)
		}{{"float32", f32}, {"float64", f64}, {"complex64", c64}, {"complex128", c128}} {
			t.Run(name+"/"+cfg.name+"/"+ty.name, func(t *testing.T) {
				t.Parallel()
				ty.f(t, cfg.c)
			})
		}
	}
}

func typeName[T core.Scalar]() string { return core.TypeName[T]() }

func TestBlas3Gemm(t *testing.T) {
	runTypes(t, "gemm", testGemm[float32], testGemm[float64], testGemm[complex64], testGemm[complex128])
}

func testGemm[T core.Scalar](t *testing.T, cfg blas3Config) {
	rng := rand.New(rand.NewPCG(1, uint64(len(typeName[T]()))))
	sizes := cfg.sizes(t)
	type shape struct{ m, n, k int }
	var shapes []shape
	for _, s := range sizes {
		shapes = append(shapes, shape{s, s, s})
		shapes = append(shapes, shape{s, sizes[rng.IntN(len(sizes))], sizes[rng.IntN(len(sizes))]})
		shapes = append(shapes, shape{sizes[rng.IntN(len(sizes))], s, sizes[rng.IntN(len(sizes))]})
	}
	scalars := []struct{ alpha, beta complex128 }{
		{complex(0.7, 0.3), complex(-0.4, 0.2)},
		{1, 0}, // beta == 0: C is poisoned with NaN and must not leak
		{0, complex(0.5, -1)},
		{0, 0},
		{-1, 1},
	}
	for si, sh := range shapes {
		for _, ta := range transes {
			for _, tb := range transes {
				sc := scalars[(si+int(ta)*3+int(tb))%len(scalars)]
				if sh.m == sh.n && sh.m == sh.k {
					sc = scalars[0]
				}
				count := cfg.count(rng, max(sh.m, sh.n, sh.k))
				ar, ac := sh.m, sh.k
				if ta != core.NoTrans {
					ar, ac = ac, ar
				}
				br, bc := sh.k, sh.n
				if tb != core.NoTrans {
					br, bc = bc, br
				}
				a := newTmat[T](rng, ar, ac, count)
				b := newTmat[T](rng, br, bc, count)
				c0 := newTmat[T](rng, sh.m, sh.n, count)
				if sc.beta == 0 {
					for i, p := range c0.pad {
						if !p {
							c0.s.Data[i] = fromC[T](cmplx.NaN())
						}
					}
				}
				if sc.alpha == 0 {
					// A and B must not be read: make them NaN.
					for i := range a.s.Data {
						a.s.Data[i] = fromC[T](cmplx.NaN())
					}
					for i := range b.s.Data {
						b.s.Data[i] = fromC[T](cmplx.NaN())
					}
				}
				c := c0.clone()
				alpha, beta := fromC[T](sc.alpha), fromC[T](sc.beta)
				name := fmt.Sprintf("m=%d n=%d k=%d %v %v alpha=%v beta=%v", sh.m, sh.n, sh.k, ta, tb, alpha, beta)
				if err := Gemm(cfg.x, ta, tb, alpha, a.s, b.s, beta, c.s); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				c.checkPad(t, name, c0)
				alphaC, betaC := toC(alpha), toC(beta)
				for bi := range count {
					var da, db []complex128
					var lda, ldb int
					if alphaC != 0 {
						da, lda = opDense(a, ta, bi)
						db, ldb = opDense(b, tb, bi)
					}
					for j := range sh.n {
						for i := range sh.m {
							var want complex128
							var scale float64
							if alphaC != 0 {
								for l := range sh.k {
									p := da[i+l*lda] * db[l+j*ldb]
									want += p
									scale += abs1(p)
								}
								want *= alphaC
								scale *= abs1(alphaC)
							}
							if betaC != 0 {
								want += betaC * c0.at(bi, i, j)
								scale += abs1(betaC * c0.at(bi, i, j))
							}
							if got := c.at(bi, i, j); !closeEnough(got, want, scale, tol[T](sh.k)) {
								t.Fatalf("%s: matrix %d C(%d,%d) = %v, want %v", name, bi, i, j, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// triAt is element (i, j) of the triangular matrix described by uplo/diag
// (not transposed); zero outside the triangle.
func triAt[T core.Scalar](a tmat[T], uplo core.Uplo, diag core.Diag, b, i, j int) complex128 {
	switch {
	case i == j && diag == core.Unit:
		return 1
	case uplo == core.Upper && i > j, uplo == core.Lower && i < j:
		return 0
	}
	return a.at(b, i, j)
}

func opTriAt[T core.Scalar](a tmat[T], uplo core.Uplo, trans core.Transpose, diag core.Diag, b, i, j int) complex128 {
	switch trans {
	case core.NoTrans:
		return triAt(a, uplo, diag, b, i, j)
	case core.Trans:
		return triAt(a, uplo, diag, b, j, i)
	}
	return cmplx.Conj(triAt(a, uplo, diag, b, j, i))
}

// newTri makes a well-conditioned triangular test matrix: the off-diagonal
// triangle scaled by 1/na, the diagonal of modulus ≥ 1, the other triangle
// and (when diag is Unit) the diagonal NaN since they must not be read.
func newTri[T core.Scalar](rng *rand.Rand, na, count int, uplo core.Uplo, diag core.Diag) tmat[T] {
	a := newTmat[T](rng, na, na, count)
	for b := range count {
		for j := range na {
			for i := range na {
				p := &a.s.Data[b*a.s.Stride+j*a.s.LD+i]
				switch {
				case i == j && diag == core.Unit:
					*p = fromC[T](cmplx.NaN())
				case i == j:
					v := toC(*p)
					*p = fromC[T](v + complex(math.Copysign(1, real(v)), 0))
				case (uplo == core.Upper) == (i < j):
					*p = fromC[T](toC(*p) / complex(float64(na), 0))
				default:
					*p = fromC[T](cmplx.NaN())
				}
			}
		}
	}
	return a
}

func TestBlas3Trsm(t *testing.T) {
	runTypes(t, "trsm", testTrxm[float32](true), testTrxm[float64](true), testTrxm[complex64](true), testTrxm[complex128](true))
}

func TestBlas3Trmm(t *testing.T) {
	runTypes(t, "trmm", testTrxm[float32](false), testTrxm[float64](false), testTrxm[complex64](false), testTrxm[complex128](false))
}

// testTrxm checks Trsm (solve) by the residual op(A)·X − alpha·B, and Trmm
// (multiply) against the reference product.
func testTrxm[T core.Scalar](solve bool) func(*testing.T, blas3Config) {
	return func(t *testing.T, cfg blas3Config) {
		rng := rand.New(rand.NewPCG(2, uint64(len(typeName[T]()))))
		sizes := cfg.sizes(t)
		for si, s := range sizes {
			for _, side := range []core.Side{core.Left, core.Right} {
				for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
					for _, trans := range transes {
						for _, diag := range []core.Diag{core.NonUnit, core.Unit} {
							other := sizes[(si*7+int(trans)*3+int(diag)+int(uplo)*5)%len(sizes)]
							m, n := s, other
							if side == core.Right {
								m, n = other, s
							}
							alpha := fromC[T](complex(0.8, -0.5))
							switch (si + int(trans)) % 5 {
							case 3:
								alpha = 0
							case 4:
								alpha = 1
							}
							count := cfg.count(rng, max(m, n))
							a := newTri[T](rng, s, count, uplo, diag)
							b0 := newTmat[T](rng, m, n, count)
							if alpha == 0 {
								for i := range a.s.Data {
									a.s.Data[i] = fromC[T](cmplx.NaN())
								}
								for i, p := range b0.pad {
									if !p {
										b0.s.Data[i] = fromC[T](cmplx.NaN())
									}
								}
							}
							b := b0.clone()
							name := fmt.Sprintf("m=%d n=%d %v %v %v %v alpha=%v", m, n, side, uplo, trans, diag, alpha)
							var err error
							if solve {
								err = Trsm(cfg.x, side, uplo, trans, diag, alpha, a.s, b.s)
							} else {
								err = Trmm(cfg.x, side, uplo, trans, diag, alpha, a.s, b.s)
							}
							if err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							b.checkPad(t, name, b0)
							checkTrxm(t, name, solve, side, uplo, trans, diag, toC(alpha), a, b0, b, s)
						}
					}
				}
			}
		}
	}
}

func checkTrxm[T core.Scalar](t *testing.T, name string, solve bool, side core.Side, uplo core.Uplo, trans core.Transpose, diag core.Diag, alpha complex128, a, b0, b tmat[T], na int) {
	t.Helper()
	m, n := b.s.Rows, b.s.Cols
	for bi := range b.s.Count {
		tri := make([]complex128, na*na)
		if alpha != 0 {
			for j := range na {
				for i := range na {
					tri[i+j*na] = opTriAt(a, uplo, trans, diag, bi, i, j)
				}
			}
		}
		M := func(_, i, j int) complex128 { return tri[i+j*na] }
		// Y is the result (solve) or the input (multiply).
		y := b
		if !solve {
			y = b0
		}
		yd, _ := opDense(y, core.NoTrans, bi)
		for j := range n {
			for i := range m {
				if alpha == 0 {
					if got := b.at(bi, i, j); got != 0 {
						t.Fatalf("%s: alpha=0 but B(%d,%d) = %v", name, i, j, got)
					}
					continue
				}
				// prod is (op(A)·Y)(i,j) or (Y·op(A))(i,j).
				var prod complex128
				var scale float64
				for l := range na {
					var p complex128
					if side == core.Left {
						if M(bi, i, l) == 0 {
							continue
						}
						p = M(bi, i, l) * yd[l+j*m]
					} else {
						if M(bi, l, j) == 0 {
							continue
						}
						p = yd[i+l*m] * M(bi, l, j)
					}
					prod += p
					scale += abs1(p)
				}
				var got, want complex128
				if solve {
					got, want = prod, alpha*b0.at(bi, i, j)
					scale += abs1(want)
				} else {
					got, want = b.at(bi, i, j), alpha*prod
					scale *= abs1(alpha)
				}
				if !closeEnough(got, want, scale, 2*tol[T](na)) {
					t.Fatalf("%s: matrix %d element (%d,%d): got %v, want %v", name, bi, i, j, got, want)
				}
			}
		}
	}
}

func TestBlas3Syrk(t *testing.T) {
	runTypes(t, "syrk", testRk[float32](false), testRk[float64](false), testRk[complex64](false), testRk[complex128](false))
}

func TestBlas3Herk(t *testing.T) {
	runTypes(t, "herk", testRk[float32](true), testRk[float64](true), testRk[complex64](true), testRk[complex128](true))
}

func testRk[T core.Scalar](herm bool) func(*testing.T, blas3Config) {
	return func(t *testing.T, cfg blas3Config) {
		rng := rand.New(rand.NewPCG(3, uint64(len(typeName[T]()))))
		sizes := cfg.sizes(t)
		trs := []core.Transpose{core.NoTrans, core.Trans}
		if herm {
			trs = []core.Transpose{core.NoTrans, core.ConjTrans}
		}
		scalars := []struct{ alpha, beta complex128 }{
			{complex(0.7, 0.3), complex(-0.4, 0.2)},
			{1, 0},
			{0, complex(0.5, -1)},
			{0, 0},
			{-1, 1},
			{0.5, 1},
		}
		for si, n := range sizes {
			for _, k := range []int{n, sizes[(si*5+3)%len(sizes)]} {
				for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
					for ti, trans := range trs {
						sc := scalars[(si+ti*2+int(uplo)+k)%len(scalars)]
						if herm {
							sc.alpha, sc.beta = complex(real(sc.alpha), 0), complex(real(sc.beta), 0)
						}
						count := cfg.count(rng, max(n, k))
						ar, ac := n, k
						if trans != core.NoTrans {
							ar, ac = k, n
						}
						a := newTmat[T](rng, ar, ac, count)
						c0 := newTmat[T](rng, n, n, count)
						if sc.beta == 0 {
							for i, p := range c0.pad {
								if !p {
									c0.s.Data[i] = fromC[T](cmplx.NaN())
								}
							}
						}
						if sc.alpha == 0 {
							for i := range a.s.Data {
								a.s.Data[i] = fromC[T](cmplx.NaN())
							}
						}
						c := c0.clone()
						name := fmt.Sprintf("n=%d k=%d %v %v alpha=%v beta=%v", n, k, uplo, trans, sc.alpha, sc.beta)
						var err error
						switch {
						case count == 1 && herm:
							// The single-matrix form that the blocked factorizations call.
							herk1(uplo, trans, n, k, real(sc.alpha), real(sc.beta), a.s.Data, a.s.LD, c.s.Data, c.s.LD)
						case count == 1:
							syrk1(uplo, trans, n, k, fromC[T](sc.alpha), a.s.Data, a.s.LD, fromC[T](sc.beta), c.s.Data, c.s.LD)
						case herm:
							err = Herk(cfg.x, uplo, trans, real(sc.alpha), a.s, real(sc.beta), c.s)
						default:
							err = Syrk(cfg.x, uplo, trans, fromC[T](sc.alpha), a.s, fromC[T](sc.beta), c.s)
						}
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						c.checkPad(t, name, c0)
						alpha, beta := toC(fromC[T](sc.alpha)), toC(fromC[T](sc.beta))
						for bi := range count {
							for j := range n {
								for i := range n {
									inTri := i == j || (uplo == core.Lower) == (i > j)
									if !inTri {
										if got, was := c.s.Data[bi*c.s.Stride+j*c.s.LD+i], c0.s.Data[bi*c0.s.Stride+j*c0.s.LD+i]; got != was && !(got != got && was != was) {
											t.Fatalf("%s: element (%d,%d) outside the %v triangle changed", name, i, j, uplo)
										}
										continue
									}
									// quickReturn follows reference BLAS: nothing is touched.
									quick := (alpha == 0 || k == 0) && beta == 1
									var want complex128
									var scale float64
									if alpha != 0 {
										for l := range k {
											var p complex128
											switch {
											case trans == core.NoTrans && herm:
												p = a.at(bi, i, l) * cmplx.Conj(a.at(bi, j, l))
											case trans == core.NoTrans:
												p = a.at(bi, i, l) * a.at(bi, j, l)
											case herm:
												p = cmplx.Conj(a.at(bi, l, i)) * a.at(bi, l, j)
											default:
												p = a.at(bi, l, i) * a.at(bi, l, j)
											}
											want += p
											scale += abs1(p)
										}
										want *= alpha
										scale *= abs1(alpha)
									}
									if beta != 0 {
										cv := c0.at(bi, i, j)
										if herm && i == j {
											cv = complex(real(cv), 0)
										}
										want += beta * cv
										scale += abs1(beta * cv)
									}
									if quick {
										want = c0.at(bi, i, j)
									}
									got := c.at(bi, i, j)
									if !closeEnough(got, want, scale, tol[T](k)) {
										t.Fatalf("%s: matrix %d C(%d,%d) = %v, want %v", name, bi, i, j, got, want)
									}
									if herm && i == j && !quick && imag(got) != 0 {
										t.Fatalf("%s: diagonal C(%d,%d) = %v is not real", name, i, i, got)
									}
								}
							}
						}
					}
				}
			}
		}
	}
}

// A named element type takes gemm1's unblocked path.
type namedFloat float64

func TestBlas3NamedType(t *testing.T) {
	const m, n, k = 5, 3, 4
	a := make([]namedFloat, m*k)
	b := make([]namedFloat, k*n)
	c := make([]namedFloat, m*n)
	for i := range a {
		a[i] = namedFloat(i%5) - 2
	}
	for i := range b {
		b[i] = namedFloat(i%3) + 1
	}
	gemm1(core.NoTrans, core.NoTrans, m, n, k, 2, a, m, b, k, 0, c, m)
	for j := range n {
		for i := range m {
			var want namedFloat
			for l := range k {
				want += a[i+l*m] * b[l+j*k]
			}
			if c[i+j*m] != 2*want {
				t.Fatalf("C(%d,%d) = %v, want %v", i, j, c[i+j*m], 2*want)
			}
		}
	}
}

// The single-matrix routines allocate nothing once their pools are warm.
func TestBlas3Allocs(t *testing.T) {
	t.Run("float64", testAllocs[float64])
	t.Run("float32", testAllocs[float32])
	t.Run("complex128", testAllocs[complex128])
	t.Run("complex64", testAllocs[complex64])
}

func testAllocs[T core.Scalar](t *testing.T) {
	if testing.CoverMode() != "" || raceEnabled {
		t.Skip("coverage counters and the race detector change allocation behaviour")
	}
	// A collection between warm-up and measurement would empty the pools.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	rng := rand.New(rand.NewPCG(4, 4))
	sizes := []int{8, 100, 300} // 300 crosses gemm's k and m blocks
	if testing.Short() {
		sizes = sizes[:2]
	}
	for _, n := range sizes {
		a := newTmat[T](rng, n, n, 1).s
		b := newTmat[T](rng, n, n, 1).s
		c := newTmat[T](rng, n, n, 1).s
		for i := 0; i < n; i++ {
			a.Data[i+i*a.LD] += 4 // keep the triangular solves tame
		}
		ops := map[string]func(){
			"gemm": func() {
				gemm1(core.ConjTrans, core.NoTrans, n, n, n, 1, a.Data, a.LD, b.Data, b.LD, 0.5, c.Data, c.LD)
			},
			"trsm": func() {
				trsm1(core.Left, core.Lower, core.NoTrans, core.NonUnit, n, n, 1, a.Data, a.LD, b.Data, b.LD)
			},
			"trmm": func() {
				trmm1(core.Right, core.Upper, core.Trans, core.Unit, n, n, 1, a.Data, a.LD, b.Data, b.LD)
			},
			"syrk": func() { syrk1(core.Lower, core.NoTrans, n, n, 1, a.Data, a.LD, 0, c.Data, c.LD) },
			"herk": func() { herk1(core.Upper, core.ConjTrans, n, n, 1, 0, a.Data, a.LD, c.Data, c.LD) },
		}
		for name, op := range ops {
			op() // warm the pools
			if got := testing.AllocsPerRun(5, op); got != 0 {
				t.Errorf("%s n=%d: %v allocations per call", name, n, got)
			}
		}
		// A batched call allocates only the closure it hands to ForEach.
		batched := func() { _ = Gemm(Exec{Workers: 1}, core.NoTrans, core.Trans, 1, a, b, 0, c) }
		batched()
		if got := testing.AllocsPerRun(5, batched); got > 1 {
			t.Errorf("Gemm n=%d: %v allocations per call, want at most 1", n, got)
		}
	}
}

// TestBlas3ComplexSpecials: what reference BLAS does with infinite and NaN
// parts that the arithmetic of a full complex product would change. Gemm
// with beta = 1 adds C as it is (zgemm does not multiply by 1): 0 + Inf·i
// plus 1 stays 1 + Inf·i, not NaN + Inf·i. Herk reads only the real part of
// C's diagonal, so a NaN or infinite imaginary part there gives a real
// result (β·Re C(j, j) + α·|a_j|²), not NaN.
func TestBlas3ComplexSpecials(t *testing.T) {
	inf := math.Inf(1)
	one := core.Strided[complex128]{Data: []complex128{1}, Rows: 1, Cols: 1, LD: 1, Stride: 1, Count: 1}
	c := core.Strided[complex128]{Data: []complex128{complex(0, inf)}, Rows: 1, Cols: 1, LD: 1, Stride: 1, Count: 1}
	if err := Gemm(Exec{}, core.NoTrans, core.NoTrans, 1, one, one, 1, c); err != nil {
		t.Fatal(err)
	}
	if got := c.Data[0]; got != complex(1, inf) {
		t.Errorf("Gemm 1·1 + 1·(0 + Inf·i) = %v, want (1+Inf i)", got)
	}
	a := core.Strided[complex128]{Data: []complex128{complex(1, 1), 2}, Rows: 2, Cols: 1, LD: 2, Stride: 2, Count: 1}
	for _, ab := range [][2]float64{{1, 1}, {0, 2}} {
		h := core.Strided[complex128]{Data: []complex128{complex(1, math.NaN()), 0, 0, complex(3, inf)}, Rows: 2, Cols: 2, LD: 2, Stride: 4, Count: 1}
		if err := Herk(Exec{}, core.Lower, core.NoTrans, ab[0], a, ab[1], h); err != nil {
			t.Fatal(err)
		}
		want := []complex128{complex(ab[1]*1+ab[0]*2, 0), complex(ab[1]*3+ab[0]*4, 0)}
		if got := []complex128{h.Data[0], h.Data[3]}; !slices.Equal(got, want) {
			t.Errorf("Herk alpha %v beta %v: diagonal %v, want %v", ab[0], ab[1], got, want)
		}
	}
}

// TestBlas3TrsmSubnormalDiagonal: a diagonal element whose reciprocal
// overflows (a subnormal one) is divided by, as reference BLAS does, not
// multiplied by 1/d = Inf: X = B/d on each side, triangle and transpose.
func TestBlas3TrsmSubnormalDiagonal(t *testing.T) {
	t.Run("float32", testTrsmSubnormal[float32])
	t.Run("float64", testTrsmSubnormal[float64])
	t.Run("complex64", testTrsmSubnormal[complex64])
	t.Run("complex128", testTrsmSubnormal[complex128])
}

func testTrsmSubnormal[T core.Scalar](t *testing.T) {
	// d: a subnormal of T's precision; b·(1/d) overflows, b/d does not.
	d, b := fromReal[T](1e-310), fromReal[T](1e-300)
	if core.Eps[T]() > 1e-10 {
		d, b = fromReal[T](1e-39), fromReal[T](1e-30)
	}
	const n = 3
	a := core.Strided[T]{Data: make([]T, n*n), Rows: n, Cols: n, LD: n, Stride: n * n, Count: 1}
	for i, v := range []T{2, d, 4} {
		a.Data[i*(n+1)] = v
	}
	for _, side := range []core.Side{core.Left, core.Right} {
		for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
			for _, trans := range []core.Transpose{core.NoTrans, core.Trans} {
				x := core.Strided[T]{Data: []T{b, b, b, b, b, b, b, b, b}, Rows: n, Cols: n, LD: n, Stride: n * n, Count: 1}
				if err := Trsm(Exec{}, side, uplo, trans, core.NonUnit, 1, a, x); err != nil {
					t.Fatal(err)
				}
				for i := range n {
					for j := range n {
						k := i // the diagonal element that divides X(i, j)
						if side == core.Right {
							k = j
						}
						if want := b / a.Data[k*(n+1)]; x.Data[i+j*n] != want {
							t.Fatalf("%v %v %v: X(%d, %d) = %v, want %v", side, uplo, trans, i, j, x.Data[i+j*n], want)
						}
					}
				}
			}
		}
	}
}

// TestBlas3TrsmDivide: the unblocked substitution that takes over for a
// subnormal diagonal solves what trsm1 solves, on every side, triangle,
// transpose and type (random, well-conditioned triangles, m = 5, n = 3).
func TestBlas3TrsmDivide(t *testing.T) {
	t.Run("float32", testTrsmDivide[float32])
	t.Run("float64", testTrsmDivide[float64])
	t.Run("complex64", testTrsmDivide[complex64])
	t.Run("complex128", testTrsmDivide[complex128])
}

func testTrsmDivide[T core.Scalar](t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	const m, n = 5, 3
	alpha := fromReal[T](0.75)
	for _, side := range []core.Side{core.Left, core.Right} {
		k := m
		if side == core.Right {
			k = n
		}
		a := make([]T, k*k)
		for i := range a {
			a[i] = randT[T](rng)
		}
		for i := range k {
			a[i*(k+1)] += fromReal[T](4)
		}
		for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
			for _, trans := range []core.Transpose{core.NoTrans, core.Trans, core.ConjTrans} {
				b := make([]T, m*n)
				for i := range b {
					b[i] = randT[T](rng)
				}
				want, got := slices.Clone(b), slices.Clone(b)
				trsm1(side, uplo, trans, core.NonUnit, m, n, alpha, a, k, want, m)
				trsmDivide(side, uplo, trans, m, n, alpha, a, k, got, m)
				for i := range got {
					if d := cmplx.Abs(toC(got[i]) - toC(want[i])); d > 1e3*core.Eps[T]() {
						t.Fatalf("%v %v %v: element %d is %v, trsm1 gives %v", side, uplo, trans, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// TestBlas3TrsmInfiniteTriangle: a zero unknown is not multiplied into the
// other rows, as reference BLAS skips it, so an infinite element of A in
// its column leaves X finite (0·Inf would be NaN). A is the identity of
// order 13 (solveLeftLowerFMA's size) but for A(6, 1) = Inf (Lower; B = e₀,
// so X(1) = 0 and X = e₀) or A(1, 6) = Inf (Upper; B = e₁₂, X(6) = 0 and
// X = e₁₂).
func TestBlas3TrsmInfiniteTriangle(t *testing.T) {
	t.Run("float32", testTrsmInfinite[float32])
	t.Run("float64", testTrsmInfinite[float64])
	t.Run("complex64", testTrsmInfinite[complex64])
	t.Run("complex128", testTrsmInfinite[complex128])
}

func testTrsmInfinite[T core.Scalar](t *testing.T) {
	const n = 13
	for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
		a := core.Strided[T]{Data: make([]T, n*n), Rows: n, Cols: n, LD: n, Stride: n * n, Count: 1}
		for i := range n {
			a.Data[i*(n+1)] = 1
		}
		one := 0 // the row of B's and X's one
		if uplo == core.Lower {
			a.Data[6+1*n] = fromReal[T](math.Inf(1))
		} else {
			a.Data[1+6*n] = fromReal[T](math.Inf(1))
			one = n - 1
		}
		for _, cols := range []int{1, 3} {
			x := core.Strided[T]{Data: make([]T, n*cols), Rows: n, Cols: cols, LD: n, Stride: n * cols, Count: 1}
			for j := range cols {
				x.Data[j*n+one] = 1
			}
			if err := Trsm(Exec{}, core.Left, uplo, core.NoTrans, core.NonUnit, 1, a, x); err != nil {
				t.Fatal(err)
			}
			for i, v := range x.Data {
				want := T(0)
				if i%n == one {
					want = 1
				}
				if v != want {
					t.Fatalf("%v, %d columns: X(%d, %d) = %v, want %v", uplo, cols, i%n, i/n, v, want)
				}
			}
		}
	}
}

// TestSolveRightFMA checks the transposed Right solves against the axpy
// form they replace: close on finite inputs at block orders and row counts
// on both sides of their thresholds (leading dimension above the rows), and
// identical, NaNs in the same places, where B holds an infinity or T one
// off the diagonal, which the axpy form's skipping of T's zeros treats
// differently from a product.
func TestSolveRightFMA(t *testing.T) {
	if !simdFMA {
		t.Skip("no AVX2+FMA: the axpy form is the only one")
	}
	t.Run("float32", testSolveRightFMA[float32])
	t.Run("float64", testSolveRightFMA[float64])
}

func testSolveRightFMA[T float32 | float64](t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 2))
	tol := 64 * core.Eps[T]()
	for _, upper := range []bool{true, false} {
		solve, axpyForm := solveRightLower[T], solveRightLowerAxpy[T]
		if upper {
			solve, axpyForm = solveRightUpper[T], solveRightUpperAxpy[T]
		}
		for _, nb := range []int{solveRightMinOrder - 1, solveRightMinOrder, 25, 31, 32} {
			for _, m := range []int{solveRightMinRows - 1, solveRightMinRows, 9, 33} {
				tri := make([]T, nb*nb)
				for j := range nb {
					for i := range nb {
						tri[j*nb+i] = randT[T](rng) / T(nb)
					}
					tri[j*nb+j] = 1 / (1 + randT[T](rng)*randT[T](rng))
				}
				ldb := m + 3
				for _, special := range []string{"", "inf in B", "inf in T"} {
					b := make([]T, ldb*nb)
					for i := range b {
						b[i] = randT[T](rng)
					}
					tr := slices.Clone(tri)
					switch special {
					case "inf in B":
						b[2*ldb+m-1] = T(math.Inf(1))
						for i := range nb { // zeros in row and column 2 of T: the axpy form skips them for X's infinite column 2
							tr[i*nb+2], tr[2*nb+i] = 0, 0
						}
						tr[2*nb+2] = 1
					case "inf in T": // an infinite unknown from T(1, 3) or T(3, 1), then zeros of T it meets
						for i := range nb {
							for _, k := range []int{1, 3} {
								if i != k {
									tr[i*nb+k], tr[k*nb+i] = 0, 0
								}
							}
						}
						tr[3*nb+1], tr[1*nb+3] = T(math.Inf(-1)), T(math.Inf(-1))
					}
					got, want := slices.Clone(b), slices.Clone(b)
					solve(m, nb, tr, got, ldb)
					axpyForm(m, nb, tr, want, ldb)
					name := fmt.Sprintf("upper=%v nb=%d m=%d %s", upper, nb, m, special)
					for k := range got {
						g, w := float64(got[k]), float64(want[k])
						if special != "" && !(g == w || math.IsNaN(g) && math.IsNaN(w)) {
							t.Fatalf("%s: B[%d] = %v, the axpy form's %v", name, k, g, w)
						}
						if special == "" && !(math.Abs(g-w) <= float64(tol)*(1+math.Abs(w))) {
							t.Fatalf("%s: B[%d] = %v, the axpy form's %v", name, k, g, w)
						}
					}
				}
			}
		}
	}
}
