package potrf

// This file is the warp tier ("native:warp") for MaxN < n ≤ MaxWarpFor(dt):
// one matrix per warp, two rows per lane in registers (warp.cu says how and
// why), float32 and float64 up to n = 64 (float64 above 56 on the split
// body, by panels in a packed tile: maxWarp and warpSplit say why); the CTA
// tier takes the other orders and types.

import (
	_ "embed"
	"fmt"
	"slices"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cuda"
	"github.com/batchlas/batchlas/internal/gpu/batcharg"
)

//go:embed warp.cu
var warpCode string

// WarpSource is Source (the scalar prelude and potrf.cu, whose helpers and
// Upper tile the warp kernel shares) and sweeps.cu (its solves) followed by
// warp.cu.
var WarpSource = withSweeps("warp.cu", warpCode)

// MaxWarp is the largest order of the warp tier for any type (float32's):
// two rows of 32 lanes. MaxWarpFor gives each type's.
const MaxWarp = 64

// perType holds a number for each scalar type, indexed by cuda.DType.
type perType [cuda.Complex128 + 1]int

// of is dtype's number, 0 for a dtype outside the table.
func (p *perType) of(dtype cuda.DType) int {
	if dtype < cuda.Float32 || dtype > cuda.Complex128 {
		return 0
	}
	return p[dtype]
}

// maxWarp is each type's largest order, 0 for a type without the tier.
// warp_body keeps 32 + NC values a lane in registers: float64 took 254
// registers and no local memory at NC = 56, and spilled from NC = 60 (8 B;
// at 64, 24 B Lower and 192 B Upper, which then ran 2.7 times as long as
// Lower) under CUDA 13's NVRTC. [H200] 16,384 float64 systems, Lower,
// against the CTA tier on the same inputs, µs
// (bench/results/h200/session29/call3-lab.log): potrf n = 40 179 against
// 310, 48 209 against 340, 56 252 against 465; posv with one right-hand
// side n = 48 275 against 651, 56 396 against 833, with 16 n = 48 477
// against 972. float64's buckets 60 and 64 factor on the split body
// instead (warpSplit), 32 values a lane. complex64 (as wide as
// float64, with more registers for its arithmetic) has not been tried.
var maxWarp = perType{cuda.Float32: 64, cuda.Float64: 64}

// MaxWarpFor is the largest order of the warp tier for dtype, 0 where it
// has none.
func MaxWarpFor(dtype cuda.DType) int { return maxWarp.of(dtype) }

// posvWarpMax is the largest order posv_warp solves for dtype and uplo:
// the tier's for float32; for float64 warp_body's, 56 (posv_warp has no
// split body: warp.cu's comment on it says why), and 48 for Upper, whose
// posv_warp kernels took 254 registers and 8 B of local memory at NC = 52
// and 56 (CUDA 13; session 29, call 4).
func posvWarpMax(dtype cuda.DType, uplo core.Uplo) int {
	if dtype == cuda.Float64 {
		if uplo == core.Upper {
			return 48
		}
		return 56
	}
	return MaxWarpFor(dtype)
}

// potrsWarpMax is each type's largest order of potrs_warp, 0 for a type
// without it: 64 for float32 and float64 in both triangles, beyond
// float64's factorization (56) and its Upper posv_warp (48), as potrs_warp
// holds no factor in its registers: for double at NC = 64, 142 registers and
// no local memory (CUDA 13; session 30). Where posv.Posv factors and solves
// in two launches (potrf_warp, then this: posv.go's factorThenSolve), its X
// keeps Potrs's bits.
var potrsWarpMax = perType{cuda.Float32: 64, cuda.Float64: 64}

// MaxPotrsWarpFor is the largest order potrs_warp solves for dtype, 0
// where it has none.
func MaxPotrsWarpFor(dtype cuda.DType) int { return potrsWarpMax.of(dtype) }

// warpPerBlock is kWarpTier of warp.cu: matrices (warps) per block.
const warpPerBlock = 2

