package cuda

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"
	"time"
	"unsafe"

	"github.com/batchlas/batchlas/internal/core"
)

// Source is one CUDA C++ translation unit compiled at run time. Kernels
// are templates; the instantiations wanted are given as NVRTC name
// expressions ("copy_matrices<unsigned int>") when loading.
type Source struct {
	Name    string   // file name for logs and the kernel registry, e.g. "copy.cu"
	Code    string   // self-contained: no toolkit headers are available on a user's machine
	Options []string // extra NVRTC options; --gpu-architecture and -std=c++17 are always given
}

// LineInfoEnv, when set to anything, compiles every kernel with -lineinfo,
// so that a profiler (ncu --import-source) can tie its samples to source
// lines. The option is part of the cache key.
const LineInfoEnv = "BATCHLAS_NVRTC_LINEINFO"

// JITOptions configures a JIT.
type JITOptions struct {
	// CacheDir holds compiled images on disk; "" means
	// os.UserCacheDir()/batchlas/kernels.
	CacheDir string
	// NoDiskCache keeps compiled images in memory only.
	NoDiskCache bool
}

// JIT compiles sources with NVRTC, caches the images in memory and on disk,
// and loads them into contexts. The cache key is the SHA-256 of the source,
// the name expressions, the options, the target architecture and the NVRTC
// version, so a change to any of them compiles afresh.
type JIT struct {
	dir string // "" when the disk cache is off

	mu      sync.Mutex
	images  map[[32]byte]*pending[*kernelImage]
	modules map[moduleKey]*pending[[]*Kernel]
}

type moduleKey struct {
	ctx *Context
	key [32]byte
}

// pending is a computation that several goroutines may ask for at once;
// the first computes, the rest wait on done.
type pending[V any] struct {
	done chan struct{}
	val  V
	err  error
}

// NewJIT returns a JIT with empty in-memory caches.
func NewJIT(opts JITOptions) *JIT {
	j := &JIT{
		images:  make(map[[32]byte]*pending[*kernelImage]),
		modules: make(map[moduleKey]*pending[[]*Kernel]),
	}
	if !opts.NoDiskCache {
		j.dir = opts.CacheDir
		if j.dir == "" {
			if base, err := os.UserCacheDir(); err == nil {
				j.dir = filepath.Join(base, "batchlas", "kernels")
			}
		}
	}
	return j
}

var (
	defaultJITOnce sync.Once
	defaultJIT     *JIT
)

// DefaultJIT is the process-wide JIT, caching under the user's cache folder.
func DefaultJIT() *JIT {
	defaultJITOnce.Do(func() { defaultJIT = NewJIT(JITOptions{}) })
	return defaultJIT
}

// CacheDir is the disk cache folder, or "" when the disk cache is off.
func (j *JIT) CacheDir() string { return j.dir }

// Kernel is one compiled and loaded kernel function of one context, with
// the resources the compiler gave it.
type Kernel struct {
	Name    string // the name expression, e.g. copy_matrices<unsigned int>
	Lowered string // the mangled symbol
	Source  string // the source's name
	Arch    string // what it was compiled for: sm_90, or compute_90 when loaded as PTX
	Device  int    // ordinal
	Func    uintptr

	Registers          int // per thread (CU_FUNC_ATTRIBUTE_NUM_REGS)
	LocalBytes         int // per thread; non-zero means spills or a local array
	StaticSharedBytes  int
	ConstBytes         int
	MaxThreadsPerBlock int // the most this kernel can launch with, given its registers
	PTXVersion         int
	BinaryVersion      int

	CompileTime time.Duration // NVRTC's time when the image was compiled (also for cache hits)
	LoadTime    time.Duration // time in this process to obtain the image and load the module
	FromCache   bool          // the image came from the disk cache

	ctx    *Context
	shared struct {
		sync.Mutex
		allowed  int   // dynamic shared bytes the function is opted in to
		failedAt int   // smallest size whose opt-in failed, 0 if none
		err      error // that failure
	}
}

// Context is the context the kernel is loaded in.
func (k *Kernel) Context() *Context { return k.ctx }

func (k *Kernel) String() string {
	return fmt.Sprintf("%s %s on cuda:%d (%s): %d registers, %d B local, %d B static shared",
		k.Source, k.Name, k.Device, k.Arch, k.Registers, k.LocalBytes, k.StaticSharedBytes)
}

