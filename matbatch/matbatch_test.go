package matbatch

import (
	"errors"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/batchlas/batchlas"
)

// devices is the CPU and, where one works, the first GPU: every transfer
// goes through Batch.Upload and Download, which differ by device.
func devices(t *testing.T) []*batchlas.Device {
	t.Helper()
	cpu, err := batchlas.OpenDevice("cpu")
	if err != nil {
		t.Fatal(err)
	}
	devs := []*batchlas.Device{cpu}
	if gpu, err := batchlas.OpenDevice("cuda"); err == nil {
		devs = append(devs, gpu)
	} else {
		t.Logf("no GPU, CPU only: %v", err)
	}
	return devs
}

func queue(t *testing.T, dev *batchlas.Device) *batchlas.Queue {
	t.Helper()
	q, err := dev.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	return q
}

func randDense(r *rand.Rand, rows, cols int) *mat.Dense {
	m := mat.NewDense(rows, cols, nil)
	for i := range rows {
		for j := range cols {
			m.Set(i, j, r.NormFloat64())
		}
	}
	return m
}

// TestRoundTrip uploads each kind of gonum matrix that Upload reads from
// its storage, and one it reads through At, and downloads them as Dense.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, dev := range devices(t) {
		q := queue(t, dev)
		// 3×5: rows and columns differ, so a transposed copy cannot pass.
		big := randDense(r, 6, 9)
		view := big.Slice(1, 4, 2, 7).(*mat.Dense) // a view whose stride is not its width
		wide := []mat.Matrix{randDense(r, 3, 5), view, mat.Transpose{Matrix: randDense(r, 5, 3)}}
		a, err := batchlas.NewBatchStrided[float64](dev, 3, 5, len(wide), 4, 23)
		if err != nil {
			t.Fatal(err)
		}
		if err := Upload(q, a, wide); err != nil {
			t.Fatal(err)
		}
		got, err := Download(q, a, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k := range wide {
			if !mat.Equal(got[k], wide[k]) {
				t.Errorf("%v: matrix %d came back\n%v\nnot\n%v", dev, k, mat.Formatted(got[k]), mat.Formatted(wide[k]))
			}
		}

		// Square kinds: symmetric (gonum stores its upper triangle), both
		// triangles, and a vector as a one-column batch.
		const n = 4
		sym := mat.NewSymDense(n, nil)
		lower, upper := mat.NewTriDense(n, mat.Lower, nil), mat.NewTriDense(n, mat.Upper, nil)
		for i := range n {
			for j := i; j < n; j++ {
				sym.SetSym(i, j, r.NormFloat64())
				lower.SetTri(j, i, r.NormFloat64())
				upper.SetTri(i, j, r.NormFloat64())
			}
		}
		square := []mat.Matrix{sym, lower, upper}
		s, _ := batchlas.NewBatch[float64](dev, n, n, len(square))
		if err := Upload(q, s, square); err != nil {
			t.Fatal(err)
		}
		back, err := Download(q, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k := range square {
			if !mat.Equal(back[k], square[k]) {
				t.Errorf("%v: square matrix %d came back\n%v\nnot\n%v", dev, k, mat.Formatted(back[k]), mat.Formatted(square[k]))
			}
		}
		vecs := []*mat.VecDense{mat.NewVecDense(n, []float64{1, 2, 3, 4}), mat.NewDense(n, 2, []float64{5, 9, 6, 10, 7, 11, 8, 12}).ColView(0).(*mat.VecDense)} // a column: increment 2
		v, _ := batchlas.NewBatch[float64](dev, n, 1, len(vecs))
		if err := Upload(q, v, vecs); err != nil {
			t.Fatal(err)
		}
		host := make([]float64, 2*n)
		if err := v.Download(q, host); err != nil || host[0] != 1 || host[3] != 4 || host[4] != 5 || host[7] != 8 {
			t.Errorf("%v: vectors came back as %v (%v)", dev, host, err)
		}
	}
}

