package cpu

import (
	"testing"

	"github.com/batchlas/batchlas/internal/oracle"
)

// TestDivC128 divides 200,000 operand pairs from the whole float64 range
// (oracle.QuoMisses: within 4 ulps of the exact quotient where that is
// finite and normal, Go's semantics for zero, infinite and NaN operands);
// Go's division misses hundreds, near the top of the range.
func TestDivC128(t *testing.T) {
	misses := oracle.QuoMisses(divC128, 200000, 31)
	for _, m := range misses[:min(5, len(misses))] {
		t.Errorf("(%g)/(%g) = %g, want %g", m.A, m.B, m.Got, m.Want)
	}
	if len(misses) > 0 {
		t.Errorf("%d quotients off", len(misses))
	}
}
