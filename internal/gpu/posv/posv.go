// Package posv holds the native GPU Cholesky solves for small orders
// (n ≤ MaxN): Posv factors and solves in one kernel, Potrs solves with a
// given factor. One matrix per group of 4 to 32 lanes, each lane holding one
// row of the factor and of a chunk of right-hand sides in registers, the
// factor's columns in shared memory for the substitutions; A and B are read
// and written once (posv.cu says how and why). Both go on to MaxPosvN
// with potrf's one-block tier (potrf.PosvCTA, potrf.PotrsCTA), except that
// both take potrf's warp tier for float32 and float64: Potrs potrs_warp up
// to n = 64 (potrf.CanPotrsWarp); Posv posv_warp up to 64 for float32 and
// 56 for float64, Upper 48 (potrf.CanPosvWarp), and above that to 64 the
// factorization (potrf_warp) and then potrs_warp, two launches where
// posv_warp's registers would spill; float64 takes the two launches below
// that too where the right-hand sides are many (solveApart), and
// potrf.PosvSplit, factor and solve in one launch from a packed tile,
// where it leads (posvSplit: float64 from n = 57, Upper from 33, Lower
// 41…48 at many systems; float32 from 61 at many systems).
package posv

import (
	_ "embed"
	"fmt"
	"math"
	"slices"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cuda"
	"github.com/batchlas/batchlas/internal/gpu/batcharg"
	"github.com/batchlas/batchlas/internal/gpu/potrf"
	"github.com/batchlas/batchlas/internal/gpu/scalar"
)

//go:embed posv.cu
var code string

// Source is the embedded posv.cu behind the scalar prelude (internal/gpu/scalar).
var Source = scalar.Source("posv.cu", code)

// MaxN is the largest order the kernels take, for every type: potrf's
// register-resident factorization, whose row of the factor they share.
const MaxN = 32

// MaxPosvN is the largest order Posv and Potrs take: above MaxN they go to
// potrf's warp tier for float32 and float64 (a warp per matrix; the package
// comment says how) and to potrf.PosvCTA and potrf.PotrsCTA for the complex
// types (a block of 64 threads).
const MaxPosvN = potrf.MaxPosvCTA

// maxThreads is the block size where the shared memory allows it: four
// warps, as potrf's kernel ([B200] n = 32 Cholesky: 4 matrices per block
// beat 8, kernel-lessons §11).
const maxThreads = 128

// staticSharedLimit is what a kernel may declare statically.
const staticSharedLimit = 48 << 10

// shape is potrf's: NC columns held per lane (n rounded up to a multiple of
// 4) and N lanes per matrix (the power of two ≥ NC).
func shape(n int) (lanes, cols int) {
	cols = max(4, (n+3)/4*4)
	lanes = 4
	for lanes < cols {
		lanes *= 2
	}
	return lanes, cols
}

// maxChunk is the most right-hand sides a lane holds at once: 64 bytes of
// them (16 float, 8 double or complex float, 4 complex double). The solve
// keeps no row of the factor in registers, so they fit beside the
// factorization's peak. NVRTC 11.8 for sm_90, n = 32, registers per thread
// (potrf's kernel alone in brackets): float 96 with 1 right-hand side, 108
// with 16 (94); double 103–110 with up to 8 (106); complex float 171–213
// (173–184); complex double 178–182 with up to 4 (178–180); none of the 512
// instantiations uses local memory. TestKernelResources checks this on the
// toolchain in use.
func maxChunk(dt cuda.DType) int { return 64 / dt.Size() }

// chunk is the number of right-hand sides processed at once for nrhs: the
// power of two ≥ nrhs, at most maxChunk (larger nrhs take several chunks).
func chunk(dt cuda.DType, nrhs int) int {
	nr := 1
	for nr < nrhs && nr < maxChunk(dt) {
		nr *= 2
	}
	return nr
}

// chunks lists the chunk sizes an instantiation may have.
func chunks(dt cuda.DType) []int {
	var r []int
	for nr := 1; nr <= maxChunk(dt); nr *= 2 {
		r = append(r, nr)
	}
	return r
}

// sharedBytes is posv.cu's layout::units·16 for a block of threads.
func sharedBytes(dt cuda.DType, lanes, cols, nr, threads int) int {
	v := 16 / dt.Size()
	groups := threads / lanes
	group16 := cols*((cols/v)|1) + 1
	xgroup16 := 2*((nr+v-1)/v) + 1
	return 16 * groups * (group16 + xgroup16)
}

