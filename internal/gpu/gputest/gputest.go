// Package gputest holds what the native GPU packages' tests share: a mixed
// test batch of Hermitian matrices (MixedBatch: positive definite,
// ill-conditioned, not positive definite and NaN items in a poisoned strided
// layout), the check of a factored batch against it (CheckFactors), and the
// round trip of host batches to the device around a call (OnDevice). The
// checks run on the host, so each package's TestChecks shows them catching
// planted breaks without a GPU.
package gputest

import (
	"fmt"
	"unsafe"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cuda"
)

// OnDevice copies each host operand ([]T or []int32) to a new device
// block, runs fn on the device copies (in host's order) with the work queued
// on s, copies them all back and frees them. A host operand of another type
// is an error, found before anything is allocated.
func OnDevice[T core.Scalar](s *cuda.Stream, fn func(ptrs []cuda.DevicePtr) error, host ...any) error {
	bytes := make([]int64, len(host))
	for i, h := range host {
		switch v := h.(type) {
		case []T:
			bytes[i] = int64(len(v)) * int64(unsafe.Sizeof(*new(T)))
		case []int32:
			bytes[i] = int64(len(v)) * 4
		default:
			return fmt.Errorf("gputest: host operand %d is a %T, not a []%s or []int32", i, h, core.TypeName[T]())
		}
	}
	c := s.Context()
	ptrs := make([]cuda.DevicePtr, len(host))
	for i, h := range host {
		p, err := c.Alloc(max(bytes[i], 256))
		if err != nil {
			return err
		}
		defer c.Free(p)
		ptrs[i] = p
		switch v := h.(type) {
		case []T:
			err = cuda.Upload(s, p, v)
		case []int32:
			err = cuda.Upload(s, p, v)
		}
		if err != nil {
			return err
		}
	}
	if err := fn(ptrs); err != nil {
		return err
	}
	for i, h := range host {
		var err error
		switch v := h.(type) {
		case []T:
			err = cuda.Download(s, v, ptrs[i])
		case []int32:
			err = cuda.Download(s, v, ptrs[i])
		}
		if err != nil {
			return err
		}
	}
	return nil
}