// warpCols is the kernel's NC for order n: n rounded up to a multiple of 4.
func warpCols(n int) int { return (n + 3) / 4 * 4 }

// warpSplit reports whether potrf_warp's bucket nc of dt is potrf_split
// (warp.cu's split body, by panels of 16 columns): float64 from NC = 60,
// where warp_body spills (maxWarp). Below, float64 Lower stayed with
// warp_body: [H200] 65,536 matrices, n = 56, 917 µs against the panels'
// 1043 (bench/results/h200/session42/, call 4). So did Upper, where the
// panels win only at large batches: float64 Upper n = 56, the panels
// against warp_body, 1040 against 1320 µs at 65,536 matrices (call 6's
// A/B of the CLIs); in call 6's tune against the table's row (session
// 30's), 84.8 against 89.8 at 4,096, but 27.7 against 23.5 at 1,024 and
// 19.3 against 15.9 for one matrix (native:cta 17.9 in both calls).
func warpSplit(dt cuda.DType, nc int) bool { return dt == cuda.Float64 && nc >= 60 }

// potrsSplit reports whether potrs_warp of dt is potrs_split (the factor
// in the packed tile, filled by cp.async, and tri_solve's chunks by groups
// of lanes): float64, at every NC and in both triangles. X keeps
// warp_solve's bits. [H200] 65,536 float64 systems, µs, potrs_split
// against potrs_warp (bench/results/h200/session43/, call 3, lab/edges.py):
// Lower n = 33 302 against 383 with 1 right-hand side, 597 against 638
// with 16; n = 40 360 against 415, 704 against 722; n = 48 424 against
// 676, 816 against 1076; Upper n = 36 276 against 393, 592 against 664;
// n = 48 359 against 736, 757 against 1137; potrs_split led at 4 and 8
// right-hand sides and at 16,384 systems too. Session 42 (call 1) moved
// NC ≥ 52 for the tile alone: Lower n = 64 630 against 1543 with 1
// right-hand side.
func potrsSplit(dt cuda.DType) bool { return dt == cuda.Float64 }

// splitBytes is the dynamic shared memory of potrf_split and potrs_split:
// per warp the packed triangle of NC rows (warp.cu's split_pitch), whole
// 16-byte vectors.
func splitBytes(dt cuda.DType, n int) int {
	nc := warpCols(n)
	v := 16 / dt.Size()
	pitch := (nc*(nc+1)/2 + v - 1) / v * v
	return warpPerBlock * pitch * dt.Size()
}

// warpTileBytes is the dynamic shared memory of the Upper potrf_warp and of
// posv_warp (for its solves): NC rows of NC + 1 elements per warp.
func warpTileBytes(dt cuda.DType, n int) int {
	nc := warpCols(n)
	return warpPerBlock * nc * (nc + 1) * dt.Size()
}

// widePitch is warp.cu's wide_pitch: elements from one row of the wide
// tile to the next, an odd number of 16-byte chunks.
func widePitch(dt cuda.DType, nc int) int {
	v := 16 / dt.Size()
	chunks := nc / v
	if chunks%2 == 0 {
		chunks++
	}
	return chunks * v
}

// posvWide is warp.cu's posv_wide for posv_warp: aligned Upper columns of
// bucket nc move through the wide tile, float32 at every bucket and float64
// from NC = 48, or in place (float64 below, where in place was faster).
func posvWide(dt cuda.DType, nc int) bool { return dt == cuda.Float32 || nc >= 48 }

// posvWideBytes is the dynamic shared memory of posv_warp with aligned
// Upper columns where posvWide (warp.cu's posv_wide_tile): per warp the
// wide tile or the solve's tile, whichever is larger.
func posvWideBytes(dt cuda.DType, n int) int {
	nc := warpCols(n)
	return warpPerBlock * nc * max(nc+1, widePitch(dt, nc)) * dt.Size()
}

