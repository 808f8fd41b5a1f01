package conformance_test

import (
	"flag"
	"fmt"
	"math"
	"math/cmplx"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/batchlas/batchlas/internal/conformance"
	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/oracle"
)

// A guard is not accepted until it has been seen red: each planted break
// below is the reference engine with one fault, and TestGuardsSeenRed runs
// the suite that must catch it in a child process and requires that child
// to fail with the guard's message. GUARDS.md records the table.

var plant = flag.String("plant", "", "run TestPlanted with this planted break (set by TestGuardsSeenRed)")

// small keeps the children quick.
var small = conformance.Config{Sizes: []int{1, 7, 33}}

type plantedBreak struct {
	name  string
	guard string // what must catch it
	want  string // a regular expression the child's failure output must match
	run   func(t *testing.T)
}

var plants = []plantedBreak{
	{"potrf-info-off-by-one", "exact info of a non-SPD item", `item \d+ \(notspd\): info \d+, want \d+`,
		func(t *testing.T) { conformance.PotrfTest[float64](t, infoOffByOne[float64]{}, small) }},
	{"potrf-writes-padding", "padding poison unchanged", `padding at index`,
		func(t *testing.T) { conformance.PotrfTest[float32](t, writesPadding[float32]{}, small) }},
	{"potrf-zeroes-other-triangle", "strict other triangle unchanged", `elements changed that the op must not write; first: matrix`,
		func(t *testing.T) { conformance.PotrfTest[complex128](t, zeroesTriangle[complex128]{}, small) }},
	{"potrf-nan-in-factor", "NaN residual fails (never passes)", `‖A − L·Lᴴ‖_F/\(n·‖A‖_F·eps\) NaN exceeds`,
		func(t *testing.T) { conformance.PotrfTest[float32](t, nanFactor[float32]{}, small) }},
	{"potrf-fails-tiny-pivot", "a subnormal pivot is not a failure", `item \d+ \(tinypivot\): info \d+, want 0`,
		func(t *testing.T) { conformance.PotrfTest[float32](t, failsTinyPivot[float32]{}, small) }},
	{"getrf-batch-dependent", "good item identical to running it alone", `computed alone`,
		func(t *testing.T) { conformance.GetrfTest[float64](t, batchDependent[float64]{}, small) }},
	{"getrf-runner-up-pivot", "pivots equal to the oracle's on unambiguous matrices", `item \d+ \(dominant\): pivot \d+ is \d+, oracle \d+`,
		func(t *testing.T) { conformance.GetrfTest[complex64](t, runnerUpPivot[complex64]{}, small) }},
	{"getrf-drops-nan", "a NaN item never comes out silently finite", `the NaN was lost`,
		func(t *testing.T) { conformance.GetrfTest[float32](t, dropsNaN[float32]{}, small) }},
	{"posv-writes-failing-b", "B unchanged for matrices whose factorization fails", `failing matrices keep B`,
		func(t *testing.T) { conformance.PosvTest[float64](t, writesFailingB[float64]{}, small) }},
	{"gemm-reads-c-when-beta-0", "beta = 0 does not read C", `Gemm/float64/beta=0/.*NaN exceeds`,
		func(t *testing.T) { conformance.GemmTest[float64](t, readsC[float64]{}, small) }},
	{"herk-keeps-diagonal-imag", "Herk diagonal exactly real", `the diagonal must be exactly real`,
		func(t *testing.T) { conformance.HerkTest[complex64](t, keepsImag[complex64]{}, small) }},
	{"unlisted-unsupported", "ErrUnsupported fails unless the case is listed", `Herk/float64/.*unexpected ErrUnsupported`,
		func(t *testing.T) { conformance.HerkTest[float64](t, noRealHerk[float64]{}, small) }},
}

// TestPlanted runs one planted break (only in a child of TestGuardsSeenRed).
func TestPlanted(t *testing.T) {
	if *plant == "" {
		t.Skip("run by TestGuardsSeenRed with -plant")
	}
	for _, p := range plants {
		if p.name == *plant {
			p.run(t)
			return
		}
	}
	t.Fatalf("no planted break %q", *plant)
}

// TestGuardsSeenRed requires every planted break to fail its suite with the
// guard's own message.
func TestGuardsSeenRed(t *testing.T) {
	if *plant != "" {
		t.Skip("inside a planted-break child")
	}
	failLine := regexp.MustCompile(`--- FAIL: (TestPlanted/\S+)`)
	for _, p := range plants {
		t.Run(p.name, func(t *testing.T) {
			out, err := exec.Command(os.Args[0], "-test.run=^TestPlanted$", "-test.count=1", "-test.v", "-plant="+p.name).CombinedOutput()
			if err == nil {
				t.Fatalf("planted break %q (guard: %s) passed the suite:\n%s", p.name, p.guard, tail(out))
			}
			if !regexp.MustCompile(p.want).Match(out) {
				t.Fatalf("planted break %q failed, but not with the guard's message %q:\n%s", p.name, p.want, tail(out))
			}
			var first string
			if m := failLine.FindAllSubmatch(out, -1); len(m) > 0 {
				first = string(m[0][1]) // the innermost failing case is reported first
			}
			fails := len(failLine.FindAll(out, -1)) - 1 // less TestPlanted itself
			passes := strings.Count(string(out), "--- PASS: TestPlanted/")
			t.Logf("guard %q red: %d of %d cases failed, first %s", p.guard, fails, fails+passes, first)
		})
	}
}

