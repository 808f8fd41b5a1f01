package tune

import (
	"fmt"
	"io"
	"time"

	"github.com/batchlas/batchlas/internal/bench"
)

// Measure times candidates (arms, by spelling) at point p, interleaved in
// one process, and returns one result per arm in arms' order. A result that
// failed the oracle check has Failed set; its time, if any, is ignored.
type Measure func(p Point, arms []string) ([]bench.ArmResult, error)

// BenchOptions configure BenchMeasure.
type BenchOptions struct {
	Device  string        // bench's -device: cpu, cuda, cuda:N (the GPU of the non-cpu arms)
	Count   int           // repetitions per arm
	Time    time.Duration // target time of one repetition
	Seed    uint64        // inputs' seed; 0 is 1
	Command string        // echoed in bench's header
	Inputs  string        // bench's -inputs: "" or "gpumode" (potrf)
	Log     io.Writer     // bench's output (benchmark lines, FAIL reasons); nil: discarded
}

// BenchMeasure measures with bench.Run: each arm is a candidate spelling
// that bench runs as a routing pin, every timed result checked against the
// oracle, repetitions of the arms interleaved.
func BenchMeasure(op string, o BenchOptions) Measure {
	return func(p Point, arms []string) ([]bench.ArmResult, error) {
		if err := BenchSupports(op, p, o.Inputs); err != nil {
			return nil, err
		}
		cfg := bench.Config{Op: op, Dtype: p.DType, N: p.N, Batch: p.Batch, Arms: arms, Uplo: p.Uplo,
			Device: o.Device, Count: o.Count, Time: o.Time, Seed: o.Seed, Command: o.Command, Inputs: o.Inputs}
		if cfg.Seed == 0 {
			cfg.Seed = 1
		}
		if bench.LookupOp(op).RHS {
			cfg.NRHS = p.NRHS
		}
		w := o.Log
		if w == nil {
			w = io.Discard
		}
		out, err := bench.Run(cfg, w)
		if err != nil {
			return nil, fmt.Errorf("tune: bench %s %s: %w", op, p.DType, err)
		}
		return out.Arms, nil
	}
}

// BenchSupports says whether bench can measure op at p with input family
// inputs (BenchOptions.Inputs). Bench times one form of each op: square
// matrices (m = k = n), Lower, Left and NoTrans; potrf, potrs and posv
// also Upper.
func BenchSupports(op string, p Point, inputs string) error {
	if bench.LookupOp(op) == nil {
		return usagef("bench cannot time %s (it times %s)", op, bench.OpNames())
	}
	bad := func(key, value, want string) error {
		return usagef("bench times %s with %s=%s only, not %s", op, key, want, value)
	}
	switch {
	case p.M != 0 && p.M != p.N:
		return usagef("bench times %s on square matrices only (m = n), not m=%d n=%d", op, p.M, p.N)
	case p.K != 0 && p.K != p.N:
		return usagef("bench times %s with k = n only, not k=%d n=%d", op, p.K, p.N)
	case p.Uplo == "U" && bench.TimesUpper(op):
		return nil
	case p.Uplo != "" && p.Uplo != "L":
		return bad("uplo", p.Uplo, "L")
	case p.Side != "" && p.Side != "L":
		return bad("side", p.Side, "L")
	case p.Trans != "" && p.Trans != "N":
		return bad("trans", p.Trans, "N")
	case p.TransB != "" && p.TransB != "N":
		return bad("transb", p.TransB, "N")
	}
	return nil
}
