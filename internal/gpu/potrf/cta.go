package potrf

// This file is the shared-memory tier ("native:cta") for medium orders
// (MaxN < n ≤ MaxCTAFor(type)): one thread block per matrix, one row per
// thread, left-looking by panels with the finished columns of L in shared
// memory (cta.cu says how and why).

import (
	_ "embed"
	"fmt"
	"slices"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cuda"
	"github.com/batchlas/batchlas/internal/gpu/batcharg"
)

//go:embed cta.cu
var ctaCode string

// CTASource is Source (the scalar prelude and potrf.cu) and sweeps.cu
// followed by cta.cu: the CTA kernels use potrf.cu's helpers, and posv_cta
// and potrs_cta solve with the warp's steps (sweeps.cu).
var CTASource = withSweeps("cta.cu", ctaCode)

// MaxCTA is the largest order the CTA tier factors for any type (float32);
// MaxCTAFor gives each type's limit.
const MaxCTA = 256

// maxCTA is each type's largest order: the largest bucket whose trapezoid
// fits in ctaSharedLimit, capped at 256 threads (a block of at most 256
// threads launches at any register count, so the kernel needs no
// __launch_bounds__). TestCTAShape checks both against ctaSharedBytes.
var maxCTA = [...]int{
	cuda.Float32:    256, // 136 KiB of shared memory (320 would fit: 210 KiB, but 320 threads)
	cuda.Float64:    224, // 210 KiB
	cuda.Complex64:  224, // 210 KiB
	cuda.Complex128: 160, // 210 KiB
}

// ctaSharedLimit is the dynamic shared memory a block may opt in to on
// sm_90 (227 KiB), less 1 KiB for the kernel's static shared variables.
// A device with less fails the launch with an error wrapping
// core.ErrUnsupported (cuda's opt-in check), never silently.
const ctaSharedLimit = 227<<10 - 1<<10

// MaxCTAFor is the largest order the CTA tier factors for dtype (0 for an
// unknown type).
func MaxCTAFor(dtype cuda.DType) int {
	if dtype < cuda.Float32 || dtype > cuda.Complex128 {
		return 0
	}
	return maxCTA[dtype]
}

// ctaPanel is the width NB of cta.cu's column blocks: for float32 panels of
// 16 (a 16-value register row and its prefetched next panel), for the other
// types steps of 8 whose diagonal block every thread factors by itself, 4
// for complex128 so that block and the row fit in registers (cta.cu says
// why the two forms).
func ctaPanel(dt cuda.DType) int {
	switch dt {
	case cuda.Float32:
		return 16
	case cuda.Complex128:
		return 4
	}
	return 8
}

// ctaBucket is the block size NP that factors order n: n rounded up to a
// multiple of 32 (whole warps), at least 64. The kernel runs only the
// panels that hold real columns, so its cost follows n, and a bucket every
// 32 keeps padding rows (idle threads) below one warp.
func ctaBucket(n int) int { return max(64, (n+31)/32*32) }

// ctaSharedBytes is the trapezoid of bucket np: block column K holds NB
// columns of np − K·NB rows (cta.cu's trap_off).
func ctaSharedBytes(dt cuda.DType, np int) int {
	nb := ctaPanel(dt)
	k := np / nb
	return nb * (k*np - nb*(k*(k-1)/2)) * dt.Size()
}

// ctaKernelNames are the name expressions of the bucket np: Lower, then Upper.
func ctaKernelNames(dt cuda.DType, np int) []string {
	name := func(upper bool) string {
		return fmt.Sprintf("potrf_cta<%s, %d, %d, %v>", typeName[dt], np, ctaPanel(dt), upper)
	}
	return []string{name(false), name(true)}
}

// ctaBuckets lists the buckets of dt, smallest first.
func ctaBuckets(dt cuda.DType) []int {
	var nps []int
	for np := ctaBucket(MaxN + 1); np <= MaxCTAFor(dt); np += 32 {
		nps = append(nps, np)
	}
	return nps
}

// CTAKernelNames lists every name expression of potrf_cta (cta.cu), for a
// registry or a compile check: 2 triangles × 23 buckets over the four
// types.
func CTAKernelNames() []string { return slices.Concat(CTAKernelModules()...) }

// CTAKernelModules lists CTAKernelNames grouped as ctaKernels loads them,
// one NVRTC program a type and bucket; a kernel's code can depend on what
// else its program holds, so compile checks use these groups.
func CTAKernelModules() [][]string {
	var ms [][]string
	for dt := cuda.Float32; dt <= cuda.Complex128; dt++ {
		for _, np := range ctaBuckets(dt) {
			ms = append(ms, ctaKernelNames(dt, np))
		}
	}
	return ms
}