// TestDownloadReuses: entries of the right size are written in place,
// others replaced, and dst fitted to the batch's count.
func TestDownloadReuses(t *testing.T) {
	dev, _ := batchlas.OpenDevice("cpu")
	q := queue(t, dev)
	a, _ := batchlas.NewBatch[float64](dev, 2, 3, 3)
	if err := a.Upload(q, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}); err != nil {
		t.Fatal(err)
	}
	keep, wrong := mat.NewDense(2, 3, nil), mat.NewDense(3, 2, nil)
	got, err := Download(q, a, []*mat.Dense{keep, wrong})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0] != keep || got[1] == wrong || got[2] == nil {
		t.Fatalf("dst not fitted: %d entries, kept %v, replaced %v", len(got), got[0] == keep, got[1] != wrong)
	}
	// Matrix 2 is [13 15 17; 14 16 18] column-major.
	if want := mat.NewDense(2, 3, []float64{13, 15, 17, 14, 16, 18}); !mat.Equal(got[2], want) {
		t.Errorf("matrix 2: %v", mat.Formatted(got[2]))
	}
	fewer, _ := a.Slice(0, 1)
	if got, _ = Download(q, fewer, got); len(got) != 1 || got[0] != keep {
		t.Errorf("a batch of one: %d entries", len(got))
	}
	// No element: empty matrices, and nothing to copy.
	empty, _ := batchlas.NewBatch[float64](dev, 0, 3, 2)
	if got, err := Download(q, empty, nil); err != nil || len(got) != 2 || !got[0].IsEmpty() {
		t.Errorf("0×3 matrices: %v, %v", got, err)
	}
	if err := Upload(q, empty, []*mat.Dense{{}, {}}); err != nil {
		t.Errorf("uploading empty matrices: %v", err)
	}
	noCols, _ := batchlas.NewBatch[float64](dev, 3, 0, 2)
	if err := Upload(q, noCols, []*mat.VecDense{{}, {}}); err != nil {
		t.Errorf("uploading empty vectors as 3×0 matrices: %v", err)
	}
}

func TestErrors(t *testing.T) {
	dev, _ := batchlas.OpenDevice("cpu")
	q := queue(t, dev)
	a, _ := batchlas.NewBatch[float64](dev, 2, 2, 2)
	rect, _ := batchlas.NewBatch[float64](dev, 2, 3, 2)
	info, _ := batchlas.NewInfo(dev, 2)
	short, _ := batchlas.NewInfo(dev, 1)
	m := mat.NewDense(2, 2, nil)
	var nilDense *mat.Dense
	for _, c := range []struct {
		name string
		err  error
		kind error
		text string
	}{
		{"nil batch", Upload(q, nil, []*mat.Dense{m, m}), batchlas.ErrArgument, "b is nil"},
		{"one matrix short", Upload(q, a, []*mat.Dense{m}), batchlas.ErrShape, "ms has 1 matrices for a batch of 2"},
		{"a nil pointer", Upload(q, a, []*mat.Dense{m, nilDense}), batchlas.ErrArgument, "ms[1] is nil"},
		{"a nil interface", Upload(q, a, []mat.Matrix{nil, m}), batchlas.ErrArgument, "ms[0] is nil"},
		{"a 2×3 matrix", Upload(q, a, []*mat.Dense{m, mat.NewDense(2, 3, nil)}), batchlas.ErrShape, "ms[1] is 2×3, the batch's matrices 2×2"},
		{"UploadC, nil batch", UploadC(q, (*batchlas.Batch[complex128])(nil), []*mat.CDense{}), batchlas.ErrArgument, "b is nil"},
		{"nil queue", Upload(nil, a, []*mat.Dense{m, m}), batchlas.ErrArgument, "Upload: q is nil"},
		{"Download, nil batch", second(Download(q, nil, nil)), batchlas.ErrArgument, "b is nil"},
		{"DownloadSym, 2×3", second(DownloadSym(q, rect, batchlas.Lower, nil)), batchlas.ErrShape, "not square"},
		{"DownloadSym, bad uplo", second(DownloadSym(q, a, batchlas.Uplo(7), nil)), batchlas.ErrArgument, "uplo"},
		{"Cholesky, no info", second(Cholesky(q, a, batchlas.Lower, nil)), batchlas.ErrArgument, "info is nil"},
		{"Cholesky, short info", second(Cholesky(q, a, batchlas.Lower, short)), batchlas.ErrShape, "info has 1 statuses for a batch of 2"},
		{"Cholesky, 2×3", second(Cholesky(q, rect, batchlas.Upper, info)), batchlas.ErrShape, "not square"},
	} {
		if !errors.Is(c.err, c.kind) || !strings.Contains(c.err.Error(), c.text) {
			t.Errorf("%s: %v, want %v with %q", c.name, c.err, c.kind, c.text)
		}
	}
}

func second[T any](_ T, err error) error { return err }

