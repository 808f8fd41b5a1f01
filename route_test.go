package batchlas_test

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"slices"
	"testing"

	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/internal/gpu/posv"
	"github.com/batchlas/batchlas/internal/oracle"
)

// spdBatch returns count n×n Hermitian positive definite matrices of
// condition 100, packed.
func spdBatch[T batchlas.Scalar](n, count int, seed uint64) []T {
	g := oracle.GenFor[T](seed)
	out := make([]T, 0, n*n*count)
	for range count {
		for _, v := range g.SPD(n, 100).Data {
			out = append(out, oracle.FromComplex[T](v))
		}
	}
	return out
}

// maxDiff is the largest |x − y| over the uplo triangles of two batches of
// n×n matrices, relative to the largest |x|.
func maxDiff[T batchlas.Scalar](x, y []T, n int, uplo batchlas.Uplo) float64 {
	var diff, size float64
	for k := range x {
		i, j := k%n, k/n%n
		if uplo == batchlas.Lower && i < j || uplo == batchlas.Upper && i > j {
			continue
		}
		diff = max(diff, cmplx.Abs(toC(x[k])-toC(y[k])))
		size = max(size, cmplx.Abs(toC(x[k])))
	}
	return diff / size
}

func toC[T batchlas.Scalar](v T) complex128 { return oracle.ToComplex(v) }

// potrfWith factors a copy of host on dev with opts and returns the result
// and the error of the call (not of Wait, which must succeed); every matrix
// must factor.
func potrfWith[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, uplo batchlas.Uplo, n, count int, host []T, opts ...batchlas.CallOption) ([]T, error) {
	t.Helper()
	out, info, err := potrfInfo(t, q, uplo, n, count, host, opts...)
	if err == nil && slices.ContainsFunc(info, func(v int32) bool { return v != 0 }) {
		t.Fatalf("info %v for SPD input", info)
	}
	return out, err
}

// potrfInfo is potrfWith with the statuses returned instead of checked.
func potrfInfo[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, uplo batchlas.Uplo, n, count int, host []T, opts ...batchlas.CallOption) ([]T, []int32, error) {
	t.Helper()
	a := must[*batchlas.Batch[T]](t)(batchlas.NewBatch[T](q.Device(), n, n, count))
	defer a.Free()
	if err := a.Upload(q, host); err != nil {
		t.Fatal(err)
	}
	info := must[*batchlas.Info](t)(batchlas.NewInfo(q.Device(), count))
	defer info.Free()
	callErr := batchlas.Potrf(q, uplo, a, info, opts...)
	out := make([]T, len(host))
	if err := a.Download(q, out); err != nil {
		t.Fatal(err)
	}
	if err := q.Wait(); err != nil {
		t.Fatal(err)
	}
	got, err := info.Values(q)
	if err != nil {
		t.Fatal(err)
	}
	return out, got, callErr
}

