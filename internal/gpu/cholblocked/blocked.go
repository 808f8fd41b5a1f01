// Package cholblocked is the blocked Cholesky driver of the native GPU
// engine, for large orders and few matrices: A = L·Lᴴ (Lower) or A = Uᴴ·U
// (Upper) for a strided batch, with LAPACK's per-matrix info.
//
// It has two drivers. Potrf, described here, queues a chain of cuBLAS
// products and two kernels per panel. PotrfTiled (tiled.go) runs the same
// left-looking factorization in one launch with no library, 32×32 tiles
// handed to blocks by a ticket counter, which is faster where the chain of
// launches is most of the time: on the H200, for float32 and float64 alike,
// n = 256 and 512 at 1 to 16 matrices, 1024 at 1 to 8, 2048 at 1 or 2, and
// float64 Lower at n = 128 too (the routing tables, tuned/). For float32,
// TiledOptions.Precision = Split3TF32 runs its tile products on the tensor
// cores with FP32 accuracy; the tables rank it first at n = 512 from 16
// matrices, 1024 from 4, 2048 at 1 to 4 and 4096 at one matrix.
//
// # Algorithm
//
// Left-looking by panels of width nb (InnerWidth: 64 for float32, 32 for
// the other types). For the panel of columns j..j+w, in L's
// orientation (Upper works on the conjugate transpose, with the operands of
// every product transposed instead of moved):
//
//  1. D = L[j:n, 0:j]·L[j:j+w, 0:j]ᴴ, a batched strided product from cuBLAS
//     into scratch (skipped for the first panel);
//  2. chol_diag, one block per matrix: L11·L11ᴴ = A11 − D11 in shared
//     memory, 16 columns at a time eliminated by one warp in registers,
//     L11 written over A11, info, and X = L11⁻¹ to scratch;
//  3. chol_apply, one block per row tile and matrix: L21 = (A21 − D21)·Xᴴ
//     in place (kernel-lessons §12: a triangular inverse and a product
//     instead of a substitution).
//
// The product goes to scratch rather than updating A in place: A is then
// written only by the two kernels, which touch exactly the uplo triangle
// (a cuBLAS update of the panel would also write the strict upper part of
// the diagonal block), and a matrix that fails is left exactly as LAPACK's
// potf2 leaves it, because nothing writes it afterwards. It costs no traffic:
// a product into scratch then read by the kernels moves as much as an
// in-place product (read and write of the panel) would.
//
// Two levels. Step 1 with nb = 64 output columns is a skinny product: at
// batch 1 it reads L[j:n, 0:j] for only 2·64 flops per element, far below
// what the tensor cores need (perf-anchors: ridge ≈ 38 flop/B for 3xTF32).
// So the left update is split: once per outer panel of PanelWidth columns
// (default 256 from n = 2048), D = L[J:n, 0:J]·L[J:J+W, 0:J]ᴴ over all
// finished columns, then inside it, per inner panel, only the columns of
// the same outer panel are added, D[j:n, j:j+w] += L[j:n, J:j]·L[j:j+w, J:j]ᴴ.
// PanelWidth = nb is the one-level algorithm (kernel-lessons §13:
// left-looking did 39 % fewer multiply-adds than right-looking at n = 512,
// and no mask pass is needed).
//
// # Look-ahead
//
// At batch 1 the chain of an inner panel (its inner product, chol_diag,
// chol_apply) is latency on an idle GPU: about 52 µs per 64 columns on the
// H200, which at n = 16384 adds up to as much time as all the outer
// products. With Options.Side the outer product of panel J+W is split:
// the part over columns 0..J, which are final once panel J starts, runs on
// a second stream while panel J's chain runs, into the other of two D
// banks; the part over panel J's own columns follows on the main stream
// after J's chain (beta = 1), as does everything that reads the bank. Two
// events order the streams: the side stream waits for the main one to
// reach panel J, the main one for the side product before it adds to it.
//
// # Tiled panels
//
// With Options.TiledPanels, everything inside an outer panel (its inner
// products, chol_diag and chol_apply, three launches per inner panel) is
// one launch of the tiled driver's kernel instead: chol_tiled on the
// panel's columns, rows J..n, reading A − D, 32×32 tiles left-looking
// within the panel, and for Split3TF32 writing the TF32 split of the tiles
// below the diagonal ones for later outer products. A 256-column outer
// panel then takes 99–125 µs on the H200 up to n = 8192 instead of about
// 210 (TestPhases, float32, session 12; bench/results/h200/session12/).
// With 3xTF32 products it leads at n = 8192, one matrix (7360 µs against
// 8084 without, Upper) and n = 4096, two matrices (3023 against 3767; the
// tables in tuned/). At n = 16384 it is faster without look-ahead (37.4
// against 38.8 ms) but loses to the look-ahead (31.2–33.9 ms), which hides
// the old chain behind the outer products; it gains nothing from the
// look-ahead itself, most likely because its persistent blocks (two per
// multiprocessor, spinning on flags) leave no room for the side product
// (not profiled); a panel grid of 33 to 132 blocks, which leaves it room,
// made the panels slower than the product gained (session 22, call 1:
// n = 8192, one matrix, 6976 µs with look-ahead on 264 blocks, 7531 on
// 132, 8312 on 66). With session 19's and 20's panel kernels and outer
// panels of 512 columns (WideTiledPanelsFrom, the default from n = 16384)
// it took 22.9 ms at n = 16384 without look-ahead, against 24.0 for the
// look-ahead (Lower, session 21). The public Potrf routes tiled panels up
// to n = 32768 (timed past 16384 on an H100 only, session 53: 137 ms at
// 32768 against 147 for look-ahead), and since session 22 never with the
// side stream, with which they were slower at every order timed (n = 4096
// at two matrices, 8192 and 16384 at one; the root package's lookAhead).
//
// # Precision
//
// Exact (the default) computes every product in T's own arithmetic (cuBLAS
// ?gemm, no tensor cores). Split3TF32, for float32 only, computes the outer
// update with three TF32 tensor-core products, hi·hiᴴ + hi·loᴴ + lo·hiᴴ,
// where hi is L rounded to TF32 and lo = L − hi (each exact in FP32, kept in
// scratch and written by chol_apply or chol_tiled as they produce L); the
// dropped lo·loᴴ term is below 2⁻²² relative, so the result is near FP32
// accuracy (‖A − L·Lᴴ‖₁ ≤ 20·n·2⁻²³·‖A‖₁ is tested on dense, low-rank,
// row-scaled and graded-diagonal inputs up to n = 1024). Near, not equal:
// on a low-rank matrix plus 10⁻⁴·I it reported not positive definite at
// n = 4096 and 16384 (TestAccuracyLarge, H200), where Exact and cuSOLVER
// factor it within 0.1 % of the budget. The public Potrf therefore factors
// every matrix this driver's tensor-core products fail again in float64
// (potrfFactor in the root package); this package reports what the
// products give. FP32 SIMT alone cannot reach n ≥ 8192
// targets (perf-anchors: n = 32768 has a 175 ms FP32 floor at 67 TF/s).
// The inner updates, the diagonal factorizations and the panel solves stay
// in FP32.
//
// TF32, for float32 only, computes the outer update as the one product
// hi·hiᴴ and writes no lo. Rounding L to TF32 (unit roundoff 2⁻¹¹) perturbs
// each entry of the update by at most 2⁻¹⁰ times the same entry of
// |L|·|L|ᴴ, and by about 2⁻¹¹ relative on the task's inputs, whatever n;
// the float32 bound 20·n·2⁻²³ grows with n and passes 2⁻¹⁰ near n = 400.
// This is not FP32 accuracy: on the H200 it kept the bound with room on
// dense, row-scaled, graded and tridiagonal inputs up to n = 16384, but a
// low-rank matrix plus 10⁻⁴·I, whose smallest eigenvalue is below that
// error, failed as not positive definite at n = 1024 and 2048, where
// Split3TF32 factors it (TestAccuracyLarge), so the router runs it only
// when pinned (internal/route).
//
// hi and lo are K-major for both triangles (L(r, c) at c + r·ld, the
// products' depth index contiguous), which Lower's natural order is not:
// stored that way for Lower too, its outer products at n = 16384 went from
// 172 to 260 TF/s and the whole factorization with look-ahead from 31.3 to
// 23.9 ms on the H200 (TestPhases and TestTiming, session 13; Upper's
// natural order was K-major already).
//
// # Failure
//
// info[m] is the first k whose leading minor is not positive definite
// (pivot ≤ 0 or NaN), as potrf.Potrf and LAPACK define it. Matrix m then
// holds the first k−1 columns of L (rows of U), the failing pivot at
// (k−1, k−1), and the rest of its uplo triangle exactly as it was; the
// other triangle is never read or written. A failed matrix costs its
// neighbours nothing: the products keep running on it (on values nobody
// keeps) and the kernels skip it.
//
// One difference from potf2, for input that is not finite: a NaN or an
// infinity at L(r, c) below c's diagonal block spreads, through the product
// with L11⁻¹ (whose zeros then multiply it), to the entries of row r left
// of c in c's panel, which potf2 computes without it. Pivot r then fails,
// so r ≥ k−1: the leading (k−1)×(k−1) factor is never affected.
package cholblocked

