// Package fixup holds the small GPU passes that let compositions of vendor
// calls keep LAPACK's per-matrix contract: restoring the operands of failed
// matrices, making a Hermitian diagonal exactly real, and moving failed
// matrices between float32 and float64 to be factored again.
package fixup

import (
	_ "embed"
	"fmt"
	"slices"
	"unsafe"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cuda"
)

//go:embed fixup.cu
var code string

// Source is the embedded fixup.cu.
var Source = cuda.Source{Name: "fixup.cu", Code: code}

// KernelNames lists every name expression of fixup.cu, in the order Load
// returns the kernels.
func KernelNames() []string { return slices.Clone(names) }

var names = []string{
	"restore_failed<unsigned int>",
	"restore_failed<unsigned long long>",
	"restore_failed<bits128>",
	"real_diagonal<float>",
	"real_diagonal<double>",
	"nan_info<float, 1>",
	"nan_info<double, 1>",
	"nan_info<float, 2>",
	"nan_info<double, 2>",
	"cast_part<float, double>",
	"cast_part<double, float>",
	"scatter_info",
}

var loaded cuda.KernelSets[struct{}] // per context, every kernel of names in order

func load(c *cuda.Context, _ struct{}) ([]*cuda.Kernel, error) {
	return cuda.DefaultJIT().Load(c, Source, names...)
}

func kernel(c *cuda.Context, i int) (*cuda.Kernel, error) {
	ks, err := loaded.Get(c, struct{}{}, load)
	if err != nil {
		return nil, err
	}
	return ks[i], nil
}

// grid covers n elements with 256-thread blocks, at most 32 blocks per
// multiprocessor; the kernels stride over the rest.
func grid(s *cuda.Stream, n int64) (g, b [3]uint32) {
	blocks := min((n+255)/256, int64(max(s.Context().Device.SMs, 1))*32)
	return [3]uint32{uint32(max(blocks, 1)), 1, 1}, [3]uint32{256, 1, 1}
}

// Layout is one strided batch operand on the device, in elements.
type Layout struct {
	Ptr    cuda.DevicePtr
	LD     int
	Stride int64
}

// RestoreFailed queues dst[m] = src[m] (rows×cols) for every matrix m with
// info[m] != 0, on s.
func RestoreFailed[T core.Scalar](s *cuda.Stream, src, dst Layout, rows, cols, count int, info cuda.DevicePtr) error {
	if rows == 0 || cols == 0 || count == 0 {
		return nil
	}
	var z T
	index := map[uintptr]int{4: 0, 8: 1, 16: 2}[unsafe.Sizeof(z)]
	k, err := kernel(s.Context(), index)
	if err != nil {
		return fmt.Errorf("fixup: %w", err)
	}
	g, b := grid(s, int64(rows)*int64(cols)*int64(count))
	var a cuda.Args
	a.Ptr(src.Ptr).Int64(int64(src.LD)).Int64(src.Stride).
		Ptr(dst.Ptr).Int64(int64(dst.LD)).Int64(dst.Stride).
		Int32(int32(rows)).Int32(int32(cols)).Int32(int32(count)).Ptr(info)
	return cuda.LaunchArgs(s, k, g, b, 0, &a)
}

// RealDiagonal queues, on s, zeroing the imaginary part of the diagonal of
// every n×n matrix of c; for real T it does nothing.
func RealDiagonal[T core.Scalar](s *cuda.Stream, c Layout, n, count int) error {
	var z T
	var index int
	switch any(z).(type) {
	case complex64:
		index = 3
	case complex128:
		index = 4
	default:
		return nil
	}
	if n == 0 || count == 0 {
		return nil
	}
	k, err := kernel(s.Context(), index)
	if err != nil {
		return fmt.Errorf("fixup: %w", err)
	}
	g, b := grid(s, int64(n)*int64(count))
	var a cuda.Args
	a.Ptr(c.Ptr).Int64(int64(c.LD)).Int64(c.Stride).Int32(int32(n)).Int32(int32(count))
	return cuda.LaunchArgs(s, k, g, b, 0, &a)
}

// NaNInfo queues, on s, info[m] = j + 1 for the first diagonal element j
// of matrix m of a that is NaN, for every m whose info is 0 (an infinite
// one is not a failure: fixup.cu's comment).
func NaNInfo[T core.Scalar](s *cuda.Stream, a Layout, n, count int, info cuda.DevicePtr) error {
	if n == 0 || count == 0 {
		return nil
	}
	var z T
	index := map[any]int{float32(0): 5, float64(0): 6, complex64(0): 7, complex128(0): 8}[any(z)]
	k, err := kernel(s.Context(), index)
	if err != nil {
		return fmt.Errorf("fixup: %w", err)
	}
	g := [3]uint32{uint32((count + 127) / 128), 1, 1}
	var args cuda.Args
	args.Ptr(a.Ptr).Int64(int64(a.LD)).Int64(a.Stride).Int32(int32(n)).Int32(int32(count)).Ptr(info)
	return cuda.LaunchArgs(s, k, g, [3]uint32{128, 1, 1}, 0, &args)
}

// CastPart queues, on s, the conversion of the lower (lower set) or upper
// triangle of k n×n matrices from src to dst, float32 to float64 or back:
// dst matrix s gets src matrix s, where a non-zero index (k int32 on the
// device) maps s to the matrix of that side's batch. The other elements of
// dst are not written.
func CastPart[From, To float32 | float64](s *cuda.Stream, src Layout, srcIndex cuda.DevicePtr, dst Layout, dstIndex cuda.DevicePtr, n, k int, lower bool) error {
	var from From
	var to To
	index := 9
	switch {
	case unsafe.Sizeof(from) == 8 && unsafe.Sizeof(to) == 4:
		index = 10
	case unsafe.Sizeof(from) == unsafe.Sizeof(to):
		return fmt.Errorf("%w: fixup: CastPart converts between float32 and float64", core.ErrUnsupported)
	}
	if n == 0 || k == 0 {
		return nil
	}
	kern, err := kernel(s.Context(), index)
	if err != nil {
		return fmt.Errorf("fixup: %w", err)
	}
	g, b := grid(s, int64(n)*int64(n)*int64(k))
	var a cuda.Args
	a.Ptr(src.Ptr).Int64(int64(src.LD)).Int64(src.Stride).Ptr(srcIndex).
		Ptr(dst.Ptr).Int64(int64(dst.LD)).Int64(dst.Stride).Ptr(dstIndex).
		Int32(int32(n)).Int32(int32(k)).Int32(boolInt(lower))
	return cuda.LaunchArgs(s, kern, g, b, 0, &a)
}

// ScatterInfo queues, on s, info[index[i]] = from[i] for the k statuses of
// a gathered batch (index: k int32 on the device).
func ScatterInfo(s *cuda.Stream, from, index cuda.DevicePtr, k int, info cuda.DevicePtr) error {
	if k == 0 {
		return nil
	}
	kern, err := kernel(s.Context(), 11)
	if err != nil {
		return fmt.Errorf("fixup: %w", err)
	}
	var a cuda.Args
	a.Ptr(from).Ptr(index).Int32(int32(k)).Ptr(info)
	return cuda.LaunchArgs(s, kern, [3]uint32{uint32((k + 127) / 128), 1, 1}, [3]uint32{128, 1, 1}, 0, &a)
}

func boolInt(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// Load compiles (or finds in the cache) and loads every fixup kernel into c,
// for `batchlas kernels` and tests that inspect kernel attributes.
func Load(c *cuda.Context) ([]*cuda.Kernel, error) {
	return loaded.Get(c, struct{}{}, load)
}