// TestRoutePins: pins in code, on the queue and in the environment, and
// their errors, on the CPU (no GPU needed).
func TestRoutePins(t *testing.T) {
	const n, count = 12, 5
	dev, q := cpuQueue(t)
	host := spdBatch[float64](n, count, 1)
	want, err := potrfWith(t, q, batchlas.Lower, n, count, host)
	if err != nil {
		t.Fatal(err)
	}
	// Both drivers of the cpu engine, pinned per call, agree with auto.
	for _, pin := range []string{"auto", "cpu", "cpu:unblocked", "cpu:blocked"} {
		got, err := potrfWith(t, q, batchlas.Lower, n, count, host, batchlas.Route(pin))
		if err != nil {
			t.Errorf("pin %s: %v", pin, err)
		} else if d := maxDiff(got, want, n, batchlas.Lower); d > 1e-13 {
			t.Errorf("pin %s: differs from auto by %g", pin, d)
		}
	}
	// Pins that cannot run are errors, and the batch is left alone.
	for pin, want := range map[string]error{
		"vendor":         batchlas.ErrUnsupported, // no GPU under a CPU queue
		"native":         batchlas.ErrUnsupported,
		"native:nope":    batchlas.ErrUnsupported, // no such candidate
		"cpu:unblocked!": batchlas.ErrArgument,    // misspelt
		"gpu":            batchlas.ErrArgument,
	} {
		got, err := potrfWith(t, q, batchlas.Lower, n, count, host, batchlas.Route(pin))
		if !errors.Is(err, want) {
			t.Errorf("pin %q: %v, want %v", pin, err, want)
		}
		if !slices.Equal(got, host) {
			t.Errorf("pin %q: the refused call changed the batch", pin)
		}
	}

	// A queue's pin applies to its calls; a call's own pin wins.
	qv, err := dev.NewQueue(batchlas.WithRoute("Potrf", "vendor"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := potrfWith(t, qv, batchlas.Lower, n, count, host); !errors.Is(err, batchlas.ErrUnsupported) {
		t.Errorf("queue pinned to vendor: %v", err)
	}
	if _, err := potrfWith(t, qv, batchlas.Lower, n, count, host, batchlas.Route("cpu")); err != nil {
		t.Errorf("call pin over queue pin: %v", err)
	}
	for _, opt := range []batchlas.QueueOption{batchlas.WithRoute("potrfx", "cpu"), batchlas.WithRoute("getrf", "cpu:")} {
		if _, err := dev.NewQueue(opt); !errors.Is(err, batchlas.ErrArgument) {
			t.Errorf("bad WithRoute: %v", err)
		}
	}

	// BATCHLAS_<OP>_ROUTE pins every call without a pin in code; "auto"
	// in code ignores it.
	t.Setenv("BATCHLAS_POTRF_ROUTE", "vendor")
	if _, err := potrfWith(t, q, batchlas.Lower, n, count, host); !errors.Is(err, batchlas.ErrUnsupported) {
		t.Errorf("environment pin to vendor: %v", err)
	}
	if _, err := potrfWith(t, q, batchlas.Lower, n, count, host, batchlas.Route("auto")); err != nil {
		t.Errorf("auto in code over the environment: %v", err)
	}
	t.Setenv("BATCHLAS_POTRF_ROUTE", "")

	// Empty work needs no decision, so even a pin that could not run is
	// not consulted; but a misspelt pin, or one naming no candidate, is the
	// error it would be with work to do.
	empty := must[*batchlas.Batch[float64]](t)(batchlas.NewBatch[float64](dev, n, n, 0))
	if err := batchlas.Potrf(q, batchlas.Lower, empty, nil, batchlas.Route("vendor")); err != nil {
		t.Errorf("empty batch: %v", err)
	}
	for pin, want := range map[string]error{"cpu:": batchlas.ErrArgument, "cpu:blockd": batchlas.ErrUnsupported} {
		if err := batchlas.Potrf(q, batchlas.Lower, empty, nil, batchlas.Route(pin)); !errors.Is(err, want) {
			t.Errorf("empty batch pinned to %q: %v, want %v", pin, err, want)
		}
	}
	t.Setenv("BATCHLAS_POTRF_ROUTE", "cpu:blockd")
	if err := batchlas.Potrf(q, batchlas.Lower, empty, nil); !errors.Is(err, batchlas.ErrUnsupported) {
		t.Errorf("empty batch, environment pin to cpu:blockd: %v", err)
	}
}

// TestRouteEveryOp: every op accepts a pin and refuses one that cannot run,
// so no op bypasses the router.
func TestRouteEveryOp(t *testing.T) {
	const n = 4
	dev, q := cpuQueue(t)
	newB := func(r, c int) *batchlas.Batch[float64] {
		b := must[*batchlas.Batch[float64]](t)(batchlas.NewBatch[float64](dev, r, c, 2))
		if err := b.Upload(q, spdBatch[float64](n, 2, 3)[:r*c*2]); err != nil {
			t.Fatal(err)
		}
		return b
	}
	a, b, c := newB(n, n), newB(n, n), newB(n, n)
	piv := must[*batchlas.Pivots](t)(batchlas.NewPivots(dev, n, 2))
	vendor := batchlas.Route("vendor")
	ops := map[string]func(...batchlas.CallOption) error{
		"Potrf": func(o ...batchlas.CallOption) error { return batchlas.Potrf(q, batchlas.Lower, a, nil, o...) },
		"Potrs": func(o ...batchlas.CallOption) error { return batchlas.Potrs(q, batchlas.Lower, a, b, o...) },
		"Posv":  func(o ...batchlas.CallOption) error { return batchlas.Posv(q, batchlas.Lower, a, b, nil, o...) },
		"Getrf": func(o ...batchlas.CallOption) error { return batchlas.Getrf(q, a, piv, nil, o...) },
		"Getrs": func(o ...batchlas.CallOption) error { return batchlas.Getrs(q, batchlas.NoTrans, a, piv, b, o...) },
		"Getri": func(o ...batchlas.CallOption) error { return batchlas.Getri(q, a, piv, nil, o...) },
		"Gesv":  func(o ...batchlas.CallOption) error { return batchlas.Gesv(q, a, piv, b, nil, o...) },
		"Inv":   func(o ...batchlas.CallOption) error { return batchlas.Inv(q, a, c, nil, o...) },
		"Gemm": func(o ...batchlas.CallOption) error {
			return batchlas.Gemm(q, batchlas.NoTrans, batchlas.Trans, 1, a, b, 0, c, o...)
		},
		"Trsm": func(o ...batchlas.CallOption) error {
			return batchlas.Trsm(q, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, 1, a, b, o...)
		},
		"Trmm": func(o ...batchlas.CallOption) error {
			return batchlas.Trmm(q, batchlas.Right, batchlas.Upper, batchlas.ConjTrans, batchlas.Unit, 1, a, b, o...)
		},
		"Syrk": func(o ...batchlas.CallOption) error {
			return batchlas.Syrk(q, batchlas.Upper, batchlas.Trans, 1, a, 0, c, o...)
		},
		"Herk": func(o ...batchlas.CallOption) error {
			return batchlas.Herk(q, batchlas.Lower, batchlas.NoTrans, 1, a, 0, c, o...)
		},
	}
	for name, run := range ops {
		if err := run(vendor); !errors.Is(err, batchlas.ErrUnsupported) {
			t.Errorf("%s pinned to vendor on the CPU: %v", name, err)
		}
		if err := run(batchlas.Route("cpu")); err != nil {
			t.Errorf("%s pinned to cpu: %v", name, err)
		}
	}
	_ = q.Wait() // the inputs are not all valid for every op; only routing is tested
}

// potrfPins is every GPU candidate of Potrf, by pin, that takes an order n
// call of type T and triangle uplo.
func potrfPins[T batchlas.Scalar](n int, uplo batchlas.Uplo) []string {
	pins := []string{"native:blocked", "native:tiled", "vendor", "vendor:loop", "native", "auto"}
	if n <= 32 {
		pins = append(pins, "native:tiny")
	}
	if n > 32 && n <= 160 {
		pins = append(pins, "native:cta")
	}
	if !isComplex[T]() && n > 32 && (n <= 56 || isFloat32[T]() && n <= 64) {
		pins = append(pins, "native:warp")
	}
	if uplo == batchlas.Upper {
		pins = append(pins, "vendor:transposed")
	}
	if !isDouble[T]() && !isComplex[T]() {
		pins = append(pins, "native:blocked:prec=tf32x3", "native:blocked:panels=tiled:prec=tf32x3", "native:tiled:prec=tf32x3", "native:tiled:occ=4", "native:tiled:occ=4:prec=tf32x3",
			"native:tiled:occ=3:prec=tf32x3")
	}
	return pins
}

// gpuAndCPUQueues opens a queue on the first GPU, closed when t ends, and
// one on the CPU, or skips t with the reason there is no GPU.
func gpuAndCPUQueues(t *testing.T) (gpu, cpu *batchlas.Queue) {
	t.Helper()
	dev, err := batchlas.OpenDevice("cuda")
	if err != nil {
		t.Skipf("no GPU: %v", err)
	}
	_, cpu = cpuQueue(t)
	gpu = must[*batchlas.Queue](t)(dev.NewQueue())
	t.Cleanup(func() { gpu.Close() })
	return gpu, cpu
}

// TestRouteGPUCandidates runs every GPU candidate of Potrf that can take the
// call, pinned, against the CPU engine.
func TestRouteGPUCandidates(t *testing.T) {
	q, cq := gpuAndCPUQueues(t)
	t.Run("float32", func(t *testing.T) { routeGPU[float32](t, q, cq) })
	t.Run("float64", func(t *testing.T) { routeGPU[float64](t, q, cq) })
	t.Run("complex128", func(t *testing.T) { routeGPU[complex128](t, q, cq) })
}

// TestRouteGPUInfinitePivot gives every GPU candidate of Potrf a matrix
// whose diagonal element k is +Inf, alone and between two SPD ones, and
// requires what the CPU engine gives (LAPACK's rule, which fails only a
// pivot that is not positive or is NaN): the same statuses, the same
// elements infinite or NaN, and the finite ones close. cuSOLVER's
// single-matrix Xpotrf is the exception (vendorPotrfLoop's comment): where
// a pin factors the matrix with it, the matrix may instead be reported
// failed past its pivot (on an H100 it was for Lower, all four types, and
// complex Upper from n = 33), but not factored with a NaN and info 0.
func TestRouteGPUInfinitePivot(t *testing.T) {
	q, cq := gpuAndCPUQueues(t)
	t.Run("float32", func(t *testing.T) { infinitePivot[float32](t, q, cq) })
	t.Run("float64", func(t *testing.T) { infinitePivot[float64](t, q, cq) })
	t.Run("complex64", func(t *testing.T) { infinitePivot[complex64](t, q, cq) })
	t.Run("complex128", func(t *testing.T) { infinitePivot[complex128](t, q, cq) })
}

func infinitePivot[T batchlas.Scalar](t *testing.T, q, cq *batchlas.Queue) {
	tol := 1e-4
	if isDouble[T]() {
		tol = 1e-12
	}
	for _, n := range []int{1, 8, 33, 48, 65, 200} {
		for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
			k := n / 2
			three := spdBatch[T](n, 3, uint64(n))
			three[n*n+k*(n+1)] = oracle.FromComplex[T](complex(math.Inf(1), 0))
			// inf is the index of the matrix with the infinite pivot.
			for _, batch := range []struct {
				host []T
				inf  int
			}{{three, 1}, {three[n*n : 2*n*n], 0}} {
				count := len(batch.host) / (n * n)
				want, wantInfo, err := potrfInfo(t, cq, uplo, n, count, batch.host)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(wantInfo, make([]int32, count)) || !cmplx.IsInf(toC(want[batch.inf*n*n+k*(n+1)])) {
					t.Fatalf("n=%d %v: the CPU gives info %v and L(%d, %d) = %v, LAPACK's rule 0 and +Inf", n, uplo, wantInfo, k, k, want[batch.inf*n*n+k*(n+1)])
				}
				for _, pin := range potrfPins[T](n, uplo) {
					name := fmt.Sprintf("n=%d %v %d matrices %s", n, uplo, count, pin)
					got, info, err := potrfInfo(t, q, uplo, n, count, batch.host, batchlas.Route(pin))
					if err != nil {
						t.Errorf("%s: %v", name, err)
						continue
					}
					for m := range count {
						if m == batch.inf && factorsAlone(pin, count) && info[m] != 0 {
							if info[m] <= int32(k) {
								t.Errorf("%s: matrix %d info %d, want 0 or a failure past its pivot %d (Xpotrf)", name, m, info[m], k+1)
							}
							continue
						}
						if info[m] != wantInfo[m] {
							t.Errorf("%s: matrix %d info %d, the CPU's %d", name, m, info[m], wantInfo[m])
						}
						if msg := sameSpecials(got[m*n*n:(m+1)*n*n], want[m*n*n:(m+1)*n*n], n, uplo, tol); msg != "" {
							t.Errorf("%s: matrix %d: %s", name, m, msg)
						}
					}
				}
			}
		}
	}
}

// factorsAlone reports whether GPU candidate pin factors each of count
// matrices with cuSOLVER's single-matrix Xpotrf (gpu_ops.go).
func factorsAlone(pin string, count int) bool {
	return pin == "vendor:loop" || count == 1 && (pin == "vendor" || pin == "vendor:transposed")
}

// sameSpecials compares the uplo triangles of two n×n matrices: NaN where
// y is NaN, ±Inf where y is, and elsewhere |x − y| within tol of the
// largest finite |y|. It describes the first difference, or returns "".
func sameSpecials[T batchlas.Scalar](x, y []T, n int, uplo batchlas.Uplo, tol float64) string {
	var size float64
	for _, v := range y {
		if c := toC(v); !cmplx.IsNaN(c) && !cmplx.IsInf(c) {
			size = max(size, cmplx.Abs(c))
		}
	}
	for e := range x {
		i, j := e%n, e/n
		if uplo == batchlas.Lower && i < j || uplo == batchlas.Upper && i > j {
			continue
		}
		a, b := toC(x[e]), toC(y[e])
		switch {
		case cmplx.IsNaN(b) || cmplx.IsInf(b):
			if !(cmplx.IsNaN(a) && cmplx.IsNaN(b) || a == b) {
				return fmt.Sprintf("element (%d, %d) is %v, the CPU's %v", i, j, a, b)
			}
		case !(cmplx.Abs(a-b) <= tol*size):
			return fmt.Sprintf("element (%d, %d) is %v, the CPU's %v", i, j, a, b)
		}
	}
	return ""
}

func routeGPU[T batchlas.Scalar](t *testing.T, q, cq *batchlas.Queue) {
	tol := 1e-4
	if isDouble[T]() {
		tol = 1e-12
	}
	for _, n := range []int{1, 8, 20, 32, 48, 65, 200} {
		for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
			host := spdBatch[T](n, 33, uint64(n))
			want, err := potrfWith(t, cq, uplo, n, 33, host)
			if err != nil {
				t.Fatal(err)
			}
			for _, pin := range potrfPins[T](n, uplo) {
				got, err := potrfWith(t, q, uplo, n, 33, host, batchlas.Route(pin))
				if err != nil {
					t.Errorf("n=%d %v %s: %v", n, uplo, pin, err)
					continue
				}
				if d := maxDiff(got, want, n, uplo); !(d <= tol) {
					t.Errorf("n=%d %v %s: differs from the CPU by %g", n, uplo, pin, d)
				}
			}
		}
	}
	// Beyond the tiny tier's ceiling a pin to it is refused; the split
	// precision products are for float32 only.
	host := spdBatch[T](33, 2, 1)
	if _, err := potrfWith(t, q, batchlas.Lower, 33, 2, host, batchlas.Route("native:tiny")); !errors.Is(err, batchlas.ErrUnsupported) {
		t.Errorf("native:tiny at n=33: %v", err)
	}
	if isComplex[T]() {
		if _, err := potrfWith(t, q, batchlas.Lower, 33, 2, host, batchlas.Route("native:blocked:prec=tf32x3")); !errors.Is(err, batchlas.ErrUnsupported) {
			t.Errorf("tf32x3 for %T: %v", T(0), err)
		}
	}
	// The warp tier is for float32 (33 ≤ n ≤ 64) and float64 (to 56): complex
	// rows would spill.
	if isComplex[T]() {
		if _, err := potrfWith(t, q, batchlas.Lower, 33, 2, host, batchlas.Route("native:warp")); !errors.Is(err, batchlas.ErrUnsupported) {
			t.Errorf("native:warp for %T: %v", T(0), err)
		}
	}
}

