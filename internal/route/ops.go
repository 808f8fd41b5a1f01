package route

import (
	"errors"
	"fmt"

	"github.com/batchlas/batchlas/internal/cuda"
	"github.com/batchlas/batchlas/internal/gpu/cholblocked"
	"github.com/batchlas/batchlas/internal/gpu/posv"
	potrfgpu "github.com/batchlas/batchlas/internal/gpu/potrf"
)

// The ops batchlas routes and their candidates today. A native tier joins an
// op by one line in its Candidates, before vendor.

// Builtin returns fresh definitions of every routed op.
func Builtin() []*Op {
	var (
		uplo  = Key{Name: "uplo"}
		side  = Key{Name: "side"}
		trans = Key{Name: "trans"}
		batch = Key{Name: "batch", Weight: 1}
		nrhs  = Key{Name: "nrhs", Weight: 1}
		n3    = Key{Name: "n", Weight: 3}
		n2    = Key{Name: "n", Weight: 2}
	)
	both := func(vendorRun func(Call) error) []Candidate {
		return []Candidate{
			{Name: "vendor", CanRun: vendorRun},
			{Name: "cpu", CanRun: cpuCanRun},
		}
	}
	// The factor-and-solve kernels of internal/gpu/posv: register-resident
	// up to posv.MaxN, then potrf's warp tier for float32 and float64
	// (posv_warp; posv_split, factor and solve from one packed tile, where
	// posv_warp would spill or solves slower, or, for float64, the
	// factorization and then potrs_warp, where many right-hand sides solve
	// faster apart; potrs_warp to n = 64) or posv_cta and potrs_cta.
	fused := func() []Candidate {
		return []Candidate{{Name: "native:fused", CanRun: nativeUpTo(posv.MaxPosvN)}}
	}
	// The cpu engine's two factorization drivers (cpu.Driver): the
	// unblocked kernel per matrix, or the blocked driver that also shares a
	// matrix among the workers a small batch leaves idle.
	cpuDrivers := []Candidate{
		{Name: "cpu:unblocked", CanRun: cpuCanRun},
		{Name: "cpu:blocked", CanRun: cpuCanRun},
	}
	return []*Op{
		{Name: "potrf", Keys: []Key{uplo, n3, batch}, Candidates: append([]Candidate{
			{Name: "native:tiny", CanRun: nativeUpTo(potrfgpu.MaxN)},
			{Name: "native:warp", CanRun: warpCanRun},
			{Name: "native:cta", CanRun: ctaCanRun},
			{Name: "native:tiled", CanRun: tiledCanRun(cholblocked.TiledOptions{})},
			{Name: "native:tiled:prec=tf32x3", CanRun: tiledCanRun(cholblocked.TiledOptions{Precision: cholblocked.Split3TF32})},
			// Four blocks a multiprocessor, float32 only (TiledOptions.Occupancy).
			{Name: "native:tiled:occ=4", CanRun: tiledCanRun(cholblocked.TiledOptions{Occupancy: 4})},
			{Name: "native:tiled:occ=4:prec=tf32x3", CanRun: tiledCanRun(cholblocked.TiledOptions{Precision: cholblocked.Split3TF32, Occupancy: 4})},
			// Three blocks a multiprocessor, float32 3xTF32 only.
			{Name: "native:tiled:occ=3:prec=tf32x3", CanRun: tiledCanRun(cholblocked.TiledOptions{Precision: cholblocked.Split3TF32, Occupancy: 3})},
			{Name: "native:blocked", CanRun: blockedCanRun(cholblocked.Options{})},
			{Name: "native:blocked:prec=tf32x3", CanRun: blockedCanRun(cholblocked.Options{Precision: cholblocked.Split3TF32})},
			{Name: "native:blocked:panels=tiled:prec=tf32x3", CanRun: tiledPanelsCanRun},
			// One TF32 product per outer update: pinned only (tf32Note).
			{Name: "native:blocked:prec=tf32", CanRun: blockedCanRun(cholblocked.Options{Precision: cholblocked.TF32}), PinnedOnly: true},
			{Name: "native:blocked:panels=tiled:prec=tf32", CanRun: blockedCanRun(cholblocked.Options{Precision: cholblocked.TF32, TiledPanels: true}), PinnedOnly: true},
			// cuSOLVER's own Upper path: its Lower rows do not rank Upper calls.
			{Name: "vendor", CanRun: vendorCanRun, TriangleBound: true},
			{Name: "vendor:loop", CanRun: vendorCanRun, TriangleBound: true},
			{Name: "vendor:transposed", CanRun: vendorUpper},
		}, cpuDrivers...)},
		{Name: "potrs", Keys: []Key{uplo, n2, nrhs, batch}, Candidates: append(fused(), both(vendorCanRun)...)},
		// native:composed factors with the native Potrf tier the table
		// ranks first among the native ones, then substitutes with cuBLAS:
		// the fused kernels stop at posv.MaxPosvN, and cuSOLVER's batched
		// factor is most of the vendor composition's time above it.
		{Name: "posv", Keys: []Key{uplo, n3, nrhs, batch}, Candidates: append(append(fused(),
			Candidate{Name: "native:composed", CanRun: composedCanRun}), both(vendorCanRun)...)},
		// getrf takes m×n matrices; m and n share the n³ weight.
		{Name: "getrf", Keys: []Key{{Name: "m", Weight: 1.5}, {Name: "n", Weight: 1.5}, batch}, Candidates: append([]Candidate{
			{Name: "vendor", CanRun: vendorSquare},
		}, cpuDrivers...)},
		{Name: "getrs", Keys: []Key{trans, n2, nrhs, batch}, Candidates: both(vendorCanRun)},
		{Name: "getri", Keys: []Key{n3, batch}, Candidates: both(vendorCanRun)},
		{Name: "gesv", Keys: []Key{n3, nrhs, batch}, Candidates: both(vendorCanRun)},
		{Name: "inv", Keys: []Key{n3, batch}, Candidates: both(vendorCanRun)},
		{Name: "gemm", Keys: []Key{trans, {Name: "transb"}, {Name: "m", Weight: 1}, {Name: "n", Weight: 1}, {Name: "k", Weight: 1}, batch}, Candidates: both(vendorCanRun)},
		// Triangular ops key on the order of A (n, ×2) and the other
		// dimension of B (nrhs): Left: n = m(B), nrhs = n(B); Right: swapped.
		{Name: "trsm", Keys: []Key{side, uplo, trans, n2, nrhs, batch}, Candidates: both(vendorCanRun)},
		{Name: "trmm", Keys: []Key{side, uplo, trans, n2, nrhs, batch}, Candidates: both(vendorCanRun)},
		{Name: "syrk", Keys: []Key{uplo, trans, n2, {Name: "k", Weight: 1}, batch}, Candidates: both(vendorCanRun)},
		{Name: "herk", Keys: []Key{uplo, trans, n2, {Name: "k", Weight: 1}, batch}, Candidates: both(vendorCanRun)},
	}
}

