package batchlas

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchlas/batchlas/internal/cuda"
)

// TestStatusesWritten holds every candidate of storesEveryStatus to what
// Potrf relies on when it skips zeroing the statuses: with the Info full of
// garbage before the call, each matrix's status is afterwards 0, or for the
// one matrix that is not positive definite the order of its failing minor.
// Each candidate runs at orders across its tier (both ends for float32),
// both triangles, every type it can run at that order.
func TestStatusesWritten(t *testing.T) {
	q := testGPUQueue(t)
	orders := map[string][]int{"native:tiny": {1, 5, 32}, "native:warp": {33, 64}, "native:cta": {33, 65, 256}}
	for name := range storesEveryStatus {
		if orders[name] == nil {
			t.Errorf("%s has no orders to test", name)
		}
		for _, n := range orders[name] {
			for _, uplo := range []Uplo{Lower, Upper} {
				t.Run(fmt.Sprintf("%s/n=%d/%v", name, n, uplo), func(t *testing.T) {
					statusesCase[float32](t, q, name, uplo, n)
					statusesCase[float64](t, q, name, uplo, n)
					statusesCase[complex64](t, q, name, uplo, n)
					statusesCase[complex128](t, q, name, uplo, n)
				})
			}
		}
	}
}

func statusesCase[T Scalar](t *testing.T, q *Queue, name string, uplo Uplo, n int) {
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
	if err := Potrf(q, uplo, a, info, Route(name)); err != nil {
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