// kernelImage is a compiled module image and what is needed to load it.
type kernelImage struct {
	image       []byte
	ptx         bool
	arch        string
	lowered     map[string]string
	compileTime time.Duration
	fromDisk    bool
	obtainTime  time.Duration
}

// Load compiles (or finds in a cache) src for the context's device, loads
// the module into c, and returns the kernels named by the name expressions,
// in order. A compilation failure is a *CompileError carrying NVRTC's log.
func (j *JIT) Load(c *Context, src Source, names ...string) ([]*Kernel, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("%w: cuda: Load(%s): no kernel names", core.ErrArgument, src.Name)
	}
	n, err := loadNVRTC()
	if err != nil {
		return nil, err
	}
	archOption, arch, ptx, err := n.target(c.Device.CCMajor, c.Device.CCMinor)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", core.ErrUnsupported, err)
	}
	options := append([]string{archOption, "-std=c++17"}, src.Options...)
	if os.Getenv(LineInfoEnv) != "" {
		options = append(options, "-lineinfo")
	}
	key := cacheKey(src.Code, names, options, arch, n.versionString(), ptx)

	mk := moduleKey{c, key}
	j.mu.Lock()
	if p, ok := j.modules[mk]; ok {
		j.mu.Unlock()
		<-p.done
		return p.val, p.err
	}
	p := &pending[[]*Kernel]{done: make(chan struct{})}
	j.modules[mk] = p
	j.mu.Unlock()

	start := time.Now()
	img, err := j.image(n, key, src, names, options, arch, ptx)
	if err == nil {
		p.val, err = c.loadModule(src, names, img, start)
	}
	p.err = err
	if err != nil && !errors.As(err, new(*CompileError)) {
		// A load failure may be transient (a full device); let a later call retry.
		j.mu.Lock()
		delete(j.modules, mk)
		j.mu.Unlock()
	}
	close(p.done)
	if err != nil {
		return nil, err
	}
	registerKernels(p.val)
	return p.val, nil
}

// Kernel is Load for a single kernel.
func (j *JIT) Kernel(c *Context, src Source, name string) (*Kernel, error) {
	ks, err := j.Load(c, src, name)
	if err != nil {
		return nil, err
	}
	return ks[0], nil
}

// image returns the compiled image for key: from memory, from disk, or by
// compiling (and then writing it to disk). Compilation errors are
// remembered in memory, since the same input fails the same way.
func (j *JIT) image(n *nvrtcAPI, key [32]byte, src Source, names, options []string, arch string, ptx bool) (*kernelImage, error) {
	j.mu.Lock()
	if p, ok := j.images[key]; ok {
		j.mu.Unlock()
		<-p.done
		return p.val, p.err
	}
	p := &pending[*kernelImage]{done: make(chan struct{})}
	j.images[key] = p
	j.mu.Unlock()
	defer close(p.done)

	start := time.Now()
	if img := j.readCache(key, names); img != nil {
		img.obtainTime = time.Since(start)
		p.val = img
		return img, nil
	}
	out, err := n.compile(src.Name, src.Code, names, options, ptx)
	if err != nil {
		p.err = err
		if !errors.As(err, new(*CompileError)) {
			j.mu.Lock()
			delete(j.images, key)
			j.mu.Unlock()
		}
		return nil, err
	}
	img := &kernelImage{image: out.image, ptx: ptx, arch: arch, lowered: out.lowered, compileTime: out.duration}
	j.writeCache(key, img) // best effort: a read-only cache folder only costs recompiles
	img.obtainTime = time.Since(start)
	p.val = img
	return img, nil
}

// cacheKey hashes every input of a compilation, each length-prefixed so no
// two different inputs share an encoding.
func cacheKey(code string, names, options []string, arch, compiler string, ptx bool) [32]byte {
	h := sha256.New()
	put := func(s string) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	put("batchlas-jit-1")
	put(code)
	put(fmt.Sprint(len(names)))
	for _, s := range names {
		put(s)
	}
	put(fmt.Sprint(len(options)))
	for _, s := range options {
		put(s)
	}
	put(arch)
	put(compiler)
	put(fmt.Sprint(ptx))
	var key [32]byte
	h.Sum(key[:0])
	return key
}

