package route

import (
	"fmt"
	"os"
	"strings"
)

// Why says what decided a Decision.
type Why uint8

const (
	WhyTable    Why = iota // the device's own table
	WhyBorrowed            // another device's table; the device has none
	WhyDefault             // the op's default order: no table, or no candidate of the row can run
	WhyPinned              // a pin, in code or in BATCHLAS_<OP>_ROUTE
)

func (w Why) String() string {
	switch w {
	case WhyTable:
		return "table"
	case WhyBorrowed:
		return "borrowed table"
	case WhyDefault:
		return "default order"
	case WhyPinned:
		return "pinned"
	}
	return fmt.Sprintf("Why(%d)", uint8(w))
}

// TieMargin is how much slower than the fastest runnable entry of a row a
// candidate earlier in the op's list (native before vendor) may be and still
// be chosen: differences this small are within run-to-run noise.
const TieMargin = 0.03

// Decision is a routing result and its reasons.
type Decision struct {
	Call      Call
	Candidate Candidate // what runs
	Why       Why
	Pin       string // the pin in force ("" for auto)
	PinFrom   string // where it came from: "code" or BATCHLAS_<OP>_ROUTE

	// The row consulted, also for pinned decisions; Line is 0 when none.
	Table       string   // the table's file
	TableDevice string   // the device whose table it is (≠ Call.Device.Key when borrowed)
	Line        int      // the row's line in Table
	Row         string   // the row's keys: "uplo=L n=64 batch=4096"
	Relaxed     []string // exact keys on which the row differs from the call
	Micros      float64  // the chosen candidate's time in the row; 0 when unlisted or failed

	Tie     bool  // a faster entry within TieMargin was passed over for Candidate
	Fastest Entry // that entry, when Tie

	// Skipped explains the row entries before Candidate that were not chosen.
	Skipped []string
	// Note says why the default order was used.
	Note string

	op *Op
}

// String is the decision as one line, as BATCHLAS_TRACE=1 prints it:
//
//	potrf float32 sm_90 uplo=L n=60 batch=5000 -> native:tiny: table; row tuned/potrf.float32.sm_90.txt:14 [uplo=L n=64 batch=4096] 12.3 µs
func (d Decision) String() string {
	var b strings.Builder
	keys := ""
	if d.op != nil {
		keys = " " + d.Call.keyText(d.op)
	}
	fmt.Fprintf(&b, "%s %s %s%s -> %s: ", d.Call.Op, d.Call.DType, d.Call.Device.Key, keys, d.Candidate.Name)
	switch d.Why {
	case WhyPinned:
		fmt.Fprintf(&b, "pinned %s by %s", d.Pin, d.PinFrom)
	case WhyBorrowed:
		fmt.Fprintf(&b, "borrowed table of %s", d.TableDevice)
	default:
		b.WriteString(d.Why.String())
	}
	if d.Why != WhyBorrowed && d.TableDevice != "" && d.TableDevice != d.Call.Device.Key {
		fmt.Fprintf(&b, ", borrowing the table of %s", d.TableDevice)
	}
	if d.Tie {
		fmt.Fprintf(&b, "; tie → %s, within %g%% of %s %s µs", d.Candidate.Kind(), 100*TieMargin, d.Fastest.Name, fmtMicros(d.Fastest.Micros))
	}
	if d.Line > 0 {
		fmt.Fprintf(&b, "; row %s:%d [%s]", d.Table, d.Line, d.Row)
		if len(d.Relaxed) > 0 {
			fmt.Fprintf(&b, " (%s relaxed)", strings.Join(d.Relaxed, ", "))
		}
		if d.Micros > 0 {
			fmt.Fprintf(&b, " %s µs", fmtMicros(d.Micros))
		}
	}
	if len(d.Skipped) > 0 {
		fmt.Fprintf(&b, "; passed over %s", strings.Join(d.Skipped, "; "))
	}
	if d.Note != "" {
		fmt.Fprintf(&b, "; %s", d.Note)
	}
	return b.String()
}

// Tracer receives every decision while BATCHLAS_TRACE=1.
type Tracer interface {
	Trace(d Decision)
}

// stderrTracer writes each decision as a line to stderr.
type stderrTracer struct{}

func (stderrTracer) Trace(d Decision) { fmt.Fprintln(os.Stderr, "batchlas: route:", d) }
