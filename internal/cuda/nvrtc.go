package cuda

import (
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// nvrtcSonames: CUDA 13's NVRTC first, then 12's (both compile for sm_90).
var nvrtcSonames = []string{"libnvrtc.so.13", "libnvrtc.so.12"}

// nvrtcResult is an NVRTC result code.
type nvrtcResult int32

var nvrtcResultNames = [...]string{
	"NVRTC_SUCCESS",
	"NVRTC_ERROR_OUT_OF_MEMORY",
	"NVRTC_ERROR_PROGRAM_CREATION_FAILURE",
	"NVRTC_ERROR_INVALID_INPUT",
	"NVRTC_ERROR_INVALID_PROGRAM",
	"NVRTC_ERROR_INVALID_OPTION",
	"NVRTC_ERROR_COMPILATION",
	"NVRTC_ERROR_BUILTIN_OPERATION_FAILURE",
	"NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION",
	"NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION",
	"NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID",
	"NVRTC_ERROR_INTERNAL_ERROR",
}

const (
	nvrtcErrorInvalidOption nvrtcResult = 5
	nvrtcErrorCompilation   nvrtcResult = 6
)

func (r nvrtcResult) Error() string {
	name := fmt.Sprintf("nvrtcResult(%d)", int32(r))
	if r >= 0 && int(r) < len(nvrtcResultNames) {
		name = nvrtcResultNames[r]
	}
	if n := loadedNVRTC(); n != nil && n.getErrorString != 0 {
		if text := cStringAt(call(n.getErrorString, uintptr(r))); text != "" && text != name {
			return fmt.Sprintf("%s (%d): %s", name, int32(r), text)
		}
	}
	return fmt.Sprintf("%s (%d)", name, int32(r))
}

func nvrtcCheck(r uintptr) error {
	if c := nvrtcResult(int32(uint32(r))); c != 0 {
		return c
	}
	return nil
}

// cStringAt reads a C string whose address came back as an integer. The
// round trip through memory keeps vet's unsafe-pointer check satisfied: the
// address points into the library's own memory, not Go's.
func cStringAt(p uintptr) string {
	return cString(*(**byte)(unsafe.Pointer(&p)))
}

type nvrtcAPI struct {
	lib          *Library
	major, minor int
	archs        []int // e.g. 75, 80, 86, 89, 90, ...; nil when the library cannot say

	version, getErrorString                          uintptr
	createProgram, destroyProgram, addNameExpression uintptr
	compileProgram, getProgramLogSize, getProgramLog uintptr
	getCUBINSize, getCUBIN, getPTXSize, getPTX       uintptr
	getLoweredName                                   uintptr
	getNumSupportedArchs, getSupportedArchs          uintptr // optional
}

var (
	nvrtcLib    lazyLib
	nvrtcOnce   sync.Once
	nvrtcVal    *nvrtcAPI
	nvrtcErr    error
	nvrtcLoaded struct {
		sync.Mutex
		api *nvrtcAPI
	}
)

// loadNVRTC opens NVRTC and binds it once per process; the error wraps
// core.ErrLibraryNotFound when the library or a symbol is missing.
func loadNVRTC() (*nvrtcAPI, error) {
	nvrtcOnce.Do(func() {
		lib, err := nvrtcLib.get(nvrtcSonames...)
		if err != nil {
			nvrtcErr = fmt.Errorf("cuda: NVRTC (the run-time CUDA compiler) did not load: %w", err)
			return
		}
		n := &nvrtcAPI{lib: lib}
		if err := lib.symbols(map[string]*uintptr{
			"nvrtcVersion":           &n.version,
			"nvrtcGetErrorString":    &n.getErrorString,
			"nvrtcCreateProgram":     &n.createProgram,
			"nvrtcDestroyProgram":    &n.destroyProgram,
			"nvrtcAddNameExpression": &n.addNameExpression,
			"nvrtcCompileProgram":    &n.compileProgram,
			"nvrtcGetProgramLogSize": &n.getProgramLogSize,
			"nvrtcGetProgramLog":     &n.getProgramLog,
			"nvrtcGetCUBINSize":      &n.getCUBINSize,
			"nvrtcGetCUBIN":          &n.getCUBIN,
			"nvrtcGetPTXSize":        &n.getPTXSize,
			"nvrtcGetPTX":            &n.getPTX,
			"nvrtcGetLoweredName":    &n.getLoweredName,
		}); err != nil {
			nvrtcErr = fmt.Errorf("cuda: NVRTC %s is incomplete: %w", lib.Path, err)
			return
		}
		n.getNumSupportedArchs, _ = lib.Symbol("nvrtcGetNumSupportedArchs")
		n.getSupportedArchs, _ = lib.Symbol("nvrtcGetSupportedArchs")
		nvrtcLoaded.Lock()
		nvrtcLoaded.api = n
		nvrtcLoaded.Unlock()

		var major, minor int32
		if err := nvrtcCheck(callp(n.version, uintptr(unsafe.Pointer(&major)), uintptr(unsafe.Pointer(&minor)))); err != nil {
			nvrtcErr = fmt.Errorf("cuda: nvrtcVersion: %w", err)
			return
		}
		n.major, n.minor = int(major), int(minor)
		if n.getNumSupportedArchs != 0 && n.getSupportedArchs != 0 {
			var count int32
			if nvrtcCheck(callp(n.getNumSupportedArchs, uintptr(unsafe.Pointer(&count)))) == nil && count > 0 && count < 1024 {
				archs := make([]int32, count)
				if nvrtcCheck(callp(n.getSupportedArchs, uintptr(unsafe.Pointer(&archs[0])))) == nil {
					for _, a := range archs {
						n.archs = append(n.archs, int(a))
					}
					sort.Ints(n.archs)
				}
			}
		}
		nvrtcVal = n
	})
	return nvrtcVal, nvrtcErr
}

// loadedNVRTC returns NVRTC if it has been opened, without opening it.
func loadedNVRTC() *nvrtcAPI {
	nvrtcLoaded.Lock()
	defer nvrtcLoaded.Unlock()
	return nvrtcLoaded.api
}

// NVRTCVersion reports the run-time compiler's version, loading it if needed.
func NVRTCVersion() (major, minor int, err error) {
	n, err := loadNVRTC()
	if err != nil {
		return 0, 0, err
	}
	return n.major, n.minor, nil
}

// versionString is the part of the cache key that names the compiler.
func (n *nvrtcAPI) versionString() string { return fmt.Sprintf("nvrtc-%d.%d", n.major, n.minor) }

// target picks what to compile for a device of compute capability
// major.minor: the real architecture (a cubin) when NVRTC knows it; otherwise
// the newest virtual architecture below it (PTX, which the driver compiles
// at load time), so a GPU newer than the compiler still works.
func (n *nvrtcAPI) target(major, minor int) (option, arch string, ptx bool, err error) {
	cc := major*10 + minor
	if n.archs == nil || slices.Contains(n.archs, cc) {
		arch = fmt.Sprintf("sm_%d", cc)
		return "--gpu-architecture=" + arch, arch, false, nil
	}
	best := 0
	for _, a := range n.archs {
		if a <= cc {
			best = a
		}
	}
	if best == 0 {
		return "", "", false, fmt.Errorf("cuda: NVRTC %d.%d cannot compile for compute capability %d.%d (it supports %v)", n.major, n.minor, major, minor, n.archs)
	}
	arch = fmt.Sprintf("compute_%d", best)
	return "--gpu-architecture=" + arch, arch, true, nil
}

// CompileError is a failed NVRTC compilation; Log is the compiler's output.
type CompileError struct {
	Source  string   // the source's name, e.g. copy.cu
	Options []string // every option given to NVRTC
	Result  error    // the NVRTC result code
	Log     string
}

func (e *CompileError) Error() string {
	return fmt.Sprintf("cuda: compiling %s (%s): %v\n%s", e.Source, strings.Join(e.Options, " "), e.Result, strings.TrimSpace(e.Log))
}

func (e *CompileError) Unwrap() error { return e.Result }

// nvrtcOutput is what one compilation produces.
type nvrtcOutput struct {
	image    []byte            // cubin, or PTX with its trailing NUL
	lowered  map[string]string // name expression → mangled symbol
	log      string
	duration time.Duration
}

// compile runs one NVRTC compilation: create, add the name expressions,
// compile, read the log, the image and the lowered names, destroy. NVRTC is
// thread-safe across programs, so compilations may run concurrently.
func (n *nvrtcAPI) compile(name, code string, nameExprs, options []string, ptx bool) (*nvrtcOutput, error) {
	start := time.Now()
	var prog uintptr
	codeC, nameC := cBytes(code), cBytes(name)
	if err := nvrtcCheck(callp(n.createProgram, uintptr(unsafe.Pointer(&prog)),
		uintptr(unsafe.Pointer(&codeC[0])), uintptr(unsafe.Pointer(&nameC[0])), 0, 0, 0)); err != nil {
		return nil, fmt.Errorf("cuda: nvrtcCreateProgram(%s): %w", name, err)
	}
	defer callp(n.destroyProgram, uintptr(unsafe.Pointer(&prog)))
	// Whether NVRTC copies the source is not documented: keep it alive
	// until the program is destroyed.
	defer runtime.KeepAlive(codeC)
	defer runtime.KeepAlive(nameC)

	exprsC := make([][]byte, len(nameExprs))
	for i, e := range nameExprs {
		exprsC[i] = cBytes(e)
		if err := nvrtcCheck(callp(n.addNameExpression, prog, uintptr(unsafe.Pointer(&exprsC[i][0])))); err != nil {
			return nil, fmt.Errorf("cuda: nvrtcAddNameExpression(%q) for %s: %w", e, name, err)
		}
	}

	// The option array holds pointers to Go memory, so it and every string
	// it points at are pinned for the call.
	var pin runtime.Pinner
	optsC := make([][]byte, len(options))
	optPtrs := make([]*byte, len(options)+1)
	for i, o := range options {
		optsC[i] = cBytes(o)
		optPtrs[i] = &optsC[i][0]
		pin.Pin(optPtrs[i])
	}
	pin.Pin(&optPtrs[0])
	compileErr := nvrtcCheck(callp(n.compileProgram, prog, uintptr(len(options)), uintptr(unsafe.Pointer(&optPtrs[0]))))
	pin.Unpin()

	log := n.programLog(prog)
	if compileErr != nil {
		return nil, &CompileError{Source: name, Options: slices.Clone(options), Result: compileErr, Log: log}
	}

	out := &nvrtcOutput{log: log, lowered: make(map[string]string, len(nameExprs))}
	sizeFn, getFn, what := n.getCUBINSize, n.getCUBIN, "CUBIN"
	if ptx {
		sizeFn, getFn, what = n.getPTXSize, n.getPTX, "PTX"
	}
	var size uint64
	if err := nvrtcCheck(callp(sizeFn, prog, uintptr(unsafe.Pointer(&size)))); err != nil {
		return nil, fmt.Errorf("cuda: nvrtcGet%sSize(%s): %w", what, name, err)
	}
	if size == 0 {
		return nil, fmt.Errorf("cuda: NVRTC produced an empty %s for %s (options %s)", what, name, strings.Join(options, " "))
	}
	out.image = make([]byte, size)
	if err := nvrtcCheck(callp(getFn, prog, uintptr(unsafe.Pointer(&out.image[0])))); err != nil {
		return nil, fmt.Errorf("cuda: nvrtcGet%s(%s): %w", what, name, err)
	}
	for i, e := range nameExprs {
		var mangled *byte
		// The identical expression string, as the NVRTC documentation requires.
		if err := nvrtcCheck(callp(n.getLoweredName, prog, uintptr(unsafe.Pointer(&exprsC[i][0])), uintptr(unsafe.Pointer(&mangled)))); err != nil {
			return nil, fmt.Errorf("cuda: nvrtcGetLoweredName(%q) for %s: %w", e, name, err)
		}
		// The string belongs to the program: copy it before the deferred destroy.
		out.lowered[e] = cString(mangled)
	}
	out.duration = time.Since(start)
	return out, nil
}

func (n *nvrtcAPI) programLog(prog uintptr) string {
	var size uint64
	if nvrtcCheck(callp(n.getProgramLogSize, prog, uintptr(unsafe.Pointer(&size)))) != nil || size <= 1 {
		return ""
	}
	buf := make([]byte, size)
	if nvrtcCheck(callp(n.getProgramLog, prog, uintptr(unsafe.Pointer(&buf[0])))) != nil {
		return ""
	}
	return strings.TrimRight(string(buf), "\x00")
}
