package matbatch_test

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/matbatch"
)

// Factor a batch of covariance matrices held as gonum matrices and use the
// factors with gonum: a log-determinant each, as a Gaussian likelihood
// needs, and nil for the one that is not positive definite.
func ExampleCholesky() {
	covs := []*mat.SymDense{
		mat.NewSymDense(2, []float64{4, 2, 2, 3}),
		mat.NewSymDense(2, []float64{1, 2, 2, 1}), // eigenvalues 3 and −1
		mat.NewSymDense(2, []float64{9, 0, 0, 16}),
	}
	dev, _ := batchlas.OpenDevice("cpu")
	q, _ := dev.NewQueue()
	a, _ := batchlas.NewBatch[float64](dev, 2, 2, len(covs))
	info, _ := batchlas.NewInfo(dev, len(covs))
	if err := matbatch.Upload(q, a, covs); err != nil {
		fmt.Println(err)
		return
	}
	_ = batchlas.Potrf(q, batchlas.Lower, a, info)
	chols, err := matbatch.Cholesky(q, a, batchlas.Lower, info)
	if err != nil {
		fmt.Println(err)
		return
	}
	for k, c := range chols {
		if c == nil {
			fmt.Printf("%d: not positive definite\n", k)
			continue
		}
		fmt.Printf("%d: log det %.4f\n", k, c.LogDet())
	}
	// Output:
	// 0: log det 2.0794
	// 1: not positive definite
	// 2: log det 4.9698
}
