package cuda

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/batchlas/batchlas/internal/core"
)

// ---- tests that run without a GPU ----

func TestArgs(t *testing.T) {
	var a Args
	a.Ptr(0x1234).Int32(-2).Float32(1.5).Float64(-0.25).Complex64(complex(1, 2)).Complex128(complex(3, 4)).Uint64(math.MaxUint64)
	if a.err != nil || a.n != 7 {
		t.Fatalf("n = %d, err = %v", a.n, a.err)
	}
	word := func(i, half int) uint64 { return a.slots[i][half] }
	checks := []struct {
		i, half int
		want    uint64
	}{
		{0, 0, 0x1234},
		{1, 0, uint64(uint32(0xfffffffe))}, // 4 bytes, the rest zero
		{2, 0, uint64(math.Float32bits(1.5))},
		{3, 0, math.Float64bits(-0.25)},
		{4, 0, uint64(math.Float32bits(1)) | uint64(math.Float32bits(2))<<32},
		{5, 0, math.Float64bits(3)},
		{5, 1, math.Float64bits(4)},
		{6, 0, math.MaxUint64},
	}
	for _, c := range checks {
		if got := word(c.i, c.half); got != c.want {
			t.Errorf("argument %d word %d = %#x, want %#x", c.i, c.half, got, c.want)
		}
	}
	a.Reset().Any(int32(1)).Any(3) // Go int: ambiguous width
	if !errors.Is(a.err, core.ErrArgument) || !strings.Contains(a.err.Error(), "argument 1") {
		t.Errorf("an int argument gave %v", a.err)
	}
	a.Reset()
	for range maxKernelArgs + 3 {
		a.Int32(1)
	}
	if !errors.Is(a.err, core.ErrArgument) || a.n != maxKernelArgs {
		t.Errorf("too many arguments: n = %d, err = %v", a.n, a.err)
	}
}

func TestCacheKey(t *testing.T) {
	base := cacheKey("code", []string{"k<1>"}, []string{"--gpu-architecture=sm_90"}, "sm_90", "nvrtc-13.0", false)
	for name, k := range map[string][32]byte{
		"code":     cacheKey("code2", []string{"k<1>"}, []string{"--gpu-architecture=sm_90"}, "sm_90", "nvrtc-13.0", false),
		"names":    cacheKey("code", []string{"k<2>"}, []string{"--gpu-architecture=sm_90"}, "sm_90", "nvrtc-13.0", false),
		"options":  cacheKey("code", []string{"k<1>"}, []string{"--gpu-architecture=sm_90", "-lineinfo"}, "sm_90", "nvrtc-13.0", false),
		"arch":     cacheKey("code", []string{"k<1>"}, []string{"--gpu-architecture=sm_90"}, "sm_80", "nvrtc-13.0", false),
		"compiler": cacheKey("code", []string{"k<1>"}, []string{"--gpu-architecture=sm_90"}, "sm_90", "nvrtc-12.9", false),
		"ptx":      cacheKey("code", []string{"k<1>"}, []string{"--gpu-architecture=sm_90"}, "sm_90", "nvrtc-13.0", true),
		"boundary": cacheKey("cod", []string{"ek<1>"}, []string{"--gpu-architecture=sm_90"}, "sm_90", "nvrtc-13.0", false),
	} {
		if k == base {
			t.Errorf("changing the %s does not change the key", name)
		}
	}
}

