package cholblocked

// This file is the tiled driver, PotrfTiled: the whole factorization in one
// launch of chol_tiled (blocked.cu says how its blocks share the work), for
// few matrices of medium order, where the blocked driver's chain of three
// launches per panel is most of its time.

import (
	"fmt"
	"math"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cuda"
	"github.com/batchlas/batchlas/internal/gpu/batcharg"
)

// TileWidth is the order of chol_tiled's tiles, for every type.
const TileWidth = 32

// tiledThreads is chol_tiled's block size: 16×8 threads, 4×2 entries of a
// tile product each.
const tiledThreads = 128

// TiledOptions tunes PotrfTiled; the zero value is the default.
type TiledOptions struct {
	// Blocks is the grid size: 0 picks DefaultTiledBlocks. Any positive
	// size is correct (one block factors everything in ticket order).
	Blocks int
	// Precision is the arithmetic of the tile products: Exact, or
	// Split3TF32 (float32 only), three TF32 tensor-core products of a
	// hi/lo split of each tile, with FP32 accuracy (blocked.cu's
	// SplitTile). The diagonal tiles are factored in FP32 either way.
	Precision Precision
	// Occupancy is the number of blocks a multiprocessor the kernel is
	// built for and the default grid fills: 0 or 2, the default, 3
	// (float32 with Split3TF32 only) or 4 (float32 only). The float32
	// kernels for 2 factor each diagonal tile in one warp's registers (the
	// shortest chain from one diagonal tile to the next, for few
	// matrices); those for 4 factor it with the whole block, which keeps
	// them at 128 registers, so that twice the blocks share the tile
	// products (for many tiles: larger batches), and make the tiles below
	// the diagonal two at a time. The one for 3 factors as those for 2 and
	// makes two tiles at a time as those for 4 (between them: a few
	// matrices of order 2048 to 4096). blocked.cu's chol_tiled says more
	// (Occupancy).
	Occupancy int
}

// DefaultTiledBlocks is the grid PotrfTiled launches on a device of sms
// multiprocessors when TiledOptions.Blocks is 0: occupancy (0 meaning 2)
// blocks a multiprocessor. With the first version of chol_tiled, grids of
// 132, 264 and 528 blocks timed within 5 % of each other at one matrix on
// the H200 (bench/results/h200/session9/early-timing.txt).
func DefaultTiledBlocks(sms, occupancy int) int {
	if occupancy == 0 {
		occupancy = 2
	}
	return occupancy * max(sms, 1)
}

// tiledLayout is where PotrfTiled's scratch lies: the ticket counter, the
// tiles' flags and the prefix tasks' flags (int32, cleared before each
// launch), then one inverse per diagonal tile, then two partial sums per
// prefix task.
type tiledLayout struct {
	nt      int   // tiles per side
	tiles   int64 // lower tiles of all matrices, one flag each (the tasks, one or two tiles each, are fewer)
	pre     int64 // prefix tasks of all matrices, one flag and two tiles each
	xOff    int64 // byte offset of the inverses, and of the partial sums after them
	xStride int64 // elements per matrix: nt·TileWidth²
	bytes   int64
}

func newTiledLayout(dt cuda.DType, n, count int) tiledLayout {
	nt := (n + TileWidth - 1) / TileWidth
	l := tiledLayout{nt: nt, tiles: int64(nt) * int64(nt+1) / 2 * int64(count), pre: int64(prefixTasks(nt)) * int64(count)}
	l.xOff = roundUp(4*(1+l.tiles+l.pre), 256)
	l.xStride = int64(nt) * TileWidth * TileWidth
	l.bytes = roundUp(l.xOff+(l.xStride*int64(count)+l.pre*2*TileWidth*TileWidth)*int64(dt.Size()), 256)
	return l
}

// Prefix tasks (blocked.cu's Prefix): in the split kernels built for one
// block a multiprocessor, diagonal task j sums only its last prefixAhead
// steps; the earlier ones are a task of their own, prefixAhead groups
// before, wherever that task has at least prefixMinSteps steps. The layout
// makes room for them whatever the kernel; the others do not use it.
const (
	prefixAhead    = 10
	prefixMinSteps = 8
)

// prefixTasks is the number of prefix tasks of one matrix of nt tiles a
// side: one in each group g with prefixMinSteps < g < nt − prefixAhead.
func prefixTasks(nt int) int { return max(0, nt-prefixAhead-1-prefixMinSteps) }

