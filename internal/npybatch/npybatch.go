// Package npybatch reads and writes NumPy .npy files of float32, float64,
// complex64 or complex128 elements, and moves their data between NumPy's
// row-major (C order) arrays and batchlas's column-major batches.
//
// A file's array comes back in C order whatever order it was stored in, so
// that element (i₀, i₁, …) is at i₀·s₀ + i₁·s₁ + … with the last index
// fastest; Write always stores C order, which is what numpy.load returns by
// default.
//
// The format (NumPy's format.py, versions 1.0 to 3.0) is parsed here rather
// than by a module: the files come from users, and every claim of a header
// (its length, its shape) is checked against the file before anything is
// allocated for it.
package npybatch

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
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

// magic starts every .npy file, before the format's major and minor version.
const magic = "\x93NUMPY"

// maxHeader bounds the header dictionary Read accepts. NumPy writes under
// 200 bytes for an array like ours and refuses to read more than 10,000 by
// default.
const maxHeader = 1 << 16

// header is what a file's header dictionary says of its array.
type header struct {
	descr   string // the dtype as written, e.g. "<f8"
	kind    reflect.Kind
	order   binary.ByteOrder
	fortran bool
	shape   []int
	data    int64 // bytes of the file after the header
}

// readHeader reads the header of the .npy file f and checks it: a known
// version, a header length the file holds, a dictionary with exactly the
// keys 'descr', 'fortran_order' and 'shape'. kind is reflect.Invalid for a
// dtype this package does not read; the caller says so with descr.
func readHeader(f *os.File) (header, error) {
	st, err := f.Stat()
	if err != nil {
		return header{}, err
	}
	var pre [12]byte
	if _, err := io.ReadFull(f, pre[:10]); err != nil || string(pre[:6]) != magic {
		return header{}, errors.New("not a .npy file (no \\x93NUMPY at its start)")
	}
	var size, start int64
	switch major := pre[6]; major {
	case 1:
		size, start = int64(binary.LittleEndian.Uint16(pre[8:])), 10
	case 2, 3:
		if _, err := io.ReadFull(f, pre[10:12]); err != nil {
			return header{}, fmt.Errorf(".npy header: %w", err)
		}
		size, start = int64(binary.LittleEndian.Uint32(pre[8:])), 12
	default:
		return header{}, fmt.Errorf(".npy format version %d.%d (1.0, 2.0 and 3.0 are read)", major, pre[7])
	}
	if size > maxHeader || start+size > st.Size() {
		return header{}, fmt.Errorf(".npy header of %d bytes in a file of %d (at most %d are read)", size, st.Size(), maxHeader)
	}
	text := make([]byte, size)
	if _, err := io.ReadFull(f, text); err != nil {
		return header{}, fmt.Errorf(".npy header: %w", err)
	}
	h, err := parseDict(string(text))
	if err != nil {
		shown := strings.TrimSpace(string(text))
		if len(shown) > 200 {
			shown = shown[:200] + "…"
		}
		return header{}, fmt.Errorf(".npy header %q: %w", shown, err)
	}
	h.kind, h.order = kindOf(h.descr)
	h.data = st.Size() - start - size
	return h, nil
}

// kindOf maps a dtype string to the element kind it stores and its byte
// order; reflect.Invalid for one this package does not read.
func kindOf(descr string) (reflect.Kind, binary.ByteOrder) {
	if len(descr) < 2 {
		return reflect.Invalid, nil
	}
	var order binary.ByteOrder
	switch descr[0] {
	case '<':
		order = binary.LittleEndian
	case '>':
		order = binary.BigEndian
	case '=':
		order = binary.NativeEndian
	default:
		return reflect.Invalid, nil
	}
	kind := map[string]reflect.Kind{
		"f4": reflect.Float32, "f8": reflect.Float64, "c8": reflect.Complex64, "c16": reflect.Complex128, "i4": reflect.Int32,
	}[descr[1:]]
	return kind, order
}

