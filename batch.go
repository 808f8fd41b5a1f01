package batchlas

import (
	"fmt"
	"math"
	"sync"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cuda"
)

// memory is one allocation that batches view: a Go slice on the CPU, device
// memory on a GPU.
type memory[T Scalar] struct {
	dev  *Device
	host []T       // CPU
	gpu  gpuMemory // CUDA
	size int       // elements

	// pointers caches the device pointer arrays that batched vendor calls
	// take, one per (offset, stride, count) view, built once and kept until Free.
	mu       sync.Mutex
	pointers map[pointerKey]*cuda.PointerArray
}

type pointerKey struct{ off, stride, count int }

// Batch is count matrices of rows×cols elements of type T on one device,
// column-major: element (i, j) of matrix b sits at b·Stride + j·LeadingDim + i
// elements from the start. Views (View, Slice) share the memory of the batch
// they come from.
type Batch[T Scalar] struct {
	mem                           *memory[T]
	off                           int // elements from the start of mem
	rows, cols, ld, stride, count int
}

// NewBatch allocates count zeroed rows×cols matrices on dev, packed:
// leading dimension rows, stride rows·cols.
func NewBatch[T Scalar](dev *Device, rows, cols, count int) (*Batch[T], error) {
	return NewBatchStrided[T](dev, rows, cols, count, max(1, rows), max(1, rows)*cols)
}

// NewBatchStrided allocates count zeroed rows×cols matrices on dev with leading
// dimension ld ≥ max(1, rows) and batch stride ≥ ld·cols, for layouts that
// pad rows (ld > rows) or matrices (stride > ld·cols).
func NewBatchStrided[T Scalar](dev *Device, rows, cols, count, ld, stride int) (*Batch[T], error) {
	const op = "NewBatch"
	if dev == nil {
		return nil, argErr(ErrArgument, op, "dev", "is nil")
	}
	b := &Batch[T]{rows: rows, cols: cols, ld: ld, stride: stride, count: count}
	if err := checkLayout(op, rows, cols, count, ld, stride); err != nil {
		return nil, err
	}
	size := b.span()
	m, err := allocMemory[T](dev, size)
	if err != nil {
		return nil, fmt.Errorf("batchlas: %s: %d×%d×%d %s: %w", op, rows, cols, count, core.TypeName[T](), err)
	}
	b.mem = m
	return b, nil
}

func checkLayout(op string, rows, cols, count, ld, stride int) error {
	switch {
	case rows < 0 || cols < 0 || count < 0:
		return argErr(ErrShape, op, "size", "%d×%d×%d must not be negative", rows, cols, count)
	case ld < max(1, rows):
		return argErr(ErrShape, op, "ld", "%d must be at least max(1, rows) = %d", ld, max(1, rows))
	case cols > 0 && ld > math.MaxInt/cols:
		return argErr(ErrShape, op, "size", "ld·cols = %d·%d overflows int", ld, cols)
	case count > 1 && stride < ld*cols:
		return argErr(ErrShape, op, "stride", "%d must be at least ld·cols = %d", stride, ld*cols)
	case count > 1 && stride <= 0 && rows > 0 && cols > 0:
		return argErr(ErrShape, op, "stride", "%d must be positive", stride)
	case count > 1 && rows > 0 && cols > 0 && count-1 > (math.MaxInt-ld*cols)/stride:
		// The span, (count−1)·stride + (cols−1)·ld + rows, is at most
		// (count−1)·stride + ld·cols.
		return argErr(ErrShape, op, "size", "%d matrices at stride %d overflow int", count, stride)
	}
	return nil
}

func allocMemory[T Scalar](dev *Device, size int) (*memory[T], error) {
	m := &memory[T]{dev: dev, size: size}
	if size > math.MaxInt/sizeOf[T]() {
		return nil, fmt.Errorf("%w: %d elements of %d bytes", ErrOutOfMemory, size, sizeOf[T]())
	}
	if dev.kind == CPU {
		h, err := allocHost[T](size)
		m.host = h
		return m, err
	}
	g, err := allocGPU(dev, int64(size)*int64(sizeOf[T]()))
	if err != nil {
		return nil, err
	}
	m.gpu = g
	return m, nil
}

