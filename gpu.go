package batchlas

import (
	"errors"
	"fmt"
	"sync"

	"github.com/batchlas/batchlas/internal/cuda"
	"github.com/batchlas/batchlas/internal/gpu/cholblocked"
	"github.com/batchlas/batchlas/internal/route"
)

// The CUDA side of the public API: devices, queues as streams, device
// memory, transfers. The ops' GPU arms are in gpu_ops.go.

type gpuDevice struct {
	dev *cuda.Device
	ctx *cuda.Context

	// init is a stream of the device's own, for work that has no queue:
	// zeroing a new allocation.
	initOnce sync.Once
	init     *cuda.Stream
	initErr  error
	initMu   sync.Mutex

	routeOnce sync.Once
	route     route.Device // how the router sees the GPU
}

func openCUDA(ordinal int) (*Device, error) {
	dev, err := cuda.DeviceByOrdinal(ordinal)
	if err != nil {
		return nil, fmt.Errorf("batchlas: cuda:%d: %w", ordinal, err)
	}
	ctx, err := dev.Context()
	if err != nil {
		return nil, fmt.Errorf("batchlas: cuda:%d: %w", ordinal, err)
	}
	return &Device{kind: CUDA, ordinal: ordinal, name: dev.Name, gpu: &gpuDevice{dev: dev, ctx: ctx}}, nil
}

// nvrtcStatus says whether the run-time compiler loads: without it no
// native kernel (nor a copy or fix-up kernel) can run, though the device
// opens.
func nvrtcStatus() string {
	major, minor, err := cuda.NVRTCVersion()
	if err != nil {
		return "NVRTC: " + err.Error() + " (no native kernel can run)"
	}
	return fmt.Sprintf("NVRTC %d.%d: ok", major, minor)
}

func cudaStatus() []DeviceStatus {
	devs, err := cuda.Devices()
	if err == nil && len(devs) == 0 {
		err = fmt.Errorf("%w: the CUDA driver reports no GPU", ErrNoDevice)
	}
	if err != nil {
		return []DeviceStatus{{Spec: "cuda", Kind: CUDA, Err: err}}
	}
	libs := func(name string, probe func() error) string {
		if err := probe(); err != nil {
			return name + ": " + err.Error()
		}
		return name + ": ok"
	}
	var list []DeviceStatus
	for _, d := range devs {
		list = append(list, DeviceStatus{
			Spec: fmt.Sprintf("cuda:%d", d.Ordinal), Kind: CUDA, Name: d.Name,
			Details: []string{
				fmt.Sprintf("compute capability %d.%d (%s), %d SMs", d.CCMajor, d.CCMinor, d.Arch(), d.SMs),
				fmt.Sprintf("%.1f GiB memory, %d MiB L2", float64(d.MemoryBytes)/(1<<30), d.L2Bytes>>20),
				fmt.Sprintf("driver supports CUDA %d.%d", d.DriverVersion/1000, d.DriverVersion%1000/10),
				libs("cuBLAS", cuda.CUBLASAvailable),
				libs("cuSOLVER", cuda.CUSOLVERAvailable),
				nvrtcStatus(),
			},
		})
	}
	return list
}

// gpuQueue is a CUDA stream with its own vendor handles. Scratch memory an
// op takes is released only after the stream has drained (at Wait), because
// the device pool hands a freed block to the next caller at once and that
// caller may be on another stream.
type gpuQueue struct {
	g      *gpuDevice
	stream *cuda.Stream
	blas   *cuda.BLAS
	solver *cuda.Solver
	side   *cholblocked.Side // the blocked Cholesky's look-ahead stream, made on first use

	mu      sync.Mutex
	scratch []cuda.DevicePtr
	checks  []infoCheck
}

// infoCheck is a status array that Wait inspects for ops given no Info.
type infoCheck struct {
	op    string
	info  cuda.DevicePtr
	count int
}

func newGPUQueue(d *Device) (*gpuQueue, error) {
	s, err := d.gpu.ctx.NewStream()
	if err != nil {
		return nil, fmt.Errorf("batchlas: NewQueue on %v: %w", d, err)
	}
	return &gpuQueue{g: d.gpu, stream: s}, nil
}