// warpWide reports whether dt has the Upper kernel through the wide tile
// (warp.cu's wide_fill, in the kernel's static shared memory), which
// PotrfWarp takes where every column is 16-byte aligned: float32, at every
// bucket faster than the tile of NC + 1 columns (warp.cu's figures), also
// since that tile stopped selecting: [H200] 65,536 matrices, µs
// (bench/results/h200/session35/, call 4): n = 36 320.9 against 334.9, 40
// 359.2 against 390.7, 52 548.9 against 569.5, 64 719.4 against 748.0.
// float64 stays on the tile: [H200] 65,536 matrices, Upper, the wide tile
// against the tile, µs (bench/results/h200/session34/, call 2): n = 48
// 1134.9 against 936.1, 56 1375.4 against 1321.9.
func warpWide(dt cuda.DType) bool { return dt == cuda.Float32 }

// warpKernelNames are the name expressions of bucket nc: Lower; Upper
// through the tile of NC + 1 columns, one element a lane and instruction
// (any layout); and where warpWide, Upper through the wide tile, 16 bytes
// at once (16-byte aligned columns). Moving aligned columns in place, as
// posv_warp's float64 does below NC = 48, lost to the tile everywhere
// measured but n = 48 at 65,536 matrices (warp.cu's comment at the top).
// Where warpSplit says, potrf_split's Lower and Upper instead.
func warpKernelNames(dt cuda.DType, nc int) []string {
	if warpSplit(dt, nc) {
		return []string{
			fmt.Sprintf("potrf_split<%s, %d, false>", typeName[dt], nc),
			fmt.Sprintf("potrf_split<%s, %d, true>", typeName[dt], nc),
		}
	}
	name := func(upper, vec bool) string {
		return fmt.Sprintf("potrf_warp<%s, %d, %v, %v>", typeName[dt], nc, upper, vec)
	}
	names := []string{name(false, false), name(true, false)}
	if warpWide(dt) {
		names = append(names, name(true, true))
	}
	return names
}

// MaxPosvWarp is the largest order posv_warp and potrs_warp solve for any
// type (float32's; posvWarpMax and MaxPotrsWarpFor give each type's). [H200]
// 65,536 float systems, 1, 4 and 16 right-hand sides, against the vendor
// in one process (bench/results/h200/session25/, call 3): Posv n = 48
// 6.32×, 5.47×, 5.34×, n = 64 6.24×, 5.82×, 5.50× (posv's TestPosvTiming);
// Potrs n = 48 4.50×, 3.70×, 4.37×, n = 64 3.00×, 2.60×, 3.23× (batchlas
// tune potrs). Upper against the vendor's Upper (calls 4 and 5): Posv
// n = 48 7.42×, 6.55×, 6.28×, n = 64 5.95×, 5.54×, 5.39× (columns on 16
// bytes); Potrs n = 48 4.82×, 3.32×, 4.12×, n = 64 2.98×, 2.49×, 3.18×.
// float64, Lower, n = 48 (session 29, call 5): Posv 5.45×, 4.93×, 3.71×.
const MaxPosvWarp = 64

// posvWarpNames are the name expressions of posv_warp for bucket nc and
// one triangle: Lower; or Upper through the tile of NC + 1 columns (any
// layout) and Upper with 16-byte aligned columns, through the wide tile
// or in place as posvWide says.
func posvWarpNames(dt cuda.DType, nc int, upper bool) []string {
	name := func(upper, vec bool) string {
		return fmt.Sprintf("posv_warp<%s, %d, %v, %v>", typeName[dt], nc, upper, vec)
	}
	if upper {
		return []string{name(true, false), name(true, true)}
	}
	return []string{name(false, false)}
}

// potrsWarpNames are the name expressions of potrs_warp for bucket nc and
// one triangle: potrs_split where potrsSplit says.
func potrsWarpNames(dt cuda.DType, nc int, upper bool) []string {
	kernel := "potrs_warp"
	if potrsSplit(dt) {
		kernel = "potrs_split"
	}
	return []string{fmt.Sprintf("%s<%s, %d, %v>", kernel, typeName[dt], nc, upper)}
}

