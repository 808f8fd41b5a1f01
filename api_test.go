package batchlas_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/batchlas/batchlas"
)

func cpuQueue(t *testing.T) (*batchlas.Device, *batchlas.Queue) {
	t.Helper()
	dev, err := batchlas.OpenDevice("cpu")
	if err != nil {
		t.Fatal(err)
	}
	q, err := dev.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	return dev, q
}

// testDevices is the CPU and, where one works, the first GPU.
func testDevices(t *testing.T) []*batchlas.Device {
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

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func TestOpenDevice(t *testing.T) {
	for _, spec := range []string{"cpu", "CPU", "cpu:3", "auto"} {
		if _, err := batchlas.OpenDevice(spec); err != nil {
			t.Errorf("OpenDevice(%q): %v", spec, err)
		}
	}
	for _, spec := range []string{"tpu", "cpu:x", "cpu:0", "cuda:-1", "auto:1"} {
		_, err := batchlas.OpenDevice(spec)
		if !errors.Is(err, batchlas.ErrNoDevice) {
			t.Errorf("OpenDevice(%q) = %v, want ErrNoDevice", spec, err)
		}
	}
	if d := batchlas.Devices(); len(d) < 2 || d[0].Kind != batchlas.CPU || d[1].Kind != batchlas.CUDA {
		t.Errorf("Devices() = %+v, want the CPU then CUDA entries", d)
	}
}

// TestArgumentErrors calls each op with one bad argument and checks the
// error names the op and the argument and matches the right sentinel.
func TestArgumentErrors(t *testing.T) {
	dev, q := cpuQueue(t)
	other := must[*batchlas.Device](t)(batchlas.OpenDevice("cpu:1"))
	newB := func(r, c, n int) *batchlas.Batch[float64] {
		return must[*batchlas.Batch[float64]](t)(batchlas.NewBatch[float64](dev, r, c, n))
	}
	sq, rect, rhs := newB(4, 4, 3), newB(4, 3, 3), newB(4, 2, 3)
	foreign := must[*batchlas.Batch[float64]](t)(batchlas.NewBatch[float64](other, 4, 4, 3))
	short := must[*batchlas.Info](t)(batchlas.NewInfo(dev, 2))
	piv := must[*batchlas.Pivots](t)(batchlas.NewPivots(dev, 4, 3))
	piv3 := must[*batchlas.Pivots](t)(batchlas.NewPivots(dev, 3, 3))
	sub := must[*batchlas.Batch[float64]](t)(sq.View(0, 0, 4, 2))
	freed := newB(4, 4, 3)
	freed.Free()

	cases := []struct {
		name string
		err  error
		kind error
		want string
	}{
		{"nil queue", batchlas.Potrf(nil, batchlas.Lower, sq, nil), batchlas.ErrArgument, "Potrf: q is nil"},
		{"nil batch", batchlas.Potrf[float64](q, batchlas.Lower, nil, nil), batchlas.ErrArgument, "Potrf: a is nil"},
		{"not square", batchlas.Potrf(q, batchlas.Lower, rect, nil), batchlas.ErrShape, "Potrf: a is 4×3, must be square"},
		{"bad uplo", batchlas.Potrf(q, batchlas.Uplo(7), sq, nil), batchlas.ErrArgument, "Potrf: uplo"},
		{"short info", batchlas.Potrf(q, batchlas.Lower, sq, short), batchlas.ErrShape, "Potrf: info has 2 entries"},
		{"wrong device", batchlas.Potrf(q, batchlas.Lower, foreign, nil), batchlas.ErrDevice, "Potrf: a is on cpu:1"},
		{"freed", batchlas.Potrf(q, batchlas.Lower, freed, nil), batchlas.ErrArgument, "Potrf: a was freed"},
		{"rhs rows", batchlas.Potrs(q, batchlas.Lower, sq, newB(3, 2, 3)), batchlas.ErrShape, "Potrs: b has 3 rows"},
		{"rhs count", batchlas.Posv(q, batchlas.Lower, sq, newB(4, 2, 2), nil), batchlas.ErrShape, "Posv: b has 2 matrices"},
		{"overlap", batchlas.Potrs(q, batchlas.Lower, sq, sub), batchlas.ErrArgument, "Potrs: b overlaps a"},
		{"nil pivots", batchlas.Getrf(q, sq, nil, nil), batchlas.ErrArgument, "Getrf: pivots is nil"},
		{"pivot length", batchlas.Getrf(q, rect, piv, nil), batchlas.ErrShape, "Getrf: pivots hold 4 per matrix"},
		{"getrs trans", batchlas.Getrs(q, batchlas.Transpose(9), sq, piv, rhs), batchlas.ErrArgument, "Getrs: trans"},
		{"getri square", batchlas.Getri(q, rect, piv3, nil), batchlas.ErrShape, "Getri: a is 4×3"},
		{"inv shape", batchlas.Inv(q, sq, rect, nil), batchlas.ErrShape, "Inv: c is 4×3, want 4×4"},
		{"gemm inner", batchlas.Gemm(q, batchlas.NoTrans, batchlas.NoTrans, 1, rect, sq, 0, rhs), batchlas.ErrShape, "inner sizes differ"},
		{"gemm c", batchlas.Gemm(q, batchlas.NoTrans, batchlas.NoTrans, 1, sq, rhs, 0, sq), batchlas.ErrShape, "Gemm: c is 4×4, want 4×2"},
		{"gemm alias", batchlas.Gemm(q, batchlas.NoTrans, batchlas.NoTrans, 1, sq, sq, 0, sq), batchlas.ErrArgument, "overlaps"},
		{"trsm order", batchlas.Trsm(q, batchlas.Right, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, 1, sq, rhs), batchlas.ErrShape, "Trsm: a is 4×4, want 2×2"},
		{"trsm side", batchlas.Trsm(q, batchlas.Side(5), batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, 1, sq, rhs), batchlas.ErrArgument, "Trsm: side"},
		{"trmm diag", batchlas.Trmm(q, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.Diag(3), 1, sq, rhs), batchlas.ErrArgument, "Trmm: diag"},
		{"syrk c", batchlas.Syrk(q, batchlas.Lower, batchlas.Trans, 1, rect, 0, sq), batchlas.ErrShape, "Syrk: c is 4×4, want 3×3"},
	}
	for _, c := range cases {
		if c.err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if !errors.Is(c.err, c.kind) {
			t.Errorf("%s: %v does not match %v", c.name, c.err, c.kind)
		}
		if !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: %q does not contain %q", c.name, c.err, c.want)
		}
		var ae *batchlas.ArgError
		if !errors.As(c.err, &ae) {
			t.Errorf("%s: %v is not an *ArgError", c.name, c.err)
		}
	}
	// Complex-only rules.
	cdev := must[*batchlas.Batch[complex64]](t)(batchlas.NewBatch[complex64](dev, 3, 3, 1))
	if err := batchlas.Syrk(q, batchlas.Lower, batchlas.ConjTrans, 1, cdev, 0, cdev); !errors.Is(err, batchlas.ErrArgument) {
		t.Errorf("complex Syrk with ConjTrans: %v", err)
	}
	if err := batchlas.Herk(q, batchlas.Lower, batchlas.Trans, 1, cdev, 0, cdev); !errors.Is(err, batchlas.ErrArgument) {
		t.Errorf("complex Herk with Trans: %v", err)
	}
	if err := q.Wait(); err != nil {
		t.Errorf("argument errors left work behind: %v", err)
	}
}

