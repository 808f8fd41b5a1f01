// Package scalar holds the CUDA prelude the native kernel sources share:
// the element types (float, double and the complex cfloat and cdouble) and
// the scalar helpers on them, in scalar.cuh. Source puts it in front of a
// kernel file, so each type and each rounding of a multiply-add is written
// once for every kernel.
package scalar

import (
	_ "embed"

	"github.com/batchlas/batchlas/internal/cuda"
)

//go:embed scalar.cuh
var prelude string

// Prelude is scalar.cuh's text.
func Prelude() string { return prelude }

// Source is the kernel source name with the prelude in front of code. A
// #line directive between them keeps compile errors pointing at name's own
// lines.
func Source(name, code string) cuda.Source {
	return cuda.Source{Name: name, Code: prelude + "\n#line 1 \"" + name + "\"\n" + code}
}
