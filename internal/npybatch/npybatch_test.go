package npybatch

import (
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
// order, i4.npy a as int32.

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
	path := filepath.Join(dir, "y.npy")
	if err := Write(path, Array[float64]{Shape: []int{2, 3, 4}, Data: arange(24)}); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(py, "-c", "import numpy, sys; a = numpy.load(sys.argv[1]); print(a.shape, a.dtype, int((a == numpy.arange(24).reshape(2, 3, 4)).all()))", path).CombinedOutput()
	if err != nil {
		t.Logf("no numpy to check with: %v %s", err, out)
		return
	}
	if got := strings.TrimSpace(string(out)); got != "(2, 3, 4) float64 1" {
		t.Errorf("numpy reads %q", got)
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