import (
	_ "embed"
	"fmt"
	"math"
	"slices"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cuda"
	"github.com/batchlas/batchlas/internal/gpu/batcharg"
	"github.com/batchlas/batchlas/internal/gpu/scalar"
)

//go:embed blocked.cu
var code string

// Source is the embedded blocked.cu behind the scalar prelude (internal/gpu/scalar).
var Source = scalar.Source("blocked.cu", code)

// Precision selects the arithmetic of the outer trailing updates.
type Precision int

const (
	// Exact computes every product in the element type's own arithmetic.
	Exact Precision = iota
	// Split3TF32 (float32 only) computes the outer updates as three TF32
	// tensor-core products of a hi/lo split of L, with FP32 accuracy.
	Split3TF32
	// TF32 (float32 only) computes the outer updates as one TF32
	// tensor-core product of L rounded to TF32: an error near 2⁻¹¹
	// relative to the entries of |L|·|L|ᴴ, flat in n, where the float32
	// bound 20·n·2⁻²³ grows with n (see Precision in the package doc).
	TF32
)

// tensor reports whether the outer updates run on the tensor cores from
// the TF32 split of L (its hi part for TF32, hi and lo for Split3TF32).
func (p Precision) tensor() bool { return p == Split3TF32 || p == TF32 }

func (p Precision) String() string {
	switch p {
	case Exact:
		return "exact"
	case Split3TF32:
		return "3xTF32"
	case TF32:
		return "TF32"
	}
	return fmt.Sprintf("Precision(%d)", int(p))
}

// Options tunes the driver; the zero value is the default.
type Options struct {
	Precision Precision
	// PanelWidth is the width of the outer panels, whose left update is one
	// cuBLAS product (three for Split3TF32): 0 picks DefaultPanelWidth;
	// otherwise a positive multiple of InnerWidth. PanelWidth = InnerWidth
	// is the one-level algorithm.
	PanelWidth int
	// TiledPanels factors each outer panel, after its outer update, in one
	// launch of the tiled driver's kernel (chol_tiled on the panel's
	// columns, 32-column tiles, left-looking inside the panel) instead of
	// a chain of three launches per inner panel.
	TiledPanels bool
	// Side, when not nil, overlaps most of each outer product with the
	// previous outer panel's chain on a second stream (look-ahead, above);
	// D then takes twice the workspace. Side.BLAS must enqueue on
	// Side.Stream, a stream of the same context other than the main one.
	Side *Side
}

// Side is the second stream of Options.Side and a cuBLAS handle bound to it.
type Side struct {
	Stream *cuda.Stream
	BLAS   *cuda.BLAS
}

// Workspace is device scratch memory lent to Potrf: WorkspaceSize bytes,
// 256-byte aligned, untouched by anything else until the stream has run
// the factorization.
type Workspace struct {
	Ptr   cuda.DevicePtr
	Bytes int64
}