// allocHost is make([]T, size), with the runtime's panic for a length
// beyond what the heap can address returned as ErrOutOfMemory. (Memory
// the machine does not have still ends the process, as for any make.)
func allocHost[T Scalar](size int) (h []T, err error) {
	defer func() {
		if r := recover(); r != nil {
			h, err = nil, fmt.Errorf("%w: %d elements: %v", ErrOutOfMemory, size, r)
		}
	}()
	return make([]T, size), nil
}

// Rows is the number of rows of each matrix.
func (b *Batch[T]) Rows() int { return b.rows }

// Cols is the number of columns of each matrix.
func (b *Batch[T]) Cols() int { return b.cols }

// Count is the number of matrices.
func (b *Batch[T]) Count() int { return b.count }

// LeadingDim is the distance in elements between columns.
func (b *Batch[T]) LeadingDim() int { return b.ld }

// Stride is the distance in elements between matrices.
func (b *Batch[T]) Stride() int { return b.stride }

// Device is the device the batch lives on.
func (b *Batch[T]) Device() *Device { return b.mem.dev }

func (b *Batch[T]) String() string {
	return fmt.Sprintf("%d×%d×%d %s on %v", b.rows, b.cols, b.count, core.TypeName[T](), b.mem.dev)
}

// span is the number of elements from the first element of matrix 0 to the
// last element of the last matrix.
func (b *Batch[T]) span() int { return b.layout().Need() }

// layout describes the batch as the engines see it (Data is nil on a GPU).
func (b *Batch[T]) layout() core.Strided[T] {
	s := core.Strided[T]{Rows: b.rows, Cols: b.cols, LD: b.ld, Stride: b.stride, Count: b.count}
	// An empty batch holds no element (a view's offset may point past the
	// end of an empty parent's memory).
	if n := s.Need(); n > 0 && b.mem != nil && b.mem.host != nil {
		s.Data = b.mem.host[b.off : b.off+n]
	}
	return s
}

// View returns the block of rows×cols elements starting at (row, col) of
// every matrix, sharing b's memory.
func (b *Batch[T]) View(row, col, rows, cols int) (*Batch[T], error) {
	if row < 0 || col < 0 || rows < 0 || cols < 0 || row > b.rows || col > b.cols || rows > b.rows-row || cols > b.cols-col {
		return nil, argErr(ErrShape, "View", "block", "(%d, %d) of %d×%d is outside %d×%d", row, col, rows, cols, b.rows, b.cols)
	}
	v := *b
	v.off = b.off + col*b.ld + row
	v.rows, v.cols = rows, cols
	if rows == 0 || cols == 0 {
		v.off = b.off
	}
	return &v, nil
}

// Slice returns matrices [from, to) of b, sharing b's memory.
func (b *Batch[T]) Slice(from, to int) (*Batch[T], error) {
	if from < 0 || to < from || to > b.count {
		return nil, argErr(ErrShape, "Slice", "range", "[%d, %d) is outside [0, %d)", from, to, b.count)
	}
	v := *b
	v.count = to - from
	if v.count > 0 {
		v.off = b.off + from*b.stride
	}
	return &v, nil
}

// Upload copies host into the batch. host holds the matrices packed and
// column-major: rows·cols·count elements, matrix after matrix. The copy is
// taken before Upload returns, so host may be reused at once.
func (b *Batch[T]) Upload(q *Queue, host []T) error {
	const op = "Upload"
	if err := checkTransfer(op, q, b, len(host)); err != nil || len(host) == 0 {
		return err
	}
	if b.mem.dev.kind == CUDA {
		return gpuUpload(q, b, host)
	}
	s := b.layout()
	for m := range b.count {
		dst := s.Matrix(m)
		for j := range b.cols {
			copy(dst[j*b.ld:j*b.ld+b.rows], host[(m*b.cols+j)*b.rows:])
		}
	}
	return nil
}