// threadsFor is the block size: 128 threads, or 64 where 128 would need
// more static shared memory than a kernel may declare (complex double at
// n > 24, whose column slots of L take 16 bytes an element). Registers bound
// those blocks anyway: at 180 per thread two 128-thread blocks fit per
// multiprocessor, and five of 64.
func threadsFor(dt cuda.DType, cols, nr int) int {
	lanes, _ := shape(cols)
	t := maxThreads
	for t > max(32, lanes) && sharedBytes(dt, lanes, cols, nr, t) > staticSharedLimit {
		t /= 2
	}
	return t
}

// typeName is the kernel's spelling of each element type.
var typeName = [...]string{
	cuda.Float32:    "float",
	cuda.Float64:    "double",
	cuda.Complex64:  "cfloat",
	cuda.Complex128: "cdouble",
}

// kind names the two kernels.
type kind int

const (
	kindPosv kind = iota
	kindPotrs
)

var kernelPrefix = [...]string{kindPosv: "posv_reg", kindPotrs: "potrs_reg"}

// bucket is one compilation: a kernel, a type, a column bucket and a
// chunk size, both triangles.
type bucket struct {
	kind kind
	dt   cuda.DType
	cols int
	nr   int
}

// names are the bucket's name expressions: Lower, then Upper.
func (b bucket) names() []string {
	lanes, cols := shape(b.cols)
	threads := b.threads()
	name := func(upper bool) string {
		return fmt.Sprintf("%s<%s, %d, %d, %d, %v, %d>", kernelPrefix[b.kind], typeName[b.dt], lanes, cols, b.nr, upper, threads)
	}
	return []string{name(false), name(true)}
}

func (b bucket) threads() int { return threadsFor(b.dt, b.cols, b.nr) }

// buckets lists every instantiation of posv.cu.
func buckets() []bucket {
	var bs []bucket
	for _, k := range []kind{kindPosv, kindPotrs} {
		for dt := cuda.Float32; dt <= cuda.Complex128; dt++ {
			for cols := 4; cols <= MaxN; cols += 4 {
				for _, nr := range chunks(dt) {
					bs = append(bs, bucket{k, dt, cols, nr})
				}
			}
		}
	}
	return bs
}

// KernelNames lists every name expression of posv.cu, for a registry or a
// compile check.
func KernelNames() []string { return slices.Concat(KernelModules()...) }

// KernelModules lists posv.cu's names grouped as kernels loads them, one
// NVRTC program a bucket; a kernel's code can depend on what else its
// program holds, so compile checks use these groups.
func KernelModules() [][]string {
	bs := buckets()
	ms := make([][]string, len(bs))
	for i, b := range bs {
		ms[i] = b.names()
	}
	return ms
}

// loaded holds, per context and bucket, the Lower and Upper kernels; each
// bucket is compiled on its first use.
var loaded cuda.KernelSets[bucket]

func kernels(c *cuda.Context, b bucket) ([]*cuda.Kernel, error) {
	return loaded.Get(c, b, func(c *cuda.Context, b bucket) ([]*cuda.Kernel, error) {
		ks, err := cuda.DefaultJIT().Load(c, Source, b.names()...)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", kernelPrefix[b.kind], err)
		}
		return ks, nil
	})
}

// Load compiles (or finds in the cache) and loads every posv.cu kernel into
// c, a few buckets at a time, for `batchlas kernels` and tests that inspect
// kernel attributes.
func Load(c *cuda.Context) ([]*cuda.Kernel, error) {
	bs := buckets()
	out := make([][]*cuda.Kernel, len(bs))
	loads := make([]func() error, len(bs))
	for i, b := range bs {
		loads[i] = func() (err error) {
			out[i], err = kernels(c, b)
			return err
		}
	}
	if err := cuda.LoadEach(loads...); err != nil {
		return nil, err
	}
	var all []*cuda.Kernel
	for _, ks := range out {
		all = append(all, ks...)
	}
	return all, nil
}

// CanRun reports whether Posv and Potrs take matrices of order n and type
// dtype: nil, or an error wrapping core.ErrUnsupported (n > MaxPosvN) or
// core.ErrShape / core.ErrArgument.
func CanRun(dtype cuda.DType, n int) error {
	switch {
	case dtype < cuda.Float32 || dtype > cuda.Complex128:
		return fmt.Errorf("%w: posv: element type %v", core.ErrArgument, dtype)
	case n < 0:
		return fmt.Errorf("%w: posv: n = %d must not be negative", core.ErrShape, n)
	case n > MaxPosvN:
		return fmt.Errorf("%w: posv: the native kernels take n ≤ %d, not %d", core.ErrUnsupported, MaxPosvN, n)
	}
	return nil
}