// TestCacheFile writes an image to a disk cache and reads it back, then
// damages the file in several ways: each damaged file must read as absent.
func TestCacheFile(t *testing.T) {
	dir := t.TempDir()
	j := NewJIT(JITOptions{CacheDir: dir})
	key := cacheKey("x", []string{"k"}, nil, "sm_90", "test", false)
	img := &kernelImage{image: []byte("\x7fELF fake cubin"), arch: "sm_90", lowered: map[string]string{"k": "_Z1kv"}, compileTime: 23 * time.Millisecond}
	if err := j.writeCache(key, img); err != nil {
		t.Fatal(err)
	}
	got := j.readCache(key, []string{"k"})
	if got == nil || string(got.image) != string(img.image) || got.lowered["k"] != "_Z1kv" || !got.fromDisk || got.compileTime != img.compileTime {
		t.Fatalf("read back %+v", got)
	}
	if j.readCache(key, []string{"k", "other"}) != nil {
		t.Errorf("a file lacking a wanted name was accepted")
	}
	path := j.cachePath(key)
	good, _ := os.ReadFile(path)
	damage := map[string][]byte{
		"empty":     {},
		"truncated": good[:len(good)-3],
		"flipped":   append(append([]byte{}, good[:len(good)-2]...), good[len(good)-2]^1, good[len(good)-1]),
		"magic":     append([]byte("X"), good[1:]...),
	}
	for name, data := range damage {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if j.readCache(key, []string{"k"}) != nil {
			t.Errorf("%s file accepted", name)
		}
	}
	// A valid file under another key's name is refused too.
	other := cacheKey("y", []string{"k"}, nil, "sm_90", "test", false)
	os.WriteFile(j.cachePath(other), good, 0o644)
	if j.readCache(other, []string{"k"}) != nil {
		t.Errorf("a file holding another key was accepted")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".tmp-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
	if NewJIT(JITOptions{NoDiskCache: true}).CacheDir() != "" {
		t.Errorf("NoDiskCache still has a cache folder")
	}
}

// TestCompileErrorShowsLog needs NVRTC but no GPU.
func TestCompileErrorShowsLog(t *testing.T) {
	rtNeedNVRTC(t)
	n, _ := loadNVRTC()
	option, _, ptx, err := n.target(9, 0)
	if err != nil {
		t.Skip(err)
	}
	src := "__global__ void broken(float* x) { x[0] = undefined_name_42; }\n"
	_, err = n.compile("broken.cu", src, []string{"broken"}, []string{option, "-std=c++17"}, ptx)
	var ce *CompileError
	if !errors.As(err, &ce) {
		t.Fatalf("compile error = %v, want *CompileError", err)
	}
	if !strings.Contains(ce.Log, "undefined_name_42") || !strings.Contains(err.Error(), "undefined_name_42") ||
		!strings.Contains(err.Error(), "broken.cu") || !errors.Is(err, nvrtcErrorCompilation) {
		t.Errorf("error does not carry the log and the source name:\n%v", err)
	}
	// A rejected option names the option.
	_, err = n.compile("ok.cu", "__global__ void k() {}\n", []string{"k"}, []string{option, "-O3"}, ptx)
	if err == nil {
		t.Logf("note: this NVRTC accepts -O3")
	} else {
		t.Logf("-O3: %v", err)
	}
}

// TestSourcesCompile compiles every embedded source for sm_90 (needs NVRTC,
// no GPU), so a kernel that does not build fails here first.
func TestSourcesCompile(t *testing.T) {
	rtNeedNVRTC(t)
	n, _ := loadNVRTC()
	option, arch, ptx, err := n.target(9, 0)
	if err != nil {
		t.Skip(err)
	}
	t.Logf("NVRTC %d.%d from %s, target %s, supported %v", n.major, n.minor, n.lib.Path, arch, n.archs)
	for _, tc := range []struct {
		src   Source
		names []string
	}{
		{CopySource, CopyKernelNames()},
		{testSource, []string{"echo_args", "sum_shared<20000>"}},
	} {
		out, err := n.compile(tc.src.Name, tc.src.Code, tc.names, append([]string{option, "-std=c++17"}, tc.src.Options...), ptx)
		if err != nil {
			t.Fatalf("%s: %v", tc.src.Name, err)
		}
		if len(out.image) == 0 || len(out.lowered) != len(tc.names) {
			t.Fatalf("%s: %d-byte image, lowered %v", tc.src.Name, len(out.image), out.lowered)
		}
		for _, name := range tc.names {
			if out.lowered[name] == "" {
				t.Errorf("%s: no lowered name for %s", tc.src.Name, name)
			}
		}
		t.Logf("%s: %d-byte %s in %v, lowered %v, log %q", tc.src.Name, len(out.image), arch, out.duration, out.lowered, out.log)
	}
}

// TestImageDiskCache is the disk-cache test without a GPU: a fresh JIT
// compiles and writes the image; another fresh JIT (empty memory) on the
// same folder reads it; a corrupted file is recompiled and rewritten.
func TestImageDiskCache(t *testing.T) {
	rtNeedNVRTC(t)
	n, _ := loadNVRTC()
	option, arch, ptx, err := n.target(9, 0)
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	src := Source{Name: "image_cache.cu", Code: "template <int N> __global__ void scale(float* x) { x[threadIdx.x] *= N; }\n"}
	names := []string{"scale<2>", "scale<3>"}
	options := []string{option, "-std=c++17"}
	key := cacheKey(src.Code, names, options, arch, n.versionString(), ptx)
	get := func(wantDisk bool) *kernelImage {
		t.Helper()
		img, err := NewJIT(JITOptions{CacheDir: dir}).image(n, key, src, names, options, arch, ptx)
		if err != nil {
			t.Fatal(err)
		}
		if img.fromDisk != wantDisk || len(img.image) == 0 || img.lowered["scale<3>"] == "" || img.compileTime <= 0 {
			t.Fatalf("fromDisk %v (want %v), %d bytes, lowered %v, compile %v", img.fromDisk, wantDisk, len(img.image), img.lowered, img.compileTime)
		}
		return img
	}
	first := get(false)
	second := get(true)
	if string(first.image) != string(second.image) || second.compileTime != first.compileTime {
		t.Errorf("the cached image differs from the compiled one")
	}
	t.Logf("compile %v, from disk %v", first.obtainTime, second.obtainTime)
	if err := os.WriteFile(filepath.Join(dir, hex.EncodeToString(key[:])+".bin"), []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	get(false)
	get(true)
}

// ---- tests that need a GPU ----

const testKernels = `
struct c64 { float re, im; };
struct alignas(16) c128 { double re, im; };

template <typename T>
__device__ void put(unsigned char* out, int at, const T& v) {
    const unsigned char* p = reinterpret_cast<const unsigned char*>(&v);
    for (int i = 0; i < (int)sizeof(T); i++) out[at + i] = p[i];
}

// Writes its arguments' bytes to out, to check Launch's parameter packing.
__global__ void echo_args(int a, long long b, float c, double d, c64 e, c128 f, unsigned char g, unsigned char* out) {
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    put(out, 0, a);
    put(out, 8, b);
    put(out, 16, c);
    put(out, 24, d);
    put(out, 32, e);
    put(out, 48, f);
    put(out, 64, g);
}

// Needs N*4 bytes of dynamic shared memory.
template <int N>
__global__ void sum_shared(unsigned long long* out) {
    extern __shared__ unsigned int buf[];
    for (int i = threadIdx.x; i < N; i += blockDim.x) buf[i] = (unsigned int)i;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned long long s = 0;
        for (int i = 0; i < N; i++) s += buf[i];
        out[0] = s;
    }
}
`

var testSource = Source{Name: "runtime_test.cu", Code: testKernels}

func TestLaunchPacking(t *testing.T) {
	c := rtContext(t)
	rtNeedNVRTC(t)
	s := rtStream(t, c)
	k, err := DefaultJIT().Kernel(c, testSource, "echo_args")
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Alloc(72)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Free(out)
	if err := Memset(s, out, 0xee, 72); err != nil {
		t.Fatal(err)
	}
	err = Launch(s, k, [3]uint32{1, 1, 1}, [3]uint32{32, 1, 1}, 0,
		int32(-7), int64(-1)<<40, float32(2.5), math.Pi, complex64(complex(1.25, -3)), complex(math.E, -math.Sqrt2), uint8(0xa5), out)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 72)
	if err := Download(s, got, out); err != nil {
		t.Fatal(err)
	}
	u64 := func(at int) uint64 { return binary.LittleEndian.Uint64(got[at:]) }
	u32 := func(at int) uint32 { return binary.LittleEndian.Uint32(got[at:]) }
	if int32(u32(0)) != -7 || int64(u64(8)) != int64(-1)<<40 || math.Float32frombits(u32(16)) != 2.5 ||
		math.Float64frombits(u64(24)) != math.Pi || math.Float32frombits(u32(32)) != 1.25 || math.Float32frombits(u32(36)) != -3 ||
		math.Float64frombits(u64(48)) != math.E || math.Float64frombits(u64(56)) != -math.Sqrt2 || got[64] != 0xa5 {
		t.Errorf("the kernel saw other arguments than were passed: % x", got)
	}
	if err := Launch(s, k, [3]uint32{1, 1, 1}, [3]uint32{2048, 1, 1}, 0); !errors.Is(err, core.ErrArgument) {
		t.Errorf("a 2048-thread block: %v", err)
	}
	if err := Launch(s, k, [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1}, 0, 5); !errors.Is(err, core.ErrArgument) {
		t.Errorf("an int argument: %v", err)
	}
}

func TestLargeDynamicShared(t *testing.T) {
	c := rtContext(t)
	rtNeedNVRTC(t)
	s := rtStream(t, c)
	const n = 20000 // 80,000 B: more than the 48 KiB allowed without opting in
	k, err := DefaultJIT().Kernel(c, testSource, "sum_shared<20000>")
	if err != nil {
		t.Fatal(err)
	}
	out, _ := c.Alloc(8)
	defer c.Free(out)
	if err := Launch(s, k, [3]uint32{1, 1, 1}, [3]uint32{256, 1, 1}, 4*n, out); err != nil {
		t.Fatal(err)
	}
	got := make([]uint64, 1)
	if err := Download(s, got, out); err != nil {
		t.Fatal(err)
	}
	if got[0] != n*(n-1)/2 {
		t.Errorf("sum = %d, want %d", got[0], n*(n-1)/2)
	}
	tooMuch := uint32(c.Device.MaxSharedPerBlockOptin + 1024)
	err1 := Launch(s, k, [3]uint32{1, 1, 1}, [3]uint32{256, 1, 1}, tooMuch, out)
	err2 := Launch(s, k, [3]uint32{1, 1, 1}, [3]uint32{256, 1, 1}, tooMuch+4, out)
	if err1 == nil || err2 == nil || k.shared.failedAt != int(tooMuch) {
		t.Errorf("beyond the opt-in limit: %v / %v (failedAt %d)", err1, err2, k.shared.failedAt)
	}
	// The failure does not disturb the size that works.
	if err := Launch(s, k, [3]uint32{1, 1, 1}, [3]uint32{256, 1, 1}, 4*n, out); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
}

// TestDiskCache compiles with a fresh JIT and an empty cache folder, then
// loads again with another fresh JIT (empty memory): the second must come
// from disk. A corrupted file is recompiled and rewritten.
func TestDiskCache(t *testing.T) {
	c := rtContext(t)
	rtNeedNVRTC(t)
	dir := t.TempDir()
	src := Source{Name: "cache_test.cu", Code: "template <int N> __global__ void scale(float* x) { x[threadIdx.x] *= N; }\n// " + t.Name() + "\n"}
	names := []string{"scale<2>", "scale<3>"}

	load := func(wantCached bool) []*Kernel {
		t.Helper()
		ks, err := NewJIT(JITOptions{CacheDir: dir}).Load(c, src, names...)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range ks {
			if k.FromCache != wantCached {
				t.Errorf("%s: FromCache = %v, want %v", k.Name, k.FromCache, wantCached)
			}
			if k.Func == 0 || k.Lowered == "" || k.CompileTime <= 0 || k.Arch == "" {
				t.Errorf("incomplete kernel record: %+v", k)
			}
		}
		return ks
	}
	first := load(false)
	files, _ := filepath.Glob(filepath.Join(dir, "*.bin"))
	if len(files) != 1 {
		t.Fatalf("cache folder holds %v, want one file", files)
	}
	second := load(true)
	for i := range first {
		if first[i].Lowered != second[i].Lowered {
			t.Errorf("lowered names differ: %s, %s", first[i].Lowered, second[i].Lowered)
		}
	}
	t.Logf("compile %v; from disk: load %v", first[0].CompileTime, second[0].LoadTime)

	if err := os.WriteFile(files[0], []byte("not a cache file"), 0o644); err != nil {
		t.Fatal(err)
	}
	load(false) // corrupt: ignored and recompiled ...
	load(true)  // ... and rewritten

	// The same JIT answers from memory.
	j := NewJIT(JITOptions{CacheDir: dir})
	a, _ := j.Load(c, src, names...)
	b, _ := j.Load(c, src, names...)
	if a[0] != b[0] {
		t.Errorf("a second Load on one JIT did not return the loaded kernel")
	}
}

func TestCompileErrorThroughLoad(t *testing.T) {
	c := rtContext(t)
	rtNeedNVRTC(t)
	j := NewJIT(JITOptions{NoDiskCache: true})
	src := Source{Name: "bad.cu", Code: "__global__ void k(int* x) { x[0] = missing_symbol_7; }\n"}
	_, err := j.Load(c, src, "k")
	var ce *CompileError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "missing_symbol_7") {
		t.Fatalf("Load of a broken source = %v", err)
	}
	if _, err2 := j.Load(c, src, "k"); err2 != err {
		t.Errorf("the compile error is not remembered: %v", err2)
	}
}

