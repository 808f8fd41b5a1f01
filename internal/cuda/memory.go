package cuda

import (
	"errors"
	"fmt"
	"math/bits"
	"sync"
	"unsafe"

	"github.com/batchlas/batchlas/internal/core"
)

// ---- device memory pool ----

// minBlockBytes is the smallest block the pool hands out; the driver aligns
// every allocation to at least this anyway.
const minBlockBytes = 256

// sizeClass rounds n up to the pool's block size: a multiple of 256 bytes up
// to 1 KiB, above that one of four steps per power of two (1.25, 1.5, 1.75
// and 2 times the power below), so a block wastes at most a quarter of its
// size while a workload of varying shapes still reuses blocks. From 256 MiB
// on, a quarter is too much to waste: sizes round to the driver's 2 MiB pages.
func sizeClass(n int64) int64 {
	const page, large = 2 << 20, 256 << 20
	switch {
	case n <= 4*minBlockBytes:
		return (n + minBlockBytes - 1) / minBlockBytes * minBlockBytes
	case n > large:
		return (n + page - 1) / page * page
	}
	e := bits.Len64(uint64(n - 1)) // 2^(e-1) < n ≤ 2^e
	step := int64(1) << (e - 3)
	return (n + step - 1) / step * step
}

// PoolStats describes a context's device-memory pool.
type PoolStats struct {
	LiveBlocks, CachedBlocks int   // handed out; freed and kept for reuse
	LiveBytes, CachedBytes   int64 // the same in bytes (block sizes, not requests)
	DriverAllocs             int64 // cuMemAlloc calls that succeeded
	DriverFrees              int64 // blocks given back by Trim
	Reuses                   int64 // allocations served from the cache
}

type memoryPool struct {
	ctx   *Context
	mu    sync.Mutex
	free  map[int64][]DevicePtr // size class → cached blocks
	live  map[DevicePtr]int64   // block → size class
	stats PoolStats
}

func (p *memoryPool) init(c *Context) {
	p.ctx = c
	p.free = make(map[int64][]DevicePtr)
	p.live = make(map[DevicePtr]int64)
}

// Alloc returns a device block of at least bytes bytes from the context's
// pool: a block freed earlier of the same size class when there is one, so
// repeated work of one shape allocates nothing after its first call. Zero
// bytes gives a zero pointer. When the device is full the pool's cached
// blocks are released and the allocation tried once more; if it still fails
// the error wraps core.ErrOutOfMemory and the device stays usable.
//
// Blocks are reused at once by Free: work still queued on the device that
// uses a freed block must be on the same stream as the next user of the
// block, or finished.
func (c *Context) Alloc(bytes int64) (DevicePtr, error) {
	switch {
	case bytes < 0:
		return 0, fmt.Errorf("%w: cuda: Alloc of %d bytes", core.ErrArgument, bytes)
	case bytes == 0:
		return 0, nil
	case bytes > c.Device.MemoryBytes:
		return 0, fmt.Errorf("%w: cuda: %d bytes requested, %s has %d", core.ErrOutOfMemory, bytes, c.Device, c.Device.MemoryBytes)
	}
	class := sizeClass(bytes)
	p := &c.pool
	p.mu.Lock()
	if blocks := p.free[class]; len(blocks) > 0 {
		ptr := blocks[len(blocks)-1]
		p.free[class] = blocks[:len(blocks)-1]
		p.live[ptr] = class
		p.stats.Reuses++
		p.stats.CachedBlocks--
		p.stats.CachedBytes -= class
		p.stats.LiveBlocks++
		p.stats.LiveBytes += class
		p.mu.Unlock()
		return ptr, nil
	}
	p.mu.Unlock()

	ptr, err := c.driverAlloc(class)
	if errors.Is(err, StatusOutOfMemory) {
		if c.Trim() > 0 {
			ptr, err = c.driverAlloc(class)
		}
	}
	if err != nil {
		if errors.Is(err, StatusOutOfMemory) {
			return 0, fmt.Errorf("%w: cuda: allocating %d bytes on %s: %w", core.ErrOutOfMemory, bytes, c.Device, err)
		}
		return 0, fmt.Errorf("cuda: allocating %d bytes on %s: %w", bytes, c.Device, err)
	}
	p.mu.Lock()
	p.live[ptr] = class
	p.stats.DriverAllocs++
	p.stats.LiveBlocks++
	p.stats.LiveBytes += class
	p.mu.Unlock()
	return ptr, nil
}