// operands describes one call for check.
type operands struct {
	op       string // "posv" or "potrs"
	dt       cuda.DType
	uplo     core.Uplo
	n, nrhs  int
	a        cuda.DevicePtr
	lda      int
	strideA  int64
	b        cuda.DevicePtr
	ldb      int
	strideB  int64
	count    int
	info     cuda.DevicePtr
	needInfo bool
}

// MaxNRHS is the most right-hand sides a call takes: the kernels count
// columns in int32 and step past the last by up to a chunk of columns, which
// must not wrap.
const MaxNRHS = math.MaxInt32 - 64

// check validates the arguments as potrf's check does, for A and B.
func check(o operands) error {
	if err := CanRun(o.dt, o.n); err != nil {
		return err
	}
	n := max(1, o.n)
	switch {
	case !o.uplo.Valid():
		return fmt.Errorf("%w: %s: uplo %v", core.ErrArgument, o.op, o.uplo)
	case o.nrhs < 0:
		return fmt.Errorf("%w: %s: nrhs = %d must not be negative", core.ErrShape, o.op, o.nrhs)
	case o.nrhs > MaxNRHS:
		return fmt.Errorf("%w: %s: nrhs = %d, at most %d", core.ErrShape, o.op, o.nrhs, MaxNRHS)
	case o.count < 0 || o.count > math.MaxInt32:
		return fmt.Errorf("%w: %s: count = %d must be in [0, 2^31)", core.ErrShape, o.op, o.count)
	case o.lda < n:
		return fmt.Errorf("%w: %s: lda = %d, must be at least max(1, n) = %d", core.ErrShape, o.op, o.lda, n)
	case o.ldb < n:
		return fmt.Errorf("%w: %s: ldb = %d, must be at least max(1, n) = %d", core.ErrShape, o.op, o.ldb, n)
	case o.count > 1 && o.strideA < int64(o.lda)*int64(o.n):
		return fmt.Errorf("%w: %s: strideA = %d, must be at least lda·n = %d", core.ErrShape, o.op, o.strideA, int64(o.lda)*int64(o.n))
	case o.count > 1 && o.strideB < int64(o.ldb)*int64(o.nrhs):
		return fmt.Errorf("%w: %s: strideB = %d, must be at least ldb·nrhs = %d", core.ErrShape, o.op, o.strideB, int64(o.ldb)*int64(o.nrhs))
	case o.needInfo && o.count > 0 && o.info == 0:
		return fmt.Errorf("%w: %s: info is a null pointer", core.ErrArgument, o.op)
	case o.needInfo && uintptr(o.info)%4 != 0:
		return fmt.Errorf("%w: %s: info = %#x is not 4-byte aligned", core.ErrArgument, o.op, uintptr(o.info))
	}
	if o.n == 0 || o.count == 0 {
		return nil
	}
	// The kernels load whole elements; complex128 as one 16-byte access.
	if err := batcharg.Elements(o.op, "a", o.dt, o.a); err != nil || o.nrhs == 0 {
		return err
	}
	return batcharg.Elements(o.op, "b", o.dt, o.b)
}

