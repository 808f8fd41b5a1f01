package batchlas

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/batchlas/batchlas/internal/cuda"
	"github.com/batchlas/batchlas/internal/gpu/gputest"
)

var overheadFlag = flag.Bool("overhead", false, "run TestCallOverhead (GPU timing)")

// TestCallOverhead splits the time of k back-to-back small Potrf calls, as
// the cholesky-gpumode suite makes them, into the kernel, the info memset
// and the rest of the public call (for the tiled driver, kernel includes
// the memset of its flags): events around 16 calls of each arm, the
// median of 15 repetitions after an L2 eviction, and the host's wall time
// to enqueue the 16 calls. Run with -overhead on a GPU.
func TestCallOverhead(t *testing.T) {
	if !*overheadFlag {
		t.Skip("run with -overhead")
	}
	q := testGPUQueue(t)
	for _, tc := range []struct {
		uplo     Uplo
		n, count int
		tier     string
	}{
		{Upper, 32, 1, "native:tiny"}, {Upper, 32, 4096, "native:tiny"}, {Lower, 32, 4096, "native:tiny"},
		{Upper, 64, 1024, "native:cta"}, {Upper, 64, 1024, "native:warp"}, {Lower, 64, 1024, "native:warp"},
		{Upper, 128, 256, "native:cta"},
		{Upper, 256, 64, "native:tiled:prec=tf32x3"}, {Upper, 512, 16, "native:tiled:prec=tf32x3"},
	} {
		t.Run(fmt.Sprintf("%v/n=%d/batch=%d/%s", tc.uplo, tc.n, tc.count, tc.tier), func(t *testing.T) {
			overheadCase(t, q, tc.uplo, tc.n, tc.count, tc.tier)
		})
	}
}

func overheadCase(t *testing.T, q *Queue, uplo Uplo, n, count int, tier string) {
	const calls = 16
	dev := q.Device()
	host := make([]float32, n*n*count)
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	for m := range count {
		a := host[m*n*n : (m+1)*n*n]
		for j := range n {
			for i := j; i < n; i++ {
				v := float32(rng.Float64() - 0.5)
				if i == j {
					v = float32(n)
				}
				a[i+j*n], a[j+i*n] = v, v
			}
		}
	}
	pristine, err := NewBatch[float32](dev, n, n, calls*count)
	if err != nil {
		t.Fatal(err)
	}
	defer pristine.Free()
	work, err := NewBatch[float32](dev, n, n, calls*count)
	if err != nil {
		t.Fatal(err)
	}
	defer work.Free()
	var xs []*Batch[float32]
	var infos []*Info
	for j := range calls {
		p, err := pristine.Slice(j*count, (j+1)*count)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Upload(q, host); err != nil {
			t.Fatal(err)
		}
		x, err := work.Slice(j*count, (j+1)*count)
		if err != nil {
			t.Fatal(err)
		}
		info, err := NewInfo(dev, count)
		if err != nil {
			t.Fatal(err)
		}
		xs, infos = append(xs, x), append(infos, info)
	}
	s := q.gpu.stream
	// The candidate's own launches (the tiled driver's include the memset of
	// its flags), without the statuses' memset.
	kernel := func(x *Batch[float32], info *Info) error { return potrfArm(q, tier, uplo, x, info.gpu.ptr) }
	arms := []struct {
		name string
		call func(x *Batch[float32], info *Info) error
	}{
		{"kernel", kernel},
		{"memset+kernel", func(x *Batch[float32], info *Info) error {
			if err := cuda.MemsetD32(s, info.gpu.ptr, 0, int64(count)); err != nil {
				return err
			}
			return kernel(x, info)
		}},
		{"Potrf(" + tier + ")", func(x *Batch[float32], info *Info) error { return Potrf(q, uplo, x, info, Route(tier)) }},
		{"Potrf(auto)", func(x *Batch[float32], info *Info) error { return Potrf(q, uplo, x, info) }},
	}
	gpuUS := make([][]float64, len(arms))
	hostUS := make([][]float64, len(arms))
	for rep := -1; rep < 15; rep++ {
		for i, arm := range arms {
			if err := Copy(q, pristine, work); err != nil {
				t.Fatal(err)
			}
			if err := q.EvictCache(); err != nil {
				t.Fatal(err)
			}
			if err := q.Wait(); err != nil {
				t.Fatal(err)
			}
			d, h := marked(t, q, func() error {
				for j, x := range xs {
					if err := arm.call(x, infos[j]); err != nil {
						return err
					}
				}
				return nil
			})
			if rep >= 0 {
				gpuUS[i] = append(gpuUS[i], float64(d.Nanoseconds())/1e3/calls)
				hostUS[i] = append(hostUS[i], float64(h.Nanoseconds())/1e3/calls)
			}
		}
	}
	if err := q.Wait(); err != nil {
		t.Fatal(err)
	}
	for j, info := range infos {
		fails, err := info.Failed(q)
		if err != nil || len(fails) > 0 {
			t.Fatalf("input %d: failed %v, %v", j, fails, err)
		}
	}
	for i, arm := range arms {
		t.Logf("%-22s %8.2f µs per call on the GPU, %6.2f µs per call to enqueue", arm.name, gputest.Median(gpuUS[i]), gputest.Median(hostUS[i]))
	}
}

