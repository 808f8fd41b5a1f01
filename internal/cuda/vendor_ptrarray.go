package cuda

import (
	"fmt"

	"github.com/batchlas/batchlas/internal/core"
)

// PointerArray is a device array of Count device pointers, entry i being
// Base + i·Stride·ElemSize bytes: the form every cuBLAS/cuSOLVER "…Batched"
// routine (other than the strided ones) takes for its matrices. Build one
// per batch and keep it with the batch; building costs an allocation and a
// host-to-device copy.
type PointerArray struct {
	Ptr    DevicePtr // the device array, to pass as aArray/bArray/...
	Base   DevicePtr // address of matrix 0
	Stride int64     // elements between consecutive matrices
	Count  int
	ctx    *Context
}

// NewPointerArray allocates, on the device of s, the array of count pointers
// base + i·stride·elemSize (stride in elements) and fills it in order on s:
// work queued on s afterwards sees it; another stream must first wait for s.
func NewPointerArray(s *Stream, base DevicePtr, count int, stride int64, elemSize int) (*PointerArray, error) {
	if s == nil {
		return nil, fmt.Errorf("%w: NewPointerArray: nil stream", core.ErrArgument)
	}
	if count < 0 || stride < 0 || elemSize <= 0 {
		return nil, fmt.Errorf("%w: NewPointerArray: count = %d, stride = %d, elemSize = %d", core.ErrArgument, count, stride, elemSize)
	}
	ctx := s.Context()
	pa := &PointerArray{Base: base, Stride: stride, Count: count, ctx: ctx}
	if count == 0 {
		return pa, nil
	}
	host := make([]uint64, count)
	step := uint64(stride) * uint64(elemSize)
	for i := range host {
		host[i] = uint64(base) + uint64(i)*step
	}
	p, err := ctx.Alloc(int64(count) * 8)
	if err != nil {
		return nil, err
	}
	if err := Upload(s, p, host); err != nil {
		ctx.Free(p)
		return nil, err
	}
	pa.Ptr = p
	return pa, nil
}

// PointerArrayOf is NewPointerArray with the element size of T.
func PointerArrayOf[T core.Scalar](s *Stream, base DevicePtr, count int, stride int64) (*PointerArray, error) {
	return NewPointerArray(s, base, count, stride, DTypeOf[T]().Size())
}

// Free returns the device array to the context's pool; freeing twice is
// harmless. As with Context.Free, work still queued that reads the array
// must be on the stream of the block's next user, or finished.
func (pa *PointerArray) Free() {
	if pa == nil || pa.Ptr == 0 {
		return
	}
	pa.ctx.Free(pa.Ptr)
	pa.Ptr = 0
}
