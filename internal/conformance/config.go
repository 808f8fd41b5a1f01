package conformance

import (
	"errors"
	"fmt"
	"hash/fnv"
	"regexp"
	"slices"
	"sync"
	"testing"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/oracle"
)

// Tolerances, in the units the oracle's metrics return.
const (
	// FactorBound bounds ‖A − L·Lᴴ‖_F/(n·‖A‖_F·eps) and ‖P·A − L·U‖_F/(n·‖A‖_F·eps).
	FactorBound = 30
	// SolveBound bounds ‖A·X − B‖₁/(‖A‖₁·‖X‖₁·n·eps) per column and
	// ‖A·A⁻¹ − I‖₁/(n·‖A‖₁·‖A⁻¹‖₁·eps).
	SolveBound = 30
	// BLASBound bounds |C − Cref|/((|α|·|A|·|B| + |β|·|C₀|)·(k+2)·eps) per element.
	BLASBound = 8
)

// DefaultSizes are the matrix orders the suites sweep: both sides of the
// block edges an engine is likely to have (8, 16, 32, 64, 128), odd sizes,
// and two large ones. testing.Short drops the sizes above ShortMax.
var DefaultSizes = []int{1, 2, 3, 7, 8, 9, 16, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 300, 520}

// ShortMax is the largest default size kept under -short or Config.Short.
const ShortMax = 129

// Config trims or tunes the suites for an engine. The zero value runs
// everything (less under -short).
//
// An engine joins the suites through an adapter: a type whose methods take
// the host batches of engine.go's interfaces, run the op on the engine
// (copying to and from its memory if it has its own) and return its error,
// and a test that hands it to the family suites once per scalar type:
//
//	type engine[T core.Scalar] struct{ x cpu.Exec }
//
//	func (e engine[T]) Potrf(uplo core.Uplo, a core.Strided[T], info []int32) error {
//		return cpu.Potrf(e.x, uplo, a, info)
//	}
//	// ... Potrs, Posv: the Cholesky interface
//
//	func TestConformance(t *testing.T) {
//		t.Run("float32", func(t *testing.T) { conformance.CholeskySuite[float32](t, engine[float32]{}) })
//		// ... the other types and families; a Config as last argument trims them
//	}
type Config struct {
	// Sizes replaces DefaultSizes (and is not trimmed by Short).
	Sizes []int
	// MaxSize drops sizes above it when positive.
	MaxSize int
	// Short trims as -short does, for slow engines.
	Short bool
	// Unsupported lists regular expressions over case names (the form is
	// "Routine/dtype/case", e.g. "Trsm/complex64/Right/Upper/ConjTrans/Unit/m=7/n=9",
	// as printed when a case fails). A case whose name matches and whose
	// engine returns an error wrapping core.ErrUnsupported is skipped with
	// t.Skip naming it; ErrUnsupported from any other case fails.
	Unsupported []string
	// BatchDependent says the engine may round an item differently in a
	// batch than alone (vendor libraries pick algorithms by batch size).
	// The check that an item comes out of a batch exactly as it does alone
	// then compares only its info and which elements are finite; its
	// accuracy is still held to the residual bounds. The CPU engine and
	// native kernels must leave this false.
	BatchDependent bool
	// Deviations are input kinds an engine is known to handle differently
	// from LAPACK, each with the reason; a case whose key matches drops
	// those items and logs the reason. Use it for vendor behaviour the
	// library cannot correct, never for the library's own kernels.
	Deviations []Deviation
	// ModulusPivots says the engine picks complex LU pivots by modulus
	// |z| (as cuBLAS does) instead of LAPACK's |Re| + |Im|: both are valid
	// partial pivoting, but the pivot sequence then differs from LAPACK's,
	// so complex factors are held to |L(i,k)| ≤ 1 and the residual bound
	// instead of the oracle's pivots.
	ModulusPivots bool
}

// Deviation names items (by kind, e.g. "zerocol") of the cases whose key
// matches the regular expression Case, and why the engine differs on them.
type Deviation struct {
	Case, Kind, Reason string
}