// TestPosvOverhead times Posv by native:fused with and without the info
// memset that Posv made before its kernels stored every status
// (posvStoresEveryStatus): one call per repetition after an L2 eviction,
// events around it (the memset inside them), as batchlas tune times a
// call; the median of 15 repetitions, the arms interleaved, every status
// checked. Run with -overhead on a GPU.
func TestPosvOverhead(t *testing.T) {
	if !*overheadFlag {
		t.Skip("run with -overhead")
	}
	q := testGPUQueue(t)
	for _, c := range []struct {
		uplo           Uplo
		n, nrhs, count int
	}{{Lower, 32, 1, 4096}, {Lower, 48, 16, 1024}, {Lower, 64, 16, 16384}, {Upper, 64, 16, 16384}} {
		t.Run(fmt.Sprintf("float32/%v/n=%d/nrhs=%d/batch=%d", c.uplo, c.n, c.nrhs, c.count), func(t *testing.T) {
			posvOverheadCase[float32](t, q, c.uplo, c.n, c.nrhs, c.count)
		})
		t.Run(fmt.Sprintf("float64/%v/n=%d/nrhs=%d/batch=%d", c.uplo, c.n, c.nrhs, c.count), func(t *testing.T) {
			posvOverheadCase[float64](t, q, c.uplo, c.n, c.nrhs, c.count)
		})
	}
}

func posvOverheadCase[T Scalar](t *testing.T, q *Queue, uplo Uplo, n, nrhs, count int) {
	dev := q.Device()
	rng := rand.New(rand.NewPCG(2, uint64(n)))
	hostA := make([]T, n*n*count)
	for m := range count {
		a := hostA[m*n*n : (m+1)*n*n]
		for j := range n {
			for i := j; i < n; i++ {
				v := realScalar[T](rng.Float64() - 0.5)
				if i == j {
					v = realScalar[T](float64(n))
				}
				a[i+j*n], a[j+i*n] = v, v
			}
		}
	}
	hostB := make([]T, n*nrhs*count)
	for i := range hostB {
		hostB[i] = realScalar[T](rng.Float64())
	}
	batch := func(rows, cols int, host []T) *Batch[T] {
		x, err := NewBatch[T](dev, rows, cols, count)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(x.Free)
		if host != nil {
			if err := x.Upload(q, host); err != nil {
				t.Fatal(err)
			}
		}
		return x
	}
	pa, pb := batch(n, n, hostA), batch(n, nrhs, hostB)
	a, b := batch(n, n, nil), batch(n, nrhs, nil)
	info, err := NewInfo(dev, count)
	if err != nil {
		t.Fatal(err)
	}
	s := q.gpu.stream
	posv := func() error { return Posv(q, uplo, a, b, info, Route("native:fused")) }
	arms := []struct {
		name string
		call func() error
	}{
		{"memset+Posv", func() error {
			if err := cuda.MemsetD32(s, info.gpu.ptr, 0, int64(count)); err != nil {
				return err
			}
			return posv()
		}},
		{"Posv", posv},
	}
	us := make([][]float64, len(arms))
	for rep := -1; rep < 15; rep++ {
		for i, arm := range arms {
			if err := errors.Join(Copy(q, pa, a), Copy(q, pb, b), q.EvictCache(), q.Wait()); err != nil {
				t.Fatal(err)
			}
			d, _ := marked(t, q, arm.call)
			if fails, err := info.Failed(q); err != nil || len(fails) > 0 {
				t.Fatalf("%s: failed %v, %v", arm.name, fails, err)
			}
			if rep >= 0 {
				us[i] = append(us[i], float64(d.Nanoseconds())/1e3)
			}
		}
	}
	for i, arm := range arms {
		t.Logf("%-12s %9.2f µs per call on the GPU", arm.name, gputest.Median(us[i]))
	}
}

// marked enqueues on q between two marks and returns the device time
// between the marks and the host time the enqueueing took.
func marked(t *testing.T, q *Queue, enqueue func() error) (device, host time.Duration) {
	t.Helper()
	start, err := q.Mark()
	if err != nil {
		t.Fatal(err)
	}
	defer start.Release()
	t0 := time.Now()
	if err := enqueue(); err != nil {
		t.Fatal(err)
	}
	host = time.Since(t0)
	end, err := q.Mark()
	if err != nil {
		t.Fatal(err)
	}
	defer end.Release()
	if device, err = end.Since(start); err != nil {
		t.Fatal(err)
	}
	return device, host
}