// posvSplitNames are the name expressions of posv_split for bucket nc and
// one triangle: one kernel for any lda or alignment, since split_fill
// copies A element by element (posv_warp has aligned variants).
func posvSplitNames(dt cuda.DType, nc int, upper bool) []string {
	return []string{fmt.Sprintf("posv_split<%s, %d, %v>", typeName[dt], nc, upper)}
}

// warpTypes are the types with a warp kernel.
var warpTypes = []cuda.DType{cuda.Float32, cuda.Float64}

// warpModule is one module of the warp tier as its per-order loaders
// compile it: one family's kernels for one type, bucket and (the solves)
// triangle.
type warpModule struct {
	names []string
	load  func(*cuda.Context) ([]*cuda.Kernel, error)
}

// warpModules lists the warp tier's modules: potrf_warp (Lower, Upper) for
// each bucket up to MaxWarpFor, and for each triangle posv_warp (through
// the tile, and aligned Upper) up to posvWarpMax, potrs_warp up to
// MaxPotrsWarpFor and posv_split where CanPosvSplit, for each type with
// the tier.
func warpModules() []warpModule {
	var ms []warpModule
	for _, dt := range warpTypes {
		for nc := warpCols(MaxN + 1); nc <= max(MaxWarpFor(dt), MaxPotrsWarpFor(dt)); nc += 4 {
			if nc <= MaxWarpFor(dt) {
				ms = append(ms, warpModule{warpKernelNames(dt, nc),
					func(c *cuda.Context) ([]*cuda.Kernel, error) { return warpKernels(c, dt, nc) }})
			}
			for _, uplo := range []core.Uplo{core.Lower, core.Upper} {
				upper := uplo == core.Upper
				if nc <= posvWarpMax(dt, uplo) {
					ms = append(ms, warpModule{posvWarpNames(dt, nc, upper),
						func(c *cuda.Context) ([]*cuda.Kernel, error) { return posvWarpKernels(c, dt, nc, uplo) }})
				}
				if nc <= MaxPotrsWarpFor(dt) {
					ms = append(ms, warpModule{potrsWarpNames(dt, nc, upper),
						func(c *cuda.Context) ([]*cuda.Kernel, error) { return potrsWarpKernels(c, dt, nc, uplo) }})
				}
				if CanPosvSplit(dt, nc) == nil {
					ms = append(ms, warpModule{posvSplitNames(dt, nc, upper),
						func(c *cuda.Context) ([]*cuda.Kernel, error) { return posvSplitKernels(c, dt, nc, uplo) }})
				}
			}
		}
	}
	return ms
}

// WarpKernelNames lists every name expression of warp.cu (warpModules'),
// for a registry or a compile check.
func WarpKernelNames() []string { return slices.Concat(WarpKernelModules()...) }

// WarpKernelModules lists warpModules' names, one NVRTC program each as the
// per-order loaders compile them; a kernel's code can depend on what else
// its program holds, so compile checks use these groups.
func WarpKernelModules() [][]string {
	ms := warpModules()
	names := make([][]string, len(ms))
	for i, m := range ms {
		names[i] = m.names
	}
	return names
}

// LoadWarpModules compiles (or finds in the cache) and loads into c every
// module of the warp tier, as the per-order loaders would on first use,
// several at once (cuda.LoadEach). Tests that go through many orders call
// it first: one at a time on a cold cache, the modules took more than 150 s
// on the H200's host (session 56).
func LoadWarpModules(c *cuda.Context) error {
	ms := warpModules()
	loads := make([]func() error, len(ms))
	for i, m := range ms {
		loads[i] = func() error {
			_, err := m.load(c)
			return err
		}
	}
	return cuda.LoadEach(loads...)
}

type warpKey struct {
	dt cuda.DType
	nc int
}

var warpLoaded cuda.KernelSets[warpKey]

// solveKey picks posv_warp's or potrs_warp's kernels of one triangle.
type solveKey struct {
	warpKey
	upper bool
}

