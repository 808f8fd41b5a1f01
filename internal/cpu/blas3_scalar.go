package cpu

import (
	"sync"

	"github.com/batchlas/batchlas/internal/core"
)

// isCplx reports whether T is complex; callers hoist it out of loops because
// a type switch on a stenciled type parameter is not folded by the compiler.
func isCplx[T core.Scalar]() bool {
	var z T
	switch any(z).(type) {
	case complex64, complex128:
		return true
	}
	return false
}

// conj returns the complex conjugate of v (v itself for real T).
func conj[T core.Scalar](v T) T {
	switch p := any(&v).(type) {
	case *complex64:
		*p = complex(real(*p), -imag(*p))
	case *complex128:
		*p = complex(real(*p), -imag(*p))
	}
	return v
}

// fromReal converts a float64 to T (Go has no float-to-complex conversion
// for type parameters).
func fromReal[T core.Scalar](f float64) T {
	var v T
	switch p := any(&v).(type) {
	case *float32:
		*p = float32(f)
	case *float64:
		*p = f
	case *complex64:
		*p = complex(float32(f), 0)
	case *complex128:
		*p = complex(f, 0)
	}
	return v
}

// realOf returns v with its imaginary part dropped.
func realOf[T core.Scalar](v T) T {
	switch p := any(&v).(type) {
	case *complex64:
		*p = complex(real(*p), 0)
	case *complex128:
		*p = complex(real(*p), 0)
	}
	return v
}

// conjSlice conjugates s in place (no-op for real T).
func conjSlice[T core.Scalar](s []T) {
	switch p := any(s).(type) {
	case []complex64:
		for i, v := range p {
			p[i] = complex(real(v), -imag(v))
		}
	case []complex128:
		for i, v := range p {
			p[i] = complex(real(v), -imag(v))
		}
	}
}

// Scratch buffers of element type T, one pool per scalar type.
var scratchPools [4]sync.Pool

func scratchPool[T core.Scalar]() *sync.Pool {
	var z T
	switch any(z).(type) {
	case float32:
		return &scratchPools[0]
	case float64:
		return &scratchPools[1]
	case complex64:
		return &scratchPools[2]
	case complex128:
		return &scratchPools[3]
	}
	return nil
}

// getScratch returns a pooled buffer of at least n elements; contents are stale.
func getScratch[T core.Scalar](n int) *[]T {
	if pool := scratchPool[T](); pool != nil {
		if p, ok := pool.Get().(*[]T); ok && cap(*p) >= n {
			*p = (*p)[:cap(*p)]
			return p
		}
	}
	s := make([]T, max(n, 1024))
	return &s
}

func putScratch[T core.Scalar](p *[]T) {
	if pool := scratchPool[T](); pool != nil {
		pool.Put(p)
	}
}