// The disk format: a magic line, the SHA-256 of the payload, the payload
// (JSON). A file that fails any check is treated as absent and rewritten.
var cacheMagic = []byte("batchlas-jit-cache-1\n")

type cacheRecord struct {
	Key       string            `json:"key"`
	Arch      string            `json:"arch"`
	PTX       bool              `json:"ptx"`
	Lowered   map[string]string `json:"lowered"`
	CompileNs int64             `json:"compile_ns"`
	Image     []byte            `json:"image"`
}

func (j *JIT) cachePath(key [32]byte) string {
	return filepath.Join(j.dir, hex.EncodeToString(key[:])+".bin")
}

func (j *JIT) readCache(key [32]byte, names []string) *kernelImage {
	if j.dir == "" {
		return nil
	}
	data, err := os.ReadFile(j.cachePath(key))
	if err != nil || !bytes.HasPrefix(data, cacheMagic) || len(data) < len(cacheMagic)+sha256.Size {
		return nil
	}
	data = data[len(cacheMagic):]
	sum, payload := data[:sha256.Size], data[sha256.Size:]
	if got := sha256.Sum256(payload); !bytes.Equal(got[:], sum) {
		return nil
	}
	var rec cacheRecord
	if json.Unmarshal(payload, &rec) != nil || rec.Key != hex.EncodeToString(key[:]) || len(rec.Image) == 0 {
		return nil
	}
	for _, name := range names {
		if rec.Lowered[name] == "" {
			return nil
		}
	}
	return &kernelImage{
		image: rec.Image, ptx: rec.PTX, arch: rec.Arch, lowered: rec.Lowered,
		compileTime: time.Duration(rec.CompileNs), fromDisk: true,
	}
}