// TestKernelAttributes: the copy and transpose kernels use no local memory
// (no spills, no stack), per the house rule, and LoadedKernels lists them.
func TestKernelAttributes(t *testing.T) {
	c := rtContext(t)
	rtNeedNVRTC(t)
	for _, tc := range []struct {
		src    Source
		names  []string
		shared bool // static shared memory expected
	}{
		{CopySource, CopyKernelNames(), false},
		{TransposeSource, TransposeKernelNames(), true},
	} {
		ks, err := DefaultJIT().Load(c, tc.src, tc.names...)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range ks {
			t.Log(k)
			if k.LocalBytes != 0 {
				t.Errorf("%s uses %d bytes of local memory per thread", k.Name, k.LocalBytes)
			}
			if k.Registers <= 0 || k.MaxThreadsPerBlock < 256 || (k.StaticSharedBytes != 0) != tc.shared {
				t.Errorf("%s: implausible attributes %+v", k.Name, k)
			}
			if blocks, err := k.ActiveBlocksPerSM(256, 0); err != nil || blocks <= 0 {
				t.Errorf("%s: ActiveBlocksPerSM = %d, %v", k.Name, blocks, err)
			}
		}
		found := 0
		for _, k := range LoadedKernels() {
			if k.Source == tc.src.Name && k.Device == c.Device.Ordinal {
				found++
			}
		}
		if found < len(ks) {
			t.Errorf("LoadedKernels lists %d %s kernels, want %d", found, tc.src.Name, len(ks))
		}
	}
}