// InnerWidth is the width nb of the panels the kernels factor: 64 for
// float32, 32 for the others (chol_apply keeps X and a row tile in static
// shared memory: nb = 64 would need 66 KB of it for complex128).
func InnerWidth(dt cuda.DType) int {
	if dt == cuda.Float32 {
		return 64
	}
	return 32
}

// DefaultPanelWidth is the outer panel width for order n: the one-level
// algorithm below n = 2048, 256-wide outer panels from there (the outer
// product then has 256 output columns, 128 flop per byte of L read in
// FP32). With Options.TiledPanels the default is 512 from
// WideTiledPanelsFrom instead, the only order at which widths were
// compared on the H200. TestTiming takes another width with
// -blocked.panel, and the router may pass its own.
func DefaultPanelWidth(dt cuda.DType, n int) int {
	nb := InnerWidth(dt)
	if n >= 2048 {
		return max(nb, 256)
	}
	return nb
}

// WideTiledPanelsFrom is the order from which the outer panels are 512
// columns wide by default with Options.TiledPanels: chol_tiled's chain per
// panel is then twice as long, but the outer products have twice the
// output columns and there are half as many. H200, float32 Lower 3xTF32,
// one matrix of n = 16384, without look-ahead (TestTiming, session 21 call
// 5): 22.9 ms against 25.4 with 256 columns, and 24.0 for the blocked
// driver with look-ahead (256; 24.4 with 512).
const WideTiledPanelsFrom = 16384

// tiledPanelWords is the int32 words chol_tiled's counter and flags take
// for the first (largest) outer panel of width columns with
// Options.TiledPanels: one more than its lower tiles, which bound its tasks.
func tiledPanelWords(n, width, count int) int64 {
	nt, wt := (int64(max(n, 1))+TileWidth-1)/TileWidth, int64(width)/TileWidth
	return 1 + (wt*nt-wt*(wt-1)/2)*int64(count)
}

// diagThreads is the block size of chol_diag: 4·nb, so its block-wide
// products (the panel below each 16-column sub-block, the trailing update,
// the blocks of X) give every thread a few entries.
func diagThreads(dt cuda.DType) int { return 4 * InnerWidth(dt) }

// applyTileRows is TR of chol_apply: 64 rows per block, 32 for complex128
// (whose 64-row tile would need 50 KB of static shared memory). Panels
// with few tiles in all use half that height (applyTiles).
func applyTileRows(dt cuda.DType) int {
	if dt == cuda.Complex128 {
		return 32
	}
	return 64
}

// fewTiles is the block count below which chol_apply takes tiles of half
// height: under two blocks per SM of a 132-SM H200 the kernel is latency,
// and twice the blocks with half the rows each halve it (at batch 1 and
// n = 4096 a 64-row panel apply took 15 µs on 63 blocks).
const fewTiles = 264

// applyTiles is the tile height chol_apply uses for a panel of rows rows
// in count matrices, and the kernel's index in kernelNames (1 or 2).
func applyTiles(dt cuda.DType, rows, count int) (tr, index int) {
	tr = applyTileRows(dt)
	if int64((rows+tr-1)/tr)*int64(count) < fewTiles {
		return tr / 2, 2
	}
	return tr, 1
}

// layout is where each scratch buffer lies in the workspace and its
// shape, all in elements except the byte offsets.
type layout struct {
	nb, width int // inner and outer panel widths

	ldd     int   // D: (n − J)×W in Lower's orientation (ld ≥ n), W×(n − J) in Upper's (ld = width)
	dStride int64 // elements per matrix
	dBank   int64 // elements from the first D bank to the second (odd outer panels); 0 without look-ahead
	xStride int64 // X = L11⁻¹: nb×nb per matrix
	ldh     int   // hi (Split3TF32 and TF32) and lo (Split3TF32): n×n float32 per matrix, K-major (L(r, c) at c + r·ldh) for both triangles
	hStride int64

	tPanel int64 // TiledPanels: int32 tickets and flags per outer panel (0 without)
	tCount int64 // all outer panels' tickets and flags

	dOff, xOff, hiOff, loOff, tOff int64 // byte offsets in the workspace (hiOff, loOff 0 without the buffer)
	bytes                          int64
}

func roundUp(x, to int64) int64 { return (x + to - 1) / to * to }

// newLayout computes the layout for count matrices of order n; it assumes
// valid arguments (check).
func newLayout(dt cuda.DType, uplo core.Uplo, n, count int, opt Options) layout {
	nb := InnerWidth(dt)
	width := opt.PanelWidth
	if width == 0 {
		width = DefaultPanelWidth(dt, n)
		if opt.TiledPanels && n >= WideTiledPanelsFrom && tiledPanelWords(n, 512, count) <= math.MaxInt32/2 {
			width = 512 // where chol_tiled's int32 counter has room for the wider panels' tasks (check)
		}
	}
	width = min(width, int(roundUp(int64(max(n, 1)), int64(nb)))) // no wider than the matrix needs
	es := int64(dt.Size())
	rows := roundUp(int64(max(n, 1)), 32)
	l := layout{nb: nb, width: width}
	l.ldd = int(rows)
	if uplo == core.Upper {
		l.ldd = width
	}
	l.dStride = rows * int64(width)
	l.xStride = int64(nb * nb)
	if opt.TiledPanels {
		// chol_tiled's counter and flags for the first outer panel (the
		// largest), and its inverses, one per diagonal tile.
		wt := int64(width) / TileWidth
		l.tPanel = tiledPanelWords(n, width, count)
		l.xStride = max(l.xStride, wt*TileWidth*TileWidth)
	}
	l.dOff = 0
	banks := int64(1)
	if opt.Side != nil {
		banks = 2
		l.dBank = l.dStride * int64(count)
	}
	l.xOff = roundUp(l.dOff+banks*l.dStride*int64(count)*es, 256)
	l.bytes = roundUp(l.xOff+l.xStride*int64(count)*es, 256)
	if l.tPanel != 0 {
		panels := (roundUp(int64(max(n, 1)), int64(width))) / int64(width)
		l.tCount = l.tPanel * panels
		l.tOff = l.bytes
		l.bytes = roundUp(l.tOff+4*l.tCount, 256)
	}
	if opt.Precision.tensor() {
		l.ldh = int(rows)
		l.hStride = rows * int64(max(n, 1))
		l.hiOff = l.bytes
		l.bytes = roundUp(l.hiOff+l.hStride*int64(count)*4, 256)
	}
	if opt.Precision == Split3TF32 {
		l.loOff = l.bytes
		l.bytes = roundUp(l.loOff+l.hStride*int64(count)*4, 256)
	}
	return l
}