// Posv queues on s the solution of A·X = B for count Hermitian positive
// definite n×n matrices A and n×nrhs matrices B, in one kernel: the
// Cholesky factorization A = L·Lᴴ (uplo Lower) or A = Uᴴ·U (Upper), then the
// substitutions L·Y = B, Lᴴ·X = Y (Uᴴ·Y = B, U·X = Y). Matrix m of A starts
// at element m·strideA of a, with leading dimension lda; matrix m of B at
// m·strideB of b, with ldb; both column-major. Only the uplo triangle of A
// is read, and the factor overwrites it, bit-identical to potrf.Potrf's;
// X overwrites B. The imaginary parts of A's diagonal are not read. info is
// a device int32[count]: 0, or k > 0 when the leading minor of order k is
// not positive definite (its pivot is ≤ 0 or NaN); matrix m of A then holds
// what potrf.Potrf leaves (the first k−1 columns of L or rows of U, the
// failing pivot at (k−1, k−1), the rest as it was) and its B is neither
// read nor written. No matrix affects another.
// Argument errors return before anything is queued; n > MaxPosvN is an
// error wrapping core.ErrUnsupported. Above MaxN the work is
// potrf.PosvSplit's where posvSplit says (in one launch);
// potrf.PosvWarp's where potrf.CanPosvWarp allows (float32 up to n = 64,
// float64 up to 56, Upper 48) and solveApart does not, whose factor is
// bit-identical to potrf.PotrfWarp's; else, where potrf.CanPotrsWarp
// allows (float64 up to 64), potrf.PotrfWarp's followed by
// potrf.PotrsWarp's on the matrices that did not fail (PosvSplit gives
// those bits too); else potrf.PosvCTA's, whose factor is bit-identical to
// potrf.PotrfCTA's. Each way X has the bits Potrs gives for its factor.
func Posv[T core.Scalar](s *cuda.Stream, uplo core.Uplo, n, nrhs int, a cuda.DevicePtr, lda int, strideA int64,
	b cuda.DevicePtr, ldb int, strideB int64, count int, info cuda.DevicePtr) error {
	dt := cuda.DTypeOf[T]()
	if s == nil {
		return fmt.Errorf("%w: posv: nil stream", core.ErrArgument)
	}
	if err := check(operands{"posv", dt, uplo, n, nrhs, a, lda, strideA, b, ldb, strideB, count, info, true}); err != nil {
		return err
	}
	if count == 0 {
		return nil
	}
	if n == 0 {
		return cuda.MemsetD32(s, info, 0, int64(count))
	}
	if n > MaxN {
		if posvSplit(dt, uplo, n, nrhs, count) {
			return potrf.PosvSplit[T](s, uplo, n, nrhs, a, lda, strideA, b, ldb, strideB, count, info)
		}
		if potrf.CanPosvWarp(dt, uplo, n) == nil && !solveApart(dt, uplo, n, nrhs, count) {
			return potrf.PosvWarp[T](s, uplo, n, nrhs, a, lda, strideA, b, ldb, strideB, count, info)
		}
		if potrf.CanPotrsWarp(dt, uplo, n) == nil {
			return factorThenSolve[T](s, uplo, n, nrhs, a, lda, strideA, b, ldb, strideB, count, info)
		}
		return potrf.PosvCTA[T](s, uplo, n, nrhs, a, lda, strideA, b, ldb, strideB, count, info)
	}
	var args cuda.Args
	args.Ptr(a).Int64(int64(lda)).Int64(strideA).Ptr(b).Int64(int64(ldb)).Int64(strideB).
		Int32(int32(n)).Int32(int32(nrhs)).Int32(int32(count)).Ptr(info)
	return launch(s, kindPosv, dt, uplo, n, nrhs, count, &args)
}

// factorThenSolve is Posv where solveApart says (posvSplit takes the
// orders where posv_warp would spill, float64 Upper 49…64 and Lower
// 57…64): potrf_warp, then potrs_warp (potrs_split for float64) on the
// same stream, which skips the matrices whose info is not 0. A is read
// and written twice, B once. [H200] 65,536 float64 systems, 1, 4 and 16
// right-hand sides, µs against posv_cta on the same inputs
// (bench/results/h200/session30/, lab2): Upper n = 56 (potrf_warp, then
// potrs_warp as it was) 2342, 2476, 3054 against 3824, 3835, 5622.
func factorThenSolve[T core.Scalar](s *cuda.Stream, uplo core.Uplo, n, nrhs int, a cuda.DevicePtr, lda int, strideA int64,
	b cuda.DevicePtr, ldb int, strideB int64, count int, info cuda.DevicePtr) error {
	if err := potrf.PotrfWarp[T](s, uplo, n, a, lda, strideA, count, info); err != nil {
		return err
	}
	return potrf.PotrsWarp[T](s, uplo, n, nrhs, a, lda, strideA, b, ldb, strideB, count, info)
}

