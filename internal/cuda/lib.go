// Package cuda opens the CUDA driver, NVRTC, cuBLAS and cuSOLVER at run time
// with purego (no cgo) and wraps what batchlas needs of them: contexts bound
// to locked OS threads, streams, events, device memory, run-time kernel
// compilation with a cubin cache, and the batched vendor routines.
// Nothing here panics when a library or symbol is missing: every such case is
// an error wrapping core.ErrLibraryNotFound or core.ErrNoDevice.
package cuda

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/ebitengine/purego"

	"github.com/batchlas/batchlas/internal/core"
)

// LibDirEnv names a folder searched before any other for the CUDA libraries.
const LibDirEnv = "BATCHLAS_CUDA_LIB_DIR"

// Library is an opened shared library.
type Library struct {
	Name   string // the soname asked for, e.g. libcublas.so.13
	Path   string // what dlopen was given when it succeeded
	handle uintptr
}

// searchDirs lists the folders tried, in order, after the explicit override
// and the plain soname (the loader's own path): the toolkit folders
// named by CUDA_HOME/CUDA_PATH, the default toolkit, and the nvidia/*/lib
// folders of Python installs (pip wheels of torch and cupy carry the libraries).
func searchDirs() []string {
	var dirs []string
	if d := os.Getenv(LibDirEnv); d != "" {
		dirs = append(dirs, d)
	}
	for _, env := range []string{"CUDA_HOME", "CUDA_PATH"} {
		if d := os.Getenv(env); d != "" {
			dirs = append(dirs, filepath.Join(d, "lib64"), filepath.Join(d, "lib"))
		}
	}
	dirs = append(dirs, "/usr/local/cuda/lib64", "/usr/local/nvidia/lib64", "/usr/lib/wsl/lib")
	for _, pattern := range []string{
		"/usr/lib/python3*/site-packages/nvidia/*/lib",
		"/usr/local/lib/python3*/dist-packages/nvidia/*/lib",
		"/usr/local/lib/python3*/site-packages/nvidia/*/lib",
		"/opt/conda/lib/python3*/site-packages/nvidia/*/lib",
	} {
		matches, _ := filepath.Glob(pattern)
		sort.Strings(matches)
		dirs = append(dirs, matches...)
	}
	return dirs
}

// openLibrary opens the first of sonames that loads. With the override set,
// its folder is tried first; then the loader's own search (LD_LIBRARY_PATH,
// ld.so.cache); then the other known folders. The error lists every place
// tried, and the loader's reason for each library found that did not load
// (a dependency missing, another architecture, no permission).
func openLibrary(sonames ...string) (*Library, error) {
	if runtime.GOOS != "linux" {
		return nil, fmt.Errorf("%w: %s: CUDA is only supported on linux, not %s", core.ErrLibraryNotFound, sonames[0], runtime.GOOS)
	}
	var tried, refused []string
	try := func(soname, path string) *Library {
		h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err != nil {
			tried = append(tried, path)
			// Found: a file at that path, or for a bare soname a loader
			// message about something other than the soname itself.
			var found bool
			if filepath.IsAbs(path) {
				_, serr := os.Stat(path)
				found = serr == nil
			} else {
				found = !strings.HasPrefix(err.Error(), path+":")
			}
			if found {
				refused = append(refused, err.Error())
			}
			return nil
		}
		return &Library{Name: soname, Path: path, handle: h}
	}
	dirs := searchDirs()
	override := os.Getenv(LibDirEnv)
	for _, soname := range sonames {
		if override != "" {
			if l := try(soname, filepath.Join(override, soname)); l != nil {
				return l, nil
			}
		}
		if l := try(soname, soname); l != nil {
			return l, nil
		}
		for _, d := range dirs {
			if d == override {
				continue
			}
			if l := try(soname, filepath.Join(d, soname)); l != nil {
				return l, nil
			}
		}
	}
	err := fmt.Errorf("%w: %s (tried %s)", core.ErrLibraryNotFound, strings.Join(sonames, " or "), strings.Join(tried, ", "))
	if len(refused) > 0 {
		err = fmt.Errorf("%w; found but not loaded: %s", err, strings.Join(refused, "; "))
	}
	return nil, err
}

// Symbol returns the address of name, or an error if the library lacks it.
// Every binding goes through here, so an old library is an error, not a panic.
func (l *Library) Symbol(name string) (uintptr, error) {
	p, err := purego.Dlsym(l.handle, name)
	if err != nil || p == 0 {
		return 0, fmt.Errorf("%w: %s has no symbol %s", core.ErrLibraryNotFound, l.Path, name)
	}
	return p, nil
}

// symbols binds each name to its address in one pass and reports every
// missing one together.
func (l *Library) symbols(table map[string]*uintptr) error {
	var errs []error
	for name, dst := range table {
		p, err := l.Symbol(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		*dst = p
	}
	return errors.Join(errs...)
}

// call invokes a C function whose arguments are all integers or pointers
// (every CUDA, NVRTC, cuBLAS and cuSOLVER call we make passes scalars by
// pointer). SyscallN costs about 0.2 µs against about 1 µs for a
// reflection-bound function, which matters on the launch path.
// uintptrescapes keeps an address converted at the call site (&local) on the
// heap and alive until the C function returns.
//
//go:uintptrescapes
func call(fn uintptr, args ...uintptr) uintptr {
	r, _, _ := purego.SyscallN(fn, args...)
	return r
}

// once-per-process library handles; a failed open is remembered, not retried.
type lazyLib struct {
	once sync.Once
	lib  *Library
	err  error
}

func (z *lazyLib) get(sonames ...string) (*Library, error) {
	z.once.Do(func() { z.lib, z.err = openLibrary(sonames...) })
	return z.lib, z.err
}
