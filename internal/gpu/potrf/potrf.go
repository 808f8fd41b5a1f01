// Package potrf holds the native GPU Cholesky factorizations. This file is
// the register-resident tier for small orders (n ≤ MaxN): one matrix per
// group of 4 to 32 lanes, each lane holding one row in registers (potrf.cu
// says how and why).
package potrf

import (
	_ "embed"
	"fmt"
	"slices"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cuda"
	"github.com/batchlas/batchlas/internal/gpu/batcharg"
	"github.com/batchlas/batchlas/internal/gpu/scalar"
)

//go:embed potrf.cu
var code string

// Source is the embedded potrf.cu behind the scalar prelude (internal/gpu/scalar).
var Source = scalar.Source("potrf.cu", code)

//go:embed sweeps.cu
var sweepsCode string

// withSweeps is Source, then sweeps.cu (the warp's triangular solves, which
// the warp and one-block tiers share), then code as file name; #line
// directives keep compile errors pointing at each file's own lines.
func withSweeps(name, code string) cuda.Source {
	return cuda.Source{Name: name, Code: Source.Code + "\n#line 1 \"sweeps.cu\"\n" + sweepsCode + "\n#line 1 \"" + name + "\"\n" + code}
}

// MaxN is the largest order the register-resident kernel factors, for every
// type. Complex double at n = 32 holds 32 complex values per lane (128
// registers for the row) and still compiles without local memory: 178–180
// registers, 0 B stack with NVRTC 11.8 for sm_90 (2 blocks of 128 threads
// per SM; complex need only be correct and not slower than the vendor).
// TestKernelResources checks this on the toolchain in use.
const MaxN = 32

// threadsPerBlock is kThreads of potrf.cu: four warps, 128/N matrices per
// block. [B200] n = 32 Cholesky: 4 matrices per block beat 8 (31.7 vs
// 32.8 µs, kernel-lessons §11); [4090] tiny getrf: 64 or 128 threads within
// 2 % (§6).
const threadsPerBlock = 128

// shape is the instantiation that factors order n: NC columns held per lane
// (n rounded up to a multiple of 4) and N lanes per matrix (the power of two
// ≥ NC). Sizing the row by its own column bucket rather than by N keeps
// n = 17 from doing the work of n = 32 ([4090] column bucket, §1: 1.40× for
// float, 2.32× for complex float at n = 17).
func shape(n int) (lanes, cols int) {
	cols = max(4, (n+3)/4*4)
	lanes = 4
	for lanes < cols {
		lanes *= 2
	}
	return lanes, cols
}

// upperTileBytes is the dynamic shared memory of the Upper kernel for order
// n: per matrix, NC rows of NC + 1 elements (upper_tile in potrf.cu), for
// threadsPerBlock/lanes matrices. Complex double at n = 32 takes 67,584 B,
// above the default 48 KiB; cuda.LaunchArgs opts in.
func upperTileBytes(dt cuda.DType, n int) int {
	lanes, cols := shape(n)
	return threadsPerBlock / lanes * cols * (cols + 1) * dt.Size()
}

// typeName is the kernel's spelling of each element type.
var typeName = [...]string{
	cuda.Float32:    "float",
	cuda.Float64:    "double",
	cuda.Complex64:  "cfloat",
	cuda.Complex128: "cdouble",
}

// kernelNames are the name expressions of the instantiation for order n:
// Lower, Upper through the tile and, where hasInPlace, Upper in place
// (16-byte aligned columns).
func kernelNames(dt cuda.DType, n int) []string {
	lanes, cols := shape(n)
	name := func(upper, vec bool) string {
		if mb := minBlocks(dt, cols, upper); mb > 0 {
			return fmt.Sprintf("potrf_reg_min<%s, %d, %d, %v, %v, %d>", typeName[dt], lanes, cols, upper, vec, mb)
		}
		return fmt.Sprintf("potrf_reg<%s, %d, %d, %v, %v>", typeName[dt], lanes, cols, upper, vec)
	}
	if !hasInPlace(dt, cols) {
		return []string{name(false, false), name(true, false)}
	}
	return []string{name(false, false), name(true, false), name(true, true)}
}

// minBlocks is the MINB of the instantiation (potrf_reg_min), or 0 for
// the unbounded potrf_reg: float32 Lower with 8 or 32 columns asks for 6
// blocks a multiprocessor. [H200] 65,536 matrices a call: n = 32 219.8 →
// 192.9 µs (92 → 80 registers, 5 → 6 blocks, no local memory), n = 8
// 15.3 → 14.3 µs; 4,096 matrices of n = 32: 19.2 → 19.0 µs. Asking for
// 7 or 8 spilled at n = 32, n = 16 ran slower bounded, and no Upper kernel
// gained without spilling (TestRegVariants, bench/results/h200/session14/).
// With session 63's stepped column loops (fewer instructions, 70 registers
// unbounded) the same choice holds: [H100] float Lower n = 32 at 4,096
// matrices, 16 calls, 20.50 µs unbounded, 16.96 at 6 blocks; Upper 17.75
// unbounded (71 registers, 7 blocks), bounded at 6 to 8 blocks 17.9–18.3
// with 16 B of local memory (bench/results/h200/session63/, call 3).
func minBlocks(dt cuda.DType, cols int, upper bool) int {
	if dt == cuda.Float32 && !upper && (cols == 8 || cols == 32) {
		return 6
	}
	return 0
}

// KernelNames lists every name expression of potrf.cu, for a registry or a
// compile check.
func KernelNames() []string { return slices.Concat(KernelModules()...) }