func TestNVRTCTarget(t *testing.T) {
	n := &nvrtcAPI{major: 13, archs: []int{75, 80, 86, 89, 90, 100, 120}}
	for _, tc := range []struct {
		major, minor int
		option, arch string
		ptx          bool
	}{
		{9, 0, "--gpu-architecture=sm_90", "sm_90", false},
		{8, 6, "--gpu-architecture=sm_86", "sm_86", false},
		{10, 3, "--gpu-architecture=compute_100", "compute_100", true}, // unknown to this NVRTC: PTX for the newest below
		{13, 0, "--gpu-architecture=compute_120", "compute_120", true},
	} {
		option, arch, ptx, err := n.target(tc.major, tc.minor)
		if err != nil || option != tc.option || arch != tc.arch || ptx != tc.ptx {
			t.Errorf("target(%d.%d) = %q, %q, %v, %v", tc.major, tc.minor, option, arch, ptx, err)
		}
	}
	if _, _, _, err := n.target(7, 0); err == nil {
		t.Errorf("a GPU older than every supported architecture was accepted")
	}
	n.archs = nil // the library could not say: trust the device
	if option, _, ptx, _ := n.target(9, 0); option != "--gpu-architecture=sm_90" || ptx {
		t.Errorf("without a list: %q, ptx %v", option, ptx)
	}
}