// posvWarpLoaded holds posv_warp's kernels per context, type, bucket and
// triangle, a module of their own (calls that never solve, or solve the
// other triangle, do not compile them).
var posvWarpLoaded cuda.KernelSets[solveKey]

// potrsWarpLoaded holds potrs_warp's, likewise, and posvSplitLoaded
// posv_split's.
var potrsWarpLoaded, posvSplitLoaded cuda.KernelSets[solveKey]

func warpKernels(c *cuda.Context, dt cuda.DType, nc int) ([]*cuda.Kernel, error) {
	return loadWarp(c, &warpLoaded, "warp", warpKey{dt, nc}, func(k warpKey) []string { return warpKernelNames(k.dt, k.nc) })
}

func posvWarpKernels(c *cuda.Context, dt cuda.DType, nc int, uplo core.Uplo) ([]*cuda.Kernel, error) {
	return loadWarp(c, &posvWarpLoaded, "posv_warp", solveKey{warpKey{dt, nc}, uplo == core.Upper},
		func(k solveKey) []string { return posvWarpNames(k.dt, k.nc, k.upper) })
}

func posvSplitKernels(c *cuda.Context, dt cuda.DType, nc int, uplo core.Uplo) ([]*cuda.Kernel, error) {
	return loadWarp(c, &posvSplitLoaded, "posv_split", solveKey{warpKey{dt, nc}, uplo == core.Upper},
		func(k solveKey) []string { return posvSplitNames(k.dt, k.nc, k.upper) })
}

func potrsWarpKernels(c *cuda.Context, dt cuda.DType, nc int, uplo core.Uplo) ([]*cuda.Kernel, error) {
	return loadWarp(c, &potrsWarpLoaded, "potrs_warp", solveKey{warpKey{dt, nc}, uplo == core.Upper},
		func(k solveKey) []string { return potrsWarpNames(k.dt, k.nc, k.upper) })
}

// loadWarp gets key's kernels, named by names, from set, compiling them
// from WarpSource on first use.
func loadWarp[K comparable](c *cuda.Context, set *cuda.KernelSets[K], what string, key K, names func(K) []string) ([]*cuda.Kernel, error) {
	return set.Get(c, key, func(c *cuda.Context, k K) ([]*cuda.Kernel, error) {
		ks, err := cuda.DefaultJIT().Load(c, WarpSource, names(k)...)
		if err != nil {
			return nil, fmt.Errorf("potrf: %s: %w", what, err)
		}
		return ks, nil
	})
}

// CanRunWarp reports whether the warp kernel factors matrices of order n
// and type dtype: nil for MaxN < n ≤ MaxWarpFor(dtype) (float32 and
// float64) and for n = 0, or an error wrapping core.ErrUnsupported
// (another order or type), core.ErrShape or core.ErrArgument.
func CanRunWarp(dtype cuda.DType, n int) error {
	return checkWarpOrder("potrf_warp", dtype, n, MaxWarpFor(dtype))
}

// checkWarpOrder is the rule of CanRunWarp, CanPotrsWarp and
// CanPosvSplit: kernel what
// takes MaxN < n ≤ limit and n = 0, limit being dtype's (0: none).
func checkWarpOrder(what string, dtype cuda.DType, n, limit int) error {
	switch {
	case dtype < cuda.Float32 || dtype > cuda.Complex128:
		return fmt.Errorf("%w: potrf: %s: element type %v", core.ErrArgument, what, dtype)
	case n < 0:
		return fmt.Errorf("%w: potrf: %s: n = %d must not be negative", core.ErrShape, what, n)
	case n == 0:
		return nil
	case limit == 0:
		return fmt.Errorf("%w: potrf: %s is for float32 and float64, not %v (its rows would spill)", core.ErrUnsupported, what, dtype)
	case n <= MaxN || n > limit:
		return fmt.Errorf("%w: potrf: %s takes %v for %d < n ≤ %d, not %d", core.ErrUnsupported, what, dtype, MaxN, limit, n)
	}
	return nil
}