func (c *Context) driverAlloc(bytes int64) (DevicePtr, error) {
	var ptr DevicePtr
	err := c.Do(func() error {
		return result(callp(c.d.cuMemAlloc, uintptr(unsafe.Pointer(&ptr)), uintptr(bytes)))
	})
	return ptr, err
}

// Free returns a block from Alloc to the pool for reuse. Zero, and a pointer
// the pool does not know (freed twice, or not from Alloc), are ignored.
func (c *Context) Free(ptr DevicePtr) {
	if ptr == 0 {
		return
	}
	p := &c.pool
	p.mu.Lock()
	defer p.mu.Unlock()
	class, ok := p.live[ptr]
	if !ok {
		return
	}
	delete(p.live, ptr)
	p.free[class] = append(p.free[class], ptr)
	p.stats.LiveBlocks--
	p.stats.LiveBytes -= class
	p.stats.CachedBlocks++
	p.stats.CachedBytes += class
}

// Trim gives every cached (freed) block back to the driver and returns the
// number of bytes released. Live blocks are untouched.
func (c *Context) Trim() int64 {
	p := &c.pool
	p.mu.Lock()
	cached := p.free
	p.free = make(map[int64][]DevicePtr)
	released := p.stats.CachedBytes
	p.stats.DriverFrees += int64(p.stats.CachedBlocks)
	p.stats.CachedBlocks, p.stats.CachedBytes = 0, 0
	p.mu.Unlock()
	if released == 0 {
		return 0
	}
	_ = c.Do(func() error {
		for _, blocks := range cached {
			for _, ptr := range blocks {
				// A failure here means the context is broken (sticky error);
				// the block is lost either way.
				call(c.d.cuMemFree, uintptr(ptr))
			}
		}
		return nil
	})
	return released
}

// PoolStats reports the pool's current state.
func (c *Context) PoolStats() PoolStats {
	c.pool.mu.Lock()
	defer c.pool.mu.Unlock()
	return c.pool.stats
}

// ---- page-locked host memory ----

// HostBuffer is page-locked (pinned) host memory, the only host memory an
// asynchronous copy may use. It is C memory: the Go garbage collector neither
// moves nor frees it, so it must be released with Free.
type HostBuffer struct {
	ctx  *Context
	ptr  unsafe.Pointer
	size int64
}

// AllocHost allocates bytes of page-locked host memory (cuMemAllocHost_v2),
// registered with this context for fast asynchronous copies.
func (c *Context) AllocHost(bytes int64) (*HostBuffer, error) {
	if bytes <= 0 {
		return nil, fmt.Errorf("%w: cuda: AllocHost of %d bytes", core.ErrArgument, bytes)
	}
	var ptr unsafe.Pointer
	err := c.Do(func() error {
		return result(callp(c.d.cuMemAllocHost, uintptr(unsafe.Pointer(&ptr)), uintptr(bytes)))
	})
	if err != nil {
		if errors.Is(err, StatusOutOfMemory) {
			return nil, fmt.Errorf("%w: cuda: allocating %d bytes of pinned host memory: %w", core.ErrOutOfMemory, bytes, err)
		}
		return nil, fmt.Errorf("cuda: allocating %d bytes of pinned host memory: %w", bytes, err)
	}
	return &HostBuffer{ctx: c, ptr: ptr, size: bytes}, nil
}

// Bytes views the buffer as a byte slice; it is valid until Free.
func (h *HostBuffer) Bytes() []byte { return unsafe.Slice((*byte)(h.ptr), h.size) }

// Len is the buffer's size in bytes.
func (h *HostBuffer) Len() int64 { return h.size }

