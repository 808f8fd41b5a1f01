package cpu

import (
	"math/bits"
	"sync"

	"github.com/batchlas/batchlas/internal/core"
)

// Scalar helpers of the Cholesky family. Each holds one type switch, so it is
// called once per column or per panel, never inside an inner loop: a type
// switch on a stenciled type parameter is not folded away and doubles the
// cost of a loop that contains it.

// cholConj conjugates s in place; it does nothing for real T.
func cholConj[T core.Scalar](s []T) {
	switch p := any(s).(type) {
	case []complex128:
		for i, v := range p {
			p[i] = complex(real(v), -imag(v))
		}
	case []complex64:
		for i, v := range p {
			p[i] = complex(real(v), -imag(v))
		}
	}
}

// cholComplex reports whether T is complex.
func cholComplex[T core.Scalar]() bool {
	var z T
	switch any(z).(type) {
	case complex64, complex128:
		return true
	}
	return false
}

// Scratch for the Cholesky kernels: one pool per element type and size class
// (powers of two), so a steady stream of calls allocates nothing and a large
// matrix never pins a huge buffer where small ones are asked for.
var cholPools [4][48]sync.Pool

func cholPool[T core.Scalar](n int) (*sync.Pool, int) {
	class := bits.Len(uint(max(n, 64) - 1))
	var z T
	switch any(z).(type) {
	case float32:
		return &cholPools[0][class], class
	case float64:
		return &cholPools[1][class], class
	case complex64:
		return &cholPools[2][class], class
	}
	return &cholPools[3][class], class
}

// cholGet returns a buffer of at least n elements with stale contents.
func cholGet[T core.Scalar](n int) *[]T {
	p, class := cholPool[T](n)
	if s, ok := p.Get().(*[]T); ok {
		return s
	}
	s := make([]T, 1<<class)
	return &s
}

// cholPut returns a buffer from cholGet to its pool.
func cholPut[T core.Scalar](s *[]T) {
	p, _ := cholPool[T](len(*s))
	p.Put(s)
}
