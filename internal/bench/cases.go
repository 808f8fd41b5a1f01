package bench

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/oracle"
)

// inputs holds the operands of one case, packed column-major, matrix after
// matrix, in the element type being measured. The reference checks read
// these same (rounded) values.
type inputs[T core.Scalar] struct {
	n, nrhs, count int
	a              []T // n×n per matrix
	b              []T // n×nrhs (solves, Trsm) or n×n (Gemm); nil otherwise
	distinct       int // matrices generated; the batch repeats them in turn
	// uplo is the triangle potrf factors and potrs and posv read
	// (Config.Uplo); the other ops and their checks use Lower.
	uplo core.Uplo
}

// uploOps are the ops bench times on either triangle (Config.Uplo).
var uploOps = []string{"potrf", "potrs", "posv"}

// TimesUpper reports whether bench times op on the Upper triangle too
// (Config.Uplo "U"); it times every other op on Lower only.
func TimesUpper(op string) bool { return slices.Contains(uploOps, op) }

// poisonedOps are the ops whose A holds NaN in its strict other triangle,
// which they must not read: a solve on the wrong triangle then gives NaNs
// and fails its check, where on a full Hermitian A it would pass. Their
// checks rebuild A from the uplo triangle (oracle.Hermitian).
var poisonedOps = []string{"potrs", "posv"}

// setTriangle makes uplo the triangle of the case and, for poisonedOps,
// writes NaN over the strict other triangle of every matrix of A.
func (in *inputs[T]) setTriangle(op *Op, uplo core.Uplo) {
	in.uplo = uplo
	if !slices.Contains(poisonedOps, op.Name) {
		return
	}
	n := in.n
	nan := convert[T]([]complex128{complex(math.NaN(), math.NaN())})[0]
	for m := range in.count {
		a := in.a[m*n*n : (m+1)*n*n]
		for j := range n {
			for i := range n {
				if (uplo == core.Lower && i < j) || (uplo == core.Upper && i > j) {
					a[i+j*n] = nan
				}
			}
		}
	}
}

// distinctBudget bounds the work of generating a case, in multiply-adds of
// M·Mᴴ: the batch repeats fewer distinct matrices when n is large, so that a
// run of n = 128 does not spend longer making inputs than timing them.
const distinctBudget = 1 << 29

// distinctCount is how many different matrices a case of count n×n
// matrices generates.
func distinctCount(n, count int) int {
	return max(1, min(count, max(64, distinctBudget/max(1, n*n*n))))
}

// parallelColumnsOrder is the order from which makeMatrix forms the columns
// of one matrix on several goroutines.
const parallelColumnsOrder = 256

// makeBlock is how many columns of A makeMatrix forms together: 8 columns
// of n = 8192 complex values and the column of M they read fit in 2 MB.
const makeBlock = 8

// generate makes the inputs of op for count n×n matrices from seed; the
// same arguments give the same inputs on every machine.
func generate[T core.Scalar](op *Op, n, nrhs, count int, seed uint64) *inputs[T] {
	in := &inputs[T]{n: n, nrhs: nrhs, count: count, distinct: distinctCount(n, count)}
	cplx := core.IsComplex[T]()
	base := make([][]T, in.distinct)
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				// One stream per matrix, so the result does not depend on
				// which goroutine made it.
				rng := rand.New(rand.NewPCG(seed, uint64(i)))
				base[i] = convert[T](makeMatrix(op, n, cplx, rng))
			}
		})
	}
	for i := range in.distinct {
		next <- i
	}
	close(next)
	wg.Wait()
	in.a = tile(base, n*n, count)

	cols := 0
	switch {
	case op.RHS:
		cols = nrhs
	case op.Name == "gemm":
		cols = n
	}
	if cols > 0 {
		// B is cheap to make, so every matrix gets its own.
		rng := rand.New(rand.NewPCG(seed, 1<<63))
		b := make([]complex128, n*cols*count)
		for i := range b {
			b[i] = uniform(rng, cplx)
		}
		in.b = convert[T](b)
	}
	return in
}

// tile lays count matrices of size elements out one after another, taking
// them from base in turn.
func tile[T any](base [][]T, size, count int) []T {
	out := make([]T, size*count)
	for i := range count {
		copy(out[i*size:], base[i%len(base)])
	}
	return out
}

// uniform is a number with real (and, for complex types, imaginary) part
// uniform in [-1, 1).
func uniform(rng *rand.Rand, cplx bool) complex128 {
	re := 2*rng.Float64() - 1
	if !cplx {
		return complex(re, 0)
	}
	return complex(re, 2*rng.Float64()-1)
}

// makeMatrix makes one n×n column-major A for op.
func makeMatrix(op *Op, n int, cplx bool, rng *rand.Rand) []complex128 {
	a := make([]complex128, n*n)
	switch op.Input {
	case spdInput:
		m := make([]complex128, n*n)
		for i := range m {
			m[i] = uniform(rng, cplx)
		}
		// A = M·Mᴴ/n + I, column by column: A(:, j) = Σₖ M(:, k)·conj(M(j, k)),
		// the sum in k order for every element. Columns go in blocks, so that
		// each column of M is read once a block rather than once a column.
		blocks := (n + makeBlock - 1) / makeBlock
		block := func(_, b int) {
			j0, j1 := b*makeBlock, min(n, (b+1)*makeBlock)
			for k := range n {
				mk := m[k*n : (k+1)*n]
				for j := j0; j < j1; j++ {
					s := conj(mk[j]) / complex(float64(n), 0)
					col := a[j*n : (j+1)*n]
					for i := range col {
						col[i] += mk[i] * s
					}
				}
			}
			for j := j0; j < j1; j++ {
				a[j*n+j] = complex(real(a[j*n+j])+1, 0) // exactly real on the diagonal
			}
		}
		if n < parallelColumnsOrder {
			for b := range blocks {
				block(0, b)
			}
			break
		}
		// Blocks in parallel too: at n = 4096 one matrix is 7·10¹⁰
		// multiply-adds, minutes on one core. Each element is summed by one
		// goroutine in a fixed order, so the bits do not change.
		oracle.ParallelFor(blocks, block)
	default:
		if op.Name == "trsm" {
			for j := range n {
				a[j*n+j] = complex(1+rng.Float64(), 0)
				for i := j + 1; i < n; i++ {
					a[j*n+i] = uniform(rng, cplx) / complex(float64(n), 0)
				}
			}
			break
		}
		for i := range a {
			a[i] = uniform(rng, cplx)
		}
	}
	return a
}

func conj(v complex128) complex128 { return complex(real(v), -imag(v)) }

// convert rounds complex128 values to T, dropping the imaginary part for
// real types.
func convert[T core.Scalar](src []complex128) []T {
	out := make([]T, len(src))
	switch o := any(out).(type) {
	case []float32:
		for i, v := range src {
			o[i] = float32(real(v))
		}
	case []float64:
		for i, v := range src {
			o[i] = real(v)
		}
	case []complex64:
		for i, v := range src {
			o[i] = complex64(v)
		}
	case []complex128:
		copy(o, src)
	}
	return out
}

// widen returns element values of T as complex128.
func widen[T core.Scalar](src []T) []complex128 {
	out := make([]complex128, len(src))
	switch s := any(src).(type) {
	case []float32:
		for i, v := range s {
			out[i] = complex(float64(v), 0)
		}
	case []float64:
		for i, v := range s {
			out[i] = complex(v, 0)
		}
	case []complex64:
		for i, v := range s {
			out[i] = complex128(v)
		}
	case []complex128:
		copy(out, s)
	}
	return out
}
