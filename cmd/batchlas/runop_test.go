package main

import (
	"math"
	"math/cmplx"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/batchlas/batchlas/internal/npybatch"
)

// The run tests write inputs with npybatch, run the command on the CPU and
// check the results against arithmetic of their own in complex128 (NumPy
// itself was the check once: scripts/run-numpy-check).

func writeNpy[T npybatch.Elem](t *testing.T, dir, name string, shape []int, data []T) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := npybatch.Write(path, npybatch.Array[T]{Shape: shape, Data: data}); err != nil {
		t.Fatal(err)
	}
	return path
}

func readNpy[T npybatch.Elem](t *testing.T, path string) npybatch.Array[T] {
	t.Helper()
	a, err := npybatch.Read[T](path)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// spdRows returns count n×n Hermitian positive definite matrices in C order:
// M·Mᴴ + n·I with M's entries from a fixed sequence.
func spdRows(count, n int) []complex128 {
	out := make([]complex128, count*n*n)
	for m := range count {
		mm := make([]complex128, n*n)
		for i := range mm {
			mm[i] = complex(math.Sin(float64(7*i+m+1)), math.Cos(float64(3*i+2*m)))
		}
		a := out[m*n*n:]
		for i := range n {
			for j := range n {
				var s complex128
				for k := range n {
					s += mm[i*n+k] * cmplx.Conj(mm[j*n+k])
				}
				if i == j {
					s = complex(real(s)+float64(n), 0)
				}
				a[i*n+j] = s
			}
		}
	}
	return out
}

func TestRunPotrf(t *testing.T) {
	dir := t.TempDir()
	const count, n = 3, 6
	a := spdRows(count, n)
	in := make([]float64, len(a))
	for i, v := range a {
		in[i] = real(v) // the real part of a Hermitian positive definite matrix is one too
	}
	in[1*n*n+2*n+2] = -1 // matrix 1 fails at its third pivot
	pa := writeNpy(t, dir, "a.npy", []int{count, n, n}, in)
	out := filepath.Join(dir, "l.npy")
	code, _, stderr := runCLI("run", "potrf", "-a", pa, "-o", out, "-device", "cpu")
	if code != exitFailure || !strings.Contains(stderr, "failed: #1 (info 3)") {
		t.Fatalf("a failing matrix without -info: exit %d, stderr %q", code, stderr)
	}
	for _, uplo := range []string{"L", "U"} {
		info := filepath.Join(dir, "info.npy")
		if code, _, stderr := runCLI("run", "potrf", "-a", pa, "-o", out, "-info", info, "-uplo", uplo, "-device", "cpu"); code != exitOK {
			t.Fatalf("-uplo %s: exit %d: %s", uplo, code, stderr)
		}
		if got := readNpy[int32](t, info); !slices.Equal(got.Data, []int32{0, 3, 0}) || !slices.Equal(got.Shape, []int{count}) {
			t.Fatalf("info %v %v, want [0 3 0] of shape (3,)", got.Shape, got.Data)
		}
		l := readNpy[float64](t, out)
		for _, m := range []int{0, 2} {
			x := l.Data[m*n*n:]
			for i := range n {
				for j := range n {
					// L·Lᵀ (uplo L) or Uᵀ·U (uplo U) against A; the other triangle zero.
					var s float64
					for k := range n {
						if uplo == "L" {
							s += x[i*n+k] * x[j*n+k]
						} else {
							s += x[k*n+i] * x[k*n+j]
						}
					}
					if d := math.Abs(s - in[m*n*n+i*n+j]); d > 1e-12*float64(n*n) {
						t.Fatalf("-uplo %s matrix %d (%d, %d): factor gives %v, A %v", uplo, m, i, j, s, in[m*n*n+i*n+j])
					}
					if (uplo == "L" && j > i || uplo == "U" && i > j) && x[i*n+j] != 0 {
						t.Fatalf("-uplo %s matrix %d (%d, %d) = %v, outside the factor's triangle", uplo, m, i, j, x[i*n+j])
					}
				}
			}
		}
	}
}

func TestRunSolves(t *testing.T) {
	dir := t.TempDir()
	const count, n = 4, 5
	a := spdRows(count, n)
	in := make([]complex64, len(a))
	for i, v := range a {
		in[i] = complex64(v)
	}
	b := make([]complex64, count*n) // one right-hand side a matrix: shape (count, n)
	for i := range b {
		b[i] = complex(float32(i%7)-3, float32(i%3))
	}
	pa := writeNpy(t, dir, "a.npy", []int{count, n, n}, in)
	pb := writeNpy(t, dir, "b.npy", []int{count, n}, b)
	for _, op := range []string{"posv", "gesv"} {
		out := filepath.Join(dir, op+".npy")
		if code, _, stderr := runCLI("run", op, "-a", pa, "-b", pb, "-o", out, "-device", "cpu"); code != exitOK {
			t.Fatalf("%s: exit %d: %s", op, code, stderr)
		}
		x := readNpy[complex64](t, out)
		if !slices.Equal(x.Shape, []int{count, n}) {
			t.Fatalf("%s: X has shape %v, want B's (4, 5)", op, x.Shape)
		}
		for m := range count {
			for i := range n {
				var s complex128
				for k := range n {
					s += complex128(in[m*n*n+i*n+k]) * complex128(x.Data[m*n+k])
				}
				if d := cmplx.Abs(s - complex128(b[m*n+i])); d > 1e-4 {
					t.Fatalf("%s matrix %d row %d: A·X = %v, B %v", op, m, i, s, b[m*n+i])
				}
			}
		}
	}
}

func TestRunGetrfGemm(t *testing.T) {
	dir := t.TempDir()
	// One 3×2 matrix (two axes) whose LU needs a row interchange.
	a := []float32{1, 2, 4, 1, 2, 8}
	pa := writeNpy(t, dir, "a.npy", []int{3, 2}, a)
	lu, piv := filepath.Join(dir, "lu.npy"), filepath.Join(dir, "piv.npy")
	if code, _, stderr := runCLI("run", "getrf", "-a", pa, "-o", lu, "-pivots", piv, "-device", "cpu"); code != exitOK {
		t.Fatalf("getrf: exit %d: %s", code, stderr)
	}
	p := readNpy[int32](t, piv)
	f := readNpy[float32](t, lu)
	// Rows 1 and 2 (0-based) of A are [4 1] and [2 8]: pivot row 2 first, then row 1 ... P·A = L·U with L unit lower.
	if !slices.Equal(p.Shape, []int{2}) || !slices.Equal(f.Shape, []int{3, 2}) {
		t.Fatalf("shapes: pivots %v, LU %v", p.Shape, f.Shape)
	}
	pa2 := slices.Clone(a)
	for i, r := range p.Data {
		r-- // 1-based
		pa2[2*i], pa2[2*int(r)] = pa2[2*int(r)], pa2[2*i]
		pa2[2*i+1], pa2[2*int(r)+1] = pa2[2*int(r)+1], pa2[2*i+1]
	}
	for i := range 3 {
		for j := range 2 {
			var s float32
			for k := range min(i, j) + 1 {
				l := f.Data[2*i+k]
				if k == i {
					l = 1
				}
				s += l * f.Data[2*k+j]
			}
			if math.Abs(float64(s-pa2[2*i+j])) > 1e-5 {
				t.Fatalf("(L·U)(%d, %d) = %v, (P·A) %v; pivots %v, LU %v", i, j, s, pa2[2*i+j], p.Data, f.Data)
			}
		}
	}
	// gemm of a Fortran-order batch (NumPy's, npybatch's testdata: arange(24)
	// as 2×3×4) by identities gives arange(24) back, in C order.
	id := make([]float64, 2*4*4)
	for m := range 2 {
		for i := range 4 {
			id[m*16+i*5] = 1
		}
	}
	pi := writeNpy(t, dir, "id.npy", []int{2, 4, 4}, id)
	c := filepath.Join(dir, "c.npy")
	if code, _, stderr := runCLI("run", "gemm", "-a", filepath.Join("..", "..", "internal", "npybatch", "testdata", "f_f8.npy"), "-b", pi, "-o", c, "-device", "cpu"); code != exitOK {
		t.Fatalf("gemm: exit %d: %s", code, stderr)
	}
	got := readNpy[float64](t, c)
	for i, v := range got.Data {
		if v != float64(i) {
			t.Fatalf("gemm of the Fortran-order batch: element %d is %v, want %d (%v)", i, v, i, got.Data)
		}
	}
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	sq := writeNpy(t, dir, "sq.npy", []int{2, 3, 3}, make([]float64, 18))
	rect := writeNpy(t, dir, "rect.npy", []int{2, 3, 4}, make([]float64, 24))
	b1 := writeNpy(t, dir, "b1.npy", []int{3, 3}, make([]float64, 9))
	f32 := writeNpy(t, dir, "f32.npy", []int{2, 3, 1}, make([]float32, 6))
	d4 := writeNpy(t, dir, "d4.npy", []int{5}, make([]float64, 5))
	out := filepath.Join(dir, "out.npy")
	ints := filepath.Join("..", "..", "internal", "npybatch", "testdata", "i4.npy")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run"}, exitUsage, "no op given"},
		{[]string{"run", "potri", "-a", sq, "-o", out}, exitUsage, `unknown op "potri"`},
		{[]string{"run", "potrf", "-a", sq}, exitUsage, "needs -a and -o"},
		{[]string{"run", "posv", "-a", sq, "-o", out}, exitUsage, "posv needs -b"},
		{[]string{"run", "potrf", "-a", sq, "-b", sq, "-o", out}, exitUsage, "potrf takes no -b"},
		{[]string{"run", "potrf", "-a", sq, "-o", out, "-pivots", out}, exitUsage, "-pivots is for getrf and gesv"},
		{[]string{"run", "gemm", "-a", sq, "-b", sq, "-o", out, "-info", out}, exitUsage, "-info is for the ops that factor"},
		{[]string{"run", "potrf", "-a", sq, "-o", out, "-uplo", "X"}, exitUsage, `-uplo "X"`},
		{[]string{"run", "potrf", "-a", sq, "-o", out, "extra"}, exitUsage, `unexpected argument "extra"`},
		{[]string{"run", "potrf", "-a", ints, "-o", out, "-device", "cpu"}, exitFailure, "want float32, float64, complex64 or complex128"},
		{[]string{"run", "potrf", "-a", filepath.Join(dir, "none.npy"), "-o", out, "-device", "cpu"}, exitFailure, "no such file"},
		{[]string{"run", "potrf", "-a", rect, "-o", out, "-device", "cpu"}, exitFailure, "needs square matrices"},
		{[]string{"run", "potrf", "-a", d4, "-o", out, "-device", "cpu"}, exitFailure, "want (rows, cols) or (count, rows, cols)"},
		{[]string{"run", "posv", "-a", sq, "-b", b1, "-o", out, "-device", "cpu"}, exitFailure, "want as many matrices"},
		{[]string{"run", "posv", "-a", sq, "-b", f32, "-o", out, "-device", "cpu"}, exitFailure, "dtype float32, want float64"},
		{[]string{"run", "gemm", "-a", sq, "-b", rect, "-o", out, "-device", "cpu", "-route", "cpu:blockd"}, exitFailure, "names no candidate"},
		{[]string{"run", "gemm", "-a", rect, "-b", sq, "-o", out, "-device", "cpu"}, exitFailure, "A's columns must be B's rows"},
	} {
		code, _, stderr := runCLI(c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("batchlas %s: exit %d, stderr %q; want exit %d and %q", strings.Join(c.args, " "), code, stderr, c.code, c.want)
		}
	}
}