// TiledWorkspaceSize is the scratch PotrfTiled needs, in bytes, for count
// n×n matrices of type dt: 4 bytes per tile of the lower triangles and per
// prefix task, one TileWidth² inverse per diagonal tile and two per prefix
// task (n = 1024, float64: about 470 KiB a matrix, 208 KiB of it the 13
// prefix tasks' sums). It returns an error for arguments PotrfTiled refuses.
func TiledWorkspaceSize(dt cuda.DType, n, count int) (int64, error) {
	if err := CanRunTiled(dt, n, count, TiledOptions{}); err != nil { // the scratch is the same for every option
		return 0, err
	}
	if n == 0 || count == 0 {
		return 0, nil
	}
	return newTiledLayout(dt, n, count).bytes, nil
}

// CanRunTiled reports whether PotrfTiled factors count matrices of order n
// of type dt with the precision and occupancy of opt (its grid is checked
// at the call): nil, or an error wrapping core.ErrUnsupported (Split3TF32
// or occupancy 4 for a type other than float32, occupancy 3 other than
// float32 with Split3TF32; TF32, which chol_tiled does not build; 2³⁰
// lower tiles or more, which the int32 ticket counter cannot hand out) or
// core.ErrShape / core.ErrArgument.
func CanRunTiled(dt cuda.DType, n, count int, opt TiledOptions) error {
	if err := CanRun(dt, n, Options{Precision: opt.Precision}); err != nil {
		return err
	}
	if opt.Precision == TF32 {
		return fmt.Errorf("%w: cholblocked: chol_tiled has no TF32 kernels (Exact or Split3TF32)", core.ErrUnsupported)
	}
	switch opt.Occupancy {
	case 0, 2:
	case 3:
		if dt != cuda.Float32 || opt.Precision != Split3TF32 {
			return fmt.Errorf("%w: cholblocked: occupancy 3 is built for float32 with Split3TF32 only, not %v with %v", core.ErrUnsupported, dt, opt.Precision)
		}
	case 4:
		if dt != cuda.Float32 {
			return fmt.Errorf("%w: cholblocked: occupancy 4 is built for float32 only, not %v", core.ErrUnsupported, dt)
		}
	default:
		return fmt.Errorf("%w: cholblocked: occupancy %d (0, 2, 3 or 4)", core.ErrArgument, opt.Occupancy)
	}
	if count < 0 {
		return fmt.Errorf("%w: cholblocked: count = %d must not be negative", core.ErrShape, count)
	}
	// The counter runs to tiles plus the grid in an int32. Asked by a
	// division: the tiles' product could wrap int64 (n ≈ 3·10⁶).
	if nt := int64(n+TileWidth-1) / TileWidth; count > 0 && nt*(nt+1)/2 > math.MaxInt32/2/int64(count) {
		return fmt.Errorf("%w: cholblocked: %d matrices of order %d make more than 2³⁰ tiles", core.ErrUnsupported, count, n)
	}
	return nil
}

// checkTiled validates PotrfTiled's arguments.
func checkTiled(dt cuda.DType, uplo core.Uplo, n int, a cuda.DevicePtr, lda int, stride int64, count int, info cuda.DevicePtr, ws Workspace, opt TiledOptions) error {
	if err := CanRunTiled(dt, n, max(count, 0), opt); err != nil {
		return err
	}
	if err := batcharg.Factor("cholblocked", dt, uplo, n, a, lda, stride, count, info); err != nil {
		return err
	}
	if opt.Blocks < 0 || opt.Blocks > math.MaxInt32 {
		return fmt.Errorf("%w: cholblocked: %d blocks", core.ErrArgument, opt.Blocks)
	}
	if n == 0 || count == 0 {
		return nil
	}
	return ws.check(newTiledLayout(dt, n, count).bytes, "TiledWorkspaceSize")
}

