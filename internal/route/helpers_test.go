package route

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
)

// Synthetic ops for the tests, so that they do not move when the built-in
// candidates change. Their CanRun rules are simple enough to follow by hand.
func testOps() []*Op {
	gpu := func(c Call) error {
		if !c.Device.GPU() {
			return errors.New("needs a GPU")
		}
		return nil
	}
	upTo := func(limit int) func(Call) error {
		return func(c Call) error {
			if err := gpu(c); err != nil {
				return err
			}
			if c.N > limit {
				return fmt.Errorf("n=%d > %d", c.N, limit)
			}
			return nil
		}
	}
	lowerOnly := func(c Call) error {
		if err := gpu(c); err != nil {
			return err
		}
		if c.Uplo != "L" {
			return errors.New("Lower only")
		}
		return nil
	}
	vendor := func(c Call) error {
		if err := gpu(c); err != nil {
			return err
		}
		if !c.Device.Vendor {
			return errors.New("no vendor library")
		}
		return nil
	}
	host := func(c Call) error {
		if c.Device.GPU() {
			return errors.New("host only")
		}
		return nil
	}
	return []*Op{
		{Name: "potrf", Keys: []Key{{Name: "uplo"}, {Name: "n", Weight: 3}, {Name: "batch", Weight: 1}},
			Candidates: []Candidate{
				{Name: "native:tiny", CanRun: upTo(32)},
				{Name: "native:blocked:nb=64", CanRun: lowerOnly},
				{Name: "vendor", CanRun: vendor},
				{Name: "cpu", CanRun: host},
			}},
		{Name: "trsm", Keys: []Key{{Name: "side"}, {Name: "trans"}, {Name: "n", Weight: 2}, {Name: "nrhs", Weight: 1}, {Name: "batch", Weight: 1}},
			Candidates: []Candidate{
				{Name: "native:small", CanRun: upTo(64)},
				{Name: "vendor", CanRun: vendor},
				{Name: "cpu", CanRun: host},
			}},
		// inv has no native candidate and no table anywhere; its default
		// order puts cpu first to show that Default is honoured.
		{Name: "inv", Keys: []Key{{Name: "n", Weight: 3}, {Name: "batch", Weight: 1}},
			Candidates: []Candidate{{Name: "vendor", CanRun: vendor}, {Name: "cpu", CanRun: host}},
			Default:    []string{"cpu", "vendor"}},
	}
}

var (
	h200     = Device{Key: "sm_90", Vendor: true}
	h200Bare = Device{Key: "sm_90"} // no cuBLAS/cuSOLVER
	host     = Device{Key: "cpu"}
)

func potrf(dtype string, dev Device, uplo string, n, batch int) Call {
	return Call{Op: "potrf", DType: dtype, Device: dev, Uplo: uplo, N: n, Batch: batch}
}

func trsm(side, trans string, n, nrhs, batch int) Call {
	return Call{Op: "trsm", DType: "float64", Device: h200, Side: side, Trans: trans, N: n, NRHS: nrhs, Batch: batch}
}

// harness is a router over testdata/basic with a settable environment and
// recorded traces and warnings.
type harness struct {
	*Router
	mu       sync.Mutex
	env      map[string]string
	traces   []string
	warnings []string
}

func (h *harness) Trace(d Decision) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.traces = append(h.traces, d.String())
}

func (h *harness) setenv(k, v string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.env[k] = v
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	h := &harness{env: map[string]string{}}
	r, err := New(Config{
		Ops:    testOps(),
		Tables: os.DirFS("testdata/basic"),
		Label:  "testdata/basic",
		Getenv: func(k string) string {
			h.mu.Lock()
			defer h.mu.Unlock()
			return h.env[k]
		},
		Tracer: h,
		Warn: func(msg string) {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.warnings = append(h.warnings, msg)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	h.Router = r
	return h
}

func (h *harness) choose(t *testing.T, c Call, pin string) Decision {
	t.Helper()
	d, err := h.Choose(c, pin)
	if err != nil {
		t.Fatalf("%+v pin %q: %v", c, pin, err)
	}
	return d
}
