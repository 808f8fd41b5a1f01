package route

import (
	"fmt"
	"strings"

	"github.com/batchlas/batchlas/internal/core"
)

// Environment variables the router reads.
const (
	TraceEnv    = "BATCHLAS_TRACE"     // "1": write each decision to stderr
	TunedDirEnv = "BATCHLAS_TUNED_DIR" // a folder of tables replacing embedded ones of the same name
)

func envName(op string) string { return "BATCHLAS_" + strings.ToUpper(op) + "_ROUTE" }

// Pin restricts a decision: auto (the zero Pin), a kind (native, vendor,
// cpu: the best candidate of that kind that can run), or one candidate.
type Pin struct {
	spelling string // "" for auto
	kindOnly bool
	kind     Kind
}

// ParsePin reads a pin: "auto", "native", "vendor", "cpu" or a candidate
// spelling such as "native:blocked:nb=64". It checks the spelling only; an
// unknown candidate is found when a call is routed. A misspelt pin is an
// error wrapping ErrArgument. "" is auto.
func ParsePin(s string) (Pin, error) {
	p, err := parsePin(s)
	if err != nil {
		return Pin{}, fmt.Errorf("%w: route: pin %v", core.ErrArgument, err)
	}
	return p, nil
}

// parsePin is ParsePin with an error that says only what is wrong.
func parsePin(s string) (Pin, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "auto" {
		return Pin{}, nil
	}
	if k, ok := kindOf(s); ok {
		return Pin{spelling: s, kindOnly: true, kind: k}, nil
	}
	if err := checkSpelling(s); err != nil {
		return Pin{}, fmt.Errorf("%v; want auto, native, vendor, cpu or a candidate such as native:blocked:nb=64", err)
	}
	k, _ := kindOf(strings.SplitN(s, ":", 2)[0])
	return Pin{spelling: s, kind: k}, nil
}

// String is the pin's spelling; "auto" for the zero Pin.
func (p Pin) String() string {
	if p.spelling == "" {
		return "auto"
	}
	return p.spelling
}

// Auto reports whether p leaves the choice to the tables.
func (p Pin) Auto() bool { return p.spelling == "" }

// Kind returns the kind p restricts to; ok is false for auto.
func (p Pin) Kind() (k Kind, ok bool) { return p.kind, p.spelling != "" }

// Candidate returns the candidate p forces; ok is false for auto and kind pins.
func (p Pin) Candidate() (name string, ok bool) {
	return p.spelling, p.spelling != "" && !p.kindOnly
}

// allows reports whether candidate c may be chosen under a kind or auto
// pin; a PinnedOnly candidate never is.
func (p Pin) allows(c Candidate) bool { return !c.PinnedOnly && (!p.kindOnly || c.Kind() == p.kind) }
