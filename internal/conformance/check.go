package conformance

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/oracle"
)

// region says which elements (i, j) of matrix b an op may write.
type region func(b, i, j int) bool

func everything(b, i, j int) bool { return true }
func nothing(b, i, j int) bool    { return false }

// inTriangle is the uplo triangle, diagonal included.
func inTriangle(uplo core.Uplo) region {
	return func(b, i, j int) bool { return i == j || (uplo == core.Lower) == (i > j) }
}

// onlyItems restricts r to the matrices ok selects.
func onlyItems(r region, ok func(b int) bool) region {
	return func(b, i, j int) bool { return ok(b) && r(b, i, j) }
}

// where locates index x of s's data: inside matrix b at (i, j), or padding.
func where[T core.Scalar](s core.Strided[T], x int) (b, i, j int, inside bool) {
	if s.Count > 1 || s.Stride > 0 {
		b, x = x/max(1, s.Stride), x%max(1, s.Stride)
	}
	j, i = x/s.LD, x%s.LD
	inside = b < s.Count && j < s.Cols && i < s.Rows
	return b, i, j, inside
}

// checkUntouched fails t when after differs in bits from before anywhere the
// op may not write: padding rows, the gaps between and after matrices, and
// the elements of each matrix outside may. It reports the first few.
func checkUntouched[T core.Scalar](t *testing.T, key, operand string, before, after core.Strided[T], may region) {
	t.Helper()
	if len(before.Data) != len(after.Data) {
		t.Errorf("%s: %s changed length from %d to %d", key, operand, len(before.Data), len(after.Data))
		return
	}
	var bad []string
	count := 0
	for x := range before.Data {
		if oracle.SameBits(before.Data[x], after.Data[x]) {
			continue
		}
		b, i, j, inside := where(before, x)
		if inside && may(b, i, j) {
			continue
		}
		count++
		if len(bad) < 3 {
			what := fmt.Sprintf("matrix %d element (%d,%d)", b, i, j)
			if !inside {
				what = fmt.Sprintf("padding at index %d (matrix %d, row %d, column %d)", x, b, i, j)
			}
			bad = append(bad, fmt.Sprintf("%s: %v -> %v", what, before.Data[x], after.Data[x]))
		}
	}
	if count > 0 {
		t.Errorf("%s: %s: %d elements changed that the op must not write; first: %s",
			key, operand, count, strings.Join(bad, "; "))
	}
}

// checkSameItem fails t unless matrix b of batch and matrix 0 of alone hold
// the same bits: an item computed in a batch must be exactly what it is
// computed alone.
// With Config.BatchDependent only finiteness must agree.
func checkSameItem[T core.Scalar](t *testing.T, s *settings, key, operand string, batch core.Strided[T], b int, alone core.Strided[T]) {
	t.Helper()
	for j := range batch.Cols {
		for i := range batch.Rows {
			x, y := batch.Data[b*batch.Stride+j*batch.LD+i], alone.Data[j*alone.LD+i]
			same := oracle.SameBits(x, y)
			if s.batchDependent {
				same = finite(x) == finite(y)
			}
			if !same {
				t.Errorf("%s: item %d: %s(%d,%d) is %v in the batch but %v computed alone", key, b, operand, i, j, x, y)
				return
			}
		}
	}
}

// checkBound fails t unless r ≤ bound (so a NaN metric fails).
func checkBound(t *testing.T, key string, b int, kind, metric string, r, bound float64) {
	t.Helper()
	if !(r <= bound) {
		t.Errorf("%s: item %d (%s): %s %.3g exceeds %g", key, b, kind, metric, r, float64(bound))
	}
}

// checkInfo fails t unless info[b] = want.
func checkInfo(t *testing.T, key string, b int, kind string, info []int32, want int) {
	t.Helper()
	if int(info[b]) != want {
		t.Errorf("%s: item %d (%s): info %d, want %d", key, b, kind, info[b], want)
	}
}

// checkPivots compares an engine's pivot sequence with the oracle's up to
// the first step where the oracle's runner-up comes within tol of the
// winner (past it, any choice is a valid one). When strict, no such step is
// allowed: the matrix was built so that every choice is clear. Every pivot
// must also lie in [k+1, m].
func checkPivots(t *testing.T, key string, b int, kind string, got []int32, lu oracle.LU, m int, tol float64, strict bool) {
	t.Helper()
	for k, p := range got {
		if p < int32(k+1) || p > int32(m) {
			t.Errorf("%s: item %d (%s): pivot %d is %d, outside [%d, %d]", key, b, kind, k, p, k+1, m)
			return
		}
	}
	if lu.Pivots == nil {
		return
	}
	for k, p := range got {
		if !(lu.Margins[k] <= 1-tol) {
			if strict {
				t.Errorf("%s: item %d (%s): test matrix has an ambiguous pivot at step %d (margin %g)", key, b, kind, k, lu.Margins[k])
			}
			return
		}
		if p != lu.Pivots[k] {
			t.Errorf("%s: item %d (%s): pivot %d is %d, oracle %d (runner-up/winner %.3g)", key, b, kind, k, p, lu.Pivots[k], lu.Margins[k])
			return
		}
	}
}

// hasNaN reports whether matrix b of s holds a NaN.
func hasNaN[T core.Scalar](s core.Strided[T], b int) bool { return oracle.Load(s, b).HasNaN() }

// fillNaN sets every element of matrix b of s to NaN.
func fillNaN[T core.Scalar](s core.Strided[T], b int) {
	nan := oracle.FromComplex[T](complex(math.NaN(), math.NaN()))
	for j := range s.Cols {
		for i := range s.Rows {
			s.Data[b*s.Stride+j*s.LD+i] = nan
		}
	}
}

// itemOf returns pivots or info of item b, for the alone runs.
func itemOf(v []int32, b, per int) []int32 { return slices.Clone(v[b*per : (b+1)*per]) }

// checkInputInts fails t when an integer input (pivots) was changed.
func checkInputInts(t *testing.T, key, what string, before, after []int32) {
	t.Helper()
	if !slices.Equal(before, after) {
		t.Errorf("%s: %s, an input, changed", key, what)
	}
}

// sameInt32 compares int32 slices (pivots, info).
// With Config.BatchDependent pivots are not compared: rounding may break a
// near tie either way, and the oracle checks each pivot sequence anyway.
func sameInt32(t *testing.T, s *settings, key, what string, b int, batch, alone []int32) {
	t.Helper()
	if s.batchDependent && what == "pivots" {
		return
	}
	if !slices.Equal(batch, alone) {
		t.Errorf("%s: item %d: %s %v in the batch but %v computed alone", key, b, what, batch, alone)
	}
}

// finite reports whether both parts of x are finite.
func finite[T core.Scalar](x T) bool {
	c := complex128(0)
	switch v := any(x).(type) {
	case float32:
		c = complex(float64(v), 0)
	case float64:
		c = complex(v, 0)
	case complex64:
		c = complex128(v)
	case complex128:
		c = v
	}
	return !math.IsNaN(real(c)) && !math.IsInf(real(c), 0) && !math.IsNaN(imag(c)) && !math.IsInf(imag(c), 0)
}