func TestNewBatchErrors(t *testing.T) {
	dev, _ := cpuQueue(t)
	for _, c := range []struct{ rows, cols, count, ld, stride int }{
		{-1, 2, 1, 1, 2}, {2, 2, 1, 1, 4}, {2, 2, 2, 2, 3}, {0, 2, 2, 0, 0},
		// Sizes whose element count overflows int: 2³²+1 matrices at
		// stride 2³² (the span wrapped to 4 elements), ld·cols of 2⁸⁰.
		{2, 2, 1<<32 + 1, 2, 1 << 32}, {1 << 40, 1 << 40, 1, 1 << 40, 0},
	} {
		if _, err := batchlas.NewBatchStrided[float32](dev, c.rows, c.cols, c.count, c.ld, c.stride); !errors.Is(err, batchlas.ErrShape) {
			t.Errorf("NewBatchStrided%v = %v, want ErrShape", c, err)
		}
	}
	if _, err := batchlas.NewBatch[float32](nil, 1, 1, 1); !errors.Is(err, batchlas.ErrArgument) {
		t.Errorf("nil device: %v", err)
	}
	// 2⁴⁸ float64s: more than Go's heap can address, an error and not
	// make's panic.
	if _, err := batchlas.NewBatch[float64](dev, 1<<24, 1<<24, 1); !errors.Is(err, batchlas.ErrOutOfMemory) {
		t.Errorf("NewBatch of 2⁵¹ bytes: %v, want ErrOutOfMemory", err)
	}
	b := must[*batchlas.Batch[float32]](t)(batchlas.NewBatch[float32](dev, 4, 4, 3))
	for _, v := range [][4]int{{1, 1, 4, 1}, {1, 0, math.MaxInt, 1}, {0, 1, 1, math.MaxInt}, {math.MaxInt, 0, 1, 1}} {
		if _, err := b.View(v[0], v[1], v[2], v[3]); !errors.Is(err, batchlas.ErrShape) {
			t.Errorf("View%v outside: %v", v, err)
		}
	}
	if _, err := b.Slice(2, 4); !errors.Is(err, batchlas.ErrShape) {
		t.Errorf("Slice outside: %v", err)
	}
}

