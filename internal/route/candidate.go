package route

import (
	"fmt"
	"strings"
)

// Kind is the family of an implementation. Its order is the tie-break
// order between kinds: a native kernel is preferred to the vendor's library,
// which is preferred to the host.
type Kind uint8

const (
	Native Kind = iota // a batchlas GPU kernel
	Vendor             // cuBLAS / cuSOLVER
	CPU                // the pure-Go engine
)

func (k Kind) String() string {
	switch k {
	case Native:
		return "native"
	case Vendor:
		return "vendor"
	case CPU:
		return "cpu"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

func kindOf(word string) (Kind, bool) {
	switch word {
	case "native":
		return Native, true
	case "vendor":
		return Vendor, true
	case "cpu":
		return CPU, true
	}
	return 0, false
}

// Candidate is one implementation of an op.
type Candidate struct {
	// Name is the candidate's only spelling: kind, then a tier (required for
	// native), then name=value parameters in name order, joined by ':'.
	Name string
	// CanRun returns nil when the candidate computes call correctly, or an
	// error saying why not (dtype, shape, device capability, memory). It must
	// not consider speed: that is the tables' job.
	CanRun func(call Call) error
	// PinnedOnly marks a candidate less accurate than the op's contract on
	// some inputs, offered for speed: it runs only when a pin names it, and
	// neither a table, a kind pin, the default order nor tune picks it.
	PinnedOnly bool
	// TriangleBound marks a candidate whose time on one triangle says
	// nothing of its time on the other (cuSOLVER's Upper potrf path has
	// measured up to 3× its Lower one): a row of the other triangle, taken
	// because the table has none of the call's, never chooses it.
	TriangleBound bool
}

// Kind is the kind named by the candidate's first word.
func (c Candidate) Kind() Kind {
	k, _ := kindOf(strings.SplitN(c.Name, ":", 2)[0])
	return k
}

// checkSpelling reports whether s is a candidate spelling: kind[:tier][:p=v]...
// with lower-case words, a tier on every native candidate, and parameters
// named once each, in name order. The error says what is wrong.
func checkSpelling(s string) error {
	parts := strings.Split(s, ":")
	kind, ok := kindOf(parts[0])
	if !ok {
		return fmt.Errorf("%q does not start with native, vendor or cpu", s)
	}
	rest := parts[1:]
	if len(rest) > 0 && !strings.Contains(rest[0], "=") {
		if !isWord(rest[0]) {
			return fmt.Errorf("%q: tier %q is not a lower-case word", s, rest[0])
		}
		rest = rest[1:]
	} else if kind == Native {
		return fmt.Errorf("%q: a native candidate names its tier (native:tiny, native:blocked:nb=64)", s)
	}
	prev := ""
	for _, p := range rest {
		name, value, ok := strings.Cut(p, "=")
		if !ok || !isWord(name) || !isValue(value) {
			return fmt.Errorf("%q: %q is not a parameter name=value", s, p)
		}
		if name <= prev {
			return fmt.Errorf("%q: parameters must be named once each, in name order", s)
		}
		prev = name
	}
	return nil
}

// isWord reports whether s is [a-z][a-z0-9_]*.
func isWord(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	return isValue(s)
}

// isValue reports whether s is [a-z0-9_]+.
func isValue(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
