package batchlas

import (
	"fmt"
	"strings"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cuda"
	"github.com/batchlas/batchlas/internal/gpu/cholblocked"
	"github.com/batchlas/batchlas/internal/gpu/fixup"
	"github.com/batchlas/batchlas/internal/gpu/posv"
	"github.com/batchlas/batchlas/internal/gpu/potrf"
	"github.com/batchlas/batchlas/internal/route"
)

// The vendor arm of every op on a GPU: cuBLAS and cuSOLVER batched routines
// where they exist, compositions of them (commented) where they do not, and
// small fixup passes so the per-matrix contract holds: statuses per matrix,
// a failed matrix keeps its right-hand side, the other triangle untouched.
//
// Each function runs after the public op has validated its arguments; it
// queues work on q's stream and returns enqueue errors only.

// pointerArray returns b's cached device array of matrix pointers, building
// it on first use. It is built on the device's own stream and waited for,
// so every queue can use it at once.
func pointerArray[T Scalar](b *Batch[T]) (cuda.DevicePtr, error) {
	m := b.mem
	key := pointerKey{b.off, b.stride, b.count}
	m.mu.Lock()
	defer m.mu.Unlock()
	if pa, ok := m.pointers[key]; ok {
		return pa.Ptr, nil
	}
	g := m.dev.gpu
	g.initMu.Lock()
	defer g.initMu.Unlock()
	pa, err := cuda.PointerArrayOf[T](g.init, b.devPtr(), b.count, int64(b.stride))
	if err == nil {
		err = g.init.Synchronize()
	}
	if err != nil {
		return 0, err
	}
	if m.pointers == nil {
		m.pointers = map[pointerKey]*cuda.PointerArray{}
	}
	m.pointers[key] = pa
	return pa.Ptr, nil
}

// scratchBatch is a packed rows×cols×count device buffer on q's scratch.
type scratchBatch struct {
	ptr        cuda.DevicePtr
	rows, cols int
	count      int
	elem       int64
}

func (s scratchBatch) stride() int64 { return int64(s.rows) * int64(s.cols) }

func (s scratchBatch) layout() fixup.Layout {
	return fixup.Layout{Ptr: s.ptr, LD: max(1, s.rows), Stride: s.stride()}
}

func newScratch[T Scalar](q *Queue, rows, cols, count int) (scratchBatch, error) {
	elem := int64(sizeOf[T]())
	p, err := q.gpu.alloc(int64(rows) * int64(cols) * int64(count) * elem)
	return scratchBatch{ptr: p, rows: rows, cols: cols, count: count, elem: elem}, err
}

// pointers builds a pointer array for a scratch batch, on q's stream.
func (s scratchBatch) pointers(q *Queue) (cuda.DevicePtr, error) {
	host := make([]uint64, s.count)
	for i := range host {
		host[i] = uint64(s.ptr) + uint64(i)*uint64(s.stride()*s.elem)
	}
	p, err := q.gpu.alloc(int64(8 * s.count))
	if err != nil {
		return 0, err
	}
	return p, cuda.Upload(q.gpu.stream, p, host)
}

// saveBatch copies b into fresh scratch.
func saveBatch[T Scalar](q *Queue, b *Batch[T]) (scratchBatch, error) {
	s, err := newScratch[T](q, b.rows, b.cols, b.count)
	if err != nil {
		return s, err
	}
	return s, copyBatch[T](q, b.devPtr(), b.ld, int64(b.stride), s.ptr, max(1, b.rows), s.stride(), b.rows, b.cols, b.count)
}

func (b *Batch[T]) fixupLayout() fixup.Layout {
	return fixup.Layout{Ptr: b.devPtr(), LD: b.ld, Stride: int64(b.stride)}
}

// statuses returns where an op writes its per-matrix statuses, zeroed on
// q's stream: the caller's Info, or scratch that Wait turns into a
// *FailedError.
func statuses(q *Queue, op string, info *Info, count int) (cuda.DevicePtr, error) {
	return statusesFor(q, op, info, count, true)
}

// statusesFor is statuses, zeroing them only when zero is set: for a
// kernel that stores every matrix's status, success included.
func statusesFor(q *Queue, op string, info *Info, count int, zero bool) (cuda.DevicePtr, error) {
	if count == 0 {
		return 0, nil
	}
	var p cuda.DevicePtr
	if info != nil {
		p = info.gpu.ptr
	} else {
		var err error
		if p, err = q.gpu.alloc(4 * int64(count)); err != nil {
			return 0, err
		}
		q.gpu.mu.Lock()
		q.gpu.checks = append(q.gpu.checks, infoCheck{op: op, info: p, count: count})
		q.gpu.mu.Unlock()
	}
	if !zero {
		return p, nil
	}
	return p, cuda.MemsetD32(q.gpu.stream, p, 0, int64(count))
}

