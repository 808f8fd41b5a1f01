package route

import (
	"fmt"
	"slices"
)

// Limits on an op's keys, so that a lookup needs no allocation.
const (
	maxKeys  = 8
	maxExact = 4
)

// Key is one column of an op's tables.
type Key struct {
	Name string // a name of the key vocabulary: n, batch, nrhs, m, k, uplo, side, trans, transb
	// Weight scales the key's term in the row distance; unused for exact keys.
	// n weighs 3 in a factorization because its work grows as n³ against
	// batch¹, so the distance follows log cost.
	Weight float64
}

// Op is an operation and its candidates.
type Op struct {
	Name string // lower case: "potrf"
	// Keys are the table columns, exact keys first, in relaxation order:
	// when no row agrees on every exact key, the last one is dropped first.
	Keys []Key
	// Candidates in tie-break order: native before vendor before cpu,
	// the simplest tier first.
	Candidates []Candidate
	// Default is the order tried without a table (names of candidates);
	// nil means Candidates' order.
	Default []string
}

// Candidate returns the op's candidate spelt name.
func (op *Op) Candidate(name string) (Candidate, bool) {
	i := op.index(name)
	if i < 0 {
		return Candidate{}, false
	}
	return op.Candidates[i], true
}

func (op *Op) index(name string) int {
	return slices.IndexFunc(op.Candidates, func(c Candidate) bool { return c.Name == name })
}

// names lists the op's candidate spellings, for errors.
func (op *Op) names() []string {
	var s []string
	for _, c := range op.Candidates {
		s = append(s, c.Name)
	}
	return s
}

// EnvName is the variable that pins op's route: BATCHLAS_POTRF_ROUTE.
func (op *Op) EnvName() string { return envName(op.Name) }

// validate checks the op's definition; errors here are programming errors.
func (op *Op) validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("route: op %q: %s", op.Name, fmt.Sprintf(format, args...))
	}
	if !isWord(op.Name) {
		return bad("name is not a lower-case word")
	}
	seen := map[string]bool{}
	exactDone := false
	ints := 0
	for _, k := range op.Keys {
		d, ok := keyDefs[k.Name]
		switch {
		case !ok:
			return bad("unknown key %q", k.Name)
		case seen[k.Name]:
			return bad("key %q twice", k.Name)
		case d.exact && exactDone:
			return bad("exact key %q after an integer key", k.Name)
		case !d.exact && !(k.Weight > 0):
			return bad("key %q has weight %v, want > 0", k.Name, k.Weight)
		}
		seen[k.Name] = true
		if !d.exact {
			exactDone = true
			ints++
		}
	}
	if ints == 0 {
		return bad("no integer key")
	}
	if len(op.Keys) > maxKeys || len(op.Keys)-ints > maxExact {
		return bad("more than %d keys or %d exact keys", maxKeys, maxExact)
	}
	if len(op.Candidates) == 0 {
		return bad("no candidates")
	}
	names := map[string]bool{}
	for i, c := range op.Candidates {
		if err := checkSpelling(c.Name); err != nil {
			return bad("candidate %v", err)
		}
		if names[c.Name] {
			return bad("candidate %q twice", c.Name)
		}
		names[c.Name] = true
		if c.CanRun == nil {
			return bad("candidate %q has no CanRun", c.Name)
		}
		if i > 0 && c.Kind() < op.Candidates[i-1].Kind() {
			return bad("candidate %q after %q: list native, then vendor, then cpu", c.Name, op.Candidates[i-1].Name)
		}
	}
	for _, n := range op.Default {
		if !names[n] {
			return bad("default order names %q, not a candidate", n)
		}
	}
	return nil
}