// posvSplit reports whether Posv takes potrf.PosvSplit (the
// factorization by panels in the warp's packed tile, then the solve from
// that tile, in one launch): float64 from n = 57, where it replaces
// potrf_split then potrs_split; Upper from 37, and from 33 at 4,096
// systems or more, where posv_warp (through its square tile) or the two
// launches served; Lower 45…48 from 4,096 systems, and Lower 41…44 there
// with 4 right-hand sides or more, where posv_warp or the two launches
// served.
// [H200] float64, µs, posv_split against what Posv took before, the same
// bits. 65,536 systems, 1, 4, 8, 16 right-hand sides (lab/fused.py,
// bench/results/h200/session44/, call 4): Lower n = 64 1620, 1745, 1965,
// 2332 against 1868, 1984, 2137, 2479; Upper n = 56 1348, 1459, 1649, 1944
// against 1811, 1905, 2032, 2336. Upper n = 37…48 at every count
// (bench/results/h200/session45/, lab/verify.py, call 4; lab/lower.py,
// call 1): n = 44 with 1 and 16 at 16,384 systems 258.0 and 362.9 against
// posv_warp's 399.5 and the two launches' 414.0; n = 40 at 65,536 922
// against posv_warp's 1434, with 16 1230 against the two launches' 1340;
// n = 48 at 4,096 76.6 and 106.1 against 116.9 and 193.3; at 1,024 n = 40
// 20.4 and 25.9 against 21.5 and 27.2, n = 37 with 1 19.6 against 19.6.
// Lower, since its tile is packed by columns (potrf's warp.cu, split_rows;
// lab/routes.py, call 3): n = 48 with 1, 4 and 16 at 4,096 systems 75.0,
// 80.4, 102.8 against posv_warp's 77.5, 86.1, 129.2; at 16,384 272.8,
// 294.6, 373.6 against 276.5, 316.0, 482.9 (the two launches 434.5 with
// 16); at 65,536 1036, 1120, 1420 against 1056, 1168, 1842; but at 1,024
// 25.0 against 19.6 with 1. n = 44 (call 4): at 16,384 with 4 and 16 275.5
// and 350.1 against 284.0 and 362.1, at 4,096 with 8 82.1 against 90.2,
// with 4 a tie (75.9 against 75.7), with 1 at 16,384 256.6 against 250.9.
// Upper n = 33…36 (call 5): at 4,096 systems and more posv_split led by
// 14–31 % (n = 36 at 16,384 with 1 and 16: 222.5 and 300.9 against
// 313.9 and 404.4, the two launches 341.3), at 1,024 not always (n = 33
// with 16: 25.0 against 23.2). Left as they were: Lower n ≤ 40, where
// posv_warp led (n = 40 at 16,384 with 1 and 16: 229.5 and 328.3 against
// 257.4 and 333.3; at n = 33 and 36 posv_split won by 2 % at most, with 8
// and 16 from 16,384 systems, call 5), and Lower 49…56, where posv_warp
// led with few right-hand sides (n = 52 with 1 at 65,536: 1150 against
// 1342) and the two launches tied with 16 (1860 against 1865).
// float32 (session 68) takes it from n = 61 (the bucket NC = 64) at 16,384
// systems or more, where posv_warp's 158 registers at NC = 64 kept its
// solve from tri_solve's half-warp chunks (potrf's warp.cu, the split
// body). [H100] µs, posv_split against posv_warp, one process
// (TestPosvWarpTiming with split32.patch and split32b.patch,
// bench/results/h200/session68/, split-lab1 and split-lab2 logs): Lower
// n = 64 with 1, 4, 16 right-hand sides at 16,384 systems 307.4, 327.8,
// 407.5 against 329.0, 348.5, 490.6, at 65,536 1158, 1240, 1522 against
// 1228, 1306, 1846; n = 61 at 16,384 with 1 and 16 301.7 and 403.1
// against 329.3 and 472.8; Upper n = 61 268.0 and 388.3 against 483.1 and
// 747.2 (posv_warp's tile: columns not on 16 bytes), n = 64 271.2 and
// 376.6 against 304.5 and 420.6 (its wide tile). Left to posv_warp: Lower
// n = 48 to 60 (posv_split 0.6–16 % slower: n = 57 and 60 at 16,384 with 1
// and 16 278.0 and 375.2 against 264.5 and 371.5, 285.1 and 385.5 against
// 269.5 and 383.1), Upper n = 60 with aligned columns (257.6 against
// 256.8 with 1), and fewer systems, not timed. Upper with unaligned
// columns below 61, where posv_split led (n = 49 218.2 against 319.7, n =
// 57 250.6 against 327.5, with 1), waits for a rule that sees the
// alignment, as posv_warp's launcher does.
func posvSplit(dt cuda.DType, uplo core.Uplo, n, nrhs, count int) bool {
	switch {
	case potrf.CanPosvSplit(dt, n) != nil:
		return false
	case dt == cuda.Float32:
		return n >= 61 && count >= 16384
	case n >= 57 || uplo == core.Upper && n >= 37:
		return true
	case n >= 49 || count < 4096:
		return false
	case uplo == core.Upper:
		return true
	}
	return n >= 45 || n >= 41 && nrhs >= 4
}