func tail(out []byte) string {
	s := string(out)
	if len(s) > 3000 {
		s = "..." + s[len(s)-3000:]
	}
	return s
}

// ---- the broken engines ----

type infoOffByOne[T core.Scalar] struct{ reference[T] }

func (e infoOffByOne[T]) Potrf(uplo core.Uplo, a core.Strided[T], info []int32) error {
	err := e.reference.Potrf(uplo, a, info)
	for i := range info {
		if info[i] > 0 {
			info[i]++ // a 0-based column reported as 1-based twice
		}
	}
	return err
}

type writesPadding[T core.Scalar] struct{ reference[T] }

func (e writesPadding[T]) Potrf(uplo core.Uplo, a core.Strided[T], info []int32) error {
	err := e.reference.Potrf(uplo, a, info)
	if a.Count > 0 && a.Cols > 1 && a.LD > a.Rows {
		// A column store that runs to ld instead of rows, in the last matrix.
		a.Data[(a.Count-1)*a.Stride+a.Rows] = 0
	}
	return err
}

type zeroesTriangle[T core.Scalar] struct{ reference[T] }

func (e zeroesTriangle[T]) Potrf(uplo core.Uplo, a core.Strided[T], info []int32) error {
	err := e.reference.Potrf(uplo, a, info)
	for b := range a.Count {
		for j := range a.Cols {
			for i := range a.Rows {
				if (uplo == core.Lower && i < j) || (uplo == core.Upper && i > j) {
					a.Data[b*a.Stride+j*a.LD+i] = 0 // "tidying" the triangle it does not own
				}
			}
		}
	}
	return err
}

type nanFactor[T core.Scalar] struct{ reference[T] }

func (e nanFactor[T]) Potrf(uplo core.Uplo, a core.Strided[T], info []int32) error {
	err := e.reference.Potrf(uplo, a, info)
	n := a.Rows
	for b := range a.Count {
		if info[b] == 0 && n > 0 {
			i, j := n-1, 0
			if uplo == core.Upper {
				i, j = 0, n-1
			}
			a.Data[b*a.Stride+j*a.LD+i] = oracle.FromComplex[T](complex(math.NaN(), 0))
		}
	}
	return err
}

type failsTinyPivot[T core.Scalar] struct{ reference[T] }

// Potrf reports the first pivot L(j, j)² below T's smallest normal as a
// failure, as a factorization forming 1/p (which overflows there) would.
func (e failsTinyPivot[T]) Potrf(uplo core.Uplo, a core.Strided[T], info []int32) error {
	err := e.reference.Potrf(uplo, a, info)
	minNormal := 0x1p-1022
	if core.Eps[T]() > 1e-10 {
		minNormal = 0x1p-126
	}
	for b := range a.Count {
		for j := 0; j < a.Rows && info[b] == 0; j++ {
			if d := real(oracle.ToComplex(a.Data[b*a.Stride+j*a.LD+j])); d*d < minNormal {
				info[b] = int32(j + 1)
			}
		}
	}
	return err
}

type batchDependent[T core.Scalar] struct{ reference[T] }

func (e batchDependent[T]) Getrf(a core.Strided[T], pivots, info []int32) error {
	err := e.reference.Getrf(a, pivots, info)
	if a.Count > 1 && a.Rows > 0 && a.Cols > 0 {
		// One rounding different in a batch than alone, as a shared scratch
		// or a batch-size-dependent kernel choice would make it.
		v := oracle.ToComplex(a.Data[0])
		a.Data[0] = oracle.FromComplex[T](v * complex(1+4*core.Eps[T](), 0))
	}
	return err
}

type runnerUpPivot[T core.Scalar] struct{ reference[T] }