// parseDict reads the header's dictionary literal, as NumPy writes it:
// {'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), } and spaces;
// either quote, any key order, no other keys.
func parseDict(text string) (header, error) {
	p := dictParser{s: text}
	var h header
	seen := map[string]bool{}
	if !p.take('{') {
		return h, errors.New("no dictionary")
	}
	for !p.take('}') {
		key, ok := p.quoted()
		if !ok || !p.take(':') {
			return h, errors.New("a key is not a quoted string followed by ':'")
		}
		if seen[key] {
			return h, fmt.Errorf("key %q twice", key)
		}
		seen[key] = true
		switch key {
		case "descr":
			if h.descr, ok = p.quoted(); !ok {
				return h, errors.New("'descr' is not a string (structured dtypes are not read)")
			}
		case "fortran_order":
			switch {
			case p.word("True"):
				h.fortran = true
			case p.word("False"):
			default:
				return h, errors.New("'fortran_order' is neither True nor False")
			}
		case "shape":
			if h.shape, ok = p.tuple(); !ok {
				return h, errors.New("'shape' is not a tuple of integers")
			}
		default:
			return h, fmt.Errorf("unknown key %q", key)
		}
		if !p.take(',') && !p.peek('}') {
			return h, errors.New("no ',' or '}' after a value")
		}
	}
	if len(seen) != 3 {
		return h, errors.New("the dictionary needs 'descr', 'fortran_order' and 'shape'")
	}
	if strings.TrimSpace(p.s[p.i:]) != "" {
		return h, errors.New("text after the dictionary")
	}
	return h, nil
}

// dictParser reads the few Python literals a header holds, skipping the
// spaces before each token.
type dictParser struct {
	s string
	i int
}

func (p *dictParser) skip() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *dictParser) peek(c byte) bool {
	p.skip()
	return p.i < len(p.s) && p.s[p.i] == c
}

func (p *dictParser) take(c byte) bool {
	if p.peek(c) {
		p.i++
		return true
	}
	return false
}

func (p *dictParser) word(w string) bool {
	p.skip()
	if strings.HasPrefix(p.s[p.i:], w) {
		p.i += len(w)
		return true
	}
	return false
}

// quoted reads a string in single or double quotes, without escapes.
func (p *dictParser) quoted() (string, bool) {
	p.skip()
	if p.i >= len(p.s) || p.s[p.i] != '\'' && p.s[p.i] != '"' {
		return "", false
	}
	end := strings.IndexByte(p.s[p.i+1:], p.s[p.i])
	if end < 0 {
		return "", false
	}
	v := p.s[p.i+1 : p.i+1+end]
	p.i += end + 2
	return v, !strings.ContainsRune(v, '\\')
}

// tuple reads (d₀, d₁, …) of decimal integers, Python 2's NumPy's with an
// L suffix; a negative one is left to the shape's check, which names it.
func (p *dictParser) tuple() ([]int, bool) {
	if !p.take('(') {
		return nil, false
	}
	shape := []int{}
	for !p.take(')') {
		p.skip()
		j := p.i
		for j < len(p.s) && (p.s[j] >= '0' && p.s[j] <= '9' || j == p.i && p.s[j] == '-') {
			j++
		}
		d, err := strconv.Atoi(p.s[p.i:j])
		if err != nil {
			return nil, false
		}
		p.i = j
		p.word("L")
		shape = append(shape, d)
		if !p.take(',') && !p.peek(')') {
			return nil, false
		}
	}
	return shape, true
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
	h, err := readHeader(f)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return dtypeOf(path, h)
}

func dtypeOf(path string, h header) (string, error) {
	switch h.kind {
	case reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return h.kind.String(), nil
	}
	return "", fmt.Errorf("%s: dtype %s, want float32, float64, complex64 or complex128", path, h.descr)
}