// PotrfWarp queues on s the Cholesky factorization of count Hermitian
// positive definite n×n matrices with the warp kernel; arguments, results,
// info and failures as PotrfCTA's. Calls CanRunWarp refuses (n outside
// (MaxN, MaxWarpFor(T)], types other than float32 and float64) are errors
// wrapping core.ErrUnsupported.
func PotrfWarp[T core.Scalar](s *cuda.Stream, uplo core.Uplo, n int, a cuda.DevicePtr, lda int, stride int64, count int, info cuda.DevicePtr) error {
	return potrfWarp[T](s, uplo, n, a, lda, stride, count, info, true)
}

// potrfWarp is PotrfWarp; wide allows the wide tile (warpWide) for Upper
// matrices whose columns are 16-byte aligned (the tests and timings turn it
// off to set the two tiles side by side: the factor has the same bits
// either way).
func potrfWarp[T core.Scalar](s *cuda.Stream, uplo core.Uplo, n int, a cuda.DevicePtr, lda int, stride int64, count int, info cuda.DevicePtr,
	wide bool) error {
	dt := cuda.DTypeOf[T]()
	if s == nil {
		return fmt.Errorf("%w: potrf: warp: nil stream", core.ErrArgument)
	}
	if err := CanRunWarp(dt, n); err != nil {
		return err
	}
	if done, err := warpStart(s, "potrf: warp", dt, uplo, n, a, lda, stride, count, info); done {
		return err
	}
	ks, err := warpKernels(s.Context(), dt, warpCols(n))
	if err != nil {
		return err
	}
	k, shared := ks[0], 0
	switch {
	case warpSplit(dt, warpCols(n)): // either triangle, any layout
		shared = splitBytes(dt, n)
		if uplo == core.Upper {
			k = ks[1]
		}
	case uplo == core.Lower:
	case wide && warpWide(dt) && upperVectors(dt, uplo, a, lda, stride, count):
		k = ks[2] // the wide tile is static shared memory
	default:
		k, shared = ks[1], warpTileBytes(dt, n)
	}
	var args cuda.Args
	args.Ptr(a).Int64(int64(lda)).Int64(stride).Int32(int32(n)).Int32(int32(count)).Ptr(info)
	return warpLaunch(s, k, count, shared, &args)
}

// warpStart is what PotrfWarp and PosvWarp do before their launch: A's
// checks, then the calls with nothing to factor (no matrices; n = 0, where
// info is zeroed). done reports that the call is complete, with err.
func warpStart(s *cuda.Stream, name string, dt cuda.DType, uplo core.Uplo, n int, a cuda.DevicePtr, lda int, stride int64,
	count int, info cuda.DevicePtr) (done bool, err error) {
	if err := batcharg.Factor(name, dt, uplo, n, a, lda, stride, count, info); err != nil {
		return true, err
	}
	if count == 0 {
		return true, nil
	}
	if n == 0 {
		return true, cuda.MemsetD32(s, info, 0, int64(count))
	}
	return false, nil
}

// warpLaunch queues k with one warp per matrix, warpPerBlock warps a block.
func warpLaunch(s *cuda.Stream, k *cuda.Kernel, count, shared int, args *cuda.Args) error {
	blocks := (count + warpPerBlock - 1) / warpPerBlock
	return cuda.LaunchArgs(s, k, [3]uint32{uint32(blocks), 1, 1}, [3]uint32{32 * warpPerBlock, 1, 1}, uint32(shared), args)
}

// CanPosvWarp reports whether posv_warp solves systems of order n, type
// dtype and triangle uplo: nil where CanRunWarp is (MaxN < n ≤
// MaxWarpFor(dtype), float32 and float64, and n = 0) but float64 above 56
// and float64 Upper above 48 (posvWarpMax), or an error wrapping
// core.ErrUnsupported (another order, type or triangle; maxWarp and
// posvWarpMax say why), core.ErrShape or core.ErrArgument. posv.Posv takes
// posv_warp where this is nil and it does not pick posv_split or the two
// launches first (posv.go's posvSplit and solveApart).
func CanPosvWarp(dtype cuda.DType, uplo core.Uplo, n int) error {
	if err := CanRunWarp(dtype, n); err != nil {
		return err
	}
	if limit := posvWarpMax(dtype, uplo); n > limit {
		return fmt.Errorf("%w: potrf: posv_warp solves %v %v for n ≤ %d, not %d", core.ErrUnsupported, dtype, uplo, limit, n)
	}
	return nil
}

