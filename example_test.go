package batchlas_test

import (
	"errors"
	"fmt"

	"github.com/batchlas/batchlas"
)

// Factor a batch of symmetric positive definite matrices, one of which is
// not positive definite, and find out which.
func ExamplePotrf() {
	dev, _ := batchlas.OpenDevice("cpu")
	q, _ := dev.NewQueue()

	// Three 2×2 matrices, column-major, one after another.
	host := []float64{
		4, 2, 2, 3, // [4 2; 2 3]: positive definite
		1, 2, 2, 1, // [1 2; 2 1]: eigenvalues 3 and -1
		9, 0, 0, 16, // diag(9, 16)
	}
	a, _ := batchlas.NewBatch[float64](dev, 2, 2, 3)
	_ = a.Upload(q, host)
	info, _ := batchlas.NewInfo(dev, 3)
	_ = batchlas.Potrf(q, batchlas.Lower, a, info)
	if err := q.Wait(); err != nil {
		fmt.Println(err)
	}
	failed, _ := info.Failed(q)
	_ = a.Download(q, host)
	fmt.Println("failed:", failed)
	fmt.Println("L of the third:", host[8], host[9], host[11])
	// Output:
	// failed: [1]
	// L of the third: 3 0 4
}

// Without an Info, failed matrices are reported by Wait.
func ExampleFailedError() {
	dev, _ := batchlas.OpenDevice("cpu")
	q, _ := dev.NewQueue()
	a, _ := batchlas.NewBatch[float32](dev, 2, 2, 2)
	_ = a.Upload(q, []float32{1, 0, 0, 1, 0, 0, 0, 0})
	_ = batchlas.Potrf(q, batchlas.Lower, a, nil)
	err := q.Wait()
	fmt.Println(errors.Is(err, batchlas.ErrNumerical))
	fmt.Println(err)
	// Output:
	// true
	// batchlas: Potrf: 1 of 2 matrices failed: #1 (info 1)
}

// Solve A·X = B for a batch of small systems.
func ExampleGesv() {
	dev, _ := batchlas.OpenDevice("cpu")
	q, _ := dev.NewQueue()
	a, _ := batchlas.NewBatch[float64](dev, 2, 2, 1)
	b, _ := batchlas.NewBatch[float64](dev, 2, 1, 1)
	_ = a.Upload(q, []float64{0, 1, 2, 0}) // [0 2; 1 0]: needs a row interchange
	_ = b.Upload(q, []float64{4, 3})
	_ = batchlas.Gesv(q, a, nil, b, nil)
	x := make([]float64, 2)
	_ = b.Download(q, x)
	fmt.Println(x, q.Wait())
	// Output:
	// [3 2] <nil>
}

// Arguments are checked before any work is enqueued.
func ExampleArgError() {
	dev, _ := batchlas.OpenDevice("cpu")
	q, _ := dev.NewQueue()
	a, _ := batchlas.NewBatch[float64](dev, 3, 2, 1)
	err := batchlas.Potrf(q, batchlas.Lower, a, nil)
	fmt.Println(err)
	fmt.Println(errors.Is(err, batchlas.ErrShape))
	// Output:
	// batchlas: Potrf: a is 3×2, must be square
	// true
}

// A pin chooses the implementation of one call; one that cannot run the
// call is an error rather than a silent fallback.
func ExampleRoute() {
	dev, _ := batchlas.OpenDevice("cpu")
	q, _ := dev.NewQueue()
	a, _ := batchlas.NewBatch[float64](dev, 2, 2, 1)
	_ = a.Upload(q, []float64{4, 2, 2, 5})

	err := batchlas.Potrf(q, batchlas.Lower, a, nil, batchlas.Route("cpu:blocked"))
	fmt.Println("cpu:blocked:", err)

	err = batchlas.Potrf(q, batchlas.Lower, a, nil, batchlas.Route("vendor"))
	fmt.Println("vendor is unsupported here:", errors.Is(err, batchlas.ErrUnsupported))

	l := make([]float64, 4)
	_ = a.Download(q, l)
	fmt.Println(l[0], l[1], l[3], q.Wait())
	// Output:
	// cpu:blocked: <nil>
	// vendor is unsupported here: true
	// 2 1 2 <nil>
}