// Getrf pivots on the second largest candidate: a valid LU with a small
// residual, the wrong pivot sequence.
func (e runnerUpPivot[T]) Getrf(a core.Strided[T], pivots, info []int32) error {
	k := min(a.Rows, a.Cols)
	for b := range a.Count {
		f := oracle.Load(a, b)
		m, n := f.Rows, f.Cols
		info[b] = 0
		for j := range k {
			cj := f.Col(j)
			best, second := j, -1
			for i := j + 1; i < m; i++ {
				if oracle.Cabs1(cj[i]) > oracle.Cabs1(cj[best]) {
					best, second = i, best
				} else if second < 0 || oracle.Cabs1(cj[i]) > oracle.Cabs1(cj[second]) {
					second = i
				}
			}
			p := best
			if second >= 0 && cj[second] != 0 {
				p = second
			}
			pivots[b*k+j] = int32(p + 1)
			if cj[p] == 0 {
				if info[b] == 0 {
					info[b] = int32(j + 1)
				}
				continue
			}
			for q := range n {
				c := f.Col(q)
				c[p], c[j] = c[j], c[p]
			}
			for i := j + 1; i < m; i++ {
				cj[i] /= cj[j]
			}
			for q := j + 1; q < n; q++ {
				cq := f.Col(q)
				for i := j + 1; i < m; i++ {
					cq[i] -= cj[i] * cq[j]
				}
			}
		}
		oracle.Store(a, b, f)
	}
	return nil
}

type dropsNaN[T core.Scalar] struct{ reference[T] }

func (e dropsNaN[T]) Getrf(a core.Strided[T], pivots, info []int32) error {
	for x, v := range a.Data {
		if cmplx.IsNaN(oracle.ToComplex(v)) {
			a.Data[x] = 0 // a max() or a clamp that swallows NaN
		}
	}
	return e.reference.Getrf(a, pivots, info)
}

type writesFailingB[T core.Scalar] struct{ reference[T] }

func (e writesFailingB[T]) Posv(uplo core.Uplo, a, b core.Strided[T], info []int32) error {
	err := e.reference.Posv(uplo, a, b, info)
	for i := range info {
		if info[i] != 0 {
			x := oracle.Load(b, i)
			oracle.Store(b, i, oracle.Add(0.5, x, 0, nil)) // solved with the partial factor anyway
		}
	}
	return err
}

type readsC[T core.Scalar] struct{ reference[T] }

// Gemm always forms alpha·op(A)·op(B) + beta·C, so beta = 0 turns a NaN in C
// into a NaN result.
func (e readsC[T]) Gemm(ta, tb core.Transpose, alpha T, a, b core.Strided[T], beta T, c core.Strided[T]) error {
	for i := range c.Count {
		p := oracle.Mul(oracle.Op(oracle.Load(a, i), ta), oracle.Op(oracle.Load(b, i), tb))
		c0 := oracle.Load(c, i)
		for x := range p.Data {
			p.Data[x] = oracle.ToComplex(alpha)*p.Data[x] + oracle.ToComplex(beta)*c0.Data[x]
		}
		oracle.Store(c, i, p)
	}
	return nil
}

type keepsImag[T core.Scalar] struct{ reference[T] }

// Herk scales the whole diagonal element by beta, imaginary part included.
func (e keepsImag[T]) Herk(uplo core.Uplo, tr core.Transpose, alpha float64, a core.Strided[T], beta float64, c core.Strided[T]) error {
	var im []float64
	for b := range c.Count {
		for j := range c.Rows {
			im = append(im, imag(oracle.ToComplex(c.Data[b*c.Stride+j*c.LD+j])))
		}
	}
	err := e.reference.Herk(uplo, tr, alpha, a, beta, c)
	for b := range c.Count {
		for j := range c.Rows {
			x := b*c.Stride + j*c.LD + j
			v := oracle.ToComplex(c.Data[x])
			if w := im[b*c.Rows+j] * beta; !strings.HasPrefix(core.TypeName[T](), "float") && w == w {
				c.Data[x] = oracle.FromComplex[T](complex(real(v), w))
			}
		}
	}
	return err
}

type noRealHerk[T core.Scalar] struct{ reference[T] }

func (e noRealHerk[T]) Herk(uplo core.Uplo, tr core.Transpose, alpha float64, a core.Strided[T], beta float64, c core.Strided[T]) error {
	if !core.IsComplex[T]() {
		return fmt.Errorf("%w: no Herk for real types here", core.ErrUnsupported)
	}
	return e.reference.Herk(uplo, tr, alpha, a, beta, c)
}

// TestListedUnsupportedSkips checks the other half of Config.Unsupported:
// a listed case that answers ErrUnsupported is skipped, not failed.
func TestListedUnsupportedSkips(t *testing.T) {
	cfg := small
	cfg.Unsupported = []string{`^Herk/float(32|64)/`}
	ok := t.Run("Herk", func(t *testing.T) {
		conformance.HerkTest[float32](t, noRealHerk[float32]{}, cfg)
	})
	if !ok {
		t.Fatal("listed unsupported cases failed instead of skipping")
	}
	// The complex types still run in full under the same list.
	t.Run("complex", func(t *testing.T) { conformance.HerkTest[complex64](t, noRealHerk[complex64]{}, cfg) })
}