func isFloat32[T batchlas.Scalar]() bool {
	var z T
	_, ok := any(z).(float32)
	return ok
}

func isComplex[T batchlas.Scalar]() bool {
	var z T
	switch any(z).(type) {
	case complex64, complex128:
		return true
	}
	return false
}

func isDouble[T batchlas.Scalar]() bool {
	var z T
	switch any(z).(type) {
	case float64, complex128:
		return true
	}
	return false
}

// TestRouteGPUPosv runs Posv's GPU candidates, pinned, against the CPU.
func TestRouteGPUPosv(t *testing.T) {
	q, cq := gpuAndCPUQueues(t)
	t.Run("float64", func(t *testing.T) { routePosv[float64](t, q, cq) })
	t.Run("complex64", func(t *testing.T) { routePosv[complex64](t, q, cq) })
}

// posvWith solves with a copy of hostA and hostB on q and returns X.
func posvWith[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, uplo batchlas.Uplo, n, nrhs, count int, hostA, hostB []T, opts ...batchlas.CallOption) ([]T, error) {
	t.Helper()
	dev := q.Device()
	a := must[*batchlas.Batch[T]](t)(batchlas.NewBatch[T](dev, n, n, count))
	b := must[*batchlas.Batch[T]](t)(batchlas.NewBatch[T](dev, n, nrhs, count))
	defer a.Free()
	defer b.Free()
	if err := errors.Join(a.Upload(q, hostA), b.Upload(q, hostB)); err != nil {
		t.Fatal(err)
	}
	callErr := batchlas.Posv(q, uplo, a, b, nil, opts...)
	x := make([]T, len(hostB))
	if err := b.Download(q, x); err != nil {
		t.Fatal(err)
	}
	if err := q.Wait(); err != nil {
		t.Fatal(err)
	}
	return x, callErr
}