// settings is a Config made ready: the sizes to run and the compiled patterns.
type settings struct {
	sizes          []int
	unsupported    []*regexp.Regexp
	batchDependent bool
	modulusPivots  bool
	deviations     []deviation
}

type deviation struct {
	re           *regexp.Regexp
	kind, reason string
}

func setup(t *testing.T, cfg []Config) *settings {
	t.Helper()
	var c Config
	switch len(cfg) {
	case 0:
	case 1:
		c = cfg[0]
	default:
		t.Fatalf("conformance: at most one Config, got %d", len(cfg))
	}
	s := &settings{sizes: c.Sizes, batchDependent: c.BatchDependent, modulusPivots: c.ModulusPivots}
	for _, d := range c.Deviations {
		re, err := regexp.Compile(d.Case)
		if err != nil {
			t.Fatalf("conformance: Config.Deviations pattern %q: %v", d.Case, err)
		}
		s.deviations = append(s.deviations, deviation{re, d.Kind, d.Reason})
	}
	if s.sizes == nil {
		for _, n := range DefaultSizes {
			if (c.Short || testing.Short()) && n > ShortMax {
				continue
			}
			s.sizes = append(s.sizes, n)
		}
	}
	s.sizes = slices.DeleteFunc(slices.Clone(s.sizes), func(n int) bool {
		return n < 1 || (c.MaxSize > 0 && n > c.MaxSize) // zero sizes have their own Empty cases
	})
	for _, p := range c.Unsupported {
		re, err := regexp.Compile(p)
		if err != nil {
			t.Fatalf("conformance: Config.Unsupported pattern %q: %v", p, err)
		}
		s.unsupported = append(s.unsupported, re)
	}
	return s
}

// must handles an engine's answer for the case named key: nil goes on,
// ErrUnsupported on a listed case skips (naming it), anything else stops the
// case with a failure.
func (s *settings) must(t *testing.T, key string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if errors.Is(err, core.ErrUnsupported) {
		for _, re := range s.unsupported {
			if re.MatchString(key) {
				t.Skipf("%s: unsupported, as the engine's config lists: %v", key, err)
			}
		}
		t.Fatalf("%s: unexpected ErrUnsupported (list the case in Config.Unsupported if intended): %v", key, err)
	}
	t.Fatalf("%s: %v", key, err)
}

// kinds drops from a case's item kinds those a deviation names, logging why.
func (s *settings) kinds(t *testing.T, key string, kinds []string) []string {
	t.Helper()
	return slices.DeleteFunc(slices.Clone(kinds), func(k string) bool {
		for _, d := range s.deviations {
			if d.kind == k && d.re.MatchString(key) {
				t.Logf("%s: %s items left out: %s", key, k, d.reason)
				return true
			}
		}
		return false
	})
}

// caseKey names a case for messages and Config.Unsupported.
func caseKey[T core.Scalar](routine, name string) string {
	return routine + "/" + core.TypeName[T]() + "/" + name
}

// seedOf derives a generator seed from the parts of a name.
func seedOf(parts ...any) uint64 {
	h := fnv.New64a()
	fmt.Fprint(h, parts...)
	return h.Sum64()
}

// pads returns the leading-dimension and stride padding for one operand of a
// case: always at least 1 and different between operands, so an engine that
// mixes up ld or stride between them reads poison.
func pads(key, operand string) (ldPad, stridePad int) {
	h := seedOf(key, operand)
	return 1 + int(h%5), 1 + int(h/5%13)
}

// batch allocates a poisoned batch for one operand of a case.
func batch[T core.Scalar](key, operand string, rows, cols, count int) core.Strided[T] {
	lp, sp := pads(key, operand)
	return oracle.NewStrided[T](rows, cols, count, lp, sp)
}

// condFor is the condition number of the ill-conditioned test matrices for
// T: 1e6 for 64-bit types, 1e3 for 32-bit ones (where 1e6 would leave no
// significant digits in a solution and make positive definiteness a
// matter of rounding).
func condFor[T core.Scalar]() float64 {
	if core.Eps[T]() > 1e-10 {
		return 1e3
	}
	return 1e6
}