// CanPotrsWarp reports whether potrs_warp solves systems of order n and
// type dtype (either triangle): nil for MaxN < n ≤ MaxPotrsWarpFor(dtype)
// (float32 and float64 up to 64) and for n = 0, or an error wrapping
// core.ErrUnsupported (another order or type), core.ErrShape or
// core.ErrArgument. posv.Potrs takes potrs_warp exactly where this is
// nil; posv.Posv after potrf_warp where it solves in two launches.
func CanPotrsWarp(dtype cuda.DType, uplo core.Uplo, n int) error {
	return checkWarpOrder("potrs_warp", dtype, n, MaxPotrsWarpFor(dtype))
}

// PosvWarp queues on s posv_warp: for count matrices, the factorization
// exactly as PotrfWarp's (A gets the same bits, info the same values), then
// the solve of A·X = B, X over B, for the matrices that did not fail; a
// failed matrix's B is neither read nor written. X has the bits PotrsWarp
// gives for the same factor. B is n×nrhs column-major, leading dimension
// ldb, matrix m at m·strideB. Calls CanPosvWarp refuses are errors
// (posv.Posv takes PosvSplit, two launches or PosvCTA there). It serves
// posv.Posv, which checks the arguments; this checks A's as PotrfWarp
// does, and CanPosvWarp's rule.
func PosvWarp[T core.Scalar](s *cuda.Stream, uplo core.Uplo, n, nrhs int, a cuda.DevicePtr, lda int, strideA int64,
	b cuda.DevicePtr, ldb int, strideB int64, count int, info cuda.DevicePtr) error {
	dt := cuda.DTypeOf[T]()
	if err := CanPosvWarp(dt, uplo, n); err != nil {
		return err
	}
	if s == nil {
		return fmt.Errorf("%w: potrf: posv_warp: nil stream", core.ErrArgument)
	}
	if done, err := warpStart(s, "potrf: posv_warp", dt, uplo, n, a, lda, strideA, count, info); done {
		return err
	}
	ks, err := posvWarpKernels(s.Context(), dt, warpCols(n), uplo)
	if err != nil {
		return err
	}
	k, shared := ks[0], warpTileBytes(dt, n)
	if upperVectors(dt, uplo, a, lda, strideA, count) {
		// Faster than the tile; the factor's bits are the same either way.
		k = ks[1]
		if posvWide(dt, warpCols(n)) {
			shared = posvWideBytes(dt, n)
		}
	}
	args := solveArgs(n, nrhs, a, lda, strideA, b, ldb, strideB, count, info)
	return warpLaunch(s, k, count, shared, &args)
}

// solveArgs are the arguments of posv_warp, potrs_warp (info 0: none) and
// posv_split, in their order.
func solveArgs(n, nrhs int, a cuda.DevicePtr, lda int, strideA int64, b cuda.DevicePtr, ldb int, strideB int64, count int,
	info cuda.DevicePtr) cuda.Args {
	var args cuda.Args
	args.Ptr(a).Int64(int64(lda)).Int64(strideA).Int32(int32(n)).Ptr(b).Int64(int64(ldb)).Int64(strideB).
		Int32(int32(nrhs)).Int32(int32(count)).Ptr(info)
	return args
}