// writeCache stores img atomically: a temporary file in the same folder,
// renamed over the final name, so a reader never sees half a file.
func (j *JIT) writeCache(key [32]byte, img *kernelImage) error {
	if j.dir == "" {
		return nil
	}
	payload, err := json.Marshal(cacheRecord{
		Key: hex.EncodeToString(key[:]), Arch: img.arch, PTX: img.ptx,
		Lowered: img.lowered, CompileNs: int64(img.compileTime), Image: img.image,
	})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(j.dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(j.dir, ".tmp-*")
	if err != nil {
		return err
	}
	sum := sha256.Sum256(payload)
	_, err = tmp.Write(slices.Concat(cacheMagic, sum[:], payload))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), j.cachePath(key))
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// loadModule loads an image into c and describes each named function.
func (c *Context) loadModule(src Source, names []string, img *kernelImage, start time.Time) ([]*Kernel, error) {
	kernels := make([]*Kernel, 0, len(names))
	err := c.Do(func() error {
		var module uintptr
		if err := result(callp(c.d.cuModuleLoadData, uintptr(unsafe.Pointer(&module)), uintptr(unsafe.Pointer(&img.image[0])))); err != nil {
			return fmt.Errorf("cuda: loading the module of %s (%s) on %s: %w", src.Name, img.arch, c.Device, err)
		}
		runtime.KeepAlive(img.image)
		for _, name := range names {
			lowered := img.lowered[name]
			symbol := cBytes(lowered)
			var fn uintptr
			if err := result(callp(c.d.cuModuleGetFunction, uintptr(unsafe.Pointer(&fn)), module, uintptr(unsafe.Pointer(&symbol[0])))); err != nil {
				call(c.d.cuModuleUnload, module)
				return fmt.Errorf("cuda: %s has no kernel %s (%s): %w", src.Name, name, lowered, err)
			}
			k := &Kernel{
				Name: name, Lowered: lowered, Source: src.Name, Arch: img.arch,
				Device: c.Device.Ordinal, Func: fn, ctx: c,
				CompileTime: img.compileTime, FromCache: img.fromDisk,
			}
			attr := func(a int) int {
				var v int32
				if result(callp(c.d.cuFuncGetAttribute, uintptr(unsafe.Pointer(&v)), uintptr(a), fn)) != nil {
					return -1
				}
				return int(v)
			}
			k.Registers = attr(funcAttrNumRegs)
			k.LocalBytes = attr(funcAttrLocalSizeBytes)
			k.StaticSharedBytes = attr(funcAttrSharedSizeBytes)
			k.ConstBytes = attr(funcAttrConstSizeBytes)
			k.MaxThreadsPerBlock = attr(funcAttrMaxThreadsPerBlock)
			k.PTXVersion = attr(funcAttrPTXVersion)
			k.BinaryVersion = attr(funcAttrBinaryVersion)
			kernels = append(kernels, k)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// The module stays loaded for the life of the process, like the context.
	elapsed := time.Since(start)
	for _, k := range kernels {
		k.LoadTime = elapsed
	}
	return kernels, nil
}

// ---- registry ----

var registry struct {
	sync.Mutex
	kernels []*Kernel
}

func registerKernels(ks []*Kernel) {
	registry.Lock()
	registry.kernels = append(registry.kernels, ks...)
	registry.Unlock()
}

// LoadedKernels lists every kernel loaded in this process, by device,
// source and name (for `batchlas kernels`).
func LoadedKernels() []*Kernel {
	registry.Lock()
	ks := slices.Clone(registry.kernels)
	registry.Unlock()
	sort.SliceStable(ks, func(a, b int) bool {
		x, y := ks[a], ks[b]
		if x.Device != y.Device {
			return x.Device < y.Device
		}
		if x.Source != y.Source {
			return x.Source < y.Source
		}
		return x.Name < y.Name
	})
	return ks
}

// ---- launching ----

// ActiveBlocksPerSM is how many blocks of blockSize threads with dynShared
// bytes of dynamic shared memory fit on one multiprocessor at once.
func (k *Kernel) ActiveBlocksPerSM(blockSize, dynShared int) (int, error) {
	var n int32
	err := k.ctx.Do(func() error {
		return result(callp(k.ctx.d.cuOccupancyMaxActiveBlocksPerMultiprocessor,
			uintptr(unsafe.Pointer(&n)), k.Func, uintptr(blockSize), uintptr(dynShared)))
	})
	if err != nil {
		return 0, fmt.Errorf("cuda: occupancy of %s: %w", k.Name, err)
	}
	return int(n), nil
}

// AllowDynamicShared opts k in to bytes of dynamic shared memory per block
// (cuFuncSetAttribute MAX_DYNAMIC_SHARED_SIZE_BYTES) ahead of a launch, so
// that ActiveBlocksPerSM answers for sizes above the default 48 KiB and a
// size the device cannot give is known before anything is queued. Launch
// does the same by itself; the outcome is remembered either way, so a
// refused size is not asked for again. A size the device does not have is
// an error wrapping core.ErrUnsupported.
func (k *Kernel) AllowDynamicShared(bytes int) error {
	if bytes < 0 || bytes > math.MaxInt32 {
		return fmt.Errorf("%w: cuda: %d B of dynamic shared memory for %s", core.ErrArgument, bytes, k.Name)
	}
	return k.ctx.Do(func() error { return k.allowShared(bytes) })
}

// allowShared opts the function in to bytes of dynamic shared memory when
// that exceeds the default 48 KiB; once per function and size, and a
// failure is remembered so it is not retried on every launch. Runs inside Do.
func (k *Kernel) allowShared(bytes int) error {
	if k.StaticSharedBytes+bytes <= defaultSharedLimit {
		return nil
	}
	k.shared.Lock()
	defer k.shared.Unlock()
	if bytes <= k.shared.allowed {
		return nil
	}
	if k.shared.failedAt > 0 && bytes >= k.shared.failedAt {
		return k.shared.err
	}
	var err error
	if limit := k.ctx.Device.MaxSharedPerBlockOptin; limit > 0 && k.StaticSharedBytes+bytes > limit {
		err = fmt.Errorf("%w: cuda: %s asks for %d B of dynamic shared memory plus %d B static; %s allows %d B per block",
			core.ErrUnsupported, k.Name, bytes, k.StaticSharedBytes, k.ctx.Device, limit)
	} else if st := result(call(k.ctx.d.cuFuncSetAttribute, k.Func, funcAttrMaxDynamicSharedBytes, uintptr(bytes))); st != nil {
		err = fmt.Errorf("cuda: allowing %s %d B of dynamic shared memory: %w", k.Name, bytes, st)
	}
	if err != nil {
		if k.shared.failedAt == 0 || bytes < k.shared.failedAt {
			k.shared.failedAt, k.shared.err = bytes, err
		}
		return err
	}
	k.shared.allowed = bytes
	return nil
}

// Args holds kernel arguments by value, in order, for LaunchArgs: the
// allocation-free alternative to Launch's ...any. Each method appends one
// argument of exactly the C type named.
type Args struct {
	n     int
	slots [maxKernelArgs][2]uint64 // 16 bytes each: room for a complex128
	err   error
}

func (a *Args) put(p unsafe.Pointer, size uintptr) *Args {
	if a.n >= maxKernelArgs {
		if a.err == nil {
			a.err = fmt.Errorf("%w: cuda: more than %d kernel arguments", core.ErrArgument, maxKernelArgs)
		}
		return a
	}
	a.slots[a.n] = [2]uint64{}
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&a.slots[a.n])), 16), unsafe.Slice((*byte)(p), size))
	a.n++
	return a
}