func routePosv[T batchlas.Scalar](t *testing.T, q, cq *batchlas.Queue) {
	tol := 1e-3
	if isDouble[T]() {
		tol = 1e-10
	}
	const count, nrhs = 41, 3
	for _, n := range []int{1, 7, 16, 32, 33, 64, 65, 200} {
		for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
			hostA := spdBatch[T](n, count, uint64(n))
			hostB := spdBatch[T](1, n*nrhs*count, 5) // any numbers
			want, err := posvWith(t, cq, uplo, n, nrhs, count, hostA, hostB)
			if err != nil {
				t.Fatal(err)
			}
			pins := []string{"native:composed", "vendor", "auto"}
			if n <= posv.MaxPosvN {
				pins = append(pins, "native:fused")
			}
			for _, pin := range pins {
				got, err := posvWith(t, q, uplo, n, nrhs, count, hostA, hostB, batchlas.Route(pin))
				if err != nil {
					t.Errorf("n=%d %v %s: %v", n, uplo, pin, err)
					continue
				}
				var diff, size float64
				for i := range got {
					diff = max(diff, cmplx.Abs(toC(got[i])-toC(want[i])))
					size = max(size, cmplx.Abs(toC(want[i])))
				}
				if !(diff <= tol*size) {
					t.Errorf("n=%d %v %s: X differs from the CPU by %g of %g", n, uplo, pin, diff, size)
				}
			}
		}
	}
	hostA := spdBatch[T](65, 2, 1)
	if _, err := posvWith(t, q, batchlas.Lower, 65, 1, 2, hostA, make([]T, 130), batchlas.Route("native:fused")); !errors.Is(err, batchlas.ErrUnsupported) {
		t.Errorf("native:fused at n=65: %v", err)
	}
}