// LoadCTAModules compiles (or finds in the cache) and loads into c every
// bucket's module as PotrfCTA would on first use, several at once
// (cuda.LoadEach), for tests that go through every order.
func LoadCTAModules(c *cuda.Context) error {
	var loads []func() error
	for dt := cuda.Float32; dt <= cuda.Complex128; dt++ {
		for _, np := range ctaBuckets(dt) {
			loads = append(loads, func() error {
				_, err := ctaKernels(c, dt, np)
				return err
			})
		}
	}
	return cuda.LoadEach(loads...)
}

type ctaKey struct {
	dt cuda.DType
	np int
}

// ctaLoaded holds, per context, type and bucket, the Lower and Upper
// kernels; each bucket is compiled on its first use.
var ctaLoaded cuda.KernelSets[ctaKey]

func ctaKernels(c *cuda.Context, dt cuda.DType, np int) ([]*cuda.Kernel, error) {
	return ctaLoaded.Get(c, ctaKey{dt, np}, func(c *cuda.Context, k ctaKey) ([]*cuda.Kernel, error) {
		ks, err := cuda.DefaultJIT().Load(c, CTASource, ctaKernelNames(k.dt, k.np)...)
		if err != nil {
			return nil, fmt.Errorf("potrf: cta: %w", err)
		}
		return ks, nil
	})
}

// CanRunCTA reports whether the CTA kernel factors matrices of order n and
// type dtype: nil for MaxN < n ≤ MaxCTAFor(dtype) and for n = 0 (empty
// work), or an error wrapping core.ErrUnsupported (n outside the tier's
// range), core.ErrShape or core.ErrArgument.
func CanRunCTA(dtype cuda.DType, n int) error {
	switch {
	case dtype < cuda.Float32 || dtype > cuda.Complex128:
		return fmt.Errorf("%w: potrf: cta: element type %v", core.ErrArgument, dtype)
	case n < 0:
		return fmt.Errorf("%w: potrf: cta: n = %d must not be negative", core.ErrShape, n)
	case n == 0:
		return nil
	case n <= MaxN:
		return fmt.Errorf("%w: potrf: the CTA kernel factors %d < n ≤ %d for %v, not %d (the register tier takes n ≤ %d)",
			core.ErrUnsupported, MaxN, MaxCTAFor(dtype), dtype, n, MaxN)
	case n > MaxCTAFor(dtype):
		return fmt.Errorf("%w: potrf: the CTA kernel factors %d < n ≤ %d for %v, not %d",
			core.ErrUnsupported, MaxN, MaxCTAFor(dtype), dtype, n)
	}
	return nil
}

// checkCTA validates PotrfCTA's arguments, as check does Potrf's.
func checkCTA(dt cuda.DType, uplo core.Uplo, n int, a cuda.DevicePtr, lda int, stride int64, count int, info cuda.DevicePtr) error {
	if err := CanRunCTA(dt, n); err != nil {
		return err
	}
	return batcharg.Factor("potrf: cta", dt, uplo, n, a, lda, stride, count, info)
}

// upperVectors reports whether the columns of Upper matrices may be moved
// as 16-byte vectors: the start of each matrix and each column 16-byte
// aligned. The register, warp and CTA tiers then read a row of L (a
// column of U) so.
func upperVectors(dt cuda.DType, uplo core.Uplo, a cuda.DevicePtr, lda int, stride int64, count int) bool {
	size := int64(dt.Size())
	return uplo == core.Upper && uintptr(a)%16 == 0 && int64(lda)*size%16 == 0 && (count == 1 || stride*size%16 == 0)
}

