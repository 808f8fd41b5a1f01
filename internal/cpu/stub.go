package cpu

import (
	"fmt"

	"github.com/batchlas/batchlas/internal/core"
)

// notYet marks an entry point whose engine code is still being written.
// Remove an op's stub when its real implementation lands.
func notYet(op string) error {
	return fmt.Errorf("%w: cpu %s is not implemented yet", core.ErrUnsupported, op)
}