// TestUploadDownload round-trips every type, padded layouts and views, bit for bit.
func TestUploadDownload(t *testing.T) {
	for _, dev := range testDevices(t) {
		t.Run(dev.String(), func(t *testing.T) {
			roundTrip[float32](t, dev)
			roundTrip[float64](t, dev)
			roundTrip[complex64](t, dev)
			roundTrip[complex128](t, dev)
		})
	}
}

func roundTrip[T batchlas.Scalar](t *testing.T, dev *batchlas.Device) {
	q := must[*batchlas.Queue](t)(dev.NewQueue())
	rng := rand.New(rand.NewPCG(1, 2))
	const rows, cols, count = 5, 3, 4
	host := make([]T, rows*cols*count)
	for i := range host {
		host[i] = scalar[T](rng.NormFloat64(), rng.NormFloat64())
	}
	b := must[*batchlas.Batch[T]](t)(batchlas.NewBatchStrided[T](dev, rows, cols, count, rows+3, (rows+3)*cols+5))
	if err := b.Upload(q, host); err != nil {
		t.Fatal(err)
	}
	got := make([]T, len(host))
	if err := b.Download(q, got); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, host) {
		t.Fatalf("%T: round trip differs", got)
	}
	// A view of rows 1..3, column 1..2 of matrices 1..2.
	s := must[*batchlas.Batch[T]](t)(b.Slice(1, 3))
	v := must[*batchlas.Batch[T]](t)(s.View(1, 1, 3, 2))
	part := make([]T, 3*2*2)
	if err := v.Download(q, part); err != nil {
		t.Fatal(err)
	}
	for m := range 2 {
		for j := range 2 {
			for i := range 3 {
				want := host[(m+1)*rows*cols+(j+1)*rows+i+1]
				if got := part[m*6+j*3+i]; got != want {
					t.Fatalf("view (%d,%d) of matrix %d = %v, want %v", i, j, m, got, want)
				}
			}
		}
	}
	if err := b.Upload(q, host[1:]); !errors.Is(err, batchlas.ErrShape) {
		t.Errorf("short host: %v", err)
	}
}