// PotrfTiled queues on s the same factorization as Potrf, with the same
// contract for a, info and failures, in one kernel launch (after clearing
// the workspace's flags) and without cuBLAS: tiles of TileWidth columns,
// each factored by one block once the tiles it reads are final. ws is
// TiledWorkspaceSize bytes of scratch the call may use until s has run it.
// A matrix's result does not depend on the batch or on opt.Blocks (it does
// on the precision and the occupancy, whose kernels factor the diagonal
// tiles differently).
func PotrfTiled[T core.Scalar](s *cuda.Stream, uplo core.Uplo, n int, a cuda.DevicePtr, lda int, stride int64, count int, info cuda.DevicePtr, ws Workspace, opt TiledOptions) error {
	dt := cuda.DTypeOf[T]()
	if s == nil {
		return fmt.Errorf("%w: cholblocked: nil stream", core.ErrArgument)
	}
	if err := checkTiled(dt, uplo, n, a, lda, stride, count, info, ws, opt); err != nil {
		return err
	}
	if count == 0 {
		return nil
	}
	if n == 0 {
		return cuda.MemsetD32(s, info, 0, int64(count))
	}
	ks, err := kernels(s.Context(), dt, uplo)
	if err != nil {
		return err
	}
	l := newTiledLayout(dt, n, count)
	if err := cuda.MemsetD32(s, ws.Ptr, 0, 1+l.tiles+l.pre); err != nil {
		return err
	}
	blocks := int64(opt.Blocks)
	if blocks == 0 {
		blocks = int64(DefaultTiledBlocks(s.Context().Device.SMs, opt.Occupancy))
	}
	blocks = min(blocks, l.tiles)
	var args cuda.Args
	tiledArgs(&args, a, lda, stride, n, count, info, ws.Ptr, ws.Ptr.Add(l.xOff), tiledPanel{width: n})
	four := opt.Occupancy == 4
	var k *cuda.Kernel
	switch {
	case opt.Occupancy == 3: // Split3TF32 (CanRunTiled)
		k = ks[tiledSplitKernel3]
	case opt.Precision == Split3TF32 && four:
		k = ks[tiledSplitKernel4]
	case opt.Precision == Split3TF32:
		k = ks[tiledSplitKernel]
	case four:
		k = ks[tiledKernel4]
	default:
		k = ks[tiledKernel]
	}
	return cuda.LaunchArgs(s, k, [3]uint32{uint32(blocks), 1, 1}, [3]uint32{tiledThreads, 1, 1}, tiledSharedBytes(opt), &args)
}

// splitStages is blocked.cu's split_stages: the shared buffers of
// chol_tiled's split loop for each tile row it copies, the same in the
// kernels of every TiledOptions.Occupancy.
const splitStages = 3

// splitRows is blocked.cu's split_rows: the tile rows a step of the split
// loop copies, three where a task makes two tiles (the row pairs of the
// kernels for three and four blocks), two elsewhere.
func splitRows(occupancy int) int {
	if occupancy >= 3 {
		return 3
	}
	return 2
}

// splitSharedBytes is the dynamic shared memory of chol_tiled's split
// kernels: splitStages buffers for each of the splitRows tiles of a step,
// 32 rows of 36 floats each. With the static part it stays under the
// 48 KiB a launch gets without opting in where the kernel is built for one
// block a multiprocessor; the three- and four-block kernels take about
// 50 KiB, which the launch opts in to (cuda.Kernel.AllowDynamicShared),
// their blocks fitting a multiprocessor all the same (TestKernelResources).
func splitSharedBytes(occupancy int) uint32 {
	return uint32(splitRows(occupancy) * splitStages * TileWidth * (TileWidth + 4) * 4)
}

// tiledSharedBytes is the dynamic shared memory of PotrfTiled's launch with opt.
func tiledSharedBytes(opt TiledOptions) uint32 {
	if opt.Precision != Split3TF32 {
		return 0
	}
	return splitSharedBytes(opt.Occupancy)
}

// tiledPanel is the part of the matrices one chol_tiled launch factors:
// the columns j0 … j0 + width − 1 and every row from j0 (the whole matrix
// for PotrfTiled), of A − D when d is not null, with the TF32 split of each
// tile below a diagonal one written to hi and lo (K-major, leading
// dimension ldh) when hi is not null.
type tiledPanel struct {
	j0, width int
	d         cuda.DevicePtr
	ldd       int
	dStride   int64
	hi, lo    cuda.DevicePtr
	ldh       int
	hStride   int64
}

// tiledArgs sets chol_tiled's arguments.
func tiledArgs(args *cuda.Args, a cuda.DevicePtr, lda int, stride int64, n, count int, info, tickets, x cuda.DevicePtr, p tiledPanel) {
	args.Reset().Ptr(a).Int64(int64(lda)).Int64(stride).Int32(int32(n)).Int32(int32(count)).
		Ptr(info).Ptr(tickets).Ptr(x).Int32(int32(p.j0)).Int32(int32(p.width)).
		Ptr(p.d).Int64(int64(p.ldd)).Int64(p.dStride).Ptr(p.hi).Ptr(p.lo).Int64(int64(p.ldh)).Int64(p.hStride).
		Uint64(divMagic(count))
}

// divMagic is ⌊2⁶²/d⌋ + 1, d ≥ 1, with which chol_tiled divides a ticket
// t < 2³¹ by d = count as ⌊t·magic/2⁶²⌋ without an integer division (see
// the kernel; TestDivMagic checks the identity). No launch has count = 0.
func divMagic(d int) uint64 { return 1<<62/uint64(d) + 1 }
