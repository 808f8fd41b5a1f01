package cuda

import (
	_ "embed"
	"fmt"
	"math"
	"sync"

	"github.com/batchlas/batchlas/internal/core"
)

//go:embed kernels/transpose.cu
var transposeSource string

// TransposeSource is the embedded transpose.cu, compiled by TransposeMatrices.
var TransposeSource = Source{Name: "transpose.cu", Code: transposeSource}

// TransposeKernelNames lists the name expressions TransposeMatrices loads,
// in DType order.
func TransposeKernelNames() []string {
	return []string{
		"transpose_matrices<float, false>",
		"transpose_matrices<double, false>",
		"transpose_matrices<cfloat_t, true>",
		"transpose_matrices<cdouble_t, true>",
	}
}

// MatrixTranspose describes a batched transpose: B[m] = A[m]ᴴ (Aᵀ for real
// types) for Count matrices, A Rows×Cols and B Cols×Rows, column-major,
// element (i, j) of matrix m at A + (m·StrideA + j·LDA + i) elements
// (likewise B). Only the elements of B that Part selects, in B's own
// coordinates, are written; the others keep their values.
type MatrixTranspose struct {
	Rows, Cols, Count int

	A       DevicePtr
	LDA     int
	StrideA int64

	B       DevicePtr
	LDB     int
	StrideB int64

	Part CopyPart
}

// TransposeMatrices queues B[m] = A[m]ᴴ (the part of it m.Part selects) for
// every matrix on s. A and B must not overlap.
func TransposeMatrices[T core.Scalar](s *Stream, m MatrixTranspose) error {
	dt := DTypeOf[T]()
	if err := checkTranspose(m, dt.Size()); err != nil || m.Rows == 0 || m.Cols == 0 || m.Count == 0 {
		return err
	}
	k, err := transposeKernel(s.ctx, dt)
	if err != nil {
		return err
	}
	grid := [3]uint32{uint32((m.Rows + 31) / 32), uint32((m.Cols + 31) / 32), uint32(min(m.Count, maxGridDimYZ))}
	var a Args
	a.Ptr(m.A).Int64(int64(m.LDA)).Int64(m.StrideA).
		Ptr(m.B).Int64(int64(m.LDB)).Int64(m.StrideB).
		Int32(int32(m.Rows)).Int32(int32(m.Cols)).Int32(int32(m.Count)).Int32(int32(m.Part))
	return LaunchArgs(s, k, grid, [3]uint32{32, 8, 1}, 0, &a)
}

func checkTranspose(m MatrixTranspose, size int) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: cuda: TransposeMatrices: "+format, append([]any{core.ErrShape}, args...)...)
	}
	switch {
	case m.Rows < 0 || m.Cols < 0 || m.Count < 0:
		return bad("%d×%d×%d, sizes must not be negative", m.Rows, m.Cols, m.Count)
	case m.Rows > math.MaxInt32-31 || m.Cols > 32*maxGridDimYZ || m.Count > math.MaxInt32:
		return bad("%d×%d×%d is too large", m.Rows, m.Cols, m.Count)
	case m.Part > CopyStrictUpper:
		return fmt.Errorf("%w: cuda: TransposeMatrices: part %d", core.ErrArgument, m.Part)
	}
	if m.Rows == 0 || m.Cols == 0 || m.Count == 0 {
		return nil
	}
	switch {
	case m.A == 0 || m.B == 0:
		return fmt.Errorf("%w: cuda: TransposeMatrices: null pointer", core.ErrArgument)
	case m.LDA < m.Rows:
		return bad("A has leading dimension %d, must be at least %d", m.LDA, m.Rows)
	case m.LDB < m.Cols:
		return bad("B has leading dimension %d, must be at least %d", m.LDB, m.Cols)
	case m.Count > 1 && (m.StrideA < int64(m.LDA)*int64(m.Cols) || m.StrideB < int64(m.LDB)*int64(m.Rows)):
		return bad("batch strides %d and %d are below ld·cols", m.StrideA, m.StrideB)
	case uintptr(m.A)%uintptr(size) != 0 || uintptr(m.B)%uintptr(size) != 0:
		return fmt.Errorf("%w: cuda: TransposeMatrices: pointers not aligned to their %d-byte elements", core.ErrArgument, size)
	}
	return nil
}

var transposeKernels sync.Map // *Context → []*Kernel (in DType order)

func transposeKernel(c *Context, dt DType) (*Kernel, error) {
	if ks, ok := transposeKernels.Load(c); ok {
		return ks.([]*Kernel)[dt], nil
	}
	ks, err := DefaultJIT().Load(c, TransposeSource, TransposeKernelNames()...)
	if err != nil {
		return nil, err
	}
	transposeKernels.Store(c, ks)
	return ks[dt], nil
}