// Pointer is the buffer's host address.
func (h *HostBuffer) Pointer() unsafe.Pointer { return h.ptr }

// Free releases the buffer; no copy may still be using it.
func (h *HostBuffer) Free() error {
	if h == nil || h.ptr == nil {
		return nil
	}
	err := h.ctx.Do(func() error { return result(call(h.ctx.d.cuMemFreeHost, uintptr(h.ptr))) })
	h.ptr, h.size = nil, 0
	if err != nil {
		return fmt.Errorf("cuda: freeing pinned host memory: %w", err)
	}
	return nil
}

// HostView views a pinned buffer as a slice of T (len = bytes / sizeof T).
func HostView[T any](h *HostBuffer) []T {
	var z T
	size := int64(unsafe.Sizeof(z))
	if size == 0 || h.ptr == nil {
		return nil
	}
	return unsafe.Slice((*T)(h.ptr), h.size/size)
}

// ---- staging: Go memory ↔ device through pinned chunks ----

// Staging chunks: 4 MiB is enough to keep a copy engine busy between two
// host-side memcpys, and 8 of them (32 MiB pinned per device) let several
// goroutines copy at once without pinning much memory.
const (
	stagingChunkBytes = 4 << 20
	maxStagingChunks  = 8
)

type stagingChunk struct {
	host    unsafe.Pointer
	done    *Event // recorded after the chunk's last copy
	busy    bool   // held by a copy in progress
	pending bool   // done was recorded and may not have completed
}

func (ch *stagingChunk) bytes() []byte { return unsafe.Slice((*byte)(ch.host), stagingChunkBytes) }

type stagingPool struct {
	ctx        *Context
	mu         sync.Mutex
	cond       sync.Cond
	chunks     []*stagingChunk
	allocating int
}

func (p *stagingPool) init(c *Context) {
	p.ctx = c
	p.cond.L = &p.mu
}

// acquire returns a chunk that no copy is using, growing the pool up to its
// cap and otherwise waiting for the oldest pending copy. With wait false it
// returns nil instead of waiting for another goroutine to release a chunk
// (a caller that already holds chunks must not wait: that could deadlock).
// Callers run inside Do.
func (p *stagingPool) acquire(wait bool) (*stagingChunk, error) {
	p.mu.Lock()
	for {
		for _, ch := range p.chunks {
			if !ch.busy && !ch.pending {
				ch.busy = true
				p.mu.Unlock()
				return ch, nil
			}
		}
		for _, ch := range p.chunks {
			if !ch.busy && ch.pending {
				if done, err := ch.done.doneLocked(); err == nil && done {
					ch.busy, ch.pending = true, false
					p.mu.Unlock()
					return ch, nil
				}
			}
		}
		if len(p.chunks)+p.allocating < maxStagingChunks {
			p.allocating++
			p.mu.Unlock()
			ch, err := p.newChunk()
			p.mu.Lock()
			p.allocating--
			if err != nil {
				p.cond.Broadcast()
				p.mu.Unlock()
				return nil, err
			}
			ch.busy = true
			p.chunks = append(p.chunks, ch)
			p.mu.Unlock()
			return ch, nil
		}
		for _, ch := range p.chunks {
			if !ch.busy && ch.pending {
				ch.busy = true
				p.mu.Unlock()
				if err := ch.done.synchronizeLocked(); err != nil {
					p.release(ch, true)
					return nil, err
				}
				ch.pending = false // only the holder touches a busy chunk
				return ch, nil
			}
		}
		if !wait {
			p.mu.Unlock()
			return nil, nil
		}
		p.cond.Wait()
	}
}

// release hands a chunk back; pending says its event was recorded after a
// copy that may still be running.
func (p *stagingPool) release(ch *stagingChunk, pending bool) {
	p.mu.Lock()
	ch.busy, ch.pending = false, pending
	p.cond.Broadcast()
	p.mu.Unlock()
}