// Download copies the batch into host, packed and column-major as for
// Upload, after the work enqueued on q so far has finished.
func (b *Batch[T]) Download(q *Queue, host []T) error {
	const op = "Download"
	if err := checkTransfer(op, q, b, len(host)); err != nil || len(host) == 0 {
		return err
	}
	if b.mem.dev.kind == CUDA {
		return gpuDownload(q, b, host)
	}
	s := b.layout()
	for m := range b.count {
		src := s.Matrix(m)
		for j := range b.cols {
			copy(host[(m*b.cols+j)*b.rows:(m*b.cols+j+1)*b.rows], src[j*b.ld:])
		}
	}
	return nil
}

func checkTransfer[T Scalar](op string, q *Queue, b *Batch[T], n int) error {
	if err := checkQueue(op, q); err != nil {
		return err
	}
	if err := checkBatch(op, q, "b", b); err != nil {
		return err
	}
	if want := b.rows * b.cols * b.count; n != want {
		return argErr(ErrShape, op, "host", "has %d elements, want rows·cols·count = %d", n, want)
	}
	return nil
}

func sizeOf[T Scalar]() int {
	var z T
	switch any(z).(type) {
	case float32:
		return 4
	case float64, complex64:
		return 8
	}
	return 16
}

// Free returns the batch's memory to its device's pool. The batch and every
// view of the same memory must not be used afterwards; a second Free, of
// the batch or of any view of it, does nothing. On a GPU, Free first waits
// for all work queued on the device, which may still use the memory (the
// pool hands a freed block to the next allocation at once, on any queue).
// Free is optional on the CPU, where the garbage collector reclaims it.
func (b *Batch[T]) Free() {
	m := b.mem
	if m == nil {
		return
	}
	m.mu.Lock()
	freed := m.size < 0
	m.size = -1
	m.mu.Unlock()
	if freed {
		return
	}
	m.host = nil
	if m.dev.kind == CUDA {
		m.dev.gpu.idle()
		m.freePointers()
		m.gpu.free(m.dev)
		m.gpu = gpuMemory{}
	}
}

// freePointers frees the cached pointer arrays; no queue may still use them.
func (m *memory[T]) freePointers() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, pa := range m.pointers {
		pa.Free()
	}
	m.pointers = nil
}

// Info holds one LAPACK status per matrix: 0 for success, k > 0 for the
// op's failure at step k (for Potrf the leading minor of order k is not
// positive definite; for Getrf U(k, k) is exactly zero). After Wait
// reports ErrCanceled the statuses of the stopped op are not to be
// trusted (WithContext).
type Info struct {
	dev   *Device
	count int
	host  []int32   // CPU
	gpu   gpuMemory // CUDA
	freed bool
}

// NewInfo allocates statuses for count matrices on dev.
func NewInfo(dev *Device, count int) (*Info, error) {
	if dev == nil {
		return nil, argErr(ErrArgument, "NewInfo", "dev", "is nil")
	}
	if count < 0 {
		return nil, argErr(ErrShape, "NewInfo", "count", "%d must not be negative", count)
	}
	in := &Info{dev: dev, count: count}
	if dev.kind == CPU {
		in.host = make([]int32, count)
		return in, nil
	}
	g, err := allocGPU(dev, 4*int64(count))
	if err != nil {
		return nil, fmt.Errorf("batchlas: NewInfo: %w", err)
	}
	in.gpu = g
	return in, nil
}

// Len is the number of statuses.
func (in *Info) Len() int { return in.count }

// Free returns the statuses' memory to the device's pool, as Batch.Free
// does: on a GPU after the device's queued work; the Info must not be used
// afterwards, and a second Free does nothing. Optional on the CPU.
func (in *Info) Free() { releaseInts(in.dev, &in.freed, &in.host, &in.gpu) }

// releaseInts frees an Info's or a Pivots' memory, once.
func releaseInts(dev *Device, freed *bool, host *[]int32, g *gpuMemory) {
	if *freed {
		return
	}
	*freed, *host = true, nil
	if dev.kind == CUDA {
		dev.gpu.idle()
		g.free(dev)
		*g = gpuMemory{}
	}
}