// Reset empties a for reuse.
func (a *Args) Reset() *Args { a.n, a.err = 0, nil; return a }

// Ptr appends a device pointer (T*).
func (a *Args) Ptr(p DevicePtr) *Args { return a.put(unsafe.Pointer(&p), 8) }

// Int32 appends an int.
func (a *Args) Int32(v int32) *Args { return a.put(unsafe.Pointer(&v), 4) }

// Uint32 appends an unsigned int.
func (a *Args) Uint32(v uint32) *Args { return a.put(unsafe.Pointer(&v), 4) }

// Int64 appends a long long.
func (a *Args) Int64(v int64) *Args { return a.put(unsafe.Pointer(&v), 8) }

// Uint64 appends an unsigned long long.
func (a *Args) Uint64(v uint64) *Args { return a.put(unsafe.Pointer(&v), 8) }

// Float32 appends a float.
func (a *Args) Float32(v float32) *Args { return a.put(unsafe.Pointer(&v), 4) }

// Float64 appends a double.
func (a *Args) Float64(v float64) *Args { return a.put(unsafe.Pointer(&v), 8) }

// Complex64 appends a float2-like pair (cuComplex).
func (a *Args) Complex64(v complex64) *Args { return a.put(unsafe.Pointer(&v), 8) }

// Complex128 appends a double2-like pair (cuDoubleComplex).
func (a *Args) Complex128(v complex128) *Args { return a.put(unsafe.Pointer(&v), 16) }

// Any appends v by its Go type; int and uint are refused because their C
// width is ambiguous (use int32 or int64).
func (a *Args) Any(v any) *Args {
	switch x := v.(type) {
	case DevicePtr:
		return a.Ptr(x)
	case uintptr:
		return a.Ptr(DevicePtr(x))
	case int32:
		return a.Int32(x)
	case uint32:
		return a.Uint32(x)
	case int64:
		return a.Int64(x)
	case uint64:
		return a.Uint64(x)
	case float32:
		return a.Float32(x)
	case float64:
		return a.Float64(x)
	case complex64:
		return a.Complex64(x)
	case complex128:
		return a.Complex128(x)
	case int16:
		return a.put(unsafe.Pointer(&x), 2)
	case uint16:
		return a.put(unsafe.Pointer(&x), 2)
	case int8:
		return a.put(unsafe.Pointer(&x), 1)
	case uint8:
		return a.put(unsafe.Pointer(&x), 1)
	case bool:
		var b uint8
		if x {
			b = 1
		}
		return a.put(unsafe.Pointer(&b), 1)
	}
	if a.err == nil {
		a.err = fmt.Errorf("%w: cuda: kernel argument %d has Go type %T; use a sized type (int32, int64, float32, DevicePtr, ...)", core.ErrArgument, a.n, v)
	}
	return a
}

// launchParams is the kernelParams array and the values it points at, in
// one object that is pinned for the cuLaunchKernel call.
type launchParams struct {
	values [maxKernelArgs][2]uint64
	ptrs   [maxKernelArgs]unsafe.Pointer
}

var launchParamsPool = sync.Pool{New: func() any { return new(launchParams) }}

var argsPool = sync.Pool{New: func() any { return new(Args) }}