// Read reads the array in path, whose dtype must be T's (Dtype says which
// it is), into C order.
func Read[T Elem](path string) (Array[T], error) {
	f, err := os.Open(path)
	if err != nil {
		return Array[T]{}, err
	}
	defer f.Close()
	h, err := readHeader(f)
	if err != nil {
		return Array[T]{}, fmt.Errorf("%s: %w", path, err)
	}
	want := reflect.TypeFor[T]().Kind()
	if h.kind != want {
		if want == reflect.Int32 {
			return Array[T]{}, fmt.Errorf("%s: dtype %s, want int32", path, h.descr)
		}
		dt, err := dtypeOf(path, h)
		if err != nil {
			return Array[T]{}, err
		}
		return Array[T]{}, fmt.Errorf("%s: dtype %s, want %s", path, dt, want)
	}
	n, err := elementsIn(h.shape, int64(reflect.TypeFor[T]().Size()), h.data)
	if err != nil {
		return Array[T]{}, fmt.Errorf("%s: %w", path, err)
	}
	data := make([]T, n)
	if err := binary.Read(bufio.NewReader(f), h.order, data); err != nil {
		return Array[T]{}, fmt.Errorf("%s: %w", path, err)
	}
	a := Array[T]{Shape: h.shape, Data: data}
	if h.fortran && len(h.shape) > 1 {
		a.Data = fortranToC(h.shape, data)
	}
	return a, nil
}

// elementsIn is the element count of shape, checked before anything is
// allocated for it: no negative dimension, and no more size-byte elements
// than the have bytes of data the file holds (a header may claim any
// shape; its product could also wrap). Bytes beyond the shape are ignored,
// as NumPy does.
func elementsIn(shape []int, size, have int64) (int, error) {
	if slices.ContainsFunc(shape, func(d int) bool { return d < 0 }) {
		return 0, fmt.Errorf("shape %v has a negative dimension", shape)
	}
	if slices.Contains(shape, 0) {
		return 0, nil
	}
	n, fit := int64(1), have/size
	for _, d := range shape {
		if n > fit/int64(d) {
			return 0, fmt.Errorf("shape %v of %d-byte elements needs more than the %d bytes of data the file holds", shape, size, have)
		}
		n *= int64(d)
	}
	return int(n), nil
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

// Write stores a in path in C order and little-endian, replacing the file.
// The format is 1.0, or 2.0 when the header needs more than 65,535 bytes.
func Write[T Elem](path string, a Array[T]) error {
	if slices.ContainsFunc(a.Shape, func(d int) bool { return d < 0 }) {
		return fmt.Errorf("npybatch: shape %v has a negative dimension", a.Shape)
	}
	if n := elements(a.Shape); len(a.Data) != n {
		return fmt.Errorf("npybatch: %d elements for shape %v, want %d", len(a.Data), a.Shape, n)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	_, err = w.Write(headerBytes[T](a.Shape))
	if err == nil {
		err = binary.Write(w, binary.LittleEndian, a.Data)
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// headerBytes is the preamble and header of an array of T of the given
// shape: the magic string, the version, the header's length (little-endian)
// and the header, a dictionary literal padded with spaces so that the data
// starts at a multiple of 64 bytes, ended by a newline.
func headerBytes[T Elem](shape []int) []byte {
	descr := map[reflect.Kind]string{
		reflect.Float32: "<f4", reflect.Float64: "<f8", reflect.Complex64: "<c8", reflect.Complex128: "<c16", reflect.Int32: "<i4",
	}[reflect.TypeFor[T]().Kind()]
	var dims bytes.Buffer
	for i, d := range shape {
		if i > 0 {
			dims.WriteString(", ")
		}
		dims.WriteString(strconv.Itoa(d))
	}
	if len(shape) == 1 {
		dims.WriteByte(',')
	}
	h := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, dims.String())
	// Format 1.0 gives the header's length 2 bytes, 2.0 four.
	major, lenBytes := byte(1), 2
	pad := func() int { return (64 - (8+lenBytes+len(h)+1)%64) % 64 }
	if len(h)+pad()+1 > 0xffff {
		major, lenBytes = 2, 4
	}
	h += strings.Repeat(" ", pad()) + "\n"
	out := append([]byte(magic), major, 0)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(h)))[:8+lenBytes]
	return append(out, h...)
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
