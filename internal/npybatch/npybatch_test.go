package npybatch

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The files in testdata were written by NumPy 1.24 (np.save) from
// a = np.arange(24).reshape(2, 3, 4): c_f4.npy a as float32 in C order,
// f_f8.npy a as float64 in Fortran order, be_c16.npy a[0] + 1j·a[1] as
// big-endian complex128, f_c8.npy a[0] − 2j·a[1] as complex64 in Fortran
// order, i4.npy a as int32. NumPy 1.24 (numpy.lib.format.write_array) also
// wrote v2_f8.npy, a as float64 in format 2.0, and v3_f4.npy, a as
// big-endian float32 in Fortran order in format 3.0; np.save wrote
// scalar_c16.npy, the 0-d array 1.5 − 2j.

func arange(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(i)
	}
	return v
}

func TestReadNumPyFiles(t *testing.T) {
	c4, err := Read[float32](filepath.Join("testdata", "c_f4.npy"))
	if err != nil {
		t.Fatal(err)
	}
	f8, err := Read[float64](filepath.Join("testdata", "f_f8.npy"))
	if err != nil {
		t.Fatal(err)
	}
	want := arange(24)
	for i, v := range c4.Data {
		if float64(v) != want[i] {
			t.Fatalf("c_f4.npy element %d: %v, want %v", i, v, want[i])
		}
	}
	if !slices.Equal(c4.Shape, []int{2, 3, 4}) || !slices.Equal(f8.Shape, []int{2, 3, 4}) || !slices.Equal(f8.Data, want) {
		t.Fatalf("shapes %v %v; Fortran-order data in C order %v, want %v", c4.Shape, f8.Shape, f8.Data, want)
	}
	be, err := Read[complex128](filepath.Join("testdata", "be_c16.npy"))
	if err != nil {
		t.Fatal(err)
	}
	fc, err := Read[complex64](filepath.Join("testdata", "f_c8.npy"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 12 {
		if w := complex(want[i], want[i+12]); be.Data[i] != w {
			t.Fatalf("be_c16.npy element %d: %v, want %v", i, be.Data[i], w)
		}
		if w := complex64(complex(want[i], -2*want[i+12])); fc.Data[i] != w {
			t.Fatalf("f_c8.npy element %d: %v, want %v", i, fc.Data[i], w)
		}
	}
	for file, want := range map[string]string{"c_f4.npy": "float32", "f_f8.npy": "float64", "be_c16.npy": "complex128", "f_c8.npy": "complex64"} {
		if got, err := Dtype(filepath.Join("testdata", file)); got != want || err != nil {
			t.Errorf("Dtype(%s) = %q, %v; want %q", file, got, err, want)
		}
	}
}

// TestReadFormats reads formats 2.0 and 3.0 and a 0-d array.
func TestReadFormats(t *testing.T) {
	v2, err := Read[float64](filepath.Join("testdata", "v2_f8.npy"))
	if err != nil || !slices.Equal(v2.Shape, []int{2, 3, 4}) || !slices.Equal(v2.Data, arange(24)) {
		t.Errorf("v2_f8.npy: %v %v (%v)", v2.Shape, v2.Data, err)
	}
	v3, err := Read[float32](filepath.Join("testdata", "v3_f4.npy"))
	if err != nil || !slices.Equal(v3.Shape, []int{2, 3, 4}) {
		t.Fatalf("v3_f4.npy: %v (%v)", v3.Shape, err)
	}
	for i, v := range v3.Data {
		if float64(v) != float64(i) {
			t.Fatalf("v3_f4.npy element %d: %v", i, v)
		}
	}
	sc, err := Read[complex128](filepath.Join("testdata", "scalar_c16.npy"))
	if err != nil || len(sc.Shape) != 0 || !slices.Equal(sc.Data, []complex128{1.5 - 2i}) {
		t.Errorf("scalar_c16.npy: shape %v data %v (%v)", sc.Shape, sc.Data, err)
	}
}

func TestReadErrors(t *testing.T) {
	if _, err := Dtype(filepath.Join("testdata", "i4.npy")); err == nil || !strings.Contains(err.Error(), "want float32, float64, complex64 or complex128") {
		t.Errorf("int32 file: %v", err)
	}
	if _, err := Read[float64](filepath.Join("testdata", "c_f4.npy")); err == nil || !strings.Contains(err.Error(), "dtype float32, want float64") {
		t.Errorf("float32 file read as float64: %v", err)
	}
	if _, err := Read[float64](filepath.Join("testdata", "missing.npy")); err == nil {
		t.Error("a missing file read")
	}
	if _, err := Read[float64]("npybatch.go"); err == nil {
		t.Error("a Go file read as .npy")
	}
}

// TestWriteRoundTrip writes 1-, 2- and 3-D arrays and reads them back, and
// has NumPy read one where python3 with numpy is at hand.
func TestWriteRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, shape := range [][]int{{5}, {2, 3}, {2, 3, 4}, {0, 3, 3}} {
		n := 1
		for _, d := range shape {
			n *= d
		}
		a := Array[complex64]{Shape: shape, Data: make([]complex64, n)}
		for i := range a.Data {
			a.Data[i] = complex(float32(i), -float32(i))
		}
		path := filepath.Join(dir, "x.npy")
		if err := Write(path, a); err != nil {
			t.Fatal(err)
		}
		b, err := Read[complex64](path)
		if err != nil || !slices.Equal(b.Shape, shape) || !slices.Equal(b.Data, a.Data) {
			t.Fatalf("shape %v: read back %v %v (%v)", shape, b.Shape, b.Data, err)
		}
	}
	if err := Write(filepath.Join(dir, "x.npy"), Array[float32]{Shape: []int{2, 2}, Data: make([]float32, 3)}); err == nil {
		t.Error("a shape that does not match the data was written")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		return
	}
	// Each file with the NumPy expression of its array.
	files := map[string]string{
		"y.npy":  "numpy.arange(24.).reshape(2, 3, 4)",
		"s.npy":  "numpy.array(-2.5, dtype='f4')",
		"v.npy":  "numpy.array([1, -7, 3], dtype='i4')",
		"z.npy":  "numpy.arange(6).reshape(1, 2, 1, 3) * (1 - 1j)",
		"e.npy":  "numpy.zeros((0, 3, 3), dtype='c8')",
		"e1.npy": "numpy.zeros(0, dtype='f8')",
	}
	for name, err := range map[string]error{
		"y.npy":  Write(filepath.Join(dir, "y.npy"), Array[float64]{Shape: []int{2, 3, 4}, Data: arange(24)}),
		"s.npy":  Write(filepath.Join(dir, "s.npy"), Array[float32]{Shape: []int{}, Data: []float32{-2.5}}),
		"v.npy":  Write(filepath.Join(dir, "v.npy"), Array[int32]{Shape: []int{3}, Data: []int32{1, -7, 3}}),
		"z.npy":  Write(filepath.Join(dir, "z.npy"), Array[complex128]{Shape: []int{1, 2, 1, 3}, Data: []complex128{0, 1 - 1i, 2 - 2i, 3 - 3i, 4 - 4i, 5 - 5i}}),
		"e.npy":  Write(filepath.Join(dir, "e.npy"), Array[complex64]{Shape: []int{0, 3, 3}, Data: nil}),
		"e1.npy": Write(filepath.Join(dir, "e1.npy"), Array[float64]{Shape: []int{0}, Data: nil}),
	} {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	script := "import numpy, sys\nfor path, want in zip(sys.argv[1::2], sys.argv[2::2]):\n" +
		"    a, w = numpy.load(path), eval(want)\n" +
		"    print(path[-6:], a.shape == w.shape and a.dtype == w.dtype and bool((a == w).all()))\n"
	args := []string{"-c", script}
	for name, expr := range files {
		args = append(args, filepath.Join(dir, name), expr)
	}
	out, err := exec.Command(py, args...).CombinedOutput()
	if err != nil {
		t.Logf("no numpy to check with: %v %s", err, out)
		return
	}
	if strings.Contains(string(out), "False") || strings.Count(string(out), "True") != len(files) {
		t.Errorf("numpy reads:\n%s", out)
	}
}

func TestColumnMajor(t *testing.T) {
	// Two 2×3 matrices in C order: [[0 1 2] [3 4 5]], [[6 7 8] [9 10 11]].
	c := arange(12)
	col := ToColumnMajor(c, 2, 2, 3)
	if want := []float64{0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11}; !slices.Equal(col, want) {
		t.Fatalf("ToColumnMajor = %v, want %v", col, want)
	}
	if back := ToRowMajor(col, 2, 2, 3); !slices.Equal(back, c) {
		t.Fatalf("ToRowMajor = %v, want %v", back, c)
	}
}

// npyFile is a .npy file of format 1.0 with header dict and data.
func npyFile(dict string, data []byte) []byte {
	h := dict + strings.Repeat(" ", 64-(10+len(dict)+1)%64) + "\n"
	return append(append([]byte("\x93NUMPY\x01\x00"), byte(len(h)), byte(len(h)>>8)), append([]byte(h), data...)...)
}

// TestReadClaims: a header may claim any shape; Read refuses one that is
// negative or needs more data than the file holds before allocating for it
// (a 144-byte file claiming 2⁴⁰ float64s ran `batchlas run` out of memory,
// one claiming 2³²×2³² wrapped the count and panicked later).
func TestReadClaims(t *testing.T) {
	dir := t.TempDir()
	zeros := make([]byte, 32)
	for _, c := range []struct {
		shape string
		data  []byte
		want  string // "" for success
	}{
		{"(1099511627776,)", zeros[:16], "needs more than the 16 bytes of data"},
		{"(4294967296, 4294967296)", zeros[:16], "needs more than the 16 bytes of data"},
		{"(3, 4)", zeros, "needs more than the 32 bytes of data"},
		{"(-3, 4)", zeros, "negative dimension"},
		{"(-2, -2)", zeros, "negative dimension"},
		{"(-1, 0)", zeros, "negative dimension"},
		{"(2, 2)", zeros, ""},
		{"(2, 2)", append(zeros, 1, 2, 3), ""}, // bytes beyond the shape are ignored, as NumPy does
		{"(0, 5)", nil, ""},
	} {
		path := filepath.Join(dir, "x.npy")
		if err := os.WriteFile(path, npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': "+c.shape+", }", c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		a, err := Read[float64](path)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("shape %s, %d bytes: %v", c.shape, len(c.data), err)
		case c.want == "" && len(a.Data) != elements(a.Shape):
			t.Errorf("shape %s: %d elements for %v", c.shape, len(a.Data), a.Shape)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("shape %s, %d bytes: %v, want an error with %q", c.shape, len(c.data), err, c.want)
		}
	}
}

// FuzzRead: no file makes Read panic or return an array its file could not
// hold.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"c_f4.npy", "f_f8.npy", "be_c16.npy", "f_c8.npy", "i4.npy"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add(npyFile("{'descr': '<f8', 'fortran_order': True, 'shape': (2, 2, 1), }", make([]byte, 32)))
	f.Add(npyFile("{'descr': '<c16', 'fortran_order': False, 'shape': (1099511627776,), }", make([]byte, 16)))
	f.Fuzz(func(t *testing.T, file []byte) {
		path := filepath.Join(t.TempDir(), "x.npy")
		if err := os.WriteFile(path, file, 0o644); err != nil {
			t.Fatal(err)
		}
		_, _ = Dtype(path)
		check := func(shape []int, n, size int, err error) {
			if err == nil && (n != elements(shape) || n*size > len(file)) {
				t.Fatalf("%d elements of %d bytes for shape %v from a %d-byte file", n, size, shape, len(file))
			}
		}
		a, err := Read[float64](path)
		check(a.Shape, len(a.Data), 8, err)
		b, err := Read[complex64](path)
		check(b.Shape, len(b.Data), 8, err)
		c, err := Read[float32](path)
		check(c.Shape, len(c.Data), 4, err)
	})
}
