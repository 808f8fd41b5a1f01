package cuda

import (
	_ "embed"
	"fmt"
	"math"
	"sync"
	"unsafe"

	"github.com/batchlas/batchlas/internal/core"
)

//go:embed kernels/copy.cu
var copySource string

// CopySource is the embedded copy.cu, compiled by CopyMatrices.
var CopySource = Source{Name: "copy.cu", Code: copySource}

// The instantiations of copy.cu, one per element size in bytes.
var copyKernelNames = map[int]string{
	4:  "copy_matrices<unsigned int>",
	8:  "copy_matrices<unsigned long long>",
	16: "copy_matrices<bits128>",
}

// CopyKernelNames lists the name expressions CopyMatrices loads.
func CopyKernelNames() []string {
	return []string{copyKernelNames[4], copyKernelNames[8], copyKernelNames[16]}
}

// CopyPart selects the elements CopyMatrices copies; the values are the
// PART_* constants of copy.cu.
type CopyPart uint8

const (
	CopyAll         CopyPart = iota // every element
	CopyLower                       // i ≥ j
	CopyUpper                       // i ≤ j
	CopyStrictLower                 // i > j
	CopyStrictUpper                 // i < j
)

// CopyRest says what the elements of B that are not copied become; the
// values are the REST_* constants of copy.cu.
type CopyRest uint8

const (
	RestKeep     CopyRest = iota // left as they are
	RestZero                     // set to 0
	RestIdentity                 // 1 on the diagonal, 0 elsewhere
)

// MatrixCopy describes a batched copy: Count matrices of Rows×Cols,
// column-major, element (i, j) of matrix m at A + (m·StrideA + j·LDA + i)
// elements (likewise B). Strides and leading dimensions count elements.
type MatrixCopy struct {
	Rows, Cols, Count int

	A       DevicePtr // 0: nothing is copied, B is only filled (laset)
	LDA     int
	StrideA int64 // 0 copies one matrix to every B

	B       DevicePtr
	LDB     int
	StrideB int64

	Part CopyPart // what is copied from A
	Rest CopyRest // what the other elements of B become
}

// CopyMatrices queues B[m] = part of A[m] for every matrix m on s, the rest
// of each B set as m.Rest says (LAPACK lacpy and laset for a batch). A and B
// must not overlap, except A == B with equal leading dimension and stride,
// which masks in place (e.g. Part CopyLower, Rest RestZero clears the upper
// triangle). The values are copied bit for bit.
func CopyMatrices[T core.Scalar](s *Stream, m MatrixCopy) error {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if err := checkMatrixCopy(m, size); err != nil || m.Rows == 0 || m.Cols == 0 || m.Count == 0 {
		return err
	}
	if m.A == 0 && m.Rest == RestKeep {
		return nil
	}
	k, err := copyKernel(s.ctx, size)
	if err != nil {
		return err
	}
	one := oneBits[T]()
	grid, block := copyGrid(s.ctx.Device, m)
	var a Args
	a.Ptr(m.A).Int64(int64(m.LDA)).Int64(m.StrideA).
		Ptr(m.B).Int64(int64(m.LDB)).Int64(m.StrideB).
		Int32(int32(m.Rows)).Int32(int32(m.Cols)).Int32(int32(m.Count)).
		Int32(int32(m.Part)).Int32(int32(m.Rest)).
		Uint64(one[0]).Uint64(one[1])
	return LaunchArgs(s, k, grid, block, 0, &a)
}