func (g *gpuQueue) blasHandle() (*cuda.BLAS, error) {
	if g.blas == nil {
		b, err := cuda.NewBLAS(g.g.ctx, g.stream)
		if err != nil {
			return nil, err
		}
		g.blas = b
	}
	return g.blas, nil
}

func (g *gpuQueue) solverHandle() (*cuda.Solver, error) {
	if g.solver == nil {
		s, err := cuda.NewSolver(g.g.ctx, g.stream)
		if err != nil {
			return nil, err
		}
		g.solver = s
	}
	return g.solver, nil
}

// sideStreams is a second stream and a cuBLAS handle on it, for the
// blocked Cholesky's look-ahead (cholblocked.Options.Side). Its work is
// always joined back into the queue's stream, so Wait needs only that one.
func (g *gpuQueue) sideStreams() (*cholblocked.Side, error) {
	if g.side == nil {
		s, err := g.g.ctx.NewStream()
		if err != nil {
			return nil, err
		}
		b, err := cuda.NewBLAS(g.g.ctx, s)
		if err != nil {
			return nil, errors.Join(err, s.Destroy())
		}
		g.side = &cholblocked.Side{Stream: s, BLAS: b}
	}
	return g.side, nil
}

// alloc takes scratch memory that lives until the queue next drains.
func (g *gpuQueue) alloc(bytes int64) (cuda.DevicePtr, error) {
	p, err := g.g.ctx.Alloc(bytes)
	if err != nil {
		return 0, err
	}
	g.mu.Lock()
	g.scratch = append(g.scratch, p)
	g.mu.Unlock()
	return p, nil
}

// pendingChecks is how many status checks Wait has to make so far.
func (g *gpuQueue) pendingChecks() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.checks)
}

// dropChecks forgets the status checks added after the first n (a Queue is
// used from one goroutine at a time, so they are the last op's).
func (g *gpuQueue) dropChecks(n int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if n < len(g.checks) {
		g.checks = g.checks[:n]
	}
}

// drained releases scratch and inspects pending statuses; the stream must
// have finished.
func (g *gpuQueue) drained(q *Queue) error {
	g.mu.Lock()
	scratch, checks := g.scratch, g.checks
	g.scratch, g.checks = nil, nil
	g.mu.Unlock()
	var errs []error
	for _, c := range checks {
		v := make([]int32, c.count)
		if err := cuda.Download(g.stream, v, c.info); err != nil {
			errs = append(errs, err)
			continue
		}
		q.fail(c.op, failures(c.op, v))
	}
	for _, p := range scratch {
		g.g.ctx.Free(p)
	}
	return errors.Join(errs...)
}

func (g *gpuQueue) wait(q *Queue) error {
	if err := g.stream.Synchronize(); err != nil {
		return fmt.Errorf("batchlas: %v: %w", q.dev, err)
	}
	return g.drained(q)
}

func (g *gpuQueue) close() error {
	var errs []error
	if g.blas != nil {
		errs = append(errs, g.blas.Close())
	}
	if g.solver != nil {
		errs = append(errs, g.solver.Close())
	}
	if g.side != nil {
		errs = append(errs, g.side.BLAS.Close(), g.side.Stream.Destroy())
	}
	errs = append(errs, g.stream.Destroy())
	return errors.Join(errs...)
}

type gpuMemory struct {
	ptr   cuda.DevicePtr
	bytes int64
}

// allocGPU allocates zeroed device memory (NewBatch promises zeros).
func allocGPU(dev *Device, bytes int64) (gpuMemory, error) {
	g := dev.gpu
	p, err := g.ctx.Alloc(bytes)
	if err != nil {
		return gpuMemory{}, err
	}
	g.initOnce.Do(func() { g.init, g.initErr = g.ctx.NewStream() })
	if g.initErr != nil {
		g.ctx.Free(p)
		return gpuMemory{}, g.initErr
	}
	g.initMu.Lock()
	defer g.initMu.Unlock()
	if err := cuda.Memset(g.init, p, 0, bytes); err != nil {
		g.ctx.Free(p)
		return gpuMemory{}, err
	}
	if err := g.init.Synchronize(); err != nil {
		g.ctx.Free(p)
		return gpuMemory{}, err
	}
	return gpuMemory{ptr: p, bytes: bytes}, nil
}

