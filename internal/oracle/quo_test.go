package oracle

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/batchlas/batchlas/internal/core"
)

// TestQuo divides operands with parts from 2⁻¹⁰⁷⁴ to near the largest
// float64 and requires Quo within 4 ulps of QuoExact (normwise: of the
// larger part) wherever the exact quotient is finite and normal, and Go's
// own quotient in the middle of the range. Go's division misses the bound
// for hundreds of these operands.
func TestQuo(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	part := func() float64 {
		v := math.Ldexp(0.5+0.5*r.Float64(), r.IntN(2099)-1074)
		if r.IntN(2) == 0 {
			v = -v
		}
		if r.IntN(8) == 0 {
			v = 0
		}
		return v
	}
	bad, goBad := 0, 0
	for range 50000 {
		a, b := complex(part(), part()), complex(part(), part())
		if r.IntN(2) == 0 {
			b = complex(real(b), real(b)*(r.Float64()-0.5))
		}
		if b == 0 {
			continue
		}
		want := QuoExact(a, b)
		m := max(math.Abs(real(want)), math.Abs(imag(want)))
		if math.IsInf(m, 0) || m < 0x1p-1022 {
			continue
		}
		ulp := math.Nextafter(m, math.Inf(1)) - m
		off := func(got complex128) bool {
			return !(max(math.Abs(real(got)-real(want)), math.Abs(imag(got)-imag(want))) <= 4*ulp)
		}
		if got := Quo(a, b); off(got) {
			if bad++; bad <= 5 {
				t.Errorf("Quo(%g, %g) = %g, want %g", a, b, got, want)
			}
		}
		if off(a / b) {
			goBad++
		}
		if inMiddle(a, true) && inMiddle(b, false) && Quo(a, b) != a/b {
			t.Errorf("Quo(%g, %g) is not Go's quotient in the middle of the range", a, b)
		}
	}
	if bad > 0 {
		t.Errorf("%d quotients off", bad)
	}
	t.Logf("Go's division: %d quotients off", goBad)
	for _, c := range [][2]complex128{{1, 0}, {0, 0}, {complex(math.Inf(1), 0), 1}, {1, complex(math.Inf(1), 0)}, {complex(math.NaN(), 1), 1}} {
		got, want := Quo(c[0], c[1]), c[0]/c[1]
		same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
		if !same(real(got), real(want)) || !same(imag(got), imag(want)) {
			t.Errorf("Quo(%g, %g) = %g, want Go's %g", c[0], c[1], got, want)
		}
	}
}

// TestLUNearOverflow: the oracle's LU of s·A, s = 2¹⁰²³, is its LU of A
// with U scaled by s (the pivots near 1.5·s·(1+i), whose inverse Go's
// division took for 0), and its triangular solve with that U gives A's
// solution over s.
func TestLUNearOverflow(t *testing.T) {
	const n, s = 6, 0x1p1023
	r := rand.New(rand.NewPCG(43, 44))
	a := &Mat{Rows: n, Cols: n, Data: make([]complex128, n*n)}
	for j := range n {
		for i := range n {
			v := complex(r.Float64()-0.5, r.Float64()-0.5) * complex(0.2/n, 0)
			if i == (j+2)%n {
				v += complex(1.5, 1.5)
			}
			a.Set(i, j, v)
		}
	}
	big := a.Clone()
	for k := range big.Data {
		big.Data[k] *= s
	}
	lu, luBig := Getrf(a), Getrf(big)
	close := func(got, want complex128) bool {
		return math.Abs(real(got)-real(want))+math.Abs(imag(got)-imag(want)) <= 1e-14*(1+Cabs1(want))
	}
	for j := range n {
		if lu.Pivots[j] != luBig.Pivots[j] {
			t.Fatalf("pivots %v, scaled %v", lu.Pivots, luBig.Pivots)
		}
		for i := range n {
			got, want := luBig.Factors.At(i, j), lu.Factors.At(i, j)
			if i <= j {
				got /= s
			}
			if !close(got, want) {
				t.Errorf("factor (%d, %d) of s·A: %g (over s for U), want %g", i, j, got, want)
			}
		}
	}
	u, uBig := Triangle(lu.Factors, core.Upper, core.NonUnit), Triangle(luBig.Factors, core.Upper, core.NonUnit)
	b := &Mat{Rows: n, Cols: 1, Data: make([]complex128, n)}
	for i := range b.Data {
		b.Data[i] = complex(float64(i+1), -1)
	}
	x, xBig := Trsm(core.Left, core.Upper, core.NoTrans, core.NonUnit, 1, u, b), Trsm(core.Left, core.Upper, core.NoTrans, core.NonUnit, 1, uBig, b)
	for i := range n {
		if !close(xBig.Data[i]*s, x.Data[i]) {
			t.Errorf("U⁻¹·b of s·A, times s, row %d: %g, want %g", i, xBig.Data[i]*s, x.Data[i])
		}
	}
}