// TestDownloadSym reads one triangle only: the other holds NaNs.
func TestDownloadSym(t *testing.T) {
	for _, dev := range devices(t) {
		q := queue(t, dev)
		const n = 3
		for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
			// Column-major 3×3 with (i, j) = 10·i + j + 1 in the uplo
			// triangle and NaN in the other.
			host := make([]float64, n*n)
			for j := range n {
				for i := range n {
					host[j*n+i] = math.NaN()
					if (i >= j) == (uplo == batchlas.Lower) || i == j {
						host[j*n+i] = float64(10*i + j + 1)
					}
				}
			}
			a, _ := batchlas.NewBatch[float64](dev, n, n, 1)
			if err := a.Upload(q, host); err != nil {
				t.Fatal(err)
			}
			got, err := DownloadSym(q, a, uplo, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := range n {
				for j := range n {
					lo, hi := max(i, j), min(i, j)
					want := float64(10*lo + hi + 1)
					if uplo == batchlas.Upper {
						want = float64(10*hi + lo + 1)
					}
					if got[0].At(i, j) != want {
						t.Errorf("%v %v: (%d, %d) = %v, want %v", dev, uplo, i, j, got[0].At(i, j), want)
					}
				}
			}
		}
	}
}

// TestCholesky: Potrf's factors as gonum Cholesky values agree with
// gonum's own factorization, and a matrix Potrf failed gives nil.
func TestCholesky(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, dev := range devices(t) {
		q := queue(t, dev)
		for _, n := range []int{1, 5, 40} {
			for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
				syms := make([]*mat.SymDense, 3)
				for k := range syms {
					g := randDense(r, n, n)
					syms[k] = mat.NewSymDense(n, nil)
					syms[k].SymOuterK(1, g)
					for i := range n {
						syms[k].SetSym(i, i, syms[k].At(i, i)+float64(n))
					}
				}
				syms[1].SetSym(n-1, n-1, -1) // not positive definite: fails at n
				a, _ := batchlas.NewBatch[float64](dev, n, n, len(syms))
				info, _ := batchlas.NewInfo(dev, len(syms))
				if err := Upload(q, a, syms); err != nil {
					t.Fatal(err)
				}
				if err := batchlas.Potrf(q, uplo, a, info); err != nil {
					t.Fatal(err)
				}
				chols, err := Cholesky(q, a, uplo, info)
				if err != nil {
					t.Fatal(err)
				}
				if chols[1] != nil {
					t.Errorf("%v n=%d %v: the failed matrix has a factorization", dev, n, uplo)
				}
				for _, k := range []int{0, 2} {
					var want mat.Cholesky
					if !want.Factorize(syms[k]) {
						t.Fatalf("gonum cannot factor matrix %d", k)
					}
					if chols[k] == nil {
						t.Fatalf("%v n=%d %v: matrix %d has no factorization", dev, n, uplo, k)
					}
					var got, ref mat.TriDense
					chols[k].UTo(&got)
					want.UTo(&ref)
					if d := maxDiff(&got, &ref); d > 1e-12*float64(n) {
						t.Errorf("%v n=%d %v: matrix %d's U differs from gonum's by %g", dev, n, uplo, k, d)
					}
					if d := math.Abs(chols[k].LogDet() - want.LogDet()); d > 1e-10 {
						t.Errorf("%v n=%d %v: log-determinant off by %g", dev, n, uplo, d)
					}
				}
			}
		}
	}
}

func maxDiff(a, b mat.Matrix) float64 {
	r, c := a.Dims()
	d := 0.0
	for i := range r {
		for j := range c {
			d = max(d, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return d
}

// TestComplex uploads a CDense, a view of one and a conjugate transpose
// (read through At) and downloads them.
func TestComplex(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	rnd := func(rows, cols int) *mat.CDense {
		m := mat.NewCDense(rows, cols, nil)
		for i := range rows {
			for j := range cols {
				m.Set(i, j, complex(r.NormFloat64(), r.NormFloat64()))
			}
		}
		return m
	}
	for _, dev := range devices(t) {
		q := queue(t, dev)
		ms := []mat.CMatrix{rnd(2, 3), rnd(4, 5).Slice(1, 3, 1, 4), mat.ConjTranspose{CMatrix: rnd(3, 2)}}
		a, _ := batchlas.NewBatchStrided[complex128](dev, 2, 3, len(ms), 3, 11)
		if err := UploadC(q, a, ms); err != nil {
			t.Fatal(err)
		}
		got, err := DownloadC(q, a, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k, m := range ms {
			for i := range 2 {
				for j := range 3 {
					if g, w := got[k].At(i, j), m.At(i, j); cmplx.Abs(g-w) != 0 {
						t.Errorf("%v: matrix %d (%d, %d) = %v, want %v", dev, k, i, j, g, w)
					}
				}
			}
		}
	}
}