func (p *stagingPool) newChunk() (*stagingChunk, error) {
	c := p.ctx
	var host unsafe.Pointer
	if err := result(callp(c.d.cuMemAllocHost, uintptr(unsafe.Pointer(&host)), stagingChunkBytes)); err != nil {
		return nil, fmt.Errorf("cuda: allocating a %d-byte pinned staging buffer: %w", stagingChunkBytes, err)
	}
	ev, err := c.NewSyncEvent()
	if err != nil {
		call(c.d.cuMemFreeHost, uintptr(host))
		return nil, err
	}
	return &stagingChunk{host: host, done: ev}, nil
}

func checkCopy(what string, s *Stream, bytes int64) error {
	if s == nil {
		return fmt.Errorf("%w: cuda: %s: nil stream", core.ErrArgument, what)
	}
	if bytes < 0 {
		return fmt.Errorf("%w: cuda: %s of %d bytes", core.ErrArgument, what, bytes)
	}
	return nil
}

// CopyHtoD copies bytes from Go (or any host) memory at src to the device at
// dst, in order on s. The data go through pinned staging chunks, so Go memory
// is never handed to an asynchronous copy; src may be reused as soon as
// CopyHtoD returns, while the device side completes in stream order.
func CopyHtoD(s *Stream, dst DevicePtr, src unsafe.Pointer, bytes int64) error {
	if err := checkCopy("CopyHtoD", s, bytes); err != nil || bytes == 0 {
		return err
	}
	host := unsafe.Slice((*byte)(src), bytes)
	c := s.ctx
	return c.Do(func() error {
		for off := int64(0); off < bytes; {
			ch, err := c.staging.acquire(true)
			if err != nil {
				return err
			}
			n := min(int64(stagingChunkBytes), bytes-off)
			copy(ch.bytes()[:n], host[off:off+n])
			if err := result(call(c.d.cuMemcpyHtoDAsync, uintptr(dst)+uintptr(off), uintptr(ch.host), uintptr(n), s.Handle)); err != nil {
				c.staging.release(ch, false)
				return fmt.Errorf("cuda: copying %d bytes to the device: %w", n, err)
			}
			if err := ch.done.recordLocked(s); err != nil {
				// Without the event the chunk's reuse cannot be ordered: wait.
				call(c.d.cuStreamSynchronize, s.Handle)
				c.staging.release(ch, false)
				return err
			}
			c.staging.release(ch, true)
			off += n
		}
		return nil
	})
}

// CopyDtoH copies bytes from the device at src to host memory at dst, in
// order on s, and returns when the data are in dst. Two staging chunks are in
// flight at a time, so the device→pinned copy of one overlaps the host copy
// out of the other.
func CopyDtoH(s *Stream, dst unsafe.Pointer, src DevicePtr, bytes int64) error {
	if err := checkCopy("CopyDtoH", s, bytes); err != nil || bytes == 0 {
		return err
	}
	host := unsafe.Slice((*byte)(dst), bytes)
	c := s.ctx
	type inFlight struct {
		ch     *stagingChunk
		off, n int64
	}
	return c.Do(func() error {
		var queue []inFlight
		finish := func(f inFlight) error {
			if err := f.ch.done.synchronizeLocked(); err != nil {
				c.staging.release(f.ch, true)
				return err
			}
			copy(host[f.off:f.off+f.n], f.ch.bytes()[:f.n])
			c.staging.release(f.ch, false)
			return nil
		}
		abandon := func(err error) error {
			for _, f := range queue {
				c.staging.release(f.ch, true)
			}
			return err
		}
		for off := int64(0); off < bytes; {
			var ch *stagingChunk
			var err error
			switch {
			case len(queue) == 0:
				ch, err = c.staging.acquire(true)
			case len(queue) < 2:
				ch, err = c.staging.acquire(false)
			}
			if err != nil {
				return abandon(err)
			}
			if ch == nil {
				f := queue[0]
				queue = queue[1:]
				if err := finish(f); err != nil {
					return abandon(err)
				}
				continue
			}
			n := min(int64(stagingChunkBytes), bytes-off)
			if err := result(call(c.d.cuMemcpyDtoHAsync, uintptr(ch.host), uintptr(src)+uintptr(off), uintptr(n), s.Handle)); err != nil {
				c.staging.release(ch, false)
				return abandon(fmt.Errorf("cuda: copying %d bytes from the device: %w", n, err))
			}
			if err := ch.done.recordLocked(s); err != nil {
				call(c.d.cuStreamSynchronize, s.Handle)
				c.staging.release(ch, false)
				return abandon(err)
			}
			queue = append(queue, inFlight{ch, off, n})
			off += n
		}
		for len(queue) > 0 {
			f := queue[0]
			queue = queue[1:]
			if err := finish(f); err != nil {
				return abandon(err)
			}
		}
		return nil
	})
}

