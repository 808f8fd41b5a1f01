package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/batchlas/batchlas/internal/oracle"
)

// TestDivC128 divides operands with parts from 2⁻¹⁰⁷⁴ to near the largest
// float64, both parts of either of one scale or of scales far apart, and
// requires the quotient within 4 ulps of the exact one (normwise: of its
// larger part) wherever the exact quotient is finite and its larger part
// normal; Go's division fails this for operands near the top of the range.
func TestDivC128(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
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
	bad := 0
	for range 200000 {
		x, d := complex(part(), part()), complex(part(), part())
		if r.IntN(2) == 0 { // parts of one scale
			d = complex(real(d), real(d)*(r.Float64()-0.5))
		}
		if d == 0 {
			continue
		}
		want := oracle.QuoExact(x, d)
		m := max(math.Abs(real(want)), math.Abs(imag(want)))
		if math.IsInf(m, 0) || m < 0x1p-1022 {
			continue
		}
		got := divC128(x, d)
		ulp := math.Nextafter(m, math.Inf(1)) - m
		if e := max(math.Abs(real(got)-real(want)), math.Abs(imag(got)-imag(want))); !(e <= 4*ulp) {
			if bad++; bad <= 5 {
				t.Errorf("(%g)/(%g) = %g, want %g (error %.3g ulps)", x, d, got, want, e/ulp)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d quotients off", bad)
	}
	// Go's semantics where divScaled hands over: zero, infinite and NaN operands.
	for _, c := range [][2]complex128{{1, 0}, {0, 0}, {complex(math.Inf(1), 0), 1}, {1, complex(math.Inf(1), 0)}, {complex(math.NaN(), 1), 1}} {
		got, want := divC128(c[0], c[1]), c[0]/c[1]
		same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
		if !same(real(got), real(want)) || !same(imag(got), imag(want)) {
			t.Errorf("(%g)/(%g) = %g, want Go's %g", c[0], c[1], got, want)
		}
	}
}