// TestFailuresWithoutInfo checks that failed matrices surface from Wait, once.
func TestFailuresWithoutInfo(t *testing.T) {
	dev, q := cpuQueue(t)
	a := must[*batchlas.Batch[float64]](t)(batchlas.NewBatch[float64](dev, 2, 2, 4))
	nan := 0.0
	nan = nan / nan
	// identity, singular, identity, NaN
	if err := a.Upload(q, []float64{1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, nan, 0, 0, 1}); err != nil {
		t.Fatal(err)
	}
	if err := batchlas.Potrf(q, batchlas.Lower, a, nil); err != nil {
		t.Fatal(err)
	}
	err := q.Wait()
	var fe *batchlas.FailedError
	if !errors.As(err, &fe) || !errors.Is(err, batchlas.ErrNumerical) {
		t.Fatalf("Wait = %v, want a *FailedError", err)
	}
	if !slices.Equal(fe.Indices, []int{1, 3}) || !slices.Equal(fe.Info, []int32{1, 1}) {
		t.Errorf("failed %v with info %v, want [1 3] with [1 1]", fe.Indices, fe.Info)
	}
	if err := q.Wait(); err != nil {
		t.Errorf("second Wait = %v, want nil", err)
	}
}

func TestCanceledQueue(t *testing.T) {
	dev, _ := cpuQueue(t)
	ctx, cancel := context.WithCancel(context.Background())
	q := must[*batchlas.Queue](t)(dev.NewQueue(batchlas.WithContext(ctx)))
	a := must[*batchlas.Batch[float64]](t)(batchlas.NewBatch[float64](dev, 2, 2, 3))
	host := []float64{4, 0, 0, 4, 4, 0, 0, 4, 4, 0, 0, 4}
	_ = a.Upload(q, host)
	cancel()
	if err := batchlas.Potrf(q, batchlas.Lower, a, nil); err != nil {
		t.Fatal(err)
	}
	if err := q.Wait(); !errors.Is(err, batchlas.ErrCanceled) || !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait = %v, want ErrCanceled wrapping context.Canceled", err)
	}
	got := make([]float64, len(host))
	_ = a.Download(q, got)
	if !slices.Equal(got, host) {
		t.Errorf("a canceled op changed the batch: %v", got)
	}
}