// Upload copies the elements of src to the device at dst (CopyHtoD).
func Upload[T any](s *Stream, dst DevicePtr, src []T) error {
	if len(src) == 0 {
		return nil
	}
	return CopyHtoD(s, dst, unsafe.Pointer(unsafe.SliceData(src)), int64(len(src))*int64(unsafe.Sizeof(src[0])))
}

// Download fills dst from the device at src (CopyDtoH).
func Download[T any](s *Stream, dst []T, src DevicePtr) error {
	if len(dst) == 0 {
		return nil
	}
	return CopyDtoH(s, unsafe.Pointer(unsafe.SliceData(dst)), src, int64(len(dst))*int64(unsafe.Sizeof(dst[0])))
}

// CopyHtoDAsync queues a copy of bytes from a pinned buffer (from offset) to
// the device; h must not be changed or freed until the copy has completed.
func CopyHtoDAsync(s *Stream, dst DevicePtr, h *HostBuffer, offset, bytes int64) error {
	if err := checkPinned("CopyHtoDAsync", s, h, offset, bytes); err != nil || bytes == 0 {
		return err
	}
	return s.ctx.Do(func() error {
		if err := result(call(s.ctx.d.cuMemcpyHtoDAsync, uintptr(dst), uintptr(h.ptr)+uintptr(offset), uintptr(bytes), s.Handle)); err != nil {
			return fmt.Errorf("cuda: copying %d bytes to the device: %w", bytes, err)
		}
		return nil
	})
}

// CopyDtoHAsync queues a copy of bytes from the device into a pinned buffer
// (at offset); the data are there once s (or an event after it) completes.
func CopyDtoHAsync(s *Stream, h *HostBuffer, offset int64, src DevicePtr, bytes int64) error {
	if err := checkPinned("CopyDtoHAsync", s, h, offset, bytes); err != nil || bytes == 0 {
		return err
	}
	return s.ctx.Do(func() error {
		if err := result(call(s.ctx.d.cuMemcpyDtoHAsync, uintptr(h.ptr)+uintptr(offset), uintptr(src), uintptr(bytes), s.Handle)); err != nil {
			return fmt.Errorf("cuda: copying %d bytes from the device: %w", bytes, err)
		}
		return nil
	})
}

func checkPinned(what string, s *Stream, h *HostBuffer, offset, bytes int64) error {
	if err := checkCopy(what, s, bytes); err != nil {
		return err
	}
	if h == nil || h.ptr == nil {
		return fmt.Errorf("%w: cuda: %s: no pinned buffer", core.ErrArgument, what)
	}
	if offset < 0 || offset > h.size || bytes > h.size-offset {
		return fmt.Errorf("%w: cuda: %s: bytes [%d, %d) outside the %d-byte pinned buffer", core.ErrArgument, what, offset, offset+bytes, h.size)
	}
	return nil
}

// CopyDtoD queues a device-to-device copy of bytes on s.
func CopyDtoD(s *Stream, dst, src DevicePtr, bytes int64) error {
	if err := checkCopy("CopyDtoD", s, bytes); err != nil || bytes == 0 {
		return err
	}
	return s.ctx.Do(func() error {
		if err := result(call(s.ctx.d.cuMemcpyDtoDAsync, uintptr(dst), uintptr(src), uintptr(bytes), s.Handle)); err != nil {
			return fmt.Errorf("cuda: copying %d bytes on the device: %w", bytes, err)
		}
		return nil
	})
}