func (m gpuMemory) free(dev *Device) { dev.gpu.ctx.Free(m.ptr) }

// idle waits for all work queued on the device, before memory that it may
// still use goes back to the pool. A sticky device error fails the wait;
// the memory goes back all the same (nothing will run on it again).
func (g *gpuDevice) idle() { _ = g.ctx.Synchronize() }

// devPtr is the device address of element (0, 0) of matrix 0.
func (b *Batch[T]) devPtr() cuda.DevicePtr {
	return b.mem.gpu.ptr.Add(int64(b.off) * int64(sizeOf[T]()))
}

// packed reports whether b has no padding between columns or matrices.
func (b *Batch[T]) packed() bool {
	return b.ld == b.rows && (b.count <= 1 || b.stride == b.rows*b.cols)
}

// gpuUpload copies packed host data into b: in one copy when b is packed,
// else through a packed scratch buffer and a strided device copy.
func gpuUpload[T Scalar](q *Queue, b *Batch[T], host []T) error {
	if len(host) == 0 {
		return nil
	}
	if b.packed() {
		return cuda.Upload(q.gpu.stream, b.devPtr(), host)
	}
	tmp, err := q.gpu.alloc(int64(len(host)) * int64(sizeOf[T]()))
	if err != nil {
		return fmt.Errorf("batchlas: Upload: %w", err)
	}
	if err := cuda.Upload(q.gpu.stream, tmp, host); err != nil {
		return fmt.Errorf("batchlas: Upload: %w", err)
	}
	return copyBatch[T](q, tmp, b.rows, int64(b.rows*b.cols), b.devPtr(), b.ld, int64(b.stride), b.rows, b.cols, b.count)
}

func gpuDownload[T Scalar](q *Queue, b *Batch[T], host []T) error {
	if len(host) == 0 {
		return nil
	}
	src := b.devPtr()
	if !b.packed() {
		tmp, err := q.gpu.alloc(int64(len(host)) * int64(sizeOf[T]()))
		if err != nil {
			return fmt.Errorf("batchlas: Download: %w", err)
		}
		if err := copyBatch[T](q, b.devPtr(), b.ld, int64(b.stride), tmp, b.rows, int64(b.rows*b.cols), b.rows, b.cols, b.count); err != nil {
			return err
		}
		src = tmp
	}
	if err := cuda.Download(q.gpu.stream, host, src); err != nil {
		return fmt.Errorf("batchlas: Download: %w", err)
	}
	return nil
}

// copyBatch queues a strided copy of count rows×cols matrices.
func copyBatch[T Scalar](q *Queue, a cuda.DevicePtr, lda int, strideA int64, b cuda.DevicePtr, ldb int, strideB int64, rows, cols, count int) error {
	return copyPart[T](q, cuda.CopyAll, cuda.RestKeep, a, lda, strideA, b, ldb, strideB, rows, cols, count)
}

func copyPart[T Scalar](q *Queue, part cuda.CopyPart, rest cuda.CopyRest, a cuda.DevicePtr, lda int, strideA int64, b cuda.DevicePtr, ldb int, strideB int64, rows, cols, count int) error {
	return cuda.CopyMatrices[T](q.gpu.stream, cuda.MatrixCopy{
		Rows: rows, Cols: cols, Count: count,
		A: a, LDA: lda, StrideA: strideA,
		B: b, LDB: ldb, StrideB: strideB,
		Part: part, Rest: rest,
	})
}

func gpuRawUpload[T Scalar](q *Queue, b *Batch[T], span []T) error {
	return cuda.Upload(q.gpu.stream, b.devPtr(), span)
}

func gpuRawDownload[T Scalar](q *Queue, b *Batch[T], span []T) error {
	return cuda.Download(q.gpu.stream, span, b.devPtr())
}

func gpuDownloadInt32(q *Queue, m gpuMemory, n int) ([]int32, error) {
	v := make([]int32, n)
	if n == 0 {
		return v, nil
	}
	return v, cuda.Download(q.gpu.stream, v, m.ptr)
}

func gpuUploadInt32(q *Queue, m gpuMemory, values []int32) error {
	if len(values) == 0 {
		return nil
	}
	return cuda.Upload(q.gpu.stream, m.ptr, values)
}
