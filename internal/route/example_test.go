package route_test

import (
	"fmt"
	"testing/fstest"

	"github.com/batchlas/batchlas/internal/route"
)

// A table (synthetic numbers) and the decisions it gives.
func ExampleRouter_Choose() {
	const table = `# SYNTHETIC example; not a measurement.
op      potrf
dtype   float32
device  sm_90
date    2026-01-01
source  synthetic
keys    uplo n batch
L  16   8192   native:tiny 40   vendor 120   cpu:unblocked 9000
L  256  8192   vendor 2400
`
	r, err := route.New(route.Config{
		Tables: fstest.MapFS{"potrf.float32.sm_90.txt": {Data: []byte(table)}},
		Getenv: func(string) string { return "" },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	gpu := route.Device{Key: "sm_90", Vendor: true}
	for _, n := range []int{20, 100} {
		d, err := r.Choose(route.Call{Op: "potrf", DType: "float32", Device: gpu, Uplo: "L", N: n, Batch: 5000}, "")
		fmt.Println(d, err)
	}
	_, err = r.Choose(route.Call{Op: "potrf", DType: "float32", Device: gpu, Uplo: "L", N: 100, Batch: 5000}, "native:tiny")
	fmt.Println(err)
	// Output:
	// potrf float32 sm_90 uplo=L n=20 batch=5000 -> native:tiny: table; row tuned/potrf.float32.sm_90.txt:8 [uplo=L n=16 batch=8192] 40 µs <nil>
	// potrf float32 sm_90 uplo=L n=100 batch=5000 -> vendor: table; row tuned/potrf.float32.sm_90.txt:9 [uplo=L n=256 batch=8192] 2400 µs <nil>
	// batchlas: unsupported: route potrf float32 sm_90 uplo=L n=100 batch=5000: pinned native:tiny (code) cannot run it: the tier factors n ≤ 32, not 100
}
