// Package npybatch reads and writes NumPy .npy files of float32, float64,
// complex64 or complex128 elements, and moves their data between NumPy's
// row-major (C order) arrays and batchlas's column-major batches.
//
// A file's array comes back in C order whatever order it was stored in, so
// that element (i₀, i₁, …) is at i₀·s₀ + i₁·s₁ + … with the last index
// fastest; Write always stores C order, which is what numpy.load returns by
// default.
package npybatch

import (
	"bufio"
	"fmt"
	"os"
	"reflect"
	"strings"

	"codeberg.org/sbinet/npyio/npy"
)

// Elem is an element type Write stores: batchlas's four, and int32 for
// statuses and pivots.
type Elem interface {
	~float32 | ~float64 | ~complex64 | ~complex128 | ~int32
}

// Array is an n-dimensional array in C order.
type Array[T Elem] struct {
	Shape []int
	Data  []T
}

// Dtype returns the element type of the array in path: "float32",
// "float64", "complex64" or "complex128" (either byte order), or an error
// naming the file's type when it is none of these.
func Dtype(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	r, err := npy.NewReader(bufio.NewReader(f))
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return dtypeOf(path, r.Header.Descr.Type)
}

func dtypeOf(path, descr string) (string, error) {
	t := npy.TypeFrom(descr)
	if t != nil {
		switch t.Kind() {
		case reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
			return t.Kind().String(), nil
		}
	}
	return "", fmt.Errorf("%s: dtype %s, want float32, float64, complex64 or complex128", path, descr)
}

// Read reads the array in path, whose dtype must be T's (Dtype says which
// it is), into C order.
func Read[T Elem](path string) (Array[T], error) {
	f, err := os.Open(path)
	if err != nil {
		return Array[T]{}, err
	}
	defer f.Close()
	r, err := npy.NewReader(bufio.NewReader(f))
	if err != nil {
		return Array[T]{}, fmt.Errorf("%s: %w", path, err)
	}
	want := reflect.TypeFor[T]().Kind()
	if t := npy.TypeFrom(r.Header.Descr.Type); t == nil || t.Kind() != want {
		if want == reflect.Int32 {
			return Array[T]{}, fmt.Errorf("%s: dtype %s, want int32", path, r.Header.Descr.Type)
		}
		dt, err := dtypeOf(path, r.Header.Descr.Type)
		if err != nil {
			return Array[T]{}, err
		}
		return Array[T]{}, fmt.Errorf("%s: dtype %s, want %s", path, dt, want)
	}
	shape := append([]int(nil), r.Header.Descr.Shape...)
	if elements(shape) == 0 {
		return Array[T]{Shape: shape, Data: []T{}}, nil // npyio reads no empty array
	}
	var data []T
	if err := r.Read(&data); err != nil {
		return Array[T]{}, fmt.Errorf("%s: %w", path, err)
	}
	if n := elements(shape); len(data) != n {
		return Array[T]{}, fmt.Errorf("%s: %d elements for shape %v, want %d", path, len(data), shape, n)
	}
	a := Array[T]{Shape: shape, Data: data}
	if r.Header.Descr.Fortran && len(shape) > 1 {
		a.Data = fortranToC(shape, data)
	}
	return a, nil
}

func elements(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// fortranToC reorders data, stored with the first index fastest, so that
// the last index is fastest.
func fortranToC[T any](shape []int, data []T) []T {
	out := make([]T, len(data))
	idx := make([]int, len(shape))
	for f := range data {
		// idx is the multi-index of Fortran position f; c its C position.
		c := 0
		for k := range shape {
			c = c*shape[k] + idx[k]
		}
		out[c] = data[f]
		for k := range idx {
			if idx[k]++; idx[k] < shape[k] {
				break
			}
			idx[k] = 0
		}
	}
	return out
}

// Write stores a in path in C order, replacing the file.
func Write[T Elem](path string, a Array[T]) error {
	if n := elements(a.Shape); len(a.Data) != n {
		return fmt.Errorf("npybatch: %d elements for shape %v, want %d", len(a.Data), a.Shape, n)
	}
	var v any
	switch len(a.Shape) {
	case 1, 2, 3:
		if len(a.Data) == 0 {
			return writeEmpty[T](path, a.Shape) // npyio writes an empty slice as shape ()
		}
	}
	switch len(a.Shape) {
	case 1:
		v = a.Data
	case 2:
		v = rows(a.Data, a.Shape[1], a.Shape[0])
	case 3:
		m := make([][][]T, a.Shape[0])
		per := a.Shape[1] * a.Shape[2]
		for i := range m {
			m[i] = rows(a.Data[i*per:(i+1)*per], a.Shape[2], a.Shape[1])
		}
		v = m
	default:
		return fmt.Errorf("npybatch: shape %v: only 1 to 3 dimensions are written", a.Shape)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	err = npy.Write(w, v)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeEmpty writes a header of format version 1.0 and no data: the
// magic string, the version, the header's length (little-endian uint16) and
// the header, a Python dict literal padded with spaces to a multiple of 64
// bytes in all and ended by a newline.
func writeEmpty[T Elem](path string, shape []int) error {
	descr := map[reflect.Kind]string{
		reflect.Float32: "<f4", reflect.Float64: "<f8", reflect.Complex64: "<c8", reflect.Complex128: "<c16", reflect.Int32: "<i4",
	}[reflect.TypeFor[T]().Kind()]
	dims := ""
	for _, d := range shape {
		dims += fmt.Sprintf("%d, ", d)
	}
	if len(shape) > 1 {
		dims = dims[:len(dims)-2]
	}
	h := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, dims)
	pad := 64 - (10+len(h)+1)%64
	h += strings.Repeat(" ", pad%64) + "\n"
	out := append([]byte("\x93NUMPY\x01\x00"), byte(len(h)), byte(len(h)>>8))
	return os.WriteFile(path, append(out, h...), 0o644)
}

// rows cuts data into count rows of width elements.
func rows[T any](data []T, width, count int) [][]T {
	r := make([][]T, count)
	for i := range r {
		r[i] = data[i*width : (i+1)*width : (i+1)*width]
	}
	return r
}

// ToColumnMajor returns the count rows×cols matrices of a C-order array
// (matrix m's element (i, j) at m·rows·cols + i·cols + j) packed column-major,
// matrix after matrix, as batchlas's Upload takes them.
func ToColumnMajor[T any](c []T, count, rows, cols int) []T {
	out := make([]T, len(c))
	for m := range count {
		src, dst := c[m*rows*cols:], out[m*rows*cols:]
		for i := range rows {
			for j := range cols {
				dst[i+j*rows] = src[i*cols+j]
			}
		}
	}
	return out
}

// ToRowMajor is the inverse of ToColumnMajor: packed column-major rows×cols
// matrices are C-order cols×rows ones, whose transposes it returns.
func ToRowMajor[T any](col []T, count, rows, cols int) []T {
	return ToColumnMajor(col, count, cols, rows)
}