// gpuRun wraps an op's GPU arm: a canceled queue skips the work, and an
// enqueue error names the op. An op that returns an error leaves no status
// check for Wait: its scratch statuses may never have been written (the
// candidates that store every status skip the memset), and the error says
// what went wrong already.
func gpuRun(q *Queue, op string, run func() error) error {
	if q.canceled(op) {
		return nil
	}
	checks := q.gpu.pendingChecks()
	if err := run(); err != nil {
		q.gpu.dropChecks(checks)
		return fmt.Errorf("batchlas: %s on %v: %w", op, q.dev, err)
	}
	return nil
}

// storesEveryStatus lists the Potrf candidates whose kernel stores info
// for every matrix, 0 on success, so the call needs no memset of it first: in the suite's back-to-back calls the memset cost 1.0–2.5 µs a
// call on the H200 at n = 32…128 (TestCallOverhead;
// bench/results/h200/session14/). TestStatusesWritten holds each of them to it.
// The tiled driver's kernel stores each matrix's status from its first
// diagonal tile on (cholblocked's TestPotrfTiled starts from a sentinel in
// info); its saving is not timed yet (TestCallOverhead's tiled cases).
var storesEveryStatus = map[string]bool{
	"native:tiny": true, "native:warp": true, "native:cta": true,
	"native:tiled": true, "native:tiled:prec=tf32x3": true, "native:tiled:occ=4": true, "native:tiled:occ=4:prec=tf32x3": true,
	"native:tiled:occ=3:prec=tf32x3": true,
}

// posvStoresEveryStatus is storesEveryStatus for Posv: native:fused's
// kernels (internal/gpu/posv's Posv, every path it takes) store every
// matrix's status, as that package's TestPosv and TestPosvApart check with
// a sentinel in info. The saving was not timed for Posv (Potrf's above).
var posvStoresEveryStatus = map[string]bool{"native:fused": true}

// gpuPotrf runs candidate name ("" for empty work).
func gpuPotrf[T Scalar](q *Queue, name string, uplo Uplo, a *Batch[T], info *Info) error {
	return gpuRun(q, "Potrf", func() error {
		st, err := statusesFor(q, "Potrf", info, a.count, a.rows == 0 || !storesEveryStatus[name])
		if err != nil || a.count == 0 || a.rows == 0 {
			return err
		}
		return potrfFactor(q, name, uplo, a, st)
	})
}

// redoneInFloat64 reports whether Potrf's candidate name has the matrices
// it fails factored again in float64 (potrfFactor): the blocked driver
// with TF32 tensor-core products from cuBLAS (float32 only). The tiled
// driver's own split products (native:tiled:prec=tf32x3) are not redone:
// on low rank + shift·I at n = 1024…4096, shifts 10⁻⁴…3·10⁻⁶, they failed
// exactly where its exact twin did (TestPotrfTensorFailures; session 16).
func redoneInFloat64(name string) bool {
	return strings.HasPrefix(name, "native:blocked") && strings.Contains(name, ":prec=tf32")
}

// redoFailedInFloat64 is turned off only by tests that show what the
// tensor-core candidates report without it (-potrf.noredo).
var redoFailedInFloat64 = true