// Memset queues setting bytes bytes at dst to value on s.
func Memset(s *Stream, dst DevicePtr, value byte, bytes int64) error {
	if err := checkCopy("Memset", s, bytes); err != nil || bytes == 0 {
		return err
	}
	return s.ctx.Do(func() error {
		if err := result(call(s.ctx.d.cuMemsetD8Async, uintptr(dst), uintptr(value), uintptr(bytes), s.Handle)); err != nil {
			return fmt.Errorf("cuda: setting %d bytes: %w", bytes, err)
		}
		return nil
	})
}

// MemsetD32 queues setting count 32-bit words at dst (4-byte aligned) to
// value on s, e.g. an int32 info array to 0 or a float32 array to a bit pattern.
func MemsetD32(s *Stream, dst DevicePtr, value uint32, count int64) error {
	if err := checkCopy("MemsetD32", s, count); err != nil || count == 0 {
		return err
	}
	if dst%4 != 0 {
		return fmt.Errorf("%w: cuda: MemsetD32: address %#x is not 4-byte aligned", core.ErrArgument, uintptr(dst))
	}
	return s.ctx.Do(func() error {
		if err := result(call(s.ctx.d.cuMemsetD32Async, uintptr(dst), uintptr(value), uintptr(count), s.Handle)); err != nil {
			return fmt.Errorf("cuda: setting %d words: %w", count, err)
		}
		return nil
	})
}

// memcpy2D is CUDA_MEMCPY2D as cuda.h lays it out on 64-bit platforms:
// size_t and pointers are 8 bytes, CUmemorytype is a 4-byte enum followed by
// 4 bytes of padding before the next pointer; 128 bytes in all.
type memcpy2D struct {
	srcXInBytes   uint64
	srcY          uint64
	srcMemoryType uint32
	_             uint32
	srcHost       uintptr
	srcDevice     uintptr
	srcArray      uintptr
	srcPitch      uint64

	dstXInBytes   uint64
	dstY          uint64
	dstMemoryType uint32
	_             uint32
	dstHost       uintptr
	dstDevice     uintptr
	dstArray      uintptr
	dstPitch      uint64

	widthInBytes uint64
	height       uint64
}

// The layout is checked at compile time: both lines fail to build unless
// the struct is exactly 128 bytes.
var (
	_ [unsafe.Sizeof(memcpy2D{}) - 128]byte
	_ [128 - unsafe.Sizeof(memcpy2D{})]byte
)

// CopyDtoD2D queues a pitched device-to-device copy on s: height rows of
// widthBytes each, row r read at src + r·srcPitch and written at
// dst + r·dstPitch. For a column-major matrix a "row" here is a column:
// widthBytes = rows·elemSize, height = cols, pitches = ld·elemSize.
func CopyDtoD2D(s *Stream, dst DevicePtr, dstPitch int64, src DevicePtr, srcPitch int64, widthBytes, height int64) error {
	if err := checkCopy("CopyDtoD2D", s, widthBytes); err != nil {
		return err
	}
	if height < 0 || srcPitch < widthBytes || dstPitch < widthBytes {
		return fmt.Errorf("%w: cuda: CopyDtoD2D: width %d, height %d, pitches %d and %d (a pitch must be at least the width)",
			core.ErrArgument, widthBytes, height, srcPitch, dstPitch)
	}
	if widthBytes == 0 || height == 0 {
		return nil
	}
	m := &memcpy2D{
		srcMemoryType: memoryTypeDevice,
		srcDevice:     uintptr(src),
		srcPitch:      uint64(srcPitch),
		dstMemoryType: memoryTypeDevice,
		dstDevice:     uintptr(dst),
		dstPitch:      uint64(dstPitch),
		widthInBytes:  uint64(widthBytes),
		height:        uint64(height),
	}
	return s.ctx.Do(func() error {
		if err := result(callp(s.ctx.d.cuMemcpy2DAsync, uintptr(unsafe.Pointer(m)), s.Handle)); err != nil {
			return fmt.Errorf("cuda: 2-D copy of %d×%d bytes: %w", height, widthBytes, err)
		}
		return nil
	})
}
