package bench

import (
	"slices"
	"strings"
)

// Op describes one benchmarkable op: its name on the command line, how its
// inputs are made and what it costs.
type Op struct {
	Name  string // as typed on the command line: "potrf"
	Title string // as it appears in a benchmark name: "Potrf"
	Doc   string // one line for the help text
	Input string // how A is made, for the output header

	// RHS reports that the op has a right-hand side B with nrhs columns.
	RHS bool
	// DefaultNRHS is nrhs when the flag is not given.
	DefaultNRHS func(n int) int
	// InPlace reports that the op overwrites operands it reads, so each
	// timed call first restores them.
	InPlace bool

	// counts returns the multiplications and additions per matrix (LAPACK
	// Working Note 41), from which flops are 1·mul + 1·add for real types and
	// 6·mul + 2·add for complex ones.
	counts func(n, nrhs float64) (mul, add float64)
	// elements is the number of elements of the operands, each counted once.
	elements func(n, nrhs int) int
}

// Flops is the floating-point operations of the op on one matrix.
func (o *Op) Flops(n, nrhs int, complex bool) float64 {
	mul, add := o.counts(float64(n), float64(nrhs))
	if complex {
		return 6*mul + 2*add
	}
	return mul + add
}

// Bytes is the size of the operands of one matrix, each counted once.
func (o *Op) Bytes(n, nrhs, elemSize int) float64 {
	return float64(o.elements(n, nrhs) * elemSize)
}

func one(int) int { return 1 }

// Operation counts per matrix (LAWN 41, m = n).
func potrfCounts(n, _ float64) (float64, float64) {
	return n*n*n/6 + n*n/2 + n/3, n*n*n/6 - n/6
}

func getrfCounts(n, _ float64) (float64, float64) {
	return n*n*n/3 - n/3, n*n*n/3 - n*n/2 + n/6
}

func solveCounts(n, r float64) (float64, float64) { return r * n * n, r * (n*n - n) }

func getriCounts(n, _ float64) (float64, float64) {
	return 2*n*n*n/3 + n*n/2 + 5*n/6, 2*n*n*n/3 - 3*n*n/2 + 5*n/6
}

func sum(f, g func(n, r float64) (float64, float64)) func(n, r float64) (float64, float64) {
	return func(n, r float64) (float64, float64) {
		m1, a1 := f(n, r)
		m2, a2 := g(n, r)
		return m1 + m2, a1 + a2
	}
}

const (
	spdInput     = "A = M·Mᴴ/n + I, M with entries uniform in [-1, 1]"
	generalInput = "A with entries uniform in [-1, 1] (condition number O(n) with high probability)"
)

// ops lists every op in help order.
var ops = []*Op{
	{Name: "potrf", Title: "Potrf", Doc: "Cholesky factorization A = L·Lᴴ (Lower)", Input: spdInput,
		InPlace: true, counts: potrfCounts,
		elements: func(n, _ int) int { return n * n }},
	{Name: "potrs", Title: "Potrs", Doc: "solve A·X = B given the Cholesky factor (from an untimed Potrf)", Input: spdInput,
		RHS: true, DefaultNRHS: one, InPlace: true, counts: solveCounts,
		elements: func(n, r int) int { return n*n + n*r }},
	{Name: "posv", Title: "Posv", Doc: "Cholesky factorization and solve of A·X = B", Input: spdInput,
		RHS: true, DefaultNRHS: one, InPlace: true, counts: sum(potrfCounts, solveCounts),
		elements: func(n, r int) int { return n*n + n*r }},
	{Name: "getrf", Title: "Getrf", Doc: "LU factorization with partial pivoting P·A = L·U", Input: generalInput,
		InPlace: true, counts: getrfCounts,
		elements: func(n, _ int) int { return n * n }},
	{Name: "getrs", Title: "Getrs", Doc: "solve A·X = B given the LU factors (from an untimed Getrf)", Input: generalInput,
		RHS: true, DefaultNRHS: one, InPlace: true, counts: solveCounts,
		elements: func(n, r int) int { return n*n + n*r }},
	{Name: "gesv", Title: "Gesv", Doc: "LU factorization and solve of A·X = B", Input: generalInput,
		RHS: true, DefaultNRHS: one, InPlace: true, counts: sum(getrfCounts, solveCounts),
		elements: func(n, r int) int { return n*n + n*r }},
	{Name: "getri", Title: "Getri", Doc: "inverse from the LU factors (from an untimed Getrf), in place", Input: generalInput,
		InPlace: true, counts: getriCounts,
		elements: func(n, _ int) int { return n * n }},
	{Name: "inv", Title: "Inv", Doc: "inverse C = A⁻¹ into a separate C (LU factorization and Getri)", Input: generalInput,
		counts:   sum(getrfCounts, getriCounts),
		elements: func(n, _ int) int { return 2 * n * n }},
	{Name: "gemm", Title: "Gemm", Doc: "C = A·B, all n×n, beta = 0", Input: "A and B with entries uniform in [-1, 1]",
		counts:   func(n, _ float64) (float64, float64) { return n * n * n, n * n * n },
		elements: func(n, _ int) int { return 3 * n * n }},
	{Name: "trsm", Title: "Trsm", Doc: "solve L·X = B, L n×n lower triangular, B n×nrhs (Left, Lower, NoTrans, NonUnit)",
		Input: "L with diagonal uniform in [1, 2] and entries below uniform in [-1, 1]/n; B uniform in [-1, 1]",
		RHS:   true, DefaultNRHS: func(n int) int { return n }, InPlace: true,
		counts:   func(n, r float64) (float64, float64) { return r * n * (n + 1) / 2, r * n * (n - 1) / 2 },
		elements: func(n, r int) int { return n*n + n*r }},
	{Name: "syrk", Title: "Syrk", Doc: "lower triangle of C = A·Aᵀ, A and C n×n, beta = 0", Input: "A with entries uniform in [-1, 1]",
		counts:   func(n, _ float64) (float64, float64) { return n * n * (n + 1) / 2, n * n * (n + 1) / 2 },
		elements: func(n, _ int) int { return 2 * n * n }},
}

// Ops returns the ops in help order.
func Ops() []*Op { return slices.Clone(ops) }

// LookupOp returns the op with the given name (any case), or nil.
func LookupOp(name string) *Op {
	for _, o := range ops {
		if strings.EqualFold(o.Name, name) {
			return o
		}
	}
	return nil
}

// OpNames lists the names of the ops, comma separated.
func OpNames() string {
	names := make([]string, len(ops))
	for i, o := range ops {
		names[i] = o.Name
	}
	return strings.Join(names, ", ")
}

// Dtypes are the element types, as typed on the command line.
var Dtypes = []string{"float32", "float64", "complex64", "complex128"}