func cpuCanRun(c Call) error {
	if c.Device.GPU() {
		return fmt.Errorf("the cpu engine works on host memory; the batch is on %s", c.Device.Key)
	}
	return nil
}

// nativeUpTo accepts calls on a GPU of order n ≤ limit: a native kernel
// tier that covers every type and both triangles up to its ceiling.
func nativeUpTo(limit int) func(Call) error {
	return func(c Call) error {
		if !c.Device.GPU() {
			return errors.New("native kernels run on a GPU")
		}
		if c.N > limit {
			return fmt.Errorf("the tier factors n ≤ %d, not %d", limit, c.N)
		}
		return nil
	}
}

// composedCanRun accepts Posv calls that a native Potrf tier followed by
// cuBLAS's triangular solves takes: any order on a GPU with the vendor
// libraries (the blocked tier has no ceiling).
func composedCanRun(c Call) error {
	if err := vendorCanRun(c); err != nil {
		return fmt.Errorf("the substitutions: %w", err)
	}
	return nil
}

// warpCanRun accepts calls the warp-per-matrix Cholesky tier takes:
// float32 and float64, 33 ≤ n ≤ potrf.MaxWarpFor(dtype) (64 for both).
func warpCanRun(c Call) error {
	if !c.Device.GPU() {
		return errors.New("native kernels run on a GPU")
	}
	return potrfgpu.CanRunWarp(cudaDType(c.DType), c.N)
}

// ctaCanRun accepts calls the one-block-per-matrix Cholesky tier takes:
// 33 ≤ n ≤ potrf.MaxCTAFor(dtype).
func ctaCanRun(c Call) error {
	if !c.Device.GPU() {
		return errors.New("native kernels run on a GPU")
	}
	return potrfgpu.CanRunCTA(cudaDType(c.DType), c.N)
}

// maxTiledN is the largest order routed to the tiled driver. It factors
// any order, but with exact products its tile products run on the CUDA
// cores: at float32 n = 4096 and one matrix it took 4242 µs against the
// blocked driver's 3460 (session 9), and above that the blocked driver's
// cuBLAS products (tensor cores for 3xTF32) only gain. The ceiling also
// keeps tuning short. With split-TF32 tile products (tensor cores) the
// ceiling is maxTiledSplitN: at float32 n = 4096 and one matrix that
// driver leads (2228 µs against the vendor's 2476, session 11); at 8192 it
// lost to the blocked driver (15.1 ms against 10.2) until the kernels for
// four blocks a multiprocessor, which lead there (Upper 6628 µs against
// the blocked driver's 7126 with tiled panels, session 20's tune); the
// tables record which.
const (
	maxTiledN      = 4096
	maxTiledSplitN = 8192
)

