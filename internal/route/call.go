package route

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cuda"
)

// Device describes where a call runs: its table key and what CanRun needs to
// know about it.
type Device struct {
	// Key names the device's tables: "cpu" for the host, "sm_<cc>" for a
	// CUDA GPU of compute capability cc ("sm_90" on an H200).
	Key string
	// Vendor reports that cuBLAS and cuSOLVER are loaded.
	Vendor bool
	// SharedMemPerBlock is the opt-in shared memory a block may use, in bytes.
	SharedMemPerBlock int
	// MaxThreadsPerBlock is the largest block the device launches.
	MaxThreadsPerBlock int
	// Multiprocessors is the number of SMs.
	Multiprocessors int
	// FreeMemory is the memory the device can still allocate, in bytes;
	// 0 when unknown.
	FreeMemory int64
}

// GPU reports whether the device is not the host.
func (d Device) GPU() bool { return d.Key != "cpu" }

// Call is what a decision depends on: the op, the element type, the device
// and the shape. An op's table keys (Op.Keys) must be set; the other fields
// are there for CanRun.
type Call struct {
	Op     string // "potrf"
	DType  string // "float32", "float64", "complex64" or "complex128"
	Device Device

	// Integer keys, each ≥ 1 where the op keys on it.
	N     int // order, or columns
	Batch int // matrices in the batch
	NRHS  int // right-hand sides, or the other dimension of a triangular op's B
	M     int // rows
	K     int // inner dimension

	// Exact keys, LAPACK letters (see UploKey, SideKey, TransKey).
	Uplo   string // "L" or "U"
	Side   string // "L" or "R"
	Trans  string // "N", "T" or "C": op(A)
	TransB string // "N", "T" or "C": op(B) of gemm
}

// keyDef describes a key name that tables and ops may use.
type keyDef struct {
	exact  bool
	values []string // allowed values of an exact key
	get    func(c *Call) int
	text   func(c *Call) string
}

var trans = []string{"N", "T", "C"}

// keyDefs is the key vocabulary. A new key is a field of Call and a line here.
var keyDefs = map[string]keyDef{
	"n":      {get: func(c *Call) int { return c.N }},
	"batch":  {get: func(c *Call) int { return c.Batch }},
	"nrhs":   {get: func(c *Call) int { return c.NRHS }},
	"m":      {get: func(c *Call) int { return c.M }},
	"k":      {get: func(c *Call) int { return c.K }},
	"uplo":   {exact: true, values: []string{"L", "U"}, text: func(c *Call) string { return c.Uplo }},
	"side":   {exact: true, values: []string{"L", "R"}, text: func(c *Call) string { return c.Side }},
	"trans":  {exact: true, values: trans, text: func(c *Call) string { return c.Trans }},
	"transb": {exact: true, values: trans, text: func(c *Call) string { return c.TransB }},
}

func (d keyDef) valid(v string) bool {
	for _, w := range d.values {
		if v == w {
			return true
		}
	}
	return false
}

var dtypes = []string{"float32", "float64", "complex64", "complex128"}

func validDType(s string) bool {
	for _, d := range dtypes {
		if s == d {
			return true
		}
	}
	return false
}

// validDeviceKey reports whether s can name a device in a table file name.
func validDeviceKey(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '+') {
			return false
		}
	}
	return true
}

// keyText writes the op's keys of c as "uplo=L n=60 batch=5000".
func (c *Call) keyText(op *Op) string {
	var b strings.Builder
	for i, k := range op.Keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(k.Name)
		b.WriteByte('=')
		d := keyDefs[k.Name]
		if d.exact {
			b.WriteString(d.text(c))
		} else {
			b.WriteString(strconv.Itoa(d.get(c)))
		}
	}
	return b.String()
}

// check returns an ErrArgument error when c cannot be routed by op.
func (c *Call) check(op *Op) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: route %s: %s", core.ErrArgument, c.Op, fmt.Sprintf(format, args...))
	}
	if !validDType(c.DType) {
		return bad("dtype %q: want float32, float64, complex64 or complex128", c.DType)
	}
	if !validDeviceKey(c.Device.Key) {
		return bad("device key %q: want cpu or sm_<cc>", c.Device.Key)
	}
	for _, k := range op.Keys {
		d := keyDefs[k.Name]
		if d.exact {
			if v := d.text(c); !d.valid(v) {
				return bad("%s=%q: want one of %s", k.Name, v, strings.Join(d.values, ", "))
			}
		} else if v := d.get(c); v < 1 {
			return bad("%s=%d: a routed call has %s ≥ 1 (return early from empty work)", k.Name, v, k.Name)
		}
	}
	return nil
}

// UploKey is the exact-key spelling of u.
func UploKey(u core.Uplo) string {
	if u == core.Upper {
		return "U"
	}
	return "L"
}

// SideKey is the exact-key spelling of s.
func SideKey(s core.Side) string {
	if s == core.Right {
		return "R"
	}
	return "L"
}

// TransKey is the exact-key spelling of t. For real types the API should
// pass Trans for ConjTrans, so that both find the same rows.
func TransKey(t core.Transpose) string {
	switch t {
	case core.Trans:
		return "T"
	case core.ConjTrans:
		return "C"
	}
	return "N"
}

// Host is the CPU as a routing device.
func Host() Device { return Device{Key: "cpu"} }

// CUDADevice describes GPU d for routing; Vendor reports whether cuBLAS and
// cuSOLVER both load.
func CUDADevice(d *cuda.Device) Device {
	return Device{
		Key:                d.Arch(),
		Vendor:             cuda.CUBLASAvailable() == nil && cuda.CUSOLVERAvailable() == nil,
		SharedMemPerBlock:  d.MaxSharedPerBlockOptin,
		MaxThreadsPerBlock: d.MaxThreadsPerBlock,
		Multiprocessors:    d.SMs,
	}
}