// KernelModules lists potrf.cu's names grouped as kernels loads them, one
// NVRTC program a type and column bucket; a kernel's code can depend on
// what else its program holds, so compile checks use these groups.
func KernelModules() [][]string {
	var ms [][]string
	for dt := cuda.Float32; dt <= cuda.Complex128; dt++ {
		for cols := 4; cols <= MaxN; cols += 4 {
			ms = append(ms, kernelNames(dt, cols))
		}
	}
	return ms
}

type kernelKey struct {
	dt   cuda.DType
	cols int // the column bucket: every order of the bucket has its kernels
}

// loaded holds, per context, type and column bucket, the Lower and Upper
// kernels; each bucket is compiled on its first use.
var loaded cuda.KernelSets[kernelKey]

func kernels(c *cuda.Context, dt cuda.DType, n int) ([]*cuda.Kernel, error) {
	_, cols := shape(n)
	return loaded.Get(c, kernelKey{dt, cols}, func(c *cuda.Context, k kernelKey) ([]*cuda.Kernel, error) {
		ks, err := cuda.DefaultJIT().Load(c, Source, kernelNames(k.dt, k.cols)...)
		if err != nil {
			return nil, fmt.Errorf("potrf: %w", err)
		}
		return ks, nil
	})
}

// CanRun reports whether the register-resident kernel factors matrices of
// order n and type dtype: nil, or an error wrapping core.ErrUnsupported
// (n > MaxN) or core.ErrShape / core.ErrArgument.
func CanRun(dtype cuda.DType, n int) error {
	switch {
	case dtype < cuda.Float32 || dtype > cuda.Complex128:
		return fmt.Errorf("%w: potrf: element type %v", core.ErrArgument, dtype)
	case n < 0:
		return fmt.Errorf("%w: potrf: n = %d must not be negative", core.ErrShape, n)
	case n > MaxN:
		return fmt.Errorf("%w: potrf: the register-resident kernel factors n ≤ %d, not %d", core.ErrUnsupported, MaxN, n)
	}
	return nil
}

// check validates Potrf's arguments.
func check(dt cuda.DType, uplo core.Uplo, n int, a cuda.DevicePtr, lda int, stride int64, count int, info cuda.DevicePtr) error {
	if err := CanRun(dt, n); err != nil {
		return err
	}
	return batcharg.Factor("potrf", dt, uplo, n, a, lda, stride, count, info)
}

// upperInPlace reports whether Potrf moves the columns of Upper matrices in
// place (potrf.cu's upper_row_load) rather than through the tile: where
// they are 16-byte aligned (upperVectors) in a bucket with an in-place
// kernel (hasInPlace).
func upperInPlace(dt cuda.DType, uplo core.Uplo, n int, a cuda.DevicePtr, lda int, stride int64, count int) bool {
	_, cols := shape(n)
	return hasInPlace(dt, cols) && upperVectors(dt, uplo, a, lda, stride, count)
}

// hasInPlace reports whether bucket cols of type dt has an Upper kernel
// that moves aligned columns in place: float32 up to 16 columns, the only
// buckets where in place beat the tile filled by cp.async (potrf.cu's
// Upper in place comment has the figures).
func hasInPlace(dt cuda.DType, cols int) bool { return dt == cuda.Float32 && cols <= 16 }

// Potrf queues on s the Cholesky factorization of count Hermitian positive
// definite n×n matrices, A = L·Lᴴ (uplo Lower) or A = Uᴴ·U (Upper), with the
// register-resident kernel. Matrix m starts at element m·stride of a and is
// column-major with leading dimension lda; only its uplo triangle is read,
// and the factor overwrites it. The imaginary parts of the diagonal are not
// read. info is a device int32[count]: 0, or k > 0 when the leading minor of
// order k is not positive definite (its pivot is ≤ 0 or NaN); matrix m then
// holds, as LAPACK's potf2 leaves it, the first k−1 columns of L (rows of U)
// and the failing pivot at (k−1, k−1), the rest of its triangle as it was.
// No matrix affects another.
// Argument errors return before anything is queued; n > MaxN is an error
// wrapping core.ErrUnsupported.
func Potrf[T core.Scalar](s *cuda.Stream, uplo core.Uplo, n int, a cuda.DevicePtr, lda int, stride int64, count int, info cuda.DevicePtr) error {
	dt := cuda.DTypeOf[T]()
	if s == nil {
		return fmt.Errorf("%w: potrf: nil stream", core.ErrArgument)
	}
	if err := check(dt, uplo, n, a, lda, stride, count, info); err != nil {
		return err
	}
	if count == 0 {
		return nil
	}
	if n == 0 {
		return cuda.MemsetD32(s, info, 0, int64(count))
	}
	ks, err := kernels(s.Context(), dt, n)
	if err != nil {
		return err
	}
	k, shared := ks[0], 0
	switch {
	case upperInPlace(dt, uplo, n, a, lda, stride, count):
		k = ks[2] // columns read and written in place: no tile
	case uplo == core.Upper:
		k, shared = ks[1], upperTileBytes(dt, n)
	}
	lanes, _ := shape(n)
	perBlock := threadsPerBlock / lanes
	blocks := (count + perBlock - 1) / perBlock
	var args cuda.Args
	args.Ptr(a).Int64(int64(lda)).Int64(stride).Int32(int32(n)).Int32(int32(count)).Ptr(info)
	return cuda.LaunchArgs(s, k, [3]uint32{uint32(blocks), 1, 1}, [3]uint32{threadsPerBlock, 1, 1}, uint32(shared), &args)
}
