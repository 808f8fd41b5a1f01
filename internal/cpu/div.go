package cpu

import (
	"math"
	"unsafe"

	"github.com/batchlas/batchlas/internal/core"
)

// div returns x/d. Go divides complex128 values by Smith's method, whose
// intermediate sums overflow when a part of x or d is near the largest
// float64 (1/d is 0 for d = 2¹⁰²³·(1 + i), whose reciprocal 2⁻¹⁰²⁴·(1 − i)
// is representable); div takes such operands through divScaled. complex64
// needs nothing: Go divides it in complex128. Real division cannot overflow
// inside.
func div[T core.Scalar](x, d T) T {
	if unsafe.Sizeof(x) == 16 { // complex128, the only 16-byte Scalar
		q := divC128(*(*complex128)(unsafe.Pointer(&x)), *(*complex128)(unsafe.Pointer(&d)))
		return *(*T)(unsafe.Pointer(&q))
	}
	return x / d
}

// divC128 is x/d. Where every part of x and d is below 2¹⁰²⁰ in magnitude
// and d's larger part is at least 2⁻¹⁰²⁰ (x's too unless x = 0), Smith's
// method (as Go's own division) neither overflows inside nor rounds a sum
// to a subnormal, and runs here, in one call; divScaled takes the rest.
// The tests compare sign-less IEEE bits (NaN's above every number's), with
// one unsigned subtraction a range.
func divC128(x, d complex128) complex128 {
	const lo, hi = 0x0030000000000000, 0x7fb0000000000000 // 2⁻¹⁰²⁰'s and 2¹⁰²⁰'s bits
	dm := max(magBits(real(d)), magBits(imag(d)))
	xm := max(magBits(real(x)), magBits(imag(x)))
	if dm-lo >= hi-lo || xm-lo >= hi-lo && xm != 0 {
		return divScaled(x, d)
	}
	p, q := real(d), imag(d)
	if math.Abs(p) >= math.Abs(q) {
		r := q / p
		s := p + r*q
		return complex((real(x)+imag(x)*r)/s, (imag(x)-real(x)*r)/s)
	}
	r := p / q
	s := q + r*p
	return complex((real(x)*r+imag(x))/s, (imag(x)*r-real(x))/s)
}

// magBits returns the IEEE bits of |f|.
func magBits(f float64) uint64 { return math.Float64bits(f) &^ (1 << 63) }

// divScaled divides with both operands first scaled by powers of two that
// bring their largest parts into [½, 1), where Smith's method is accurate
// to a few ulps and overflows nowhere, then scales the quotient back; the
// powers of two change no bits except of parts so much smaller than the
// other part of their operand that they could not affect the quotient.
// Zero, infinite and NaN operands keep Go's semantics.
func divScaled(x, d complex128) complex128 {
	dm := max(math.Abs(real(d)), math.Abs(imag(d)))
	xm := max(math.Abs(real(x)), math.Abs(imag(x)))
	if dm == 0 || xm == 0 || math.IsInf(dm, 0) || math.IsInf(xm, 0) || math.IsNaN(dm+xm) {
		return x / d
	}
	_, ed := math.Frexp(dm)
	_, ex := math.Frexp(xm)
	ds := complex(math.Ldexp(real(d), -ed), math.Ldexp(imag(d), -ed))
	xs := complex(math.Ldexp(real(x), -ex), math.Ldexp(imag(x), -ex))
	q := xs / ds
	return complex(math.Ldexp(real(q), ex-ed), math.Ldexp(imag(q), ex-ed))
}