// PotrfCTA queues on s the Cholesky factorization of count Hermitian
// positive definite n×n matrices, A = L·Lᴴ (uplo Lower) or A = Uᴴ·U
// (Upper), with the CTA kernel (one thread block per matrix). Matrix m
// starts at element m·stride of a and is column-major with leading
// dimension lda; only its uplo triangle is read, and the factor overwrites
// it. The imaginary parts of the diagonal are not read. info is a device
// int32[count]: 0, or k > 0 when the leading minor of order k is not
// positive definite (its pivot is ≤ 0 or NaN); matrix m then holds, as
// LAPACK's potf2 leaves it, the first k−1 columns of L (rows of U) and the
// failing pivot at (k−1, k−1), the rest of its triangle as it was. No
// matrix affects another.
// Argument errors return before anything is queued; n outside
// (MaxN, MaxCTAFor(T)] is an error wrapping core.ErrUnsupported, and so is a
// device whose blocks cannot have the kernel's shared memory.
func PotrfCTA[T core.Scalar](s *cuda.Stream, uplo core.Uplo, n int, a cuda.DevicePtr, lda int, stride int64, count int, info cuda.DevicePtr) error {
	dt := cuda.DTypeOf[T]()
	np := ctaBucket(n)
	return ctaCall(s, "potrf: cta", dt, uplo, n, a, lda, stride, count, info, np,
		func(c *cuda.Context) ([]*cuda.Kernel, error) { return ctaKernels(c, dt, np) }, nil)
}

// ctaCall is what PotrfCTA and PosvCTA share: A's argument checks, empty
// work (info zeroed), the triangle's kernel (load gives Lower, then Upper),
// and the launch with one block of np threads per matrix and the trapezoid
// of bucket np. The kernel takes a, lda, stride, n, then what extra adds,
// then info and vec.
func ctaCall(s *cuda.Stream, op string, dt cuda.DType, uplo core.Uplo, n int, a cuda.DevicePtr, lda int, stride int64,
	count int, info cuda.DevicePtr, np int, load func(*cuda.Context) ([]*cuda.Kernel, error), extra func(*cuda.Args)) error {
	if s == nil {
		return fmt.Errorf("%w: %s: nil stream", core.ErrArgument, op)
	}
	if err := checkCTA(dt, uplo, n, a, lda, stride, count, info); err != nil {
		return err
	}
	if count == 0 {
		return nil
	}
	if n == 0 {
		return cuda.MemsetD32(s, info, 0, int64(count))
	}
	ks, err := load(s.Context())
	if err != nil {
		return err
	}
	var vec int32
	if upperVectors(dt, uplo, a, lda, stride, count) {
		vec = 1
	}
	var args cuda.Args
	args.Ptr(a).Int64(int64(lda)).Int64(stride).Int32(int32(n))
	if extra != nil {
		extra(&args)
	}
	args.Ptr(info).Int32(vec)
	return ctaLaunch(s, ks, dt, uplo, np, count, &args)
}

// ctaLaunch queues ks[0] (Lower) or ks[1] (Upper) with one block of np
// threads per matrix and the trapezoid of bucket np.
func ctaLaunch(s *cuda.Stream, ks []*cuda.Kernel, dt cuda.DType, uplo core.Uplo, np, count int, args *cuda.Args) error {
	k := ks[0]
	if uplo == core.Upper {
		k = ks[1]
	}
	return cuda.LaunchArgs(s, k, [3]uint32{uint32(count), 1, 1}, [3]uint32{uint32(np), 1, 1}, uint32(ctaSharedBytes(dt, np)), args)
}

// MaxPosvCTA is the largest order posv_cta (cta.cu) solves: its one bucket
// of 64 threads.
const MaxPosvCTA = 64

// posvChunk is posv_cta's and potrs_cta's NR, the widest chunk of
// right-hand sides a warp of cta_solve holds: 16 as the warp tier's solve
// (two rows of 16 a lane), 8 for complex128, whose 16 would take 128
// registers for the rows alone.
func posvChunk(dt cuda.DType) int { return min(16, 128/dt.Size()) }

// checkSolveOrder is the order rule of posv_cta and potrs_cta (kernel
// what): MaxN < n ≤ MaxPosvCTA, or n = 0. Their solve (sweeps.cu) steps rows
// 0…31 as real ones, so smaller orders belong to the register tier.
func checkSolveOrder(what string, n int) error {
	switch {
	case n < 0:
		return fmt.Errorf("%w: potrf: %s: n = %d must not be negative", core.ErrShape, what, n)
	case n > 0 && (n <= MaxN || n > MaxPosvCTA):
		return fmt.Errorf("%w: potrf: %s solves %d < n ≤ %d, not %d", core.ErrUnsupported, what, MaxN, MaxPosvCTA, n)
	}
	return nil
}

// PosvCTANames are the name expressions of posv_cta and potrs_cta for dt:
// posv Lower and Upper, then potrs Lower and Upper.
func PosvCTANames(dt cuda.DType) []string {
	var names []string
	for _, kernel := range []string{"posv_cta", "potrs_cta"} {
		for _, upper := range []bool{false, true} {
			names = append(names, fmt.Sprintf("%s<%s, %d, %d, %d, %v>", kernel, typeName[dt], MaxPosvCTA, ctaPanel(dt), posvChunk(dt), upper))
		}
	}
	return names
}