// WorkspaceSize is the scratch Potrf needs, in bytes, for count n×n
// matrices of type dt: for D, count·roundUp(n, 32)·PanelWidth elements
// (twice that with Options.Side); for the inverses, count·nb² elements
// (count·32·PanelWidth with Options.TiledPanels, which also takes 4 bytes
// per lower tile of each outer panel for chol_tiled's flags, about 4 MB at
// n = 32768); for Split3TF32 also two float32 copies of the factor,
// 8·count·roundUp(n, 32)·n bytes (8.6 GB at n = 32768), for TF32 one. It returns an
// error for arguments CanRun refuses and for batches of more than 2⁵⁶ elements.
func WorkspaceSize(dt cuda.DType, uplo core.Uplo, n, count int, opt Options) (int64, error) {
	if err := CanRun(dt, n, opt); err != nil {
		return 0, err
	}
	if !uplo.Valid() {
		return 0, fmt.Errorf("%w: cholblocked: uplo %v", core.ErrArgument, uplo)
	}
	if count < 0 {
		return 0, fmt.Errorf("%w: cholblocked: count = %d must not be negative", core.ErrShape, count)
	}
	if n == 0 || count == 0 {
		return 0, nil
	}
	if err := checkExtent(n, count); err != nil {
		return 0, err
	}
	return newLayout(dt, uplo, n, count, opt).bytes, nil
}

// maxElements bounds count·n² for the driver: 2⁵⁶ elements is more memory
// than any device has, and below it newLayout's products (at most about
// 16·count·n² bytes a buffer, complex128) stay far inside int64.
const maxElements = 1 << 56

// checkExtent refuses batches beyond maxElements, asked by a division so
// that the question itself cannot wrap.
func checkExtent(n, count int) error {
	if count > 0 && int64(n)*int64(n) > maxElements/int64(count) {
		return fmt.Errorf("%w: cholblocked: %d matrices of order %d are more than 2⁵⁶ elements", core.ErrShape, count, n)
	}
	return nil
}

// CanRun reports whether the driver factors order n of type dtype with
// opt: nil, or an error wrapping core.ErrUnsupported (Split3TF32 or TF32
// for a type other than float32) or core.ErrShape / core.ErrArgument.
func CanRun(dtype cuda.DType, n int, opt Options) error {
	switch {
	case dtype < cuda.Float32 || dtype > cuda.Complex128:
		return fmt.Errorf("%w: cholblocked: element type %v", core.ErrArgument, dtype)
	case n < 0 || n > math.MaxInt32:
		return fmt.Errorf("%w: cholblocked: n = %d must be in [0, 2³¹)", core.ErrShape, n)
	case opt.Precision != Exact && !opt.Precision.tensor():
		return fmt.Errorf("%w: cholblocked: precision %v", core.ErrArgument, opt.Precision)
	case opt.Precision.tensor() && dtype != cuda.Float32:
		return fmt.Errorf("%w: cholblocked: %v products are for float32, not %v", core.ErrUnsupported, opt.Precision, dtype)
	case opt.PanelWidth < 0 || opt.PanelWidth%InnerWidth(dtype) != 0:
		return fmt.Errorf("%w: cholblocked: panel width %d must be 0 or a positive multiple of %d", core.ErrArgument, opt.PanelWidth, InnerWidth(dtype))
	}
	return nil
}

// check validates ws for a call that needs need bytes, as sizer computes
// them.
func (ws Workspace) check(need int64, sizer string) error {
	switch {
	case ws.Bytes < need:
		return fmt.Errorf("%w: cholblocked: workspace of %d bytes, %d needed (%s)", core.ErrArgument, ws.Bytes, need, sizer)
	case ws.Ptr == 0 || uintptr(ws.Ptr)%256 != 0:
		return fmt.Errorf("%w: cholblocked: workspace at %#x, must be a non-null 256-byte aligned address", core.ErrArgument, uintptr(ws.Ptr))
	}
	return nil
}

// checkSide validates Options.Side against the main stream s.
func checkSide(s *cuda.Stream, side *Side) error {
	switch {
	case side == nil:
		return nil
	case side.Stream == nil || side.BLAS == nil:
		return fmt.Errorf("%w: cholblocked: Options.Side needs a stream and a cuBLAS handle", core.ErrArgument)
	case side.Stream == s:
		return fmt.Errorf("%w: cholblocked: Options.Side's stream is the factorization's own", core.ErrArgument)
	case side.Stream.Context() != s.Context():
		return fmt.Errorf("%w: cholblocked: Options.Side's stream belongs to another context", core.ErrArgument)
	case side.BLAS.Stream() != side.Stream:
		return fmt.Errorf("%w: cholblocked: Options.Side's cuBLAS handle must enqueue on its stream", core.ErrArgument)
	}
	return nil
}

// check validates Potrf's arguments.
func check(dt cuda.DType, uplo core.Uplo, n int, a cuda.DevicePtr, lda int, stride int64, count int, info cuda.DevicePtr, ws Workspace, opt Options) error {
	if err := CanRun(dt, n, opt); err != nil {
		return err
	}
	if err := batcharg.Factor("cholblocked", dt, uplo, n, a, lda, stride, count, info); err != nil {
		return err
	}
	if n == 0 || count == 0 {
		return nil
	}
	if err := checkExtent(n, count); err != nil {
		return err
	}
	l := newLayout(dt, uplo, n, count, opt)
	if err := ws.check(l.bytes, "WorkspaceSize"); err != nil {
		return err
	}
	if tiles := (int64(n) + int64(applyTileRows(dt)) - 1) / int64(applyTileRows(dt)); tiles*int64(count) > math.MaxInt32 {
		return fmt.Errorf("%w: cholblocked: %d matrices of order %d need more than 2³¹ − 1 blocks per panel", core.ErrUnsupported, count, n)
	}
	if l.tPanel > math.MaxInt32/2 {
		// chol_tiled's int32 counter runs to its tasks plus the grid.
		return fmt.Errorf("%w: cholblocked: %d matrices of order %d make %d tiled-panel tasks, more than 2³⁰", core.ErrUnsupported, count, n, l.tPanel)
	}
	return nil
}