// solveApart reports whether Posv factors and solves in two launches
// (factorThenSolve) where posv_warp could do both: float64 Lower n =
// 49…56 with more than 8 right-hand sides from 16,384 systems, where the
// solve outweighs reading A twice (posvSplit, asked first, takes the
// orders around these). potrs_split's half-warp chunks (warp.cu's
// tri_solve) solve faster than posv_warp, whose registers at NC ≥ 48 (the
// factorization's) leave 8 warps a multiprocessor for its solve. [H200]
// float64, µs, posv_warp against the two launches, the same X
// (bench/results/h200/session43/, call 3, lab/edges.py), 65,536 systems:
// n = 52 2427 against 1869 with 16 right-hand sides, 2388 against 1952
// with 12, 1435 against 1596 with 8; n = 56 3235 against 2020 with 16,
// 3302 against 2110 with 12. 16,384 systems ranked them the same way, but
// for n = 56 with 8, where posv_warp stays (481 against 488 µs; 1761
// against 1724 at 65,536). Below 16,384 systems two launches cost more
// than they save (1,024 systems of n = 48 with 16: 48.4 µs against
// posv_warp's 42.4, session 43's call 4). Upper with 8 or more and Lower
// 45…48 with 16 took the two launches too until posv_split led there
// (posvSplit; bench/results/h200/session45/).
func solveApart(dt cuda.DType, uplo core.Uplo, n, nrhs, count int) bool {
	return dt == cuda.Float64 && uplo == core.Lower && count >= 16384 && n >= 49 && nrhs > 8
}

// Potrs queues on s the solution of A·X = B for count n×n matrices A given
// by their Cholesky factors, as Posv and potrf.Potrf leave them in the uplo
// triangle of a (A = L·Lᴴ for Lower, Uᴴ·U for Upper; only that triangle is
// read, the diagonal's real part only), and n×nrhs matrices B, which X
// overwrites. Layouts are Posv's. A zero on the factor's diagonal gives
// infinities and NaNs in that matrix's X, as the substitution does in
// LAPACK; no matrix affects another. Above MaxN the work is
// potrf.PotrsWarp's where potrf.CanPotrsWarp allows and
// potrf.PotrsCTA's otherwise; either's X has the bits of Posv's for the
// same factor.
// Argument errors return before anything is queued; n > MaxPosvN is an
// error wrapping core.ErrUnsupported.
func Potrs[T core.Scalar](s *cuda.Stream, uplo core.Uplo, n, nrhs int, a cuda.DevicePtr, lda int, strideA int64,
	b cuda.DevicePtr, ldb int, strideB int64, count int) error {
	dt := cuda.DTypeOf[T]()
	if s == nil {
		return fmt.Errorf("%w: potrs: nil stream", core.ErrArgument)
	}
	if err := check(operands{"potrs", dt, uplo, n, nrhs, a, lda, strideA, b, ldb, strideB, count, 0, false}); err != nil {
		return err
	}
	if count == 0 || n == 0 || nrhs == 0 {
		return nil
	}
	if n > MaxN {
		if potrf.CanPotrsWarp(dt, uplo, n) == nil {
			return potrf.PotrsWarp[T](s, uplo, n, nrhs, a, lda, strideA, b, ldb, strideB, count, 0)
		}
		return potrf.PotrsCTA[T](s, uplo, n, nrhs, a, lda, strideA, b, ldb, strideB, count)
	}
	var args cuda.Args
	args.Ptr(a).Int64(int64(lda)).Int64(strideA).Ptr(b).Int64(int64(ldb)).Int64(strideB).
		Int32(int32(n)).Int32(int32(nrhs)).Int32(int32(count))
	return launch(s, kindPotrs, dt, uplo, n, nrhs, count, &args)
}

// launch picks the instantiation for n and nrhs and queues it.
func launch(s *cuda.Stream, k kind, dt cuda.DType, uplo core.Uplo, n, nrhs, count int, args *cuda.Args) error {
	lanes, cols := shape(n)
	b := bucket{k, dt, cols, chunk(dt, nrhs)}
	ks, err := kernels(s.Context(), b)
	if err != nil {
		return err
	}
	kern := ks[0]
	if uplo == core.Upper {
		kern = ks[1]
	}
	threads := b.threads()
	perBlock := threads / lanes
	blocks := (count + perBlock - 1) / perBlock
	return cuda.LaunchArgs(s, kern, [3]uint32{uint32(blocks), 1, 1}, [3]uint32{uint32(threads), 1, 1}, 0, args)
}