// tiledCanRun accepts calls the one-launch tiled Cholesky driver takes with
// opt: n up to its ceiling for opt's precision, no library needed.
func tiledCanRun(opt cholblocked.TiledOptions) func(Call) error {
	return func(c Call) error {
		if !c.Device.GPU() {
			return errors.New("native kernels run on a GPU")
		}
		limit := maxTiledN
		if opt.Precision == cholblocked.Split3TF32 {
			limit = maxTiledSplitN
		}
		if c.N > limit {
			return fmt.Errorf("the tiled driver (%v products) is routed up to n = %d, not %d", opt.Precision, limit, c.N)
		}
		return cholblocked.CanRunTiled(cudaDType(c.DType), c.N, c.Batch, opt)
	}
}

// maxTiledPanelsN is the largest order routed to the blocked driver with
// tiled panels. At float32 n = 16384 and one matrix it took 36.7–38.7 ms
// against 31.2–33.9 for the blocked driver's inner chain with look-ahead
// (session 12, TestTiming, three processes), which it does not gain from
// (package cholblocked's doc); since session 19's and 20's panel kernels,
// with panels of 512 columns (cholblocked.WideTiledPanelsFrom) and no
// look-ahead, 22.9 ms against 24.0 (Lower, session 21 call 5). Past 16384
// it was timed on an H100 only (session 53, the suite's inputs, Upper, one
// matrix, against native:blocked:prec=tf32x3 with look-ahead): n = 16384
// 23.6 ms against 28.7, 24576 63.8 against 71.1, 32768 137.1 against
// 146.7 (cuSOLVER 294.3). A ceiling of its own keeps the table's rows
// below it from choosing it for orders not timed.
const maxTiledPanelsN = 32768

// tiledPanelsCanRun accepts calls the blocked driver takes with tiled
// panels and split-TF32 products: float32 up to maxTiledPanelsN.
func tiledPanelsCanRun(c Call) error {
	if c.N > maxTiledPanelsN {
		return fmt.Errorf("the blocked driver with tiled panels is routed up to n = %d, not %d", maxTiledPanelsN, c.N)
	}
	return blockedCanRun(cholblocked.Options{Precision: cholblocked.Split3TF32, TiledPanels: true})(c)
}

// tf32Note: the blocked driver with one TF32 product per outer update
// (cholblocked.TF32) is pinned only, for its accuracy. On the H200 it kept
// GPU MODE's bound with room on five of the task's six input families,
// n = 2048 to 16384 (dense: 3.4 % of the budget at 2048, 0.5 % at 16384),
// but reported the sixth, low rank plus 10⁻⁴·I, not positive definite at
// n = 1024 and 2048, where the 3xTF32 products factor it within 0.1 % of
// the budget: its update error, about 2⁻¹¹·‖A‖, exceeds the smallest
// eigenvalue (cholblocked's TestAccuracyLarge; from n = 4096 the 3xTF32
// products fail it too, and the public Potrf redoes every failure of
// either in float64, but that does not make TF32's residuals FP32's on
// the matrices it does factor). Pinned, it ran the
// cholesky-gpumode suite's float32 n = 8192, 16384 and 32768 at one matrix
// in 5184, 17431 and 61892 µs against the default route's 7695, 26262 and
// 131920 (bench/results/h200/session15/).

// blockedCanRun accepts calls the blocked Cholesky driver takes with
// options opt; its products are cuBLAS calls.
func blockedCanRun(opt cholblocked.Options) func(Call) error {
	return func(c Call) error {
		if err := vendorCanRun(c); err != nil {
			return fmt.Errorf("the blocked driver's products: %w", err)
		}
		return cholblocked.CanRun(cudaDType(c.DType), c.N, opt)
	}
}

// cudaDType is the kernel element type of a table dtype (checked by Call.check).
func cudaDType(dtype string) cuda.DType {
	switch dtype {
	case "float64":
		return cuda.Float64
	case "complex64":
		return cuda.Complex64
	case "complex128":
		return cuda.Complex128
	}
	return cuda.Float32
}

func vendorCanRun(c Call) error {
	if !c.Device.GPU() {
		return errors.New("cuBLAS and cuSOLVER need a GPU")
	}
	if !c.Device.Vendor {
		return errors.New("cuBLAS and cuSOLVER are not loaded")
	}
	return nil
}

func vendorUpper(c Call) error {
	if err := vendorCanRun(c); err != nil {
		return err
	}
	if c.Uplo != "U" {
		return errors.New("it factors Upper matrices (as Lower on their transpose)")
	}
	return nil
}

func vendorSquare(c Call) error {
	if err := vendorCanRun(c); err != nil {
		return err
	}
	if c.M != c.N {
		return fmt.Errorf("cuBLAS getrfBatched factors square matrices only (m=%d, n=%d)", c.M, c.N)
	}
	return nil
}