// TestReleased: Free of a batch (twice, or of a view and then of its
// parent), of an Info and of Pivots, and Close of a queue, each twice; what
// was released is refused as an argument afterwards, and on a GPU memory
// freed twice is not handed to two new batches (the pool took a pointer
// freed twice back twice, so two live batches shared one block).
func TestReleased(t *testing.T) {
	for _, dev := range testDevices(t) {
		t.Run(dev.String(), func(t *testing.T) {
			q := must[*batchlas.Queue](t)(dev.NewQueue())
			a := must[*batchlas.Batch[float64]](t)(batchlas.NewBatch[float64](dev, 4, 4, 8))
			v := must[*batchlas.Batch[float64]](t)(a.View(0, 0, 2, 2))
			info := must[*batchlas.Info](t)(batchlas.NewInfo(dev, 8))
			piv := must[*batchlas.Pivots](t)(batchlas.NewPivots(dev, 4, 8))
			v.Free()
			a.Free()
			a.Free()
			info.Free()
			info.Free()
			piv.Free()
			piv.Free()
			// Two batches of the freed size must not share memory.
			b := must[*batchlas.Batch[float64]](t)(batchlas.NewBatch[float64](dev, 4, 4, 8))
			c := must[*batchlas.Batch[float64]](t)(batchlas.NewBatch[float64](dev, 4, 4, 8))
			x, y := make([]float64, 128), make([]float64, 128)
			for i := range x {
				x[i], y[i] = float64(i), -float64(i)-1
			}
			if err := errors.Join(b.Upload(q, x), c.Upload(q, y)); err != nil {
				t.Fatal(err)
			}
			got := make([]float64, 128)
			if err := b.Download(q, got); err != nil || !slices.Equal(got, x) {
				t.Fatalf("a batch after a double Free reads %v (%v), want what was uploaded to it", got[:4], err)
			}
			b2 := must[*batchlas.Batch[float64]](t)(batchlas.NewBatch[float64](dev, 4, 4, 2))
			if err := batchlas.Potrf(q, batchlas.Lower, a, nil); !errors.Is(err, batchlas.ErrArgument) {
				t.Errorf("Potrf on a freed batch: %v, want ErrArgument", err)
			}
			if err := batchlas.Potrf(q, batchlas.Lower, b2, info); !errors.Is(err, batchlas.ErrArgument) {
				t.Errorf("Potrf with a freed Info: %v, want ErrArgument", err)
			}
			if _, err := info.Values(q); !errors.Is(err, batchlas.ErrArgument) {
				t.Errorf("Values of a freed Info: %v, want ErrArgument", err)
			}
			if err := batchlas.Getrf(q, b2, piv, nil); !errors.Is(err, batchlas.ErrArgument) {
				t.Errorf("Getrf with freed Pivots: %v, want ErrArgument", err)
			}
			if err := errors.Join(q.Close(), q.Close()); err != nil {
				t.Fatalf("Close twice: %v", err)
			}
			if err := batchlas.Potrf(q, batchlas.Lower, b2, nil); !errors.Is(err, batchlas.ErrArgument) {
				t.Errorf("Potrf on a closed queue: %v, want ErrArgument", err)
			}
			if err := b2.Upload(q, make([]float64, 32)); !errors.Is(err, batchlas.ErrArgument) {
				t.Errorf("Upload on a closed queue: %v, want ErrArgument", err)
			}
			if err := q.Wait(); err != nil {
				t.Errorf("Wait on a closed queue: %v", err)
			}
			for _, r := range []interface{ Free() }{b, c, b2} {
				r.Free()
			}
		})
	}
}

// TestConcurrentQueues runs ops from many goroutines on one device, each on
// its own queue, and compares with one at a time.
func TestConcurrentQueues(t *testing.T) {
	for _, dev := range testDevices(t) {
		t.Run(dev.String(), func(t *testing.T) { concurrentQueues(t, dev) })
	}
}

