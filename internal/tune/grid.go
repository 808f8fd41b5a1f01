package tune

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/batchlas/batchlas/internal/route"
)

// maxListLen bounds a parsed list, so that a typo such as 1:1000000 is an
// error rather than a sweep of a million points.
const maxListLen = 10000

// ListHelp describes the list syntax of ParseInts, for help texts.
const ListHelp = `a comma list of items: 32 (one value), 1:64 (every integer from 1 to 64),
8:1024:x2 (8, 16, 32, ... up to 1024: multiply by 2), 16:256:+16 (add 16);
for example 1:32,48,64:1024:x2`

// ParseInts reads a list of positive integers (see ListHelp) and returns
// its values in increasing order, each once. The error names the item.
func ParseInts(s string) ([]int, error) {
	var out []int
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			return nil, fmt.Errorf("%q: empty item", s)
		}
		vals, err := parseItem(item)
		if err != nil {
			return nil, fmt.Errorf("%q: %v", item, err)
		}
		out = append(out, vals...)
		if len(out) > maxListLen {
			return nil, fmt.Errorf("%q: more than %d values", s, maxListLen)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

func parseItem(item string) ([]int, error) {
	parts := strings.Split(item, ":")
	if len(parts) > 3 {
		return nil, fmt.Errorf("want N, A:B, A:B:xF or A:B:+S")
	}
	ends := make([]int, min(len(parts), 2))
	for i := range ends {
		v, err := strconv.Atoi(parts[i])
		if err != nil || v < 1 {
			return nil, fmt.Errorf("%q is not an integer ≥ 1", parts[i])
		}
		ends[i] = v
	}
	if len(parts) == 1 {
		return ends, nil
	}
	from, to := ends[0], ends[1]
	if to < from {
		return nil, fmt.Errorf("the range ends below its start")
	}
	step := "+1"
	if len(parts) == 3 {
		step = parts[2]
	}
	by, err := strconv.Atoi(step[min(1, len(step)):])
	switch {
	case len(step) < 2 || step[0] != 'x' && step[0] != '+' || err != nil:
		return nil, fmt.Errorf("step %q: want xF (multiply) or +S (add)", step)
	case step[0] == 'x' && by < 2:
		return nil, fmt.Errorf("step %q: a factor is at least 2", step)
	case step[0] == '+' && by < 1:
		return nil, fmt.Errorf("step %q: a step is at least 1", step)
	}
	var out []int
	for v := from; v <= to; {
		out = append(out, v)
		if len(out) > maxListLen {
			return nil, fmt.Errorf("more than %d values", maxListLen)
		}
		if step[0] == 'x' {
			if v > math.MaxInt/by {
				break
			}
			v *= by
		} else {
			v += by
		}
	}
	return out, nil
}

// ParseWords reads a comma list of words, each one of allowed, and returns
// them in the order of allowed, each once.
func ParseWords(s string, allowed []string) ([]string, error) {
	seen := map[string]bool{}
	for w := range strings.SplitSeq(s, ",") {
		w = strings.TrimSpace(w)
		if !slices.Contains(allowed, w) {
			return nil, fmt.Errorf("%q: want a comma list of %s", w, strings.Join(allowed, ", "))
		}
		seen[w] = true
	}
	var out []string
	for _, w := range allowed {
		if seen[w] {
			out = append(out, w)
		}
	}
	return out, nil
}

// The key vocabulary of routing tables (route.Call's keys).
var (
	intKeys       = []string{"n", "batch", "nrhs", "m", "k"}
	exactKeyNames = []string{"uplo", "side", "trans", "transb"}
	exactKeys     = map[string][]string{"uplo": {"L", "U"}, "side": {"L", "R"}, "trans": {"N", "T", "C"}, "transb": {"N", "T", "C"}}
)

// ExactValues lists the values of exact key name (uplo: L, U); nil for an
// integer key.
func ExactValues(name string) []string { return slices.Clone(exactKeys[name]) }

// Point is one shape of a grid: a call's element type and keys. Fields of
// keys its op does not have are zero.
type Point struct {
	DType                     string
	N, Batch, NRHS, M, K      int
	Uplo, Side, Trans, TransB string
}

// Int returns integer key name of p.
func (p *Point) Int(name string) int {
	switch name {
	case "n":
		return p.N
	case "batch":
		return p.Batch
	case "nrhs":
		return p.NRHS
	case "m":
		return p.M
	case "k":
		return p.K
	}
	return 0
}

func (p *Point) setInt(name string, v int) {
	switch name {
	case "n":
		p.N = v
	case "batch":
		p.Batch = v
	case "nrhs":
		p.NRHS = v
	case "m":
		p.M = v
	case "k":
		p.K = v
	}
}

// Exact returns exact key name of p.
func (p *Point) Exact(name string) string {
	switch name {
	case "uplo":
		return p.Uplo
	case "side":
		return p.Side
	case "trans":
		return p.Trans
	case "transb":
		return p.TransB
	}
	return ""
}

func (p *Point) setExact(name, v string) {
	switch name {
	case "uplo":
		p.Uplo = v
	case "side":
		p.Side = v
	case "trans":
		p.Trans = v
	case "transb":
		p.TransB = v
	}
}

// Value is key name of p as a table row writes it.
func (p *Point) Value(name string) string {
	if _, ok := exactKeys[name]; ok {
		return p.Exact(name)
	}
	return strconv.Itoa(p.Int(name))
}

// Call is p as op's call on dev.
func (p Point) Call(op string, dev route.Device) route.Call {
	return route.Call{Op: op, DType: p.DType, Device: dev, N: p.N, Batch: p.Batch, NRHS: p.NRHS, M: p.M, K: p.K,
		Uplo: p.Uplo, Side: p.Side, Trans: p.Trans, TransB: p.TransB}
}

// Text is p with op's keys: "float64 uplo=L n=8 batch=64".
func (p Point) Text(op *route.Op) string {
	var b strings.Builder
	b.WriteString(p.DType)
	for _, k := range op.Keys {
		fmt.Fprintf(&b, " %s=%s", k.Name, p.Value(k.Name))
	}
	return b.String()
}

// Grid is what a sweep measures: every combination of its lists. A nil
// list of a key the op has takes the default: the first value of an exact
// key (uplo L, side L, trans N, transb N), m = k = n, and nrhs = 1 (n for
// trsm and trmm, whose nrhs is the other side of B, as bench does).
type Grid struct {
	DTypes                    []string
	N, Batch, NRHS, M, K      []int
	Uplo, Side, Trans, TransB []string
	// MaxMiB, when positive, drops points whose largest operand batch
	// (batch·max(m, n)·max(n, nrhs, k) elements) exceeds it, so one grid can
	// pair small orders with large batches and large orders with small.
	MaxMiB int
}

func (g *Grid) ints(name string) []int {
	switch name {
	case "n":
		return g.N
	case "batch":
		return g.Batch
	case "nrhs":
		return g.NRHS
	case "m":
		return g.M
	case "k":
		return g.K
	}
	return nil
}

func (g *Grid) words(name string) []string {
	switch name {
	case "uplo":
		return g.Uplo
	case "side":
		return g.Side
	case "trans":
		return g.Trans
	case "transb":
		return g.TransB
	}
	return nil
}

// Dtypes are the element types a grid may list.
var Dtypes = []string{"float32", "float64", "complex64", "complex128"}

// Validate checks g against op: dtypes given and known, n and batch given,
// no list for a key op does not have, values in range.
func (g *Grid) Validate(op *route.Op) error {
	if len(g.DTypes) == 0 {
		return usagef("no dtype given")
	}
	for _, d := range g.DTypes {
		if !slices.Contains(Dtypes, d) {
			return usagef("dtype %q: want %s", d, strings.Join(Dtypes, ", "))
		}
	}
	has := map[string]bool{}
	for _, k := range op.Keys {
		has[k.Name] = true
	}
	for _, name := range intKeys {
		list := g.ints(name)
		switch {
		case len(list) > 0 && !has[name]:
			return usagef("--%s: %s has no %s key (its keys: %s)", name, op.Name, name, keyNames(op))
		case len(list) == 0 && has[name] && (name == "n" || name == "batch"):
			return usagef("--%s: no values given", name)
		}
		for _, v := range list {
			if v < 1 {
				return usagef("--%s %d: want values ≥ 1", name, v)
			}
		}
	}
	for _, name := range exactKeyNames {
		allowed, list := exactKeys[name], g.words(name)
		if len(list) > 0 && !has[name] {
			return usagef("--%s: %s has no %s key (its keys: %s)", name, op.Name, name, keyNames(op))
		}
		for _, v := range list {
			if !slices.Contains(allowed, v) {
				return usagef("--%s %s: want %s", name, v, strings.Join(allowed, ", "))
			}
		}
	}
	return nil
}

func keyNames(op *route.Op) string {
	var s []string
	for _, k := range op.Keys {
		s = append(s, k.Name)
	}
	return strings.Join(s, " ")
}

// Points lists the grid's points for op: dtypes outermost, then op's keys
// in its order (the last key varies fastest). Call Validate first.
func (g *Grid) Points(op *route.Op) []Point {
	points := []Point{{}}
	expand := func(f func(p Point) []Point) {
		var next []Point
		for _, p := range points {
			next = append(next, f(p)...)
		}
		points = next
	}
	expand(func(p Point) []Point {
		var out []Point
		for _, d := range g.DTypes {
			p.DType = d
			out = append(out, p)
		}
		return out
	})
	for _, k := range op.Keys {
		name := k.Name
		if values, exact := exactKeys[name]; exact {
			list := g.words(name)
			if len(list) == 0 {
				list = values[:1]
			}
			expand(func(p Point) []Point {
				var out []Point
				for _, v := range list {
					p.setExact(name, v)
					out = append(out, p)
				}
				return out
			})
			continue
		}
		list := g.ints(name)
		if len(list) == 0 {
			continue // a default that depends on n, filled below
		}
		expand(func(p Point) []Point {
			var out []Point
			for _, v := range list {
				p.setInt(name, v)
				out = append(out, p)
			}
			return out
		})
	}
	for i := range points {
		p := &points[i]
		for _, k := range op.Keys {
			if _, exact := exactKeys[k.Name]; exact || p.Int(k.Name) != 0 {
				continue
			}
			switch k.Name {
			case "m", "k":
				p.setInt(k.Name, p.N)
			case "nrhs":
				p.NRHS = DefaultNRHS(op.Name, p.N)
			}
		}
	}
	if g.MaxMiB > 0 {
		points = slices.DeleteFunc(points, func(p Point) bool {
			return p.operandBytes() > int64(g.MaxMiB)<<20
		})
	}
	return points
}

// operandBytes is the size of the point's largest operand batch.
func (p *Point) operandBytes() int64 {
	size := map[string]int64{"float32": 4, "float64": 8, "complex64": 8, "complex128": 16}[p.DType]
	return int64(p.Batch) * int64(max(p.M, p.N)) * int64(max(p.N, p.NRHS, p.K)) * size
}

// DefaultNRHS is nrhs when a grid or call does not say: 1, except for the
// triangular ops, whose nrhs is the other dimension of B (bench's default).
func DefaultNRHS(op string, n int) int {
	if op == "trsm" || op == "trmm" {
		return n
	}
	return 1
}

// UsageError is a bad grid, flag or folder state: the command line is wrong.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}