// ---- the plan: every step of a factorization, as data ----

// buffer names an operand's memory.
type buffer uint8

const (
	bufA  buffer = iota // the matrices
	bufD                // the left update (scratch)
	bufX                // the inverses of the diagonal blocks (scratch)
	bufHi               // TF32 high parts of L (scratch, float32)
	bufLo               // low parts
)

// operand is a strided batch operand: offset, leading dimension and stride
// in elements of its buffer, and whether it holds L K-major (L(r, c) at
// c + r·ld, as the split buffers do for both triangles) instead of in A's
// orientation.
type operand struct {
	buf    buffer
	off    int64
	ld     int
	stride int64
	kmajor bool
}

// at is the offset of L(r, c) in o from its offset.
func (o operand) at(uplo core.Uplo, r, c int) int64 {
	if o.kmajor {
		uplo = core.Upper
	}
	return natural(uplo, r, c, o.ld)
}

// gemmStep is C = beta·C + op(A)·op(B), alpha = 1.
type gemmStep struct {
	transA, transB core.Transpose
	m, n, k        int
	a, b, c        operand
	beta           int  // 0 or 1
	tf32           bool // cublasGemmStridedBatchedEx with FAST_TF32
	side           bool // on Options.Side's stream
}

// syncStep orders the two streams of a look-ahead plan.
type syncStep int

const (
	fork     syncStep = iota + 1 // the side stream waits for the main one to get here
	sideDone                     // marks the side stream's work so far
	join                         // the main stream waits for that mark
)

// diagStep is chol_diag on the block at (j, j) of width w; dOff is the
// offset of D11 in D, or −1 when nothing was subtracted yet.
type diagStep struct {
	j, w    int
	dOff    int64
	first   bool // write info unconditionally (the first panel)
	inverse bool // write X (a panel follows below)
}

// applyStep is chol_apply on the rows rows below the block at (j, j);
// dOff is the offset of D21 in D, or −1.
type applyStep struct {
	j, w, rows int
	dOff       int64
	split      bool // write the TF32 split of L21 (a later outer panel reads it)
}

// panelStep is chol_tiled on the outer panel at (J, J) of width W
// (Options.TiledPanels); dOff is the offset of its D in D, or −1; tickets
// is the offset of its counter and flags in the ticket buffer.
type panelStep struct {
	J, W    int
	dOff    int64
	split   bool // write the TF32 split of the tiles below the diagonal ones
	tickets int64
}

type step struct {
	gemm  *gemmStep
	diag  *diagStep
	apply *applyStep
	panel *panelStep
	sync  syncStep
}

// natural is the offset of L(row, col) in a buffer of leading dimension ld
// holding L (Lower) or Lᴴ (Upper).
func natural(uplo core.Uplo, row, col, ld int) int64 {
	if uplo == core.Upper {
		return int64(col) + int64(row)*int64(ld)
	}
	return int64(row) + int64(col)*int64(ld)
}

// makePlan lists the steps of a factorization of order n > 0 whose outer
// updates have precision prec, with look-ahead when l has two D banks.
func makePlan(uplo core.Uplo, n, lda int, stride int64, l layout, prec Precision) []step {
	split := prec.tensor() // the kernels write the split the outer products read
	var steps []step
	a := operand{buf: bufA, ld: lda, stride: stride}
	hi := operand{buf: bufHi, ld: l.ldh, stride: l.hStride, kmajor: true}
	lo := operand{buf: bufLo, ld: l.ldh, stride: l.hStride, kmajor: true}
	// product queues D(·) (+)= X[r0:r0+m, k0:k0+k]·Y[c0:c0+w, k0:k0+k]ᴴ in
	// L's orientation, D's block starting at offset dOff. For Upper the
	// buffers hold Lᴴ, so the same product is Y'ᴴ·X' with the roles of the
	// operands swapped: D holds its conjugate transpose, A's orientation.
	// K-major operands (float32 only, no conjugate) are Xᵀ and Yᵀ for
	// Lower, as for Upper.
	side := false // products go to the side stream
	product := func(x, y operand, r0, c0, k0, m, w, k int, dOff int64, beta int, tf32 bool) {
		x.off = x.at(uplo, r0, k0)
		y.off = y.at(uplo, c0, k0)
		d := operand{buf: bufD, off: dOff, ld: l.ldd, stride: l.dStride}
		var g *gemmStep
		switch {
		case uplo == core.Upper:
			g = &gemmStep{transA: core.ConjTrans, transB: core.NoTrans, m: w, n: m, k: k, a: y, b: x, c: d, beta: beta, tf32: tf32, side: side}
		case x.kmajor:
			g = &gemmStep{transA: core.Trans, transB: core.NoTrans, m: m, n: w, k: k, a: x, b: y, c: d, beta: beta, tf32: tf32, side: side}
		default:
			g = &gemmStep{transA: core.NoTrans, transB: core.ConjTrans, m: m, n: w, k: k, a: x, b: y, c: d, beta: beta, tf32: tf32, side: side}
		}
		steps = append(steps, step{gemm: g})
	}
	// outer queues the outer panel at J's update over columns k0..k0+k into
	// the bank at bank, which it overwrites (beta 0) or adds to (beta 1).
	outer := func(J, k0, k int, bank int64, beta int) {
		W := min(l.width, n-J)
		switch prec {
		case Split3TF32:
			product(hi, hi, J, J, k0, n-J, W, k, bank, beta, true)
			product(hi, lo, J, J, k0, n-J, W, k, bank, 1, true)
			product(lo, hi, J, J, k0, n-J, W, k, bank, 1, true)
		case TF32:
			product(hi, hi, J, J, k0, n-J, W, k, bank, beta, true)
		default:
			product(a, a, J, J, k0, n-J, W, k, bank, beta, false)
		}
	}
	look := l.dBank != 0
	for J := 0; J < n; J += l.width {
		W := min(l.width, n-J)
		bank := int64(0) // outer panel J's D
		if look && (J/l.width)%2 == 1 {
			bank = l.dBank
		}
		switch {
		case J == 0:
		case look && J >= 2*l.width:
			// Columns 0..J−W came from the side stream (queued at panel
			// J−W); only the previous outer panel's are left.
			steps = append(steps, step{sync: join})
			outer(J, J-l.width, l.width, bank, 1)
		default:
			outer(J, 0, J, bank, 0)
		}
		if look && J > 0 && J+W < n {
			// Columns 0..J are final and the other bank is free (panel
			// J−W's chain is done): the next panel's product over them can
			// run beside this panel's chain.
			steps = append(steps, step{sync: fork})
			side = true
			outer(J+W, 0, J, l.dBank-bank, 0)
			side = false
			steps = append(steps, step{sync: sideDone})
		}
		if l.tPanel != 0 {
			dOff := int64(-1)
			if J > 0 {
				dOff = bank
			}
			steps = append(steps, step{panel: &panelStep{J: J, W: W, dOff: dOff, split: split && J+W < n, tickets: int64(J/l.width) * l.tPanel}})
			continue
		}
		for j := J; j < J+W; j += l.nb {
			w := min(l.nb, J+W-j)
			off := j - J
			if off > 0 {
				beta := 0
				if J > 0 {
					beta = 1
				}
				product(a, a, j, j, J, n-j, w, off, bank+natural(uplo, off, off, l.ldd), beta, false)
			}
			dOff := int64(-1)
			if J > 0 || off > 0 {
				dOff = bank + natural(uplo, off, off, l.ldd)
			}
			below := n - j - w
			steps = append(steps, step{diag: &diagStep{j: j, w: w, dOff: dOff, first: j == 0, inverse: below > 0}})
			if below > 0 {
				ad := int64(-1)
				if dOff >= 0 {
					ad = bank + natural(uplo, off+w, off, l.ldd)
				}
				steps = append(steps, step{apply: &applyStep{j: j, w: w, rows: below, dOff: ad, split: split && J+W < n}})
			}
		}
	}
	return steps
}

