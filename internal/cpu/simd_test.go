package cpu

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// fma32 is exact: against big.Float on random operands, many of them
// near-cancelling, where a double rounding through float64 would show.
func TestFMA32(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	r := func() float32 {
		return float32(math.Ldexp(2*rng.Float64()-1, rng.IntN(40)-20))
	}
	for it := range 200000 {
		a, b, c := r(), r(), r()
		if it%2 == 0 {
			c = -float32(float64(a) * float64(b)) // cancels to the product's rounding error
			if it%4 == 0 {
				c = math.Nextafter32(c, float32(math.Inf(1)))
			}
		}
		x := new(big.Float).SetPrec(200).SetFloat64(float64(a))
		x.Mul(x, new(big.Float).SetFloat64(float64(b)))
		x.Add(x, new(big.Float).SetFloat64(float64(c)))
		want, _ := x.Float32()
		if got := fma32(a, b, c); math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("fma32(%g, %g, %g) = %g, want %g", a, b, c, got, want)
		}
	}
}

// The kernels behind cholSyrk4F64/F32 (assembly on amd64) give
// cholSyrk4Go's bits for every column range and row bound, and touch
// nothing else.
func TestCholSyrk4(t *testing.T) {
	t.Run("float64", func(t *testing.T) {
		testCholSyrk4(t, func(y []float64, lda, c0, c1, r0, r1, dlo, dhi int, s *[4][]float64) {
			p := [4]*float64{&s[0][0], &s[1][0], &s[2][0], &s[3][0]}
			cholSyrk4F64(unsafe.SliceData(y), lda, c0, c1, r0, r1, dlo, dhi, &p)
		})
	})
	t.Run("float32", func(t *testing.T) {
		testCholSyrk4(t, func(y []float32, lda, c0, c1, r0, r1, dlo, dhi int, s *[4][]float32) {
			p := [4]*float32{&s[0][0], &s[1][0], &s[2][0], &s[3][0]}
			cholSyrk4F32(unsafe.SliceData(y), lda, c0, c1, r0, r1, dlo, dhi, &p)
		})
	})
}