// pivotTolerance is how close to 1 the runner-up/winner ratio of a pivot
// search may come before rounding in T could flip the choice; pivot
// sequences are compared only up to the first step that close.
func pivotTolerance[T core.Scalar]() float64 {
	if core.Eps[T]() > 1e-10 {
		return 0.02
	}
	return 1e-6
}

// sentinelInfo is what info entries hold before a call: an engine must
// write every entry, 0 included.
const sentinelInfo = -7777

func newInfo(count int) []int32 {
	info := make([]int32, count)
	for i := range info {
		info[i] = sentinelInfo
	}
	return info
}

// genCache keeps the generated matrices of large orders, which cost most of
// a suite's time to make (an n = 520 random unitary is about a second), so
// the routines, triangles and precisions that need the same one share it.
var genCache sync.Map

type genKey struct {
	kind    string
	m, n    int
	complex bool
	cond    float64
	variant int
}

// generate returns the matrix of the given kind, deterministic in all the
// arguments; the caller must not modify it.
func generate(kind string, m, n int, complexData bool, cond float64, variant int, build func(g *oracle.Gen) *oracle.Mat) *oracle.Mat {
	k := genKey{kind, m, n, complexData, cond, variant}
	if v, ok := genCache.Load(k); ok {
		return v.(*oracle.Mat)
	}
	a := build(oracle.NewGen(seedOf(k.kind, k.m, k.n, k.complex, k.cond, k.variant), complexData))
	if max(m, n) >= 100 {
		genCache.Store(k, a)
	}
	return a
}

// dataOf reports whether T is complex, for generate.
func dataOf[T core.Scalar]() bool { return core.IsComplex[T]() }

// factorCache keeps the oracle's factors of the large generated matrices,
// rounded to each type, for the routines and transposes that reuse them.
var factorCache sync.Map

type factorKey struct {
	a     *oracle.Mat
	dtype string
	what  string
}

// luOf returns oracle.Getrf(rounded), rounded being generated rounded to T;
// cached for large matrices (generated must then come from generate and
// never be modified).
func luOf[T core.Scalar](generated, rounded *oracle.Mat) oracle.LU {
	if max(rounded.Rows, rounded.Cols) < 100 {
		return oracle.Getrf(rounded)
	}
	k := factorKey{generated, core.TypeName[T](), "lu"}
	if v, ok := factorCache.Load(k); ok {
		return v.(oracle.LU)
	}
	lu := oracle.Getrf(rounded)
	factorCache.Store(k, lu)
	return lu
}

// cholOf returns the oracle's Cholesky factor of generated rounded to T,
// and its info; cached for large matrices like luOf.
func cholOf[T core.Scalar](generated *oracle.Mat, uplo core.Uplo) (*oracle.Mat, int) {
	type result struct {
		f    *oracle.Mat
		info int
	}
	k := factorKey{generated, core.TypeName[T](), "chol" + uplo.String()}
	if v, ok := factorCache.Load(k); ok {
		r := v.(result)
		return r.f, r.info
	}
	f, info := oracle.Potrf(uplo, oracle.Round[T](generated))
	if generated.Rows >= 100 {
		factorCache.Store(k, result{f, info})
	}
	return f, info
}

// reconOf returns oracle.Reconstruct(f, pivots), f the T-rounded oracle
// factors of generated (as factored stores them); cached like luOf.
func reconOf[T core.Scalar](generated, f *oracle.Mat, pivots []int32) *oracle.Mat {
	if f.Rows < 100 {
		return oracle.Reconstruct(f, pivots)
	}
	k := factorKey{generated, core.TypeName[T](), "reconstructed"}
	if v, ok := factorCache.Load(k); ok {
		return v.(*oracle.Mat)
	}
	r := oracle.Reconstruct(f, pivots)
	factorCache.Store(k, r)
	return r
}