// TestAllowDynamicShared opts a kernel in ahead of a launch: the occupancy
// query then counts the large size, a size beyond the device's limit is an
// ErrUnsupported that is remembered, and a launch at the granted size runs.
func TestAllowDynamicShared(t *testing.T) {
	c := rtContext(t)
	rtNeedNVRTC(t)
	s := rtStream(t, c)
	const n = 20000 // 80,000 B: more than the 48 KiB allowed without opting in
	// A JIT of its own, so the kernel is a fresh function that no launch has opted in.
	k, err := NewJIT(JITOptions{NoDiskCache: true}).Kernel(c, testSource, "sum_shared<20000>")
	if err != nil {
		t.Fatal(err)
	}
	if err := k.AllowDynamicShared(-1); !errors.Is(err, core.ErrArgument) {
		t.Errorf("a negative size: %v", err)
	}
	if err := k.AllowDynamicShared(4 * n); err != nil {
		t.Fatal(err)
	}
	if blocks, err := k.ActiveBlocksPerSM(256, 4*n); err != nil || blocks < 1 || blocks*4*n > c.Device.MaxSharedPerSM {
		t.Errorf("blocks per SM with %d B: %d, %v (%d B per SM)", 4*n, blocks, err, c.Device.MaxSharedPerSM)
	}
	tooMuch := c.Device.MaxSharedPerBlockOptin + 1024
	if err := k.AllowDynamicShared(tooMuch); !errors.Is(err, core.ErrUnsupported) || k.shared.failedAt != tooMuch {
		t.Errorf("beyond the opt-in limit: %v (failedAt %d)", err, k.shared.failedAt)
	}
	out, _ := c.Alloc(8)
	defer c.Free(out)
	if err := Launch(s, k, [3]uint32{1, 1, 1}, [3]uint32{256, 1, 1}, 4*n, out); err != nil {
		t.Fatal(err)
	}
	got := make([]uint64, 1)
	if err := Download(s, got, out); err != nil {
		t.Fatal(err)
	}
	if got[0] != n*(n-1)/2 {
		t.Errorf("sum = %d, want %d", got[0], n*(n-1)/2)
	}
}
