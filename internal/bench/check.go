package bench

import (
	"fmt"
	"math"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/oracle"
)

// Tolerance bounds every scaled residual a check computes.
const Tolerance = 30

// residual is one check's outcome: the measure and its value in units of
// n·eps (see internal/oracle).
type residual struct {
	what  string
	value float64
}

// ok is false for NaN as well as for a value over the limit.
func (r residual) ok() bool { return r.value <= Tolerance }

func (r residual) String() string {
	return fmt.Sprintf("%s = %.3g (limit %d)", r.what, r.value, Tolerance)
}

// checkMatrix computes the scaled residual of matrix i of the last call
// from the inputs the arm was given and what it returned.
func checkMatrix[T core.Scalar](op *Op, in *inputs[T], i int, out result, eps float64) residual {
	n, nrhs := in.n, in.nrhs
	a := &oracle.Mat{Rows: n, Cols: n, Data: widen(in.a[i*n*n : (i+1)*n*n])}
	bcols := nrhs
	if op.Name == "gemm" {
		bcols = n
	}
	var b *oracle.Mat
	if in.b != nil {
		b = &oracle.Mat{Rows: n, Cols: bcols, Data: widen(in.b[i*n*bcols : (i+1)*n*bcols])}
	}
	var got []complex128
	cols := n
	switch op.Name {
	case "potrf", "getrf", "getri":
		got = out.a
	case "potrs", "posv", "getrs", "gesv", "trsm":
		got, cols = out.b, nrhs
	case "inv", "gemm", "syrk":
		got = out.c
	}
	if len(got) != n*cols {
		return residual{"the arm returned no output", math.Inf(1)}
	}
	x := &oracle.Mat{Rows: n, Cols: cols, Data: got}

	switch op.Name {
	case "potrf":
		what := "‖A − L·Lᴴ‖_F/(n·‖A‖_F·eps)"
		if in.uplo == core.Upper {
			what = "‖A − Uᴴ·U‖_F/(n·‖A‖_F·eps)"
		}
		return residual{what, oracle.CholeskyResidual(a, x, in.uplo, eps)}
	case "getrf":
		if msg := badPivots(out.pivots, n); msg != "" {
			return residual{msg, math.Inf(1)}
		}
		return residual{"‖P·A − L·U‖_F/(n·‖A‖_F·eps)", oracle.LUResidual(a, x, out.pivots, eps)}
	case "potrs", "posv":
		// A's other triangle is NaN (poisonedOps): the Hermitian matrix is
		// its uplo triangle's.
		h := oracle.Hermitian(a, in.uplo)
		return residual{"max_j ‖b_j − A·x_j‖₁/(n·‖A‖₁·‖x_j‖₁·eps)", oracle.SolveResidual(h, core.NoTrans, x, b, eps)}
	case "getrs", "gesv":
		return residual{"max_j ‖b_j − A·x_j‖₁/(n·‖A‖₁·‖x_j‖₁·eps)", oracle.SolveResidual(a, core.NoTrans, x, b, eps)}
	case "trsm":
		l := oracle.Triangle(a, core.Lower, core.NonUnit)
		return residual{"max_j ‖b_j − L·x_j‖₁/(n·‖L‖₁·‖x_j‖₁·eps)", oracle.SolveResidual(l, core.NoTrans, x, b, eps)}
	case "getri", "inv":
		return residual{"‖A·X − I‖₁/(n·‖A‖₁·‖X‖₁·eps)", oracle.InverseResidual(a, x, eps)}
	case "gemm":
		zero := oracle.New(n, n)
		want := oracle.Gemm(core.NoTrans, core.NoTrans, 1, a, b, 0, zero)
		bound := oracle.GemmBound(core.NoTrans, core.NoTrans, 1, a, b, 0, zero)
		return residual{"max |C − A·B|/((n+2)·eps·|A|·|B|)", oracle.ComponentwiseError(x, want, bound, n, eps)}
	case "syrk":
		zero := oracle.New(n, n)
		want := oracle.Syrk(core.Lower, core.NoTrans, 1, a, 0, zero)
		bound := oracle.Syrk(core.Lower, core.NoTrans, 1, oracle.Abs(a), 0, zero)
		return residual{"max |tril(C − A·Aᵀ)|/((n+2)·eps·|A|·|A|ᵀ)", oracle.ComponentwiseError(x, want, bound, n, eps)}
	}
	return residual{"no check for " + op.Name, math.Inf(1)}
}

// badPivots says what is wrong with LAPACK interchanges, or "".
func badPivots(pivots []int32, n int) string {
	if len(pivots) != n {
		return fmt.Sprintf("%d pivots, want %d", len(pivots), n)
	}
	for i, p := range pivots {
		if int(p) < i+1 || int(p) > n {
			return fmt.Sprintf("pivot %d is %d, outside [%d, %d]", i, p, i+1, n)
		}
	}
	return ""
}