// Values returns the statuses after the work enqueued on q so far has finished.
func (in *Info) Values(q *Queue) ([]int32, error) {
	if err := checkQueue("Info.Values", q); err != nil {
		return nil, err
	}
	if in.freed {
		return nil, argErr(ErrArgument, "Info.Values", "info", "was freed")
	}
	if in.dev != q.dev {
		return nil, argErr(ErrDevice, "Info.Values", "q", "is on %v, the info on %v", q.dev, in.dev)
	}
	if in.dev.kind == CUDA {
		return gpuDownloadInt32(q, in.gpu, in.count)
	}
	return append([]int32(nil), in.host...), nil
}

// Failed returns the indices of the matrices whose status is not zero.
func (in *Info) Failed(q *Queue) ([]int, error) {
	v, err := in.Values(q)
	if err != nil {
		return nil, err
	}
	var failed []int
	for i, s := range v {
		if s != 0 {
			failed = append(failed, i)
		}
	}
	return failed, nil
}

// Pivots holds the row interchanges of an LU factorization: k per matrix
// (k = min(rows, cols)), 1-based as in LAPACK: row i was swapped with row
// pivots[i]-1.
type Pivots struct {
	dev      *Device
	k, count int
	host     []int32
	gpu      gpuMemory
	freed    bool
}

// NewPivots allocates k interchanges for each of count matrices on dev.
func NewPivots(dev *Device, k, count int) (*Pivots, error) {
	if dev == nil {
		return nil, argErr(ErrArgument, "NewPivots", "dev", "is nil")
	}
	if k < 0 || count < 0 {
		return nil, argErr(ErrShape, "NewPivots", "size", "%d×%d must not be negative", k, count)
	}
	p := &Pivots{dev: dev, k: k, count: count}
	if dev.kind == CPU {
		p.host = make([]int32, k*count)
		return p, nil
	}
	g, err := allocGPU(dev, 4*int64(k)*int64(count))
	if err != nil {
		return nil, fmt.Errorf("batchlas: NewPivots: %w", err)
	}
	p.gpu = g
	return p, nil
}

// Len is the number of interchanges per matrix.
func (p *Pivots) Len() int { return p.k }

// Count is the number of matrices.
func (p *Pivots) Count() int { return p.count }

// Free returns the interchanges' memory to the device's pool, as Info.Free
// does for statuses.
func (p *Pivots) Free() { releaseInts(p.dev, &p.freed, &p.host, &p.gpu) }

// Values returns the interchanges, k per matrix, matrix after matrix, after
// the work enqueued on q so far has finished.
func (p *Pivots) Values(q *Queue) ([]int32, error) {
	if err := checkQueue("Pivots.Values", q); err != nil {
		return nil, err
	}
	if p.freed {
		return nil, argErr(ErrArgument, "Pivots.Values", "pivots", "were freed")
	}
	if p.dev != q.dev {
		return nil, argErr(ErrDevice, "Pivots.Values", "q", "is on %v, the pivots on %v", q.dev, p.dev)
	}
	if p.dev.kind == CUDA {
		return gpuDownloadInt32(q, p.gpu, p.k*p.count)
	}
	return append([]int32(nil), p.host...), nil
}

// Upload sets the interchanges from values, k per matrix, matrix after
// matrix, e.g. to solve with factors computed earlier.
func (p *Pivots) Upload(q *Queue, values []int32) error {
	const op = "Pivots.Upload"
	if err := checkQueue(op, q); err != nil {
		return err
	}
	if p.freed {
		return argErr(ErrArgument, op, "pivots", "were freed")
	}
	if p.dev != q.dev {
		return argErr(ErrDevice, op, "q", "is on %v, the pivots on %v", q.dev, p.dev)
	}
	if len(values) != p.k*p.count {
		return argErr(ErrShape, op, "values", "has %d entries, want %d", len(values), p.k*p.count)
	}
	if p.dev.kind == CUDA {
		return gpuUploadInt32(q, p.gpu, values)
	}
	copy(p.host, values)
	return nil
}