// Launch queues k on s with a grid of blocks, each of block threads, and
// sharedBytes of dynamic shared memory (more than 48 KiB opts the function
// in first). Each argument must have the exact width of the kernel's
// parameter: DevicePtr for pointers, int32 for int, int64 for long long,
// float32, float64, complex64, complex128 (see Args).
func Launch(s *Stream, k *Kernel, grid, block [3]uint32, sharedBytes uint32, args ...any) error {
	a := argsPool.Get().(*Args)
	a.Reset()
	for _, v := range args {
		a.Any(v)
	}
	err := LaunchArgs(s, k, grid, block, sharedBytes, a)
	argsPool.Put(a)
	return err
}

// LaunchArgs is Launch with arguments prepared in an Args (no allocation).
func LaunchArgs(s *Stream, k *Kernel, grid, block [3]uint32, sharedBytes uint32, a *Args) error {
	if a.err != nil {
		return fmt.Errorf("cuda: launching %s: %w", k.Name, a.err)
	}
	if err := checkLaunch(s, k, grid, block, sharedBytes); err != nil {
		return err
	}
	p := launchParamsPool.Get().(*launchParams)
	defer launchParamsPool.Put(p)
	for i := range a.n {
		p.values[i] = a.slots[i]
		p.ptrs[i] = unsafe.Pointer(&p.values[i])
	}
	var params uintptr
	if a.n > 0 {
		params = uintptr(unsafe.Pointer(&p.ptrs[0]))
	}
	c := s.ctx
	return c.Do(func() error {
		if err := k.allowShared(int(sharedBytes)); err != nil {
			return err
		}
		// The array holds pointers into the same object: pinning it covers both.
		var pin runtime.Pinner
		pin.Pin(p)
		r := call(c.d.cuLaunchKernel, k.Func,
			uintptr(grid[0]), uintptr(grid[1]), uintptr(grid[2]),
			uintptr(block[0]), uintptr(block[1]), uintptr(block[2]),
			uintptr(sharedBytes), s.Handle, params, 0)
		pin.Unpin()
		if err := result(r); err != nil {
			return fmt.Errorf("cuda: launching %s (grid %v, block %v, %d B shared): %w", k.Name, grid, block, sharedBytes, err)
		}
		return nil
	})
}

// checkLaunch rejects a launch the driver would refuse, with a reason in
// terms of the device's limits instead of CUDA_ERROR_INVALID_VALUE.
func checkLaunch(s *Stream, k *Kernel, grid, block [3]uint32, sharedBytes uint32) error {
	if s == nil || k == nil {
		return fmt.Errorf("%w: cuda: launch with a nil stream or kernel", core.ErrArgument)
	}
	if s.ctx != k.ctx {
		return fmt.Errorf("%w: cuda: kernel %s is loaded on cuda:%d, the stream belongs to %s", core.ErrDevice, k.Name, k.Device, s.ctx.Device)
	}
	dev := s.ctx.Device
	maxGrid := [3]int{maxGridDimX, maxGridDimYZ, maxGridDimYZ}
	maxBlock := [3]int{maxThreadsPerBlockHW, maxThreadsPerBlockHW, 64}
	for i := range 3 {
		if dev.MaxGridDim[i] > 0 {
			maxGrid[i] = dev.MaxGridDim[i]
		}
		if dev.MaxBlockDim[i] > 0 {
			maxBlock[i] = dev.MaxBlockDim[i]
		}
		if grid[i] == 0 || int64(grid[i]) > int64(maxGrid[i]) || block[i] == 0 || int(block[i]) > maxBlock[i] {
			return fmt.Errorf("%w: cuda: launching %s with grid %v and block %v; limits are grid %v, block %v",
				core.ErrArgument, k.Name, grid, block, maxGrid, maxBlock)
		}
	}
	threads := uint64(block[0]) * uint64(block[1]) * uint64(block[2])
	if limit := k.MaxThreadsPerBlock; limit > 0 && threads > uint64(limit) {
		return fmt.Errorf("%w: cuda: %s can run at most %d threads per block (it uses %d registers per thread); asked for %d",
			core.ErrArgument, k.Name, limit, k.Registers, threads)
	}
	if uint64(sharedBytes) > math.MaxInt32 {
		return fmt.Errorf("%w: cuda: %d B of shared memory", core.ErrArgument, sharedBytes)
	}
	return nil
}