// ---- kernels ----

var typeName = [...]string{
	cuda.Float32:    "float",
	cuda.Float64:    "double",
	cuda.Complex64:  "cfloat",
	cuda.Complex128: "cdouble",
}

// kernelNames are the name expressions for one type and triangle: the
// diagonal kernel, the apply kernel for full and for half-height tiles,
// the tiled driver's kernel (tiledKernel), for float32 the two apply
// kernels that also write the TF32 split (the index of the plain one + 3)
// and the tiled kernel with split-TF32 products (tiledSplitKernel), then
// chol_tiled for one outer panel (panelKernel), and for float32 its split
// variant, the tiled driver's two kernels built for four blocks a
// multiprocessor (tiledKernel4, tiledSplitKernel4; TiledOptions.Occupancy)
// and its split kernel built for three (tiledSplitKernel3).
func kernelNames(dt cuda.DType, uplo core.Uplo) []string {
	up := uplo == core.Upper
	nb, tr := InnerWidth(dt), applyTileRows(dt)
	names := []string{
		fmt.Sprintf("chol_diag<%s, %d, %d, %v>", typeName[dt], nb, diagThreads(dt), up),
		fmt.Sprintf("chol_apply<%s, %d, %d, %v, false>", typeName[dt], nb, tr, up),
		fmt.Sprintf("chol_apply<%s, %d, %d, %v, false>", typeName[dt], nb, tr/2, up),
		fmt.Sprintf("chol_tiled<%s, %d, %d, %v, false, false, 1>", typeName[dt], TileWidth, tiledThreads, up),
	}
	if dt == cuda.Float32 {
		names = append(names,
			fmt.Sprintf("chol_apply<%s, %d, %d, %v, true>", typeName[dt], nb, tr, up),
			fmt.Sprintf("chol_apply<%s, %d, %d, %v, true>", typeName[dt], nb, tr/2, up),
			fmt.Sprintf("chol_tiled<%s, %d, %d, %v, true, false, 1>", typeName[dt], TileWidth, tiledThreads, up))
	}
	names = append(names, fmt.Sprintf("chol_tiled<%s, %d, %d, %v, false, true, 1>", typeName[dt], TileWidth, tiledThreads, up))
	if dt == cuda.Float32 {
		names = append(names, fmt.Sprintf("chol_tiled<%s, %d, %d, %v, true, true, 1>", typeName[dt], TileWidth, tiledThreads, up),
			fmt.Sprintf("chol_tiled<%s, %d, %d, %v, false, false, 4>", typeName[dt], TileWidth, tiledThreads, up),
			fmt.Sprintf("chol_tiled<%s, %d, %d, %v, true, false, 4>", typeName[dt], TileWidth, tiledThreads, up),
			fmt.Sprintf("chol_tiled<%s, %d, %d, %v, true, false, 3>", typeName[dt], TileWidth, tiledThreads, up))
	}
	return names
}

// panelKernel is the index in kernelNames of chol_tiled for one outer
// panel (Options.TiledPanels), with products in T's arithmetic or, for
// float32 only, in split TF32.
func panelKernel(dt cuda.DType, split bool) int {
	switch {
	case dt != cuda.Float32:
		return 4
	case split:
		return 8
	}
	return 7
}

// tiledKernel and tiledSplitKernel (float32 only) are chol_tiled's indices
// in kernelNames, with products in T's arithmetic and in split TF32;
// tiledKernel4 and tiledSplitKernel4 (float32 only) the same built for four
// blocks a multiprocessor, tiledSplitKernel3 (float32 only) the split one
// built for three.
const (
	tiledKernel       = 3
	tiledSplitKernel  = 6
	tiledKernel4      = 9
	tiledSplitKernel4 = 10
	tiledSplitKernel3 = 11
)

// KernelNames lists every name expression of blocked.cu, for a registry or
// a compile check.
func KernelNames() []string { return slices.Concat(KernelModules()...) }