// potrfFactor queues Potrf's GPU candidate name on a non-empty batch. A
// candidate redoneInFloat64 then waits for its statuses and factors every
// matrix it failed again in float64, from a copy of the triangle taken
// first, narrowing the factor back into A. cuBLAS's TF32 products of a
// hi/lo split carry about 2⁻²¹ of relative error against float32's 2⁻²⁴,
// enough to report a matrix not positive definite that float32 arithmetic
// factors: GPU MODE's low rank F·Fᵀ/64 + 10⁻⁴·I at n = 4096, which our
// other drivers and cuSOLVER factor (bench/results/h200/session16/).
// Refactored in float64 such a matrix gets the most accurate float32
// factor there is, and a matrix that is not positive definite the info
// float64 finds. The copy and the wait cost 0.4–3.7 % on the H200 where
// the tables choose these candidates (TestPotrfRedoCost), and the queue's
// asynchrony for these calls.
func potrfFactor[T Scalar](q *Queue, name string, uplo Uplo, a *Batch[T], st cuda.DevicePtr) error {
	if !redoneInFloat64(name) || !redoFailedInFloat64 {
		return potrfArm(q, name, uplo, a, st)
	}
	n, count := a.rows, a.count
	saved, err := newScratch[T](q, n, n, count)
	if err != nil {
		return err
	}
	part := cuda.CopyLower
	if uplo == Upper {
		part = cuda.CopyUpper
	}
	if err := copyPart[T](q, part, cuda.RestKeep, a.devPtr(), a.ld, int64(a.stride), saved.ptr, n, saved.stride(), n, n, count); err != nil {
		return err
	}
	if err := potrfArm(q, name, uplo, a, st); err != nil {
		return err
	}
	v, err := gpuDownloadInt32(q, gpuMemory{ptr: st}, count)
	if err != nil {
		return err
	}
	var failed []int32
	for i, s := range v {
		if s != 0 {
			failed = append(failed, int32(i))
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return potrfWide(q, uplo, a, saved, st, failed)
}

// potrfWide factors the float32 matrices failed of a again in float64,
// from their triangles in saved (packed): gathered and widened, factored by
// the float64 candidate the tables choose (no pins), narrowed back into a,
// their statuses scattered into st.
func potrfWide[T Scalar](q *Queue, uplo Uplo, a *Batch[T], saved scratchBatch, st cuda.DevicePtr, failed []int32) error {
	if _, ok := any(*new(T)).(float32); !ok {
		return fmt.Errorf("%w: Potrf refactors float32 batches in float64, not %s ones", ErrUnsupported, core.TypeName[T]())
	}
	n, k := a.rows, len(failed)
	index, err := q.gpu.alloc(4 * int64(k))
	if err != nil {
		return err
	}
	if err := gpuUploadInt32(q, gpuMemory{ptr: index}, failed); err != nil {
		return err
	}
	w, err := newScratch[float64](q, n, n, k)
	if err != nil {
		return err
	}
	wide := &Batch[float64]{mem: &memory[float64]{dev: q.dev, gpu: gpuMemory{ptr: w.ptr, bytes: 8 * int64(n) * int64(n) * int64(k)}, size: n * n * k},
		rows: n, cols: n, ld: n, stride: n * n, count: k}
	lower := uplo == Lower
	s := q.gpu.stream
	if err := fixup.CastPart[float32, float64](s, saved.layout(), index, wide.fixupLayout(), 0, n, k, lower); err != nil {
		return err
	}
	name, err := choose[float64](q, "Potrf", route.Call{Uplo: route.UploKey(uplo), N: n, Batch: k}, []CallOption{Route("auto")})
	if err != nil {
		return err
	}
	st64, err := q.gpu.alloc(4 * int64(k))
	if err != nil {
		return err
	}
	if !storesEveryStatus[name] {
		if err := cuda.MemsetD32(s, st64, 0, int64(k)); err != nil {
			return err
		}
	}
	if err := potrfArm(q, name, uplo, wide, st64); err != nil {
		return err
	}
	if err := fixup.CastPart[float64, float32](s, wide.fixupLayout(), 0, a.fixupLayout(), index, n, k, lower); err != nil {
		return err
	}
	if err := fixup.ScatterInfo(s, st64, index, k, st); err != nil {
		return err
	}
	// A vendor candidate built pointer arrays for wide, which lives only
	// in the queue's scratch: free them once the stream is done with them.
	err = s.Synchronize()
	wide.mem.freePointers()
	return err
}

// potrfArm queues Potrf's GPU candidate name on a non-empty batch, with
// the statuses at st.
func potrfArm[T Scalar](q *Queue, name string, uplo Uplo, a *Batch[T], st cuda.DevicePtr) error {
	switch name {
	case "native:tiny":
		return potrf.Potrf[T](q.gpu.stream, uplo, a.rows, a.devPtr(), a.ld, int64(a.stride), a.count, st)
	case "native:warp":
		return potrf.PotrfWarp[T](q.gpu.stream, uplo, a.rows, a.devPtr(), a.ld, int64(a.stride), a.count, st)
	case "native:cta":
		return potrf.PotrfCTA[T](q.gpu.stream, uplo, a.rows, a.devPtr(), a.ld, int64(a.stride), a.count, st)
	case "native:tiled":
		return tiledPotrf(q, uplo, a, st, cholblocked.TiledOptions{})
	case "native:tiled:prec=tf32x3":
		return tiledPotrf(q, uplo, a, st, cholblocked.TiledOptions{Precision: cholblocked.Split3TF32})
	case "native:tiled:occ=4":
		return tiledPotrf(q, uplo, a, st, cholblocked.TiledOptions{Occupancy: 4})
	case "native:tiled:occ=4:prec=tf32x3":
		return tiledPotrf(q, uplo, a, st, cholblocked.TiledOptions{Precision: cholblocked.Split3TF32, Occupancy: 4})
	case "native:tiled:occ=3:prec=tf32x3":
		return tiledPotrf(q, uplo, a, st, cholblocked.TiledOptions{Precision: cholblocked.Split3TF32, Occupancy: 3})
	case "native:blocked":
		return blockedPotrf(q, uplo, a, st, cholblocked.Options{})
	case "native:blocked:prec=tf32x3":
		return blockedPotrf(q, uplo, a, st, cholblocked.Options{Precision: cholblocked.Split3TF32})
	case "native:blocked:panels=tiled:prec=tf32x3":
		return blockedPotrf(q, uplo, a, st, cholblocked.Options{Precision: cholblocked.Split3TF32, TiledPanels: true})
	case "native:blocked:prec=tf32":
		return blockedPotrf(q, uplo, a, st, cholblocked.Options{Precision: cholblocked.TF32})
	case "native:blocked:panels=tiled:prec=tf32":
		return blockedPotrf(q, uplo, a, st, cholblocked.Options{Precision: cholblocked.TF32, TiledPanels: true})
	case "vendor":
		return vendorPotrf(q, uplo, a, st)
	case "vendor:loop":
		return vendorPotrfLoop(q, uplo, a, st)
	case "vendor:transposed":
		return vendorPotrfTransposed(q, uplo, a, st)
	}
	return fmt.Errorf("%w: no GPU arm for candidate %q", ErrUnsupported, name)
}

// blockedPotrf factors with the native blocked driver, whose products are
// cuBLAS calls on q's handle; its scratch is freed at Wait.
func blockedPotrf[T Scalar](q *Queue, uplo Uplo, a *Batch[T], st cuda.DevicePtr, opt cholblocked.Options) error {
	h, err := q.gpu.blasHandle()
	if err != nil {
		return err
	}
	if lookAhead(cuda.DTypeOf[T](), a.rows, a.count, opt) {
		if side, err := q.gpu.sideStreams(); err == nil { // without one, the driver runs on one stream
			opt.Side = side
		}
	}
	bytes, err := cholblocked.WorkspaceSize(cuda.DTypeOf[T](), uplo, a.rows, a.count, opt)
	if err != nil {
		return err
	}
	ws, err := q.gpu.alloc(max(bytes, 1))
	if err != nil {
		return err
	}
	return cholblocked.Potrf[T](q.gpu.stream, h, uplo, a.rows, a.devPtr(), a.ld, int64(a.stride), a.count, st, cholblocked.Workspace{Ptr: ws, Bytes: bytes}, opt)
}

// tiledPotrf factors with the native one-launch tiled driver; its scratch
// (flags and the diagonal tiles' inverses) is freed at Wait.
func tiledPotrf[T Scalar](q *Queue, uplo Uplo, a *Batch[T], st cuda.DevicePtr, opt cholblocked.TiledOptions) error {
	bytes, err := cholblocked.TiledWorkspaceSize(cuda.DTypeOf[T](), a.rows, a.count)
	if err != nil {
		return err
	}
	ws, err := q.gpu.alloc(max(bytes, 1))
	if err != nil {
		return err
	}
	return cholblocked.PotrfTiled[T](q.gpu.stream, uplo, a.rows, a.devPtr(), a.ld, int64(a.stride), a.count, st,
		cholblocked.Workspace{Ptr: ws, Bytes: bytes}, opt)
}

// lookAhead reports whether the blocked driver overlaps its outer products
// with the panel chain on a second stream (cholblocked.Options.Side) where
// that was measured faster: float32, 1 to 4 matrices, exact at every order
// timed (n = 1024…32768: 6–15 % faster), 3xTF32 with two-level panels only
// (n ≥ 2048: 7–19 %; at n = 1024, one-level, 1009 → 1211 µs, slower);
// bench/results/h200/session7/lookahead-timing.log. Never with tiled
// panels, which were faster without the side stream at every order timed
// (H200, float32 Lower 3xTF32, one process, session 22 call 1; µs without
// and with it): n = 4096 at two matrices 2670 and 2848, 8192 at one 6480
// and 6976, 16384 at one 22912 and 24154 (and with panels of 256 at
// n = 16384, session 13: 28.8 and 30.1 ms). A smaller panel grid, to leave
// the side product room, was slower still (8192: 8312 µs on 66 blocks,
// against 264 by default).
func lookAhead(dt cuda.DType, n, count int, opt cholblocked.Options) bool {
	if dt != cuda.Float32 || count > 4 || opt.PanelWidth != 0 || opt.TiledPanels {
		return false
	}
	return opt.Precision == cholblocked.Exact || cholblocked.DefaultPanelWidth(dt, n) > cholblocked.InnerWidth(dt)
}

// vendorPotrfLoop factors each matrix with its own cuSOLVER Xpotrf call:
// for a few large matrices the single-matrix routine beats the batched one
// (perf-anchors §2 on the H200: n = 2048, 2 matrices: 1516 µs looped
// against 4007 batched).
//
// Unlike LAPACK, Xpotrf does not always factor a matrix with a +Inf pivot
// k: Lower (all four types) leaves NaN at L(k, k), complex Upper from
// n = 33 NaN in row k past it, so the matrix is reported failed where the
// CPU and the native tiers give info 0 and +Inf at (k, k): at k + 1 by the
// fix-up, or at a later minor Xpotrf itself names (on an H100, session 53:
// n = 65 and k = 32, info 65; n = 200 and k = 100, info 129). Every path
// that factors one matrix with Xpotrf shares it, vendor and
// vendor:transposed (which factors Lower) at one matrix too
// (TestRouteGPUInfinitePivot).
func vendorPotrfLoop[T Scalar](q *Queue, uplo Uplo, a *Batch[T], st cuda.DevicePtr) error {
	if err := xpotrfEach[T](q, uplo, a.rows, a.devPtr(), a.ld, int64(a.stride), a.count, st); err != nil {
		return err
	}
	return fixup.NaNInfo[T](q.gpu.stream, a.fixupLayout(), a.rows, a.count, st)
}

// xpotrfEach factors count n×n matrices with one cuSOLVER Xpotrf call each,
// matrix i at a + i·stride elements and its status at st + 4i. The calls run
// in stream order, so one workspace serves them all.
func xpotrfEach[T Scalar](q *Queue, uplo Uplo, n int, a cuda.DevicePtr, lda int, stride int64, count int, st cuda.DevicePtr) error {
	sv, err := q.gpu.solverHandle()
	if err != nil {
		return err
	}
	devBytes, hostBytes, err := cuda.XpotrfBufferSize[T](sv, uplo, n, a, lda)
	if err != nil {
		return err
	}
	work, err := q.gpu.alloc(max(devBytes, 1))
	if err != nil {
		return err
	}
	host := make([]byte, hostBytes)
	elem := cuda.DevicePtr(sizeOf[T]())
	for i := range count {
		m := a + cuda.DevicePtr(int64(i)*stride)*elem
		if err := cuda.Xpotrf[T](sv, uplo, n, m, lda, work, devBytes, host, st+cuda.DevicePtr(4*i)); err != nil {
			return err
		}
	}
	return nil
}

// vendorPotrfTransposed factors Upper matrices as cuSOLVER's Lower on a
// conjugate-transposed copy (Aᴴ = Uᴴ·U's transpose is L·Lᴴ with L = Uᴴ),
// then writes the factor back into the upper triangle only: cuSOLVER's
// Upper path measured up to 3× slower than its Lower one on the H200.
func vendorPotrfTransposed[T Scalar](q *Queue, uplo Uplo, a *Batch[T], st cuda.DevicePtr) error {
	if uplo != Upper {
		return fmt.Errorf("%w: vendor:transposed factors Upper matrices", ErrUnsupported)
	}
	n := a.rows
	lower, err := newScratch[T](q, n, n, a.count)
	if err != nil {
		return err
	}
	if err := cuda.TransposeMatrices[T](q.gpu.stream, cuda.MatrixTranspose{Rows: n, Cols: n, Count: a.count,
		A: a.devPtr(), LDA: a.ld, StrideA: int64(a.stride), B: lower.ptr, LDB: n, StrideB: lower.stride()}); err != nil {
		return err
	}
	if a.count == 1 {
		err = xpotrfEach[T](q, Lower, n, lower.ptr, n, lower.stride(), 1, st)
	} else {
		err = potrfBatchedScratch[T](q, lower, st)
	}
	if err != nil {
		return err
	}
	if err := fixup.NaNInfo[T](q.gpu.stream, lower.layout(), n, a.count, st); err != nil {
		return err
	}
	return cuda.TransposeMatrices[T](q.gpu.stream, cuda.MatrixTranspose{Rows: n, Cols: n, Count: a.count,
		A: lower.ptr, LDA: n, StrideA: lower.stride(), B: a.devPtr(), LDB: a.ld, StrideB: int64(a.stride), Part: cuda.CopyUpper})
}

// potrfBatchedScratch factors the Lower triangles of a scratch batch with
// cuSOLVER's batched call.
func potrfBatchedScratch[T Scalar](q *Queue, s scratchBatch, st cuda.DevicePtr) error {
	sv, err := q.gpu.solverHandle()
	if err != nil {
		return err
	}
	pa, err := s.pointers(q)
	if err != nil {
		return err
	}
	return cuda.PotrfBatched[T](sv, Lower, s.rows, pa, s.rows, st, s.count)
}

// vendorPotrf factors with cuSOLVER: the 64-bit single-matrix call for one
// matrix (torch's batch-1 path, faster than the batched call there), the
// batched call otherwise.
func vendorPotrf[T Scalar](q *Queue, uplo Uplo, a *Batch[T], st cuda.DevicePtr) error {
	sv, err := q.gpu.solverHandle()
	if err != nil {
		return err
	}
	if a.count == 1 {
		return vendorPotrfLoop(q, uplo, a, st)
	}
	pa, err := pointerArray(a)
	if err != nil {
		return err
	}
	if uplo == Lower {
		if err := cuda.PotrfBatched[T](sv, uplo, a.rows, pa, a.ld, st, a.count); err != nil {
			return err
		}
		return fixup.NaNInfo[T](q.gpu.stream, a.fixupLayout(), a.rows, a.count, st)
	}
	// The batched call with Upper writes the strict lower triangle too
	// (seen on cuSOLVER 12.0.4, H200); LAPACK leaves it alone, so keep a copy.
	lower, err := newScratch[T](q, a.rows, a.cols, a.count)
	if err != nil {
		return err
	}
	keep := func(src, dst fixup.Layout) error {
		return copyPart[T](q, cuda.CopyStrictLower, cuda.RestKeep, src.Ptr, src.LD, src.Stride, dst.Ptr, dst.LD, dst.Stride, a.rows, a.cols, a.count)
	}
	if err := keep(a.fixupLayout(), lower.layout()); err != nil {
		return err
	}
	if err := cuda.PotrfBatched[T](sv, uplo, a.rows, pa, a.ld, st, a.count); err != nil {
		return err
	}
	if err := fixup.NaNInfo[T](q.gpu.stream, a.fixupLayout(), a.rows, a.count, st); err != nil {
		return err
	}
	return keep(lower.layout(), a.fixupLayout())
}

// gpuPotrs runs candidate name ("" for empty work).
func gpuPotrs[T Scalar](q *Queue, name string, uplo Uplo, a, b *Batch[T]) error {
	return gpuRun(q, "Potrs", func() error {
		if a.count == 0 || a.rows == 0 || b.cols == 0 {
			return nil
		}
		if name == "native:fused" {
			return posv.Potrs[T](q.gpu.stream, uplo, a.rows, b.cols, a.devPtr(), a.ld, int64(a.stride), b.devPtr(), b.ld, int64(b.stride), a.count)
		}
		return vendorPotrs(q, uplo, a, b)
	})
}

// blasOperands returns q's cuBLAS handle and the pointer arrays of a and b,
// what every batched cuBLAS call on two operands starts with.
func blasOperands[T Scalar](q *Queue, a, b *Batch[T]) (h *cuda.BLAS, pa, pb cuda.DevicePtr, err error) {
	if h, err = q.gpu.blasHandle(); err != nil {
		return nil, 0, 0, err
	}
	if pa, err = pointerArray(a); err != nil {
		return nil, 0, 0, err
	}
	pb, err = pointerArray(b)
	return h, pa, pb, err
}

// vendorPotrs solves with two batched triangular solves: cuSOLVER's batched
// potrs takes one right-hand side only, and PyTorch measured the two-TRSM
// form 5× faster than it (29.7 vs 157.6 µs, 16×16, 16 right-hand sides).
func vendorPotrs[T Scalar](q *Queue, uplo Uplo, a, b *Batch[T]) error {
	h, pa, pb, err := blasOperands(q, a, b)
	if err != nil {
		return err
	}
	first, second := NoTrans, ConjTrans // L·Lᴴ·X = B: L⁻¹ first
	if uplo == Upper {
		first, second = ConjTrans, NoTrans // Uᴴ·U·X = B: U⁻ᴴ first
	}
	for _, t := range []Transpose{first, second} {
		if err := cuda.TrsmBatched[T](h, Left, uplo, t, NonUnit, b.rows, b.cols, 1, pa, a.ld, pb, b.ld, a.count); err != nil {
			return err
		}
	}
	return nil
}

// gpuPosv runs candidate name ("" for empty work). The composed arms
// (vendor, native:composed) factor with a Potrf candidate, solve with
// cuBLAS, then put back B for the matrices whose factor failed (the
// substitution ran on them too).
func gpuPosv[T Scalar](q *Queue, name string, uplo Uplo, a, b *Batch[T], info *Info) error {
	// native:composed's factor is the native Potrf candidate the tables
	// rank first for this call; chosen before queueing anything.
	factor := "vendor"
	if name == "native:composed" {
		var err error
		factor, err = choose[T](q, "Potrf", route.Call{Uplo: route.UploKey(uplo), N: a.rows, Batch: a.count}, []CallOption{Route("native")})
		if err != nil {
			return fmt.Errorf("%w (the factor of Posv's native:composed)", err) // choose's error names the op
		}
	}
	return gpuRun(q, "Posv", func() error {
		st, err := statusesFor(q, "Posv", info, a.count, a.rows == 0 || !posvStoresEveryStatus[name])
		if err != nil || a.count == 0 || a.rows == 0 {
			return err
		}
		if name == "native:fused" {
			return posv.Posv[T](q.gpu.stream, uplo, a.rows, b.cols, a.devPtr(), a.ld, int64(a.stride), b.devPtr(), b.ld, int64(b.stride), a.count, st)
		}
		saved, err := saveBatch(q, b)
		if err != nil {
			return err
		}
		if err := potrfFactor(q, factor, uplo, a, st); err != nil {
			return err
		}
		if b.cols == 0 {
			return nil
		}
		if err := vendorPotrs(q, uplo, a, b); err != nil {
			return err
		}
		return fixup.RestoreFailed[T](q.gpu.stream, saved.layout(), b.fixupLayout(), b.rows, b.cols, b.count, st)
	})
}

func squareOnly[T Scalar](op string, a *Batch[T]) error {
	if a.rows != a.cols {
		return argErr(ErrUnsupported, op, "a", "is %d×%d: the GPU arm (cuBLAS) factors square matrices only", a.rows, a.cols)
	}
	return nil
}

func gpuGetrf[T Scalar](q *Queue, a *Batch[T], p *Pivots, info *Info) error {
	if err := squareOnly("Getrf", a); err != nil {
		return err
	}
	return gpuRun(q, "Getrf", func() error {
		st, err := statuses(q, "Getrf", info, a.count)
		if err != nil || a.count == 0 || a.rows == 0 {
			return err
		}
		return vendorGetrf(q, a, p.gpu.ptr, st)
	})
}

func vendorGetrf[T Scalar](q *Queue, a *Batch[T], pivots, st cuda.DevicePtr) error {
	h, err := q.gpu.blasHandle()
	if err != nil {
		return err
	}
	pa, err := pointerArray(a)
	if err != nil {
		return err
	}
	return cuda.GetrfBatched[T](h, a.rows, pa, a.ld, pivots, st, a.count)
}

func gpuGetrs[T Scalar](q *Queue, t Transpose, a *Batch[T], p *Pivots, b *Batch[T]) error {
	return gpuRun(q, "Getrs", func() error {
		if a.count == 0 || a.rows == 0 || b.cols == 0 {
			return nil
		}
		return vendorGetrs(q, t, a, p.gpu.ptr, b)
	})
}

func vendorGetrs[T Scalar](q *Queue, t Transpose, a *Batch[T], pivots cuda.DevicePtr, b *Batch[T]) error {
	h, pa, pb, err := blasOperands(q, a, b)
	if err != nil {
		return err
	}
	return cuda.GetrsBatched[T](h, t, a.rows, b.cols, pa, a.ld, pivots, pb, b.ld, a.count)
}

// gpuGetri inverts out of place, as cuBLAS does, from a saved copy of the
// factors into A; matrices with a zero pivot get their factors back.
func gpuGetri[T Scalar](q *Queue, a *Batch[T], p *Pivots, info *Info) error {
	return gpuRun(q, "Getri", func() error {
		st, err := statuses(q, "Getri", info, a.count)
		if err != nil || a.count == 0 || a.rows == 0 {
			return err
		}
		saved, err := saveBatch(q, a)
		if err != nil {
			return err
		}
		if err := vendorGetri(q, saved, p.gpu.ptr, a, st); err != nil {
			return err
		}
		return fixup.RestoreFailed[T](q.gpu.stream, saved.layout(), a.fixupLayout(), a.rows, a.cols, a.count, st)
	})
}

func vendorGetri[T Scalar](q *Queue, factors scratchBatch, pivots cuda.DevicePtr, c *Batch[T], st cuda.DevicePtr) error {
	h, err := q.gpu.blasHandle()
	if err != nil {
		return err
	}
	pf, err := factors.pointers(q)
	if err != nil {
		return err
	}
	pc, err := pointerArray(c)
	if err != nil {
		return err
	}
	return cuda.GetriBatched[T](h, c.rows, pf, max(1, factors.rows), pivots, pc, c.ld, st, c.count)
}

func gpuGesv[T Scalar](q *Queue, a *Batch[T], p *Pivots, b *Batch[T], info *Info) error {
	return gpuRun(q, "Gesv", func() error {
		st, err := statuses(q, "Gesv", info, a.count)
		if err != nil || a.count == 0 || a.rows == 0 {
			return err
		}
		var piv cuda.DevicePtr
		if p != nil {
			piv = p.gpu.ptr
		} else if piv, err = q.gpu.alloc(4 * int64(a.rows) * int64(a.count)); err != nil {
			return err
		}
		saved, err := saveBatch(q, b)
		if err != nil {
			return err
		}
		if err := vendorGetrf(q, a, piv, st); err != nil {
			return err
		}
		if b.cols == 0 {
			return nil
		}
		if err := vendorGetrs(q, NoTrans, a, piv, b); err != nil {
			return err
		}
		return fixup.RestoreFailed[T](q.gpu.stream, saved.layout(), b.fixupLayout(), b.rows, b.cols, b.count, st)
	})
}

// gpuInv factors a copy of A (A stays as it is) and inverts it into C;
// matrices with a zero pivot get the factors in C, as on the CPU.
func gpuInv[T Scalar](q *Queue, a, c *Batch[T], info *Info) error {
	return gpuRun(q, "Inv", func() error {
		st, err := statuses(q, "Inv", info, a.count)
		if err != nil || a.count == 0 || a.rows == 0 {
			return err
		}
		work, err := saveBatch(q, a)
		if err != nil {
			return err
		}
		piv, err := q.gpu.alloc(4 * int64(a.rows) * int64(a.count))
		if err != nil {
			return err
		}
		h, err := q.gpu.blasHandle()
		if err != nil {
			return err
		}
		pw, err := work.pointers(q)
		if err != nil {
			return err
		}
		if err := cuda.GetrfBatched[T](h, a.rows, pw, max(1, a.rows), piv, st, a.count); err != nil {
			return err
		}
		if err := vendorGetri(q, work, piv, c, st); err != nil {
			return err
		}
		return fixup.RestoreFailed[T](q.gpu.stream, work.layout(), c.fixupLayout(), c.rows, c.cols, c.count, st)
	})
}

func gpuGemm[T Scalar](q *Queue, ta, tb Transpose, alpha T, a, b *Batch[T], beta T, c *Batch[T]) error {
	return gpuRun(q, "Gemm", func() error {
		m, k := opDims(ta, a)
		if c.count == 0 || c.rows == 0 || c.cols == 0 {
			return nil
		}
		h, err := q.gpu.blasHandle()
		if err != nil {
			return err
		}
		return cuda.GemmStridedBatched[T](h, ta, tb, m, c.cols, k,
			alpha, a.devPtr(), a.ld, int64(a.stride), b.devPtr(), b.ld, int64(b.stride),
			beta, c.devPtr(), c.ld, int64(c.stride), c.count)
	})
}

func gpuTrsm[T Scalar](q *Queue, s Side, u Uplo, t Transpose, d Diag, alpha T, a, b *Batch[T]) error {
	return gpuRun(q, "Trsm", func() error {
		if b.count == 0 || b.rows == 0 || b.cols == 0 {
			return nil
		}
		var zero T
		if alpha == zero {
			// BLAS sets B to zero without reading A or B; cuBLAS reads them
			// (NaN in B stays NaN), so fill instead of calling it.
			return copyPart[T](q, cuda.CopyAll, cuda.RestZero, 0, 0, 0, b.devPtr(), b.ld, int64(b.stride), b.rows, b.cols, b.count)
		}
		h, pa, pb, err := blasOperands(q, a, b)
		if err != nil {
			return err
		}
		return cuda.TrsmBatched[T](h, s, u, t, d, b.rows, b.cols, alpha, pa, a.ld, pb, b.ld, b.count)
	})
}

// gpuTrmm has no batched vendor form (cuBLAS trmm takes one matrix), so it
// is composed as a batched product: the triangle of A, with zeros (and a
// unit diagonal for Unit) elsewhere, times a copy of B.
func gpuTrmm[T Scalar](q *Queue, s Side, u Uplo, t Transpose, d Diag, alpha T, a, b *Batch[T]) error {
	return gpuRun(q, "Trmm", func() error {
		if b.count == 0 || b.rows == 0 || b.cols == 0 {
			return nil
		}
		tri, err := newScratch[T](q, a.rows, a.cols, a.count)
		if err != nil {
			return err
		}
		part, rest := cuda.CopyLower, cuda.RestZero
		switch {
		case u == Lower && d == Unit:
			part, rest = cuda.CopyStrictLower, cuda.RestIdentity
		case u == Upper && d == NonUnit:
			part = cuda.CopyUpper
		case u == Upper && d == Unit:
			part, rest = cuda.CopyStrictUpper, cuda.RestIdentity
		}
		if err := copyPart[T](q, part, rest, a.devPtr(), a.ld, int64(a.stride), tri.ptr, max(1, a.rows), tri.stride(), a.rows, a.cols, a.count); err != nil {
			return err
		}
		src, err := saveBatch(q, b)
		if err != nil {
			return err
		}
		h, err := q.gpu.blasHandle()
		if err != nil {
			return err
		}
		var zero T
		ld := max(1, b.rows)
		if s == Left {
			return cuda.GemmStridedBatched[T](h, t, NoTrans, b.rows, b.cols, b.rows,
				alpha, tri.ptr, max(1, a.rows), tri.stride(), src.ptr, ld, src.stride(),
				zero, b.devPtr(), b.ld, int64(b.stride), b.count)
		}
		return cuda.GemmStridedBatched[T](h, NoTrans, t, b.rows, b.cols, b.cols,
			alpha, src.ptr, ld, src.stride(), tri.ptr, max(1, a.rows), tri.stride(),
			zero, b.devPtr(), b.ld, int64(b.stride), b.count)
	})
}

// gpuSyrk and gpuHerk have no batched vendor form either: the full product
// goes into a copy of C, and only its uplo triangle is copied back, so the
// other triangle of C is not touched.
func gpuSyrk[T Scalar](q *Queue, u Uplo, t Transpose, alpha T, a *Batch[T], beta T, c *Batch[T]) error {
	return gpuRun(q, "Syrk", func() error {
		second := Trans
		if t != NoTrans {
			t, second = Trans, NoTrans
		}
		return rankKUpdate(q, u, t, second, alpha, a, beta, c, false)
	})
}

func gpuHerk[T Scalar](q *Queue, u Uplo, t Transpose, alpha float64, a *Batch[T], beta float64, c *Batch[T]) error {
	return gpuRun(q, "Herk", func() error {
		second := ConjTrans
		if t != NoTrans {
			t, second = ConjTrans, NoTrans
		}
		return rankKUpdate(q, u, t, second, realScalar[T](alpha), a, realScalar[T](beta), c, true)
	})
}

func rankKUpdate[T Scalar](q *Queue, u Uplo, first, second Transpose, alpha T, a *Batch[T], beta T, c *Batch[T], hermitian bool) error {
	n, k := opDims(first, a)
	if c.count == 0 || n == 0 {
		return nil
	}
	work, err := saveBatch(q, c)
	if err != nil {
		return err
	}
	h, err := q.gpu.blasHandle()
	if err != nil {
		return err
	}
	if err := cuda.GemmStridedBatched[T](h, first, second, n, n, k,
		alpha, a.devPtr(), a.ld, int64(a.stride), a.devPtr(), a.ld, int64(a.stride),
		beta, work.ptr, n, work.stride(), c.count); err != nil {
		return err
	}
	if hermitian {
		if err := fixup.RealDiagonal[T](q.gpu.stream, work.layout(), n, c.count); err != nil {
			return err
		}
	}
	part := cuda.CopyLower
	if u == Upper {
		part = cuda.CopyUpper
	}
	return copyPart[T](q, part, cuda.RestKeep, work.ptr, n, work.stride(), c.devPtr(), c.ld, int64(c.stride), n, n, c.count)
}

// realScalar converts a real coefficient to T.
func realScalar[T Scalar](x float64) T {
	var z T
	switch p := any(&z).(type) {
	case *float32:
		*p = float32(x)
	case *float64:
		*p = x
	case *complex64:
		*p = complex(float32(x), 0)
	case *complex128:
		*p = complex(x, 0)
	}
	return z
}
