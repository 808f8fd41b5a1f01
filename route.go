package batchlas

import (
	"fmt"
	"strings"

	"github.com/batchlas/batchlas/internal/core"
	"github.com/batchlas/batchlas/internal/cpu"
	"github.com/batchlas/batchlas/internal/route"
)

// Routing. Every op has several implementations, named candidates: "cpu"
// (the pure-Go engine; "cpu:unblocked" and "cpu:blocked" for the
// factorizations, which have two drivers), "vendor" (cuBLAS and cuSOLVER)
// and "native:<tier>" (batchlas's own GPU kernels, e.g. "native:tiny"). A
// call runs the candidate that measured fastest for the nearest shape in the
// device's table (the tuned/ folder; `batchlas route` shows a decision and
// why). BATCHLAS_TRACE=1 prints every decision on stderr.
//
// A pin overrides the tables: per call with Route, per queue with WithRoute,
// or per process with BATCHLAS_<OP>_ROUTE (for example
// BATCHLAS_POTRF_ROUTE=vendor), in that order of precedence. A pin that
// cannot run a call is an error, never a silent fallback.

// CallOption adjusts one call of an op; pass it after the op's arguments.
type CallOption struct {
	pin string
}

// Route pins the implementation of one call: "auto" (the tables decide, and
// BATCHLAS_<OP>_ROUTE is ignored), "native", "vendor" or "cpu" (the fastest
// candidate of that kind that can run the call), or one candidate by name,
// such as "native:tiny" or "cpu:blocked". A misspelt pin is an error
// wrapping ErrArgument; a candidate that does not exist for the op or cannot
// run the call is an error wrapping ErrUnsupported.
func Route(pin string) CallOption { return CallOption{pin: pin} }

// WithRoute pins the implementation of every call of op on the queue, as
// Route does for one call (a call's own Route wins). op names the op in any
// case: "Potrf" or "potrf". NewQueue reports an unknown op or a misspelt pin
// as an error wrapping ErrArgument.
func WithRoute(op, pin string) QueueOption {
	return func(q *Queue) {
		name := strings.ToLower(op)
		r, err := route.Default()
		if err == nil {
			if _, ok := r.Op(name); !ok {
				err = fmt.Errorf("%w: batchlas: WithRoute: no op %q", ErrArgument, op)
			} else if _, perr := route.ParsePin(pin); perr != nil {
				err = fmt.Errorf("batchlas: WithRoute(%q): %w", op, perr)
			}
		}
		if err != nil {
			q.optErr = err
			return
		}
		if q.pins == nil {
			q.pins = map[string]string{}
		}
		q.pins[name] = pin
	}
}

// routeDevice is how the router sees d.
func (d *Device) routeDevice() route.Device {
	if d.kind == CUDA {
		d.gpu.routeOnce.Do(func() { d.gpu.route = route.CUDADevice(d.gpu.dev) })
		return d.gpu.route
	}
	return route.Host()
}

// choose returns the candidate that runs call, an op on elements of type T:
// the pin of the last Route among opts, else the queue's, else
// BATCHLAS_<OP>_ROUTE, else the tables. Empty work needs no decision: it
// returns "", which every op treats as its default implementation, once the
// pin is checked as a call with work would check its spelling and name.
func choose[T Scalar](q *Queue, op string, call route.Call, opts []CallOption) (string, error) {
	r, err := route.Default()
	if err != nil {
		return "", fmt.Errorf("batchlas: %s: %w", op, err)
	}
	call.Op = strings.ToLower(op)
	call.DType = core.TypeName[T]()
	call.Device = q.dev.routeDevice()
	pin := q.pins[call.Op]
	for _, o := range opts {
		if o.pin != "" {
			pin = o.pin
		}
	}
	if r.Empty(call) {
		if err := r.CheckPin(call, pin); err != nil {
			return "", fmt.Errorf("batchlas: %s: %w", op, err)
		}
		return "", nil
	}
	d, err := r.Choose(call, pin)
	if err != nil {
		return "", fmt.Errorf("batchlas: %s: %w", op, err)
	}
	return d.Candidate.Name, nil
}

// execFor is the cpu engine's Exec for candidate name.
func (q *Queue) execFor(name string) cpu.Exec {
	x := q.exec()
	switch name {
	case "cpu:unblocked":
		x.Driver = cpu.DriverUnblocked
	case "cpu:blocked":
		x.Driver = cpu.DriverBlocked
	}
	return x
}

// transKey is the table spelling of t for element type T: real types have
// no conjugate, so ConjTrans finds the Trans rows.
func transKey[T Scalar](t Transpose) string {
	if t == ConjTrans && !core.IsComplex[T]() {
		t = Trans
	}
	return route.TransKey(t)
}