func concurrentQueues(t *testing.T, dev *batchlas.Device) {
	q := must[*batchlas.Queue](t)(dev.NewQueue())
	const n, count, workers = 12, 16, 8
	rng := rand.New(rand.NewPCG(3, 4))
	host := make([]float64, n*n*count)
	for m := range count {
		for j := range n {
			for i := range n {
				v := rng.Float64() / n
				if i == j {
					v += 2
				}
				host[m*n*n+j*n+i] = v
			}
		}
	}
	solve := func(q *batchlas.Queue) ([]float64, error) {
		a, err := batchlas.NewBatch[float64](dev, n, n, count)
		if err != nil {
			return nil, err
		}
		c, _ := batchlas.NewBatch[float64](dev, n, n, count)
		_ = a.Upload(q, host)
		if err := batchlas.Inv(q, a, c, nil); err != nil {
			return nil, err
		}
		out := make([]float64, len(host))
		_ = c.Download(q, out)
		return out, q.Wait()
	}
	want, err := solve(q)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for range workers {
		wg.Go(func() {
			q, err := dev.NewQueue()
			if err != nil {
				errs <- err
				return
			}
			got, err := solve(q)
			if err == nil && !slices.Equal(got, want) {
				err = errors.New("concurrent result differs")
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// scalar makes a T from a real and an imaginary part (dropped for real T).
func scalar[T batchlas.Scalar](re, im float64) T {
	var z T
	switch any(z).(type) {
	case float32:
		return any(float32(re)).(T)
	case float64:
		return any(re).(T)
	case complex64:
		return any(complex(float32(re), float32(im))).(T)
	}
	return any(complex(re, im)).(T)
}

func TestCopy(t *testing.T) {
	dev, q := cpuQueue(t)
	host := []float64{1, 2, 3, 4, 5, 6, 7, 8}
	src := must[*batchlas.Batch[float64]](t)(batchlas.NewBatch[float64](dev, 2, 2, 2))
	dst := must[*batchlas.Batch[float64]](t)(batchlas.NewBatchStrided[float64](dev, 2, 2, 2, 3, 7))
	_ = src.Upload(q, host)
	if err := batchlas.Copy(q, src, dst); err != nil {
		t.Fatal(err)
	}
	got := make([]float64, len(host))
	_ = dst.Download(q, got)
	if !slices.Equal(got, host) || q.Wait() != nil {
		t.Errorf("Copy gave %v, want %v", got, host)
	}
	if err := batchlas.Copy(q, src, src); !errors.Is(err, batchlas.ErrArgument) {
		t.Errorf("Copy onto itself: %v, want ErrArgument", err)
	}
}

// TestOutOfMemory asks a GPU for more memory than it has: the error must
// match ErrOutOfMemory and the device must keep working.
func TestOutOfMemory(t *testing.T) {
	dev, err := batchlas.OpenDevice("cuda")
	if err != nil {
		t.Skipf("no GPU: %v", err)
	}
	const huge = 1 << 20 // 1 Mi matrices of 512×512 float64: 2 TiB
	if _, err := batchlas.NewBatch[float64](dev, 512, 512, huge); !errors.Is(err, batchlas.ErrOutOfMemory) {
		t.Fatalf("NewBatch of 2 TiB = %v, want ErrOutOfMemory", err)
	}
	q := must[*batchlas.Queue](t)(dev.NewQueue())
	a := must[*batchlas.Batch[float64]](t)(batchlas.NewBatch[float64](dev, 2, 2, 1))
	_ = a.Upload(q, []float64{4, 2, 2, 3})
	if err := batchlas.Potrf(q, batchlas.Lower, a, nil); err != nil {
		t.Fatal(err)
	}
	got := make([]float64, 4)
	if err := a.Download(q, got); err != nil || q.Wait() != nil || got[0] != 2 {
		t.Fatalf("after the failed allocation: %v, %v", got, err)
	}
}

// TestEmptyBatches: batches with no element (0 rows or columns, no
// matrices, and views of them) go through every transfer and op without
// touching memory. Views of an empty batch and 0×n uploads once panicked.
func TestEmptyBatches(t *testing.T) {
	for _, dev := range testDevices(t) {
		t.Run(dev.String(), func(t *testing.T) {
			q := must[*batchlas.Queue](t)(dev.NewQueue())
			for _, sh := range [][3]int{{0, 2, 1}, {2, 0, 3}, {3, 3, 0}, {0, 0, 2}} {
				b := must[*batchlas.Batch[float64]](t)(batchlas.NewBatch[float64](dev, sh[0], sh[1], sh[2]))
				views := []*batchlas.Batch[float64]{b}
				if sh[0] == 3 {
					views = append(views, must[*batchlas.Batch[float64]](t)(b.View(1, 1, 2, 2)))
				}
				for _, v := range views {
					if err := errors.Join(v.Upload(q, nil), v.Download(q, nil)); err != nil {
						t.Errorf("%v: transfers: %v", sh, err)
					}
					if v.Rows() != v.Cols() {
						continue
					}
					if err := batchlas.Potrf(q, batchlas.Lower, v, nil); err != nil {
						t.Errorf("%v: Potrf: %v", sh, err)
					}
					if err := batchlas.Gemm(q, batchlas.NoTrans, batchlas.NoTrans, 1, v, v, 0, v); err != nil && !errors.Is(err, batchlas.ErrArgument) {
						t.Errorf("%v: Gemm: %v", sh, err)
					}
					if err := batchlas.Posv(q, batchlas.Lower, v, v, nil); err != nil && !errors.Is(err, batchlas.ErrArgument) {
						t.Errorf("%v: Posv: %v", sh, err)
					}
				}
			}
			if err := q.Wait(); err != nil {
				t.Errorf("Wait: %v", err)
			}
		})
	}
}
