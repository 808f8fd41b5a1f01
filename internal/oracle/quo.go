package oracle

import (
	"math"
	"math/big"
	"math/rand/v2"
)

// Quo is a/b for the oracle's complex divisions by a pivot or a diagonal
// element. Go's division (Smith's method) is accurate in the middle of
// the range, but its sums overflow or round to subnormals for operands
// near either end (1/b was 0 for b = 1.5·2¹⁰²³·(1+i)); there Quo is
// QuoExact. Zero, infinite and NaN operands keep Go's semantics.
func Quo(a, b complex128) complex128 {
	if inMiddle(a, true) && inMiddle(b, false) {
		return a / b
	}
	if !finite(a) || !finite(b) || b == 0 {
		return a / b
	}
	return QuoExact(a, b)
}

// inMiddle reports whether the larger part of v is below 2⁵⁰⁰ and, unless
// zero is allowed, at least 2⁻⁵⁰⁰: there Smith's ratio is at most 1, its
// denominator at least 2⁻⁵⁰⁰ and its numerators below 2⁵⁰¹, so nothing
// overflows and only addends too small to matter can round to subnormals.
func inMiddle(v complex128, zero bool) bool {
	m := max(math.Abs(real(v)), math.Abs(imag(v)))
	return m < 0x1p500 && (m >= 0x1p-500 || zero && m == 0)
}

func finite(v complex128) bool {
	return !math.IsInf(real(v), 0) && !math.IsNaN(real(v)) && !math.IsInf(imag(v), 0) && !math.IsNaN(imag(v))
}

// QuoExact is a/b, b finite and non-zero, from a 256-bit evaluation of
// a·conj(b)/|b|² with each part rounded once to float64 (to a subnormal,
// zero or ±Inf where the exact part is one).
func QuoExact(a, b complex128) complex128 {
	f := func(v float64) *big.Float { return new(big.Float).SetPrec(256).SetFloat64(v) }
	ar, ai, br, bi := f(real(a)), f(imag(a)), f(real(b)), f(imag(b))
	mul := func(u, v *big.Float) *big.Float { return new(big.Float).SetPrec(256).Mul(u, v) }
	den := new(big.Float).SetPrec(256).Add(mul(br, br), mul(bi, bi))
	re := new(big.Float).SetPrec(256).Add(mul(ar, br), mul(ai, bi))
	im := new(big.Float).SetPrec(256).Sub(mul(ai, br), mul(ar, bi))
	re.Quo(re, den)
	im.Quo(im, den)
	r, _ := re.Float64()
	i, _ := im.Float64()
	return complex(r, i)
}

// QuoMiss is a quotient that QuoMisses found off.
type QuoMiss struct{ A, B, Got, Want complex128 }

// QuoMisses checks a complex division over the whole range. It divides
// count pairs drawn from seed, with parts from 2⁻¹⁰⁷⁴ to near the largest
// float64 (one part in eight zero, half the divisors with parts of one
// scale), and returns those whose quotient is more than 4 ulps (normwise:
// of the larger part) from QuoExact's where that is finite and normal; and
// any zero, infinite or NaN operands for which div differs from Go's
// division.
func QuoMisses(div func(a, b complex128) complex128, count int, seed uint64) []QuoMiss {
	var misses []QuoMiss
	same := func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }
	inf, nan := math.Inf(1), math.NaN()
	for _, c := range [][2]complex128{{1, 0}, {0, 0}, {complex(inf, 0), 1}, {1, complex(inf, 0)}, {complex(nan, 1), 1}} {
		got, want := div(c[0], c[1]), c[0]/c[1]
		if !same(real(got), real(want)) || !same(imag(got), imag(want)) {
			misses = append(misses, QuoMiss{c[0], c[1], got, want})
		}
	}
	r := rand.New(rand.NewPCG(seed, seed+1))
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
	for range count {
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
		ulp := math.Nextafter(m, inf) - m
		if got := div(a, b); !(max(math.Abs(real(got)-real(want)), math.Abs(imag(got)-imag(want))) <= 4*ulp) {
			misses = append(misses, QuoMiss{a, b, got, want})
		}
	}
	return misses
}