// KernelModules lists blocked.cu's names grouped as kernels loads them, one
// NVRTC program a type and triangle; a kernel's code can depend on what
// else its program holds, so compile checks use these groups.
func KernelModules() [][]string {
	var ms [][]string
	for dt := cuda.Float32; dt <= cuda.Complex128; dt++ {
		ms = append(ms, kernelNames(dt, core.Lower), kernelNames(dt, core.Upper))
	}
	return ms
}

type kernelKey struct {
	dt   cuda.DType
	uplo core.Uplo
}

// loaded holds, per context, type and triangle, the kernels of
// kernelNames; each set is compiled on its first use (a few seconds, once:
// the image is then in the disk cache).
var loaded cuda.KernelSets[kernelKey]

func kernels(c *cuda.Context, dt cuda.DType, uplo core.Uplo) ([]*cuda.Kernel, error) {
	return loaded.Get(c, kernelKey{dt, uplo}, func(c *cuda.Context, k kernelKey) ([]*cuda.Kernel, error) {
		ks, err := cuda.DefaultJIT().Load(c, Source, kernelNames(k.dt, k.uplo)...)
		if err != nil {
			return nil, fmt.Errorf("cholblocked: %w", err)
		}
		return ks, nil
	})
}

// ---- the driver ----

// Potrf queues on s the Cholesky factorization of count Hermitian positive
// definite n×n matrices, A = L·Lᴴ (uplo Lower) or A = Uᴴ·U (Upper). Matrix m
// starts at element m·stride of a and is column-major with leading
// dimension lda; only its uplo triangle is read, and the factor overwrites
// it; the other strict triangle is neither read nor written. The imaginary
// parts of the diagonal are not read. info is a device int32[count]: 0, or
// k > 0 when the leading minor of order k is not positive definite (pivot
// ≤ 0 or NaN); matrix m then holds, as LAPACK's potf2 leaves it, the first
// k−1 columns of L (rows of U) and the failing pivot at (k−1, k−1), the rest
// of its triangle as it was. No matrix affects another.
//
// blas must enqueue on s (cuda.NewBLAS(ctx, s)); ws is WorkspaceSize bytes
// of scratch the call may use until s has run it. Argument errors return
// before anything is queued. The result of a matrix depends on the batch
// only through cuBLAS, which may pick another product kernel (and so round
// differently) for another batch count.
func Potrf[T core.Scalar](s *cuda.Stream, blas *cuda.BLAS, uplo core.Uplo, n int, a cuda.DevicePtr, lda int, stride int64, count int, info cuda.DevicePtr, ws Workspace, opt Options) error {
	dt := cuda.DTypeOf[T]()
	if s == nil {
		return fmt.Errorf("%w: cholblocked: nil stream", core.ErrArgument)
	}
	if err := check(dt, uplo, n, a, lda, stride, count, info, ws, opt); err != nil {
		return err
	}
	if count == 0 {
		return nil
	}
	if n == 0 {
		return cuda.MemsetD32(s, info, 0, int64(count))
	}
	if blas == nil || blas.Stream() != s {
		return fmt.Errorf("%w: cholblocked: the cuBLAS handle must enqueue on the factorization's stream", core.ErrArgument)
	}
	if err := checkSide(s, opt.Side); err != nil {
		return err
	}
	e, steps, err := prepare[T](s, blas, uplo, n, a, lda, stride, count, info, ws, opt)
	if err != nil {
		return err
	}
	if e.l.dBank != 0 {
		defer e.closeEvents()
		c := s.Context()
		if e.forked, err = c.NewSyncEvent(); err != nil {
			return err
		}
		if e.done, err = c.NewSyncEvent(); err != nil {
			return err
		}
	}
	if err := e.clearTickets(); err != nil {
		return err
	}
	for _, st := range steps {
		if err := e.run(st); err != nil {
			e.rejoin()
			return err
		}
	}
	return nil
}

// clearTickets zeroes the tiled panels' counters and flags (chol_tiled
// starts from zero), before the plan's first step.
func (e *executor[T]) clearTickets() error {
	if e.l.tPanel == 0 {
		return nil
	}
	return cuda.MemsetD32(e.s, e.tickets, 0, e.l.tCount)
}

// rejoin makes s wait for whatever the side stream holds after a step
// failed to queue, so that the caller's wait on s still covers every use
// of the workspace (the caller frees it after that wait). Best effort: the
// step's error is the one returned.
func (e *executor[T]) rejoin() {
	if e.side == nil || e.done == nil {
		return
	}
	if e.done.Record(e.side.Stream) == nil {
		e.s.Wait(e.done)
	}
}

// closeEvents releases the look-ahead's events; CUDA keeps them until the
// queued waits on them have completed.
func (e *executor[T]) closeEvents() {
	e.forked.Destroy()
	e.done.Destroy()
}

// prepare loads the kernels and lays out Potrf's checked call: the executor
// and the steps it runs.
func prepare[T core.Scalar](s *cuda.Stream, blas *cuda.BLAS, uplo core.Uplo, n int, a cuda.DevicePtr, lda int, stride int64, count int, info cuda.DevicePtr, ws Workspace, opt Options) (*executor[T], []step, error) {
	dt := cuda.DTypeOf[T]()
	ks, err := kernels(s.Context(), dt, uplo)
	if err != nil {
		return nil, nil, err
	}
	if count == 1 {
		stride = int64(lda) * int64(n) // any value is valid for one matrix; cuBLAS wants a sane one
	}
	l := newLayout(dt, uplo, n, count, opt)
	split := opt.Precision.tensor()
	e := &executor[T]{
		s: s, blas: blas, side: opt.Side, ks: ks, l: l, uplo: uplo, n: n, lda: lda, stride: stride, count: count, info: info, split: split,
		bases: [...]cuda.DevicePtr{
			bufA:  a,
			bufD:  ws.Ptr.Add(l.dOff),
			bufX:  ws.Ptr.Add(l.xOff),
			bufHi: ws.Ptr.Add(l.hiOff),
			bufLo: ws.Ptr.Add(l.loOff),
		},
	}
	if !split {
		e.bases[bufHi] = 0
	}
	if opt.Precision != Split3TF32 {
		e.bases[bufLo] = 0 // the kernels then write hi alone
	}
	e.tickets = ws.Ptr.Add(l.tOff)
	return e, makePlan(uplo, n, lda, stride, l, opt.Precision), nil
}

