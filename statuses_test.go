package batchlas

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/batchlas/batchlas/internal/cuda"
)

// TestStatusesWritten holds every candidate of storesEveryStatus and
// posvStoresEveryStatus to what Potrf and Posv rely on when they skip
// zeroing the statuses: with the Info full of garbage before the call, each
// matrix's status is afterwards 0, or for the one matrix that is not
// positive definite the order of its failing minor. Each candidate runs at
// orders across its tier (both ends for float32), both triangles, every
// type it can run at that order; Posv with one right-hand side and with
// none. (Posv's paths for thousands of systems are internal/gpu/posv's
// TestPosvApart's.)
func TestStatusesWritten(t *testing.T) {
	q := testGPUQueue(t)
	orders := map[string][]int{"native:tiny": {1, 5, 32}, "native:warp": {33, 64}, "native:cta": {33, 65, 256}}
	for name := range storesEveryStatus {
		if strings.HasPrefix(name, "native:tiled") {
			orders[name] = []int{1, 33, 97} // the failing minor (n + 1)/2 in the first diagonal tile, then in the second
		}
	}
	posvOrders := map[string][]int{"native:fused": {1, 5, 32, 33, 40, 48, 56, 64}}
	for _, c := range []struct {
		op     string
		stores map[string]bool
		orders map[string][]int
		rhs    []int
	}{{"Potrf", storesEveryStatus, orders, []int{0}}, {"Posv", posvStoresEveryStatus, posvOrders, []int{0, 1}}} {
		for name := range c.stores {
			if c.orders[name] == nil {
				t.Errorf("%s %s has no orders to test", c.op, name)
			}
			for _, n := range c.orders[name] {
				for _, uplo := range []Uplo{Lower, Upper} {
					for _, nrhs := range c.rhs {
						t.Run(fmt.Sprintf("%s/%s/n=%d/%v/nrhs=%d", c.op, name, n, uplo, nrhs), func(t *testing.T) {
							statusesCase[float32](t, q, c.op, name, uplo, n, nrhs)
							statusesCase[float64](t, q, c.op, name, uplo, n, nrhs)
							statusesCase[complex64](t, q, c.op, name, uplo, n, nrhs)
							statusesCase[complex128](t, q, c.op, name, uplo, n, nrhs)
						})
					}
				}
			}
		}
	}
}

// statusesCase runs op ("Potrf" or "Posv", with nrhs right-hand sides) by
// candidate name on 37 matrices of order n, one of them not positive
// definite, with garbage in the Info, and checks every status.
func statusesCase[T Scalar](t *testing.T, q *Queue, op, name string, uplo Uplo, n, nrhs int) {
	const count, bad = 37, 11
	failAt := (n + 1) / 2 // the leading minor of this order is not positive definite
	rng := rand.New(rand.NewPCG(uint64(n), 3))
	host := make([]T, n*n*count)
	for m := range count {
		a := host[m*n*n : (m+1)*n*n]
		for j := range n {
			for i := range n {
				if i == j {
					a[i+j*n] = realScalar[T](float64(n))
				} else {
					a[i+j*n] = realScalar[T](0.5*rng.Float64() - 0.25)
				}
			}
		}
		for i := range n { // symmetric
			for j := range i {
				a[i+j*n] = a[j+i*n]
			}
		}
		if m == bad {
			a[(failAt-1)*(n+1)] = realScalar[T](-1)
		}
	}
	a, err := NewBatch[T](q.Device(), n, n, count)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Free()
	if err := a.Upload(q, host); err != nil {
		t.Fatal(err)
	}
	info, err := NewInfo(q.Device(), count)
	if err != nil {
		t.Fatal(err)
	}
	if err := cuda.MemsetD32(q.gpu.stream, info.gpu.ptr, 0x7f7f7f7f, count); err != nil {
		t.Fatal(err)
	}
	call := func() error { return Potrf(q, uplo, a, info, Route(name)) }
	if op == "Posv" {
		b, err := NewBatch[T](q.Device(), n, nrhs, count)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Free()
		rhs := make([]T, n*nrhs*count)
		for i := range rhs {
			rhs[i] = realScalar[T](rng.Float64())
		}
		if err := b.Upload(q, rhs); err != nil {
			t.Fatal(err)
		}
		call = func() error { return Posv(q, uplo, a, b, info, Route(name)) }
	}
	if err := call(); err != nil {
		if errors.Is(err, ErrUnsupported) {
			return // not a type or order this candidate takes
		}
		t.Fatal(err)
	}
	got, err := info.Values(q)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]int32, count)
	want[bad] = int32(failAt)
	if !slices.Equal(got, want) {
		t.Errorf("%T: statuses %v, want %v", host[0], got, want)
	}
}

// testGPUQueue is a queue on the first GPU, closed at the end of the test, or
// skips the test with the reason there is none.
func testGPUQueue(t *testing.T) *Queue {
	t.Helper()
	dev, err := OpenDevice("cuda")
	if err != nil {
		t.Skip("no GPU:", err)
	}
	q, err := dev.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	return q
}
