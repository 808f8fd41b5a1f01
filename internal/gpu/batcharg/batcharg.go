// Package batcharg checks the arguments that the native GPU kernels' entry
// points share: a strided batch of square matrices in device memory and
// its per-matrix info array. The errors wrap core.ErrShape or
// core.ErrArgument and start with the caller's name, so a bad call says
// which entry point refused it and why, before anything is queued.
package batcharg

import (
	"fmt"
	"math"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cuda"
)

// Factor checks a batched factorization's arguments once the caller has
// accepted dt and n: uplo; count and lda in range; a stride that keeps the
// matrices apart; info non-null and 4-byte aligned (int32 per matrix); and,
// unless the work is empty, a non-null a aligned to its elements (the
// kernels load whole elements, complex128 as one 16-byte access). Matrix m
// starts at element m·stride of a, column-major with leading dimension lda;
// with one matrix the stride is not used. who prefixes the messages.
func Factor(who string, dt cuda.DType, uplo core.Uplo, n int, a cuda.DevicePtr, lda int, stride int64, count int, info cuda.DevicePtr) error {
	switch {
	case !uplo.Valid():
		return fmt.Errorf("%w: %s: uplo %v", core.ErrArgument, who, uplo)
	case count < 0 || count > math.MaxInt32:
		return fmt.Errorf("%w: %s: count = %d must be in [0, 2³¹)", core.ErrShape, who, count)
	case lda < max(1, n) || lda > math.MaxInt32:
		return fmt.Errorf("%w: %s: lda = %d, must be in [max(1, n), 2³¹) = [%d, 2³¹)", core.ErrShape, who, lda, max(1, n))
	case count > 1 && stride < int64(lda)*int64(n):
		return fmt.Errorf("%w: %s: stride = %d, must be at least lda·n = %d", core.ErrShape, who, stride, int64(lda)*int64(n))
	case count > 0 && info == 0:
		return fmt.Errorf("%w: %s: info is a null pointer", core.ErrArgument, who)
	case uintptr(info)%4 != 0:
		return fmt.Errorf("%w: %s: info = %#x is not 4-byte aligned", core.ErrArgument, who, uintptr(info))
	}
	if n == 0 || count == 0 {
		return nil
	}
	return Elements(who, "a", dt, a)
}

// Elements checks that p, the operand called name, is a non-null device
// address aligned to dt's elements.
func Elements(who, name string, dt cuda.DType, p cuda.DevicePtr) error {
	switch size := uintptr(dt.Size()); {
	case p == 0:
		return fmt.Errorf("%w: %s: %s is a null pointer", core.ErrArgument, who, name)
	case uintptr(p)%size != 0:
		return fmt.Errorf("%w: %s: %s = %#x is not aligned to its %d-byte elements", core.ErrArgument, who, name, uintptr(p), size)
	}
	return nil
}