// PosvCTAModules lists PosvCTANames for each type, one module a type as
// PosvCTAKernels loads them.
func PosvCTAModules() [][]string {
	var ms [][]string
	for dt := cuda.Float32; dt <= cuda.Complex128; dt++ {
		ms = append(ms, PosvCTANames(dt))
	}
	return ms
}

// PosvCTASharedBytes is the dynamic shared memory of posv_cta and
// potrs_cta: the trapezoid of their bucket.
func PosvCTASharedBytes(dt cuda.DType) int { return ctaSharedBytes(dt, MaxPosvCTA) }

// posvLoaded holds, per context and type, the PosvCTANames kernels,
// compiled on first use (a module of their own: calls that never solve do
// not compile them).
var posvLoaded cuda.KernelSets[cuda.DType]

// PosvCTAKernels loads the PosvCTANames kernels for dt into c, in that
// order.
func PosvCTAKernels(c *cuda.Context, dt cuda.DType) ([]*cuda.Kernel, error) {
	return posvLoaded.Get(c, dt, func(c *cuda.Context, dt cuda.DType) ([]*cuda.Kernel, error) {
		ks, err := cuda.DefaultJIT().Load(c, CTASource, PosvCTANames(dt)...)
		if err != nil {
			return nil, fmt.Errorf("potrf: posv_cta: %w", err)
		}
		return ks, nil
	})
}

// PosvCTA queues on s posv_cta: for count matrices, the factorization
// exactly as PotrfCTA's (A gets the same bits, info the same values), then
// the solve of A·X = B, X over B, for the matrices that did not fail; a
// failed matrix's B is neither read nor written. B is n×nrhs column-major,
// leading dimension ldb, matrix m at m·strideB. It serves posv.Posv for
// MaxN < n ≤ MaxPosvCTA where the warp tier does not (the complex types:
// for float64 beyond PosvWarp, Posv factors and then runs PotrsWarp), and
// posv.Posv checks the arguments; this checks A's as PotrfCTA
// does and the order.
func PosvCTA[T core.Scalar](s *cuda.Stream, uplo core.Uplo, n, nrhs int, a cuda.DevicePtr, lda int, strideA int64,
	b cuda.DevicePtr, ldb int, strideB int64, count int, info cuda.DevicePtr) error {
	dt := cuda.DTypeOf[T]()
	if err := checkSolveOrder("posv_cta", n); err != nil {
		return err
	}
	return ctaCall(s, "potrf: posv_cta", dt, uplo, n, a, lda, strideA, count, info, MaxPosvCTA,
		func(c *cuda.Context) ([]*cuda.Kernel, error) { return PosvCTAKernels(c, dt) },
		func(args *cuda.Args) { args.Ptr(b).Int64(int64(ldb)).Int64(strideB).Int32(int32(nrhs)) })
}

// PotrsCTA queues on s potrs_cta: for count matrices given by their
// factors as PotrfCTA and PosvCTA leave them, the solve of A·X = B, X over
// B, with the same steps as PosvCTA's (the same bits). Layouts are
// PosvCTA's. It serves posv.Potrs for MaxN < n ≤ MaxPosvCTA where PotrsWarp
// does not (the complex types), and posv.Potrs checks the arguments.
func PotrsCTA[T core.Scalar](s *cuda.Stream, uplo core.Uplo, n, nrhs int, a cuda.DevicePtr, lda int, strideA int64,
	b cuda.DevicePtr, ldb int, strideB int64, count int) error {
	dt := cuda.DTypeOf[T]()
	if err := checkSolveOrder("potrs_cta", n); err != nil {
		return err
	}
	switch {
	case s == nil:
		return fmt.Errorf("%w: potrf: potrs_cta: nil stream", core.ErrArgument)
	case count == 0 || n == 0 || nrhs == 0:
		return nil
	}
	ks, err := PosvCTAKernels(s.Context(), dt)
	if err != nil {
		return err
	}
	var args cuda.Args
	args.Ptr(a).Int64(int64(lda)).Int64(strideA).Int32(int32(n)).Ptr(b).Int64(int64(ldb)).Int64(strideB).Int32(int32(nrhs))
	return ctaLaunch(s, ks[2:], dt, uplo, MaxPosvCTA, count, &args)
}
