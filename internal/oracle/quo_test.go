package oracle

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/batchlas/batchlas/internal/core"
)

// TestQuo: Quo is within 4 ulps of QuoExact over the whole range
// (QuoMisses), where Go's division misses hundreds of quotients, and is
// Go's own quotient in the middle of the range.
func TestQuo(t *testing.T) {
	misses := QuoMisses(Quo, 50000, 41)
	for _, m := range misses[:min(5, len(misses))] {
		t.Errorf("Quo(%g, %g) = %g, want %g", m.A, m.B, m.Got, m.Want)
	}
	if len(misses) > 0 {
		t.Errorf("%d quotients off", len(misses))
	}
	goMisses := QuoMisses(func(a, b complex128) complex128 { return a / b }, 50000, 41)
	if len(goMisses) == 0 {
		t.Error("Go's division passes QuoMisses: the check finds nothing")
	}
	t.Logf("Go's division: %d quotients off", len(goMisses))
	r := rand.New(rand.NewPCG(45, 46))
	for range 10000 {
		a := complex(math.Ldexp(r.NormFloat64(), r.IntN(998)-499), math.Ldexp(r.NormFloat64(), r.IntN(998)-499))
		b := complex(math.Ldexp(r.NormFloat64(), r.IntN(998)-499), math.Ldexp(r.NormFloat64(), r.IntN(998)-499))
		if inMiddle(a, true) && inMiddle(b, false) && Quo(a, b) != a/b {
			t.Fatalf("Quo(%g, %g) is not Go's quotient in the middle of the range", a, b)
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
