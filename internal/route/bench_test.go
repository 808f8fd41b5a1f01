package route

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// BenchmarkChoose routes against a table the size of a real potrf sweep
// (2 uplo × 34 n × 5 batch rows, synthetic times): the cost every op call pays.
func BenchmarkChoose(b *testing.B) {
	var t strings.Builder
	t.WriteString("op potrf\ndtype float32\ndevice sm_90\ndate 2026-01-01\nsource synthetic\nkeys uplo n batch\n")
	for _, u := range []string{"L", "U"} {
		for n := 1; n <= 1280; n = n*6/5 + 1 {
			for _, batch := range []int{128, 512, 2048, 8192, 32768} {
				fmt.Fprintf(&t, "%s %d %d native:tiny %d vendor %d cpu -\n", u, n, batch, n*batch/100+1, n*batch/50+2)
			}
		}
	}
	r, err := New(Config{Ops: testOps(), Tables: fstest.MapFS{"potrf.float32.sm_90.txt": {Data: []byte(t.String())}}, Getenv: func(string) string { return "" }})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(r.tables[tableID{"potrf", "float32", "sm_90"}].Rows)), "rows")
	c := potrf("float32", h200, "L", 24, 5000)
	for b.Loop() {
		if _, err := r.Choose(c, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkChooseBuiltin routes a small potrf call on an H200 with the
// embedded tables and the built-in candidates, as a Potrf call does.
func BenchmarkChooseBuiltin(b *testing.B) {
	r, err := New(Config{Getenv: func(string) string { return "" }})
	if err != nil {
		b.Fatal(err)
	}
	dev := Device{Key: "sm_90", Vendor: true, SharedMemPerBlock: 232448, MaxThreadsPerBlock: 1024, Multiprocessors: 132}
	c := potrf("float32", dev, "U", 32, 4096)
	for b.Loop() {
		if _, err := r.Choose(c, ""); err != nil {
			b.Fatal(err)
		}
	}
}