// PotrsWarp queues on s potrs_warp: for count matrices given by their
// factors as PotrfWarp, PotrfCTA and PosvWarp leave them in the uplo
// triangle, the solve of A·X = B, X over B, with PosvWarp's solve (the
// same bits). Layouts are PosvWarp's. info, if not 0, is a device
// int32[count] from the factorization: a matrix with info ≠ 0 is skipped,
// its B neither read nor written. Calls CanPotrsWarp refuses are errors
// (PotrsCTA takes them). It serves posv.Potrs and posv.Posv, which check
// the arguments.
func PotrsWarp[T core.Scalar](s *cuda.Stream, uplo core.Uplo, n, nrhs int, a cuda.DevicePtr, lda int, strideA int64,
	b cuda.DevicePtr, ldb int, strideB int64, count int, info cuda.DevicePtr) error {
	dt := cuda.DTypeOf[T]()
	if err := CanPotrsWarp(dt, uplo, n); err != nil {
		return err
	}
	switch {
	case s == nil:
		return fmt.Errorf("%w: potrf: potrs_warp: nil stream", core.ErrArgument)
	case count == 0 || n == 0 || nrhs == 0:
		return nil
	}
	ks, err := potrsWarpKernels(s.Context(), dt, warpCols(n), uplo)
	if err != nil {
		return err
	}
	args := solveArgs(n, nrhs, a, lda, strideA, b, ldb, strideB, count, info)
	shared := warpTileBytes(dt, n)
	if potrsSplit(dt) {
		shared = splitBytes(dt, n)
	}
	return warpLaunch(s, ks[0], count, shared, &args)
}

// CanPosvSplit reports whether posv_split solves systems of order n and
// type dtype (either triangle): nil for float32 and float64 with MaxN < n
// ≤ 64 and for n = 0, or an error wrapping core.ErrUnsupported (another
// order or type), core.ErrShape or core.ErrArgument. posv.go's posvSplit
// says where Posv takes it.
func CanPosvSplit(dtype cuda.DType, n int) error {
	return checkWarpOrder("posv_split", dtype, n, MaxWarpFor(dtype))
}

// PosvSplit queues on s posv_split: for count matrices, the factorization by
// the split body's panels (float64's potrf_split; A gets PotrfWarp's bits,
// info its values), then the solve of A·X = B from the same packed tile, X
// over B, for the matrices that did not fail, with PotrsWarp's steps; a
// failed matrix's B is neither read nor written. A, info and X are what
// PotrfWarp followed by PotrsWarp leave, to the bit, in one launch that
// reads A once (float32 only where no positive pivot lies below the smallest
// normal float: PotrfWarp finishes such a matrix in memory, posv_split
// factors it as posv_warp does). Layouts are PosvWarp's. Calls CanPosvSplit
// refuses are errors. It serves posv.Posv, which checks the arguments;
// this checks A's as PotrfWarp does, and CanPosvSplit's rule. [H200] µs,
// float64, against the two launches, 65,536 systems with 1 and 16
// right-hand sides (lab/fused.py, bench/results/h200/session44/, call 4):
// Lower n = 64 1620 and 2332 against 1868 and 2479, Upper n = 56 1348 and
// 1944 against 1811 and 2336 (potrf_warp first) or 1535 and 2053
// (potrf_split first); warp.cu's posv_split has the rest.
func PosvSplit[T core.Scalar](s *cuda.Stream, uplo core.Uplo, n, nrhs int, a cuda.DevicePtr, lda int, strideA int64,
	b cuda.DevicePtr, ldb int, strideB int64, count int, info cuda.DevicePtr) error {
	dt := cuda.DTypeOf[T]()
	if err := CanPosvSplit(dt, n); err != nil {
		return err
	}
	if s == nil {
		return fmt.Errorf("%w: potrf: posv_split: nil stream", core.ErrArgument)
	}
	if done, err := warpStart(s, "potrf: posv_split", dt, uplo, n, a, lda, strideA, count, info); done {
		return err
	}
	ks, err := posvSplitKernels(s.Context(), dt, warpCols(n), uplo)
	if err != nil {
		return err
	}
	args := solveArgs(n, nrhs, a, lda, strideA, b, ldb, strideB, count, info)
	return warpLaunch(s, ks[0], count, splitBytes(dt, n), &args)
}