func checkMatrixCopy(m MatrixCopy, size int) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: cuda: CopyMatrices: "+format, append([]any{core.ErrShape}, args...)...)
	}
	switch {
	case m.Rows < 0 || m.Cols < 0 || m.Count < 0:
		return bad("%d×%d×%d, sizes must not be negative", m.Rows, m.Cols, m.Count)
	case m.Rows > math.MaxInt32 || m.Cols > math.MaxInt32 || m.Count > math.MaxInt32:
		return bad("%d×%d×%d, each size must be below 2^31", m.Rows, m.Cols, m.Count)
	case int64(m.Rows)*int64(m.Cols) > math.MaxInt32:
		return bad("one matrix of %d×%d has 2^31 or more elements", m.Rows, m.Cols)
	case m.Part > CopyStrictUpper:
		return fmt.Errorf("%w: cuda: CopyMatrices: part %d", core.ErrArgument, m.Part)
	case m.Rest > RestIdentity:
		return fmt.Errorf("%w: cuda: CopyMatrices: rest %d", core.ErrArgument, m.Rest)
	}
	if m.Rows == 0 || m.Cols == 0 || m.Count == 0 {
		return nil
	}
	switch {
	case m.B == 0:
		return fmt.Errorf("%w: cuda: CopyMatrices: B is a null pointer", core.ErrArgument)
	case m.LDB < m.Rows:
		return bad("B has leading dimension %d, must be at least %d", m.LDB, m.Rows)
	case m.Count > 1 && m.StrideB < int64(m.LDB)*int64(m.Cols):
		return bad("B has batch stride %d, must be at least ldb·cols = %d", m.StrideB, int64(m.LDB)*int64(m.Cols))
	case uintptr(m.B)%uintptr(size) != 0:
		return fmt.Errorf("%w: cuda: CopyMatrices: B = %#x is not aligned to its %d-byte elements", core.ErrArgument, uintptr(m.B), size)
	}
	if m.A == 0 {
		return nil
	}
	switch {
	case m.LDA < m.Rows:
		return bad("A has leading dimension %d, must be at least %d", m.LDA, m.Rows)
	case m.StrideA < 0:
		return bad("A has batch stride %d, must not be negative", m.StrideA)
	case uintptr(m.A)%uintptr(size) != 0:
		return fmt.Errorf("%w: cuda: CopyMatrices: A = %#x is not aligned to its %d-byte elements", core.ErrArgument, uintptr(m.A), size)
	case m.A == m.B && (m.LDA != m.LDB || m.StrideA != m.StrideB):
		return bad("in place (A == B) needs equal leading dimensions and strides, have %d, %d and %d, %d", m.LDA, m.StrideA, m.LDB, m.StrideB)
	}
	return nil
}

// copyGrid sizes the launch: 256 threads per block, and at most 32 blocks
// per multiprocessor (a few waves at full occupancy); the kernel strides
// over whatever the grid does not cover.
func copyGrid(dev *Device, m MatrixCopy) (grid, block [3]uint32) {
	const threads = 256
	maxBlocks := int64(max(dev.SMs, 1)) * 32
	perMatrix := int64(m.Rows) * int64(m.Cols)
	total := perMatrix * int64(m.Count)
	if total <= math.MaxInt32 {
		blocks := min((total+threads-1)/threads, maxBlocks)
		return [3]uint32{uint32(blocks), 1, 1}, [3]uint32{threads, 1, 1}
	}
	y := min(int64(m.Count), maxGridDimYZ)
	x := max(1, min((perMatrix+threads-1)/threads, maxBlocks/y))
	return [3]uint32{uint32(x), uint32(y), 1}, [3]uint32{threads, 1, 1}
}

// oneBits is the bit pattern of T's 1 in two little-endian words, as the
// kernel's from_bits reads them.
func oneBits[T core.Scalar]() [2]uint64 {
	var bits [2]uint64
	one := T(1)
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&bits)), 16), unsafe.Slice((*byte)(unsafe.Pointer(&one)), unsafe.Sizeof(one)))
	return bits
}

// copyKernels caches the loaded copy kernels per context.
var copyKernels sync.Map // *Context → []*Kernel (in CopyKernelNames order)

func copyKernel(c *Context, size int) (*Kernel, error) {
	index := map[int]int{4: 0, 8: 1, 16: 2}[size]
	if ks, ok := copyKernels.Load(c); ok {
		return ks.([]*Kernel)[index], nil
	}
	ks, err := DefaultJIT().Load(c, CopySource, CopyKernelNames()...)
	if err != nil {
		return nil, err
	}
	copyKernels.Store(c, ks)
	return ks[index], nil
}