func testCholSyrk4[R float32 | float64](t *testing.T, kernel func(y []R, lda, c0, c1, r0, r1, dlo, dhi int, s *[4][]R)) {
	if !simdFMA {
		t.Log("no AVX2+FMA here (or purego): testing the Go stand-in")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for it := range 3000 {
		m := 1 + rng.IntN(40)
		if it < 40 {
			m = 1 + it
		}
		lda := m + rng.IntN(3)
		c0 := rng.IntN(m)
		c1 := c0 + rng.IntN(m-c0+1)
		lower := it%2 == 0
		r0, r1, dlo, dhi := 0, m, 0, m
		if !lower {
			r0 = rng.IntN(m + 1)
			r1 = r0 + rng.IntN(m-r0+1)
			dlo, dhi = math.MinInt32, 1
		}
		var s [4][]R
		for q := range s {
			s[q] = make([]R, m)
			for i := range s[q] {
				s[q][i] = R(2*rng.Float64() - 1)
			}
		}
		// A NaN border past the last column shows writes out of range.
		y := make([]R, m*lda+8)
		for i := range y {
			y[i] = R(4 * rng.Float64())
		}
		want := append([]R(nil), y...)
		cholSyrk4Go(want, lda, c0, c1, r0, r1, dlo, dhi, &s)
		kernel(y, lda, c0, c1, r0, r1, dlo, dhi, &s)
		for i := range y {
			if y[i] != want[i] {
				t.Fatalf("m=%d lda=%d cols [%d, %d) rows [%d, %d) lower=%v: element %d (row %d col %d) is %v, want %v",
					m, lda, c0, c1, r0, r1, lower, i, i%lda, i/lda, y[i], want[i])
			}
		}
	}
}

// cholTrailFMA against the scalar Go update it replaces (cholTrailLower,
// cholTrailUpper), which rounds each product and sum: they agree within a
// few rounding errors of the terms' magnitudes.
func TestCholTrailFMA(t *testing.T) {
	t.Run("float64", testCholTrailFMA[float64])
	t.Run("float32", testCholTrailFMA[float32])
}

func testCholTrailFMA[R float32 | float64](t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	eps := 0x1p-52
	if unsafe.Sizeof(R(0)) == 4 {
		eps = 0x1p-23
	}
	for it := range 400 {
		m := 1 + rng.IntN(70)
		lda := 4 + m + rng.IntN(3) // the block is rows and columns [4, 4+m)
		c0 := rng.IntN(m)
		c1 := c0 + rng.IntN(m-c0+1)
		r0 := rng.IntN(m + 1)
		r1 := r0 + rng.IntN(m-r0+1)
		lower := it%2 == 0
		var p [4][]R
		for q := range p {
			p[q] = make([]R, m)
			for i := range p[q] {
				p[q][i] = R(2*rng.Float64() - 1)
			}
		}
		// The Upper kernel reads the coefficients of column c from rows
		// j0..j0+3 above the block: lay them out as a full column.
		const j0 = 0
		full := make([]R, (m+4)*lda+4)
		for i := range full {
			full[i] = R(4 * rng.Float64())
		}
		for c := range m {
			for q := range 4 {
				full[(4+c)*lda+j0+q] = p[q][c]
			}
		}
		got := append([]R(nil), full...)
		base := 4
		if lower {
			cholTrailLower(full[base*lda+base:], lda, c0, c1, p[0], p[1], p[2], p[3], p[0], p[1], p[2], p[3], false)
		} else {
			cholTrailUpper(full[base*lda:], lda, j0, c0, c1, r0, r1, p[0], p[1], p[2], p[3], false)
		}
		cholTrailFMA(got[base*lda+base:], lda, c0, c1, r0, r1, lower, &p)
		for i := range full {
			d := math.Abs(float64(got[i]) - float64(full[i]))
			if d > 8*eps*(4+4) { // |y| < 4 and four products below 1
				t.Fatalf("lower=%v m=%d lda=%d cols [%d, %d) rows [%d, %d): element %d is %v, scalar Go %v",
					lower, m, lda, c0, c1, r0, r1, i, got[i], full[i])
			}
		}
	}
}

// luGer4F64/F32 give luGer4Go's bits and write only the rows they update.
func TestLUGer4(t *testing.T) {
	t.Run("float64", func(t *testing.T) {
		testLUGer4(t, func(y []float64, ldy, ncols, rows int, l *[4][]float64) {
			p := [4]*float64{&l[0][0], &l[1][0], &l[2][0], &l[3][0]}
			luGer4F64(unsafe.SliceData(y), ldy, ncols, rows, &p)
		})
	})
	t.Run("float32", func(t *testing.T) {
		testLUGer4(t, func(y []float32, ldy, ncols, rows int, l *[4][]float32) {
			p := [4]*float32{&l[0][0], &l[1][0], &l[2][0], &l[3][0]}
			luGer4F32(unsafe.SliceData(y), ldy, ncols, rows, &p)
		})
	})
}

func testLUGer4[R float32 | float64](t *testing.T, kernel func(y []R, ldy, ncols, rows int, l *[4][]R)) {
	rng := rand.New(rand.NewPCG(7, 8))
	for it := range 2000 {
		rows := rng.IntN(40)
		if it < 40 {
			rows = it
		}
		ldy := 4 + rows + rng.IntN(3)
		ncols := rng.IntN(9)
		var l [4][]R
		for q := range l {
			l[q] = make([]R, rows+1)
			for i := range l[q] {
				l[q][i] = R(2*rng.Float64() - 1)
			}
		}
		y := make([]R, ncols*ldy+8)
		for i := range y {
			y[i] = R(4 * rng.Float64())
		}
		want := append([]R(nil), y...)
		luGer4Go(want, ldy, ncols, rows, &l)
		kernel(y, ldy, ncols, rows, &l)
		for i := range y {
			if y[i] != want[i] {
				t.Fatalf("rows=%d ldy=%d ncols=%d: element %d (row %d col %d) is %v, want %v",
					rows, ldy, ncols, i, i%ldy, i/ldy, y[i], want[i])
			}
		}
	}
}

// TestGemmTile checks the micro-kernels bit for bit against gemmTileGo on
// 1 to 300 steps of values of mixed sign and scale, where a product summed
// without a fused multiply-add, or in another order, rounds differently.
func TestGemmTile(t *testing.T) {
	t.Run("float64", func(t *testing.T) {
		testGemmTile(t, 2, func(kc int, a [][]float64, b0, b1 []float64, acc []float64) {
			gemmTile8x4F64(kc, &a[0][0], &a[1][0], &b0[0], &b1[0], (*[32]float64)(acc))
		})
	})
	t.Run("float32", func(t *testing.T) {
		testGemmTile(t, 2, func(kc int, a [][]float32, b0, b1 []float32, acc []float32) {
			gemmTile8x4F32(kc, &a[0][0], &a[1][0], &b0[0], &b1[0], (*[32]float32)(acc))
		})
	})
	t.Run("float32-wide", func(t *testing.T) {
		testGemmTile(t, 4, func(kc int, a [][]float32, b0, b1 []float32, acc []float32) {
			gemmTile16x4F32(kc, &a[0][0], &a[1][0], &a[2][0], &a[3][0], &b0[0], &b1[0], (*[64]float32)(acc))
		})
	})
}

func testGemmTile[R float32 | float64](t *testing.T, panels int, kernel func(kc int, a [][]R, b0, b1 []R, acc []R)) {
	rng := rand.New(rand.NewPCG(9, 10))
	val := func() R { return R(math.Ldexp(2*rng.Float64()-1, rng.IntN(20)-10)) }
	mk := func(n int) []R {
		s := make([]R, n)
		for i := range s {
			s[i] = val()
		}
		return s
	}
	for it := range 300 {
		kc := it + 1
		a := make([][]R, panels)
		for d := range a {
			a[d] = mk(4 * kc)
		}
		b0, b1 := mk(2*kc), mk(2*kc)
		got, want := make([]R, 16*panels), make([]R, 16*panels)
		for i := range got {
			got[i] = R(math.NaN()) // every element must be written
		}
		gemmTileGo(kc, a, b0, b1, want)
		kernel(kc, a, b0, b1, got)
		if !slices.Equal(got, want) {
			t.Fatalf("kc=%d: %v, want %v", kc, got, want)
		}
	}
}
