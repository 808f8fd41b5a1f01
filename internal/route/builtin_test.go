package route

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/batchlas/batchlas/internal/core"
)

// TestBuiltin: without tables, each built-in op runs on the vendor library
// on a GPU and on the cpu engine on the host, and says why when neither can.
func TestBuiltin(t *testing.T) {
	r, err := New(Config{Tables: fstest.MapFS{}, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Ops()) == 0 {
		t.Fatal("no ops")
	}
	for _, op := range r.Ops() {
		call := func(dev Device) Call {
			return Call{Op: op.Name, DType: "complex64", Device: dev, N: 8, M: 8, K: 8, NRHS: 8, Batch: 8,
				Uplo: "U", Side: "R", Trans: "C", TransB: "T"}
		}
		firstCPU, firstGPU := "cpu", "vendor"
		if op.Name == "potrf" || op.Name == "getrf" {
			firstCPU = "cpu:unblocked"
		}
		switch op.Name {
		case "potrf":
			firstGPU = "native:tiny"
		case "potrs", "posv":
			firstGPU = "native:fused"
		}
		for _, c := range []struct {
			dev  Device
			want string
		}{{h200, firstGPU}, {host, firstCPU}} {
			d, err := r.Choose(call(c.dev), "")
			if err != nil || d.Candidate.Name != c.want || d.Why != WhyDefault {
				t.Errorf("%s on %s: %v %s", op.Name, c.dev.Key, err, d)
			}
		}
		_, err := r.Choose(call(h200Bare), "")
		if firstGPU != "vendor" {
			// n = 8: the native tier needs no vendor library.
			if err != nil {
				t.Errorf("%s without vendor: %v", op.Name, err)
			}
		} else if !errors.Is(err, core.ErrUnsupported) || !strings.Contains(err.Error(), "vendor: cuBLAS and cuSOLVER are not loaded; "+firstCPU+": the cpu engine works on host memory; the batch is on sm_90") {
			t.Errorf("%s without vendor: %v", op.Name, err)
		}
		if _, err := r.Choose(call(host), "vendor"); !errors.Is(err, core.ErrUnsupported) || !strings.Contains(err.Error(), "cuBLAS and cuSOLVER need a GPU") {
			t.Errorf("%s vendor pin on the host: %v", op.Name, err)
		}
	}
	_, err = r.Choose(Call{Op: "getrf", DType: "float32", Device: h200, M: 9, N: 8, Batch: 8}, "")
	if !errors.Is(err, core.ErrUnsupported) || !strings.Contains(err.Error(), "square matrices only (m=9, n=8)") {
		t.Errorf("getrf 9×8: %v", err)
	}
	if op, _ := r.Op("potrf"); op.EnvName() != "BATCHLAS_POTRF_ROUTE" {
		t.Errorf("env name %s", op.EnvName())
	}
}

// TestTiledCandidate: the tiled driver needs no vendor library and is
// routed up to maxTiledN.
func TestTiledCandidate(t *testing.T) {
	r, err := New(Config{Tables: fstest.MapFS{}, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	call := Call{Op: "potrf", DType: "float64", Device: h200Bare, N: maxTiledN, Batch: 2, Uplo: "L"}
	if d, err := r.Choose(call, "native:tiled"); err != nil || d.Candidate.Name != "native:tiled" {
		t.Errorf("n = %d without vendor: %v %s", call.N, err, d)
	}
	call.N++
	if _, err := r.Choose(call, "native:tiled"); !errors.Is(err, core.ErrUnsupported) || !strings.Contains(err.Error(), "routed up to n = 4096") {
		t.Errorf("n = %d: %v", call.N, err)
	}
	call.Device = host
	if _, err := r.Choose(call, "native:tiled"); !errors.Is(err, core.ErrUnsupported) {
		t.Errorf("on the host: %v", err)
	}
	// Split-TF32 tile products: float32 only, up to maxTiledSplitN.
	split := Call{Op: "potrf", DType: "float32", Device: h200Bare, N: maxTiledSplitN, Batch: 1, Uplo: "U"}
	if d, err := r.Choose(split, "native:tiled:prec=tf32x3"); err != nil || d.Candidate.Name != "native:tiled:prec=tf32x3" {
		t.Errorf("float32 n = %d: %v %s", split.N, err, d)
	}
	split.N++
	if _, err := r.Choose(split, "native:tiled:prec=tf32x3"); !errors.Is(err, core.ErrUnsupported) || !strings.Contains(err.Error(), "routed up to n = 8192") {
		t.Errorf("float32 n = %d: %v", split.N, err)
	}
	split.N, split.DType = 100, "float64"
	if _, err := r.Choose(split, "native:tiled:prec=tf32x3"); !errors.Is(err, core.ErrUnsupported) {
		t.Errorf("float64: %v", err)
	}
	// Four and three blocks a multiprocessor: float32 only (three with
	// 3xTF32 only), with the ceilings of the precision.
	for name, limit := range map[string]int{"native:tiled:occ=4": maxTiledN, "native:tiled:occ=4:prec=tf32x3": maxTiledSplitN, "native:tiled:occ=3:prec=tf32x3": maxTiledSplitN} {
		four := Call{Op: "potrf", DType: "float32", Device: h200Bare, N: limit, Batch: 8, Uplo: "U"}
		for _, uplo := range []string{"L", "U"} {
			four.Uplo = uplo
			if d, err := r.Choose(four, name); err != nil || d.Candidate.Name != name {
				t.Errorf("%s float32 %s n = %d: %v %s", name, uplo, four.N, err, d)
			}
		}
		four.N++
		if _, err := r.Choose(four, name); !errors.Is(err, core.ErrUnsupported) || !strings.Contains(err.Error(), fmt.Sprintf("routed up to n = %d", limit)) {
			t.Errorf("%s float32 n = %d: %v", name, four.N, err)
		}
		four.N = 100
		for _, dt := range []string{"float64", "complex64", "complex128"} {
			four.DType = dt
			if _, err := r.Choose(four, name); !errors.Is(err, core.ErrUnsupported) || !strings.Contains(err.Error(), "float32 only") && !strings.Contains(err.Error(), "3xTF32") {
				t.Errorf("%s %s: %v", name, dt, err)
			}
		}
	}
}

// TestTiledPanelsCandidate: the blocked driver with tiled panels runs
// float32 where cuBLAS is (its outer products are 3xTF32), up to
// maxTiledPanelsN.
func TestTiledPanelsCandidate(t *testing.T) {
	r, err := New(Config{Tables: fstest.MapFS{}, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	const name = "native:blocked:panels=tiled:prec=tf32x3"
	call := Call{Op: "potrf", DType: "float32", Device: h200, N: maxTiledPanelsN, Batch: 1, Uplo: "U"}
	if d, err := r.Choose(call, name); err != nil || d.Candidate.Name != name {
		t.Errorf("float32 n = %d: %v %s", call.N, err, d)
	}
	call.N = maxTiledPanelsN + 1
	if _, err := r.Choose(call, name); !errors.Is(err, core.ErrUnsupported) || !strings.Contains(err.Error(), fmt.Sprintf("routed up to n = %d", maxTiledPanelsN)) {
		t.Errorf("float32 n = %d: %v", call.N, err)
	}
	for _, c := range []Call{
		{Op: "potrf", DType: "float64", Device: h200, N: 4096, Batch: 1, Uplo: "L"},
		{Op: "potrf", DType: "float32", Device: h200Bare, N: 4096, Batch: 1, Uplo: "L"},
	} {
		if _, err := r.Choose(c, name); !errors.Is(err, core.ErrUnsupported) {
			t.Errorf("%s on %+v: %v", c.DType, c.Device, err)
		}
	}
}

// TestComposedPosv: Posv's native:composed runs any order on a GPU with
// the vendor libraries (its substitutions are cuBLAS calls) and says so
// where it cannot run.
func TestComposedPosv(t *testing.T) {
	r, err := New(Config{Tables: fstest.MapFS{}, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	call := func(dev Device, n int) Call {
		return Call{Op: "posv", DType: "float32", Device: dev, Uplo: "L", N: n, NRHS: 4, Batch: 1000}
	}
	// Without tables the op's order decides: the fused kernels up to their
	// ceiling, then native:composed.
	for n, want := range map[int]string{32: "native:fused", 64: "native:fused", 65: "native:composed", 5000: "native:composed"} {
		if d, err := r.Choose(call(h200, n), ""); err != nil || d.Candidate.Name != want {
			t.Errorf("n=%d: %v %s, want %s", n, err, d, want)
		}
	}
	for _, c := range []struct {
		dev  Device
		want string
	}{{h200Bare, "the substitutions: cuBLAS and cuSOLVER are not loaded"}, {host, "the substitutions: cuBLAS and cuSOLVER need a GPU"}} {
		if _, err := r.Choose(call(c.dev, 64), "native:composed"); !errors.Is(err, core.ErrUnsupported) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("pinned on %s: %v, want %q", c.dev.Key, err, c.want)
		}
	}
}

func TestKeyHelpers(t *testing.T) {
	if UploKey(core.Lower) != "L" || UploKey(core.Upper) != "U" || SideKey(core.Left) != "L" || SideKey(core.Right) != "R" ||
		TransKey(core.NoTrans) != "N" || TransKey(core.Trans) != "T" || TransKey(core.ConjTrans) != "C" {
		t.Error("key spellings")
	}
}