// executor queues the steps of a plan on the GPU.
type executor[T core.Scalar] struct {
	s       *cuda.Stream
	blas    *cuda.BLAS
	side    *Side          // look-ahead's stream and handle, or nil
	forked  *cuda.Event    // look-ahead: recorded on s at a fork
	done    *cuda.Event    // look-ahead: recorded on the side stream after its products
	ks      []*cuda.Kernel // kernelNames order
	l       layout
	uplo    core.Uplo
	n       int
	lda     int
	stride  int64
	count   int
	info    cuda.DevicePtr
	bases   [bufLo + 1]cuda.DevicePtr
	tickets cuda.DevicePtr // TiledPanels: the outer panels' counters and flags
	split   bool           // Split3TF32 or TF32: the kernels write the split, the panel kernel's tile products are split TF32
	args    cuda.Args
}

// ptr is the device address of element off of buffer b.
func (e *executor[T]) ptr(b buffer, off int64) cuda.DevicePtr {
	es := int64(cuda.DTypeOf[T]().Size())
	if b == bufHi || b == bufLo {
		es = 4
	}
	return e.bases[b].Add(off * es)
}

func (e *executor[T]) run(st step) error {
	switch {
	case st.sync == fork:
		if err := e.forked.Record(e.s); err != nil {
			return err
		}
		return e.side.Stream.Wait(e.forked)
	case st.sync == sideDone:
		return e.done.Record(e.side.Stream)
	case st.sync == join:
		return e.s.Wait(e.done)
	case st.gemm != nil:
		g := st.gemm
		pa, pb, pc := e.ptr(g.a.buf, g.a.off), e.ptr(g.b.buf, g.b.off), e.ptr(g.c.buf, g.c.off)
		blas := e.blas
		if g.side {
			blas = e.side.BLAS
		}
		if g.tf32 {
			return cuda.GemmStridedBatchedEx[float32](blas, cuda.Compute32FFastTF32, g.transA, g.transB, g.m, g.n, g.k,
				1, pa, g.a.ld, g.a.stride, pb, g.b.ld, g.b.stride, float32(g.beta), pc, g.c.ld, g.c.stride, e.count)
		}
		var beta T
		if g.beta != 0 {
			beta = 1
		}
		return cuda.GemmStridedBatched[T](blas, g.transA, g.transB, g.m, g.n, g.k,
			1, pa, g.a.ld, g.a.stride, pb, g.b.ld, g.b.stride, beta, pc, g.c.ld, g.c.stride, e.count)
	case st.diag != nil:
		d := st.diag
		var dp, xp cuda.DevicePtr
		if d.dOff >= 0 {
			dp = e.ptr(bufD, d.dOff)
		}
		if d.inverse {
			xp = e.bases[bufX]
		}
		first := int32(0)
		if d.first {
			first = 1
		}
		e.args.Reset().Ptr(e.bases[bufA]).Int64(int64(e.lda)).Int64(e.stride).
			Ptr(dp).Int64(int64(e.l.ldd)).Int64(e.l.dStride).
			Ptr(xp).Ptr(e.info).Int32(int32(d.j)).Int32(int32(d.w)).Int32(first)
		threads := uint32(diagThreads(cuda.DTypeOf[T]()))
		return cuda.LaunchArgs(e.s, e.ks[0], [3]uint32{uint32(e.count), 1, 1}, [3]uint32{threads, 1, 1}, 0, &e.args)
	case st.apply != nil:
		p := st.apply
		var dp cuda.DevicePtr
		if p.dOff >= 0 {
			dp = e.ptr(bufD, p.dOff)
		}
		tr, i := applyTiles(cuda.DTypeOf[T](), p.rows, e.count)
		if p.split {
			i += 3
		}
		k := e.ks[i]
		tiles := (p.rows + tr - 1) / tr
		e.args.Reset().Ptr(e.bases[bufA]).Int64(int64(e.lda)).Int64(e.stride).
			Ptr(dp).Int64(int64(e.l.ldd)).Int64(e.l.dStride).
			Ptr(e.bases[bufX]).Ptr(e.bases[bufHi]).Ptr(e.bases[bufLo]).Int64(int64(e.l.ldh)).Int64(e.l.hStride).
			Ptr(e.info).Int32(int32(p.j)).Int32(int32(p.w)).Int32(int32(p.rows)).Int32(int32(tiles))
		blocks := uint32(int64(tiles) * int64(e.count))
		return cuda.LaunchArgs(e.s, k, [3]uint32{blocks, 1, 1}, [3]uint32{256, 1, 1}, 0, &e.args)
	case st.panel != nil:
		p := st.panel
		tp := tiledPanel{j0: p.J, width: p.W, ldd: e.l.ldd, dStride: e.l.dStride}
		if p.dOff >= 0 {
			tp.d = e.ptr(bufD, p.dOff)
		}
		if p.split {
			tp.hi, tp.lo, tp.ldh, tp.hStride = e.bases[bufHi], e.bases[bufLo], e.l.ldh, e.l.hStride
		}
		k := e.ks[panelKernel(cuda.DTypeOf[T](), e.split)]
		nt, wt := int64(e.n-p.J+TileWidth-1)/TileWidth, int64(p.W+TileWidth-1)/TileWidth
		tasks := (wt*nt - wt*(wt+1)/2 + 1) * int64(e.count)
		blocks := min(int64(DefaultTiledBlocks(e.s.Context().Device.SMs, 0)), tasks)
		tiledArgs(&e.args, e.bases[bufA], e.lda, e.stride, e.n, e.count, e.info, e.tickets.Add(4*p.tickets), e.bases[bufX], tp)
		var shared uint32
		if e.split {
			shared = splitSharedBytes(0) // the panel kernels are built for one block a multiprocessor
		}
		return cuda.LaunchArgs(e.s, k, [3]uint32{uint32(blocks), 1, 1}, [3]uint32{tiledThreads, 1, 1}, shared, &e.args)
	}
	return nil
}
