package batchlas

import (
	"fmt"
	"strings"

	"github.com/batchlas/batchlas/internal/core"
)

// Errors that calls return, wrapped with the op and the argument concerned.
// Match them with errors.Is.
var (
	ErrShape           = core.ErrShape           // a size, leading dimension or stride is wrong
	ErrArgument        = core.ErrArgument        // any other bad argument: nil, bad enum, overlap
	ErrDevice          = core.ErrDevice          // operands or queue on different devices
	ErrNoDevice        = core.ErrNoDevice        // the device asked for does not exist or cannot start
	ErrLibraryNotFound = core.ErrLibraryNotFound // a CUDA library or symbol is missing
	ErrUnsupported     = core.ErrUnsupported     // this device cannot run this op or shape
	ErrOutOfMemory     = core.ErrOutOfMemory     // the device has no memory left; it stays usable
	ErrNumerical       = core.ErrNumerical       // matrices failed and no Info was passed to report it
	ErrCanceled        = core.ErrCanceled        // the queue's context ended
)

// ArgError reports a bad argument to an op; Kind is one of the sentinels
// above (ErrShape, ErrArgument, ErrDevice ...), so errors.Is matches it.
type ArgError struct {
	Op   string // the op, e.g. "Potrf"
	Arg  string // the argument, e.g. "a"
	Msg  string // what is wrong with it
	Kind error
}

func (e *ArgError) Error() string {
	return fmt.Sprintf("batchlas: %s: %s %s", e.Op, e.Arg, e.Msg)
}

func (e *ArgError) Unwrap() error { return e.Kind }

func argErr(kind error, op, arg, format string, args ...any) error {
	return &ArgError{Op: op, Arg: arg, Msg: fmt.Sprintf(format, args...), Kind: kind}
}

// FailedError reports matrices whose factorization failed when the caller
// passed no Info to receive their status. It matches ErrNumerical.
type FailedError struct {
	Op      string
	Indices []int   // indices in the batch of the failed matrices, ascending
	Info    []int32 // their LAPACK info values, parallel to Indices
	Count   int     // matrices in the batch
}

func (e *FailedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "batchlas: %s: %d of %d matrices failed:", e.Op, len(e.Indices), e.Count)
	const show = 8
	for i, idx := range e.Indices[:min(show, len(e.Indices))] {
		fmt.Fprintf(&b, " #%d (info %d)", idx, e.Info[i])
	}
	if len(e.Indices) > show {
		fmt.Fprintf(&b, " and %d more", len(e.Indices)-show)
	}
	return b.String()
}

func (e *FailedError) Unwrap() error { return ErrNumerical }

// failures collects the non-zero entries of info as a FailedError, or nil.
func failures(op string, info []int32) error {
	var fe *FailedError
	for i, v := range info {
		if v != 0 {
			if fe == nil {
				fe = &FailedError{Op: op, Count: len(info)}
			}
			fe.Indices = append(fe.Indices, i)
			fe.Info = append(fe.Info, v)
		}
	}
	if fe == nil {
		return nil
	}
	return fe
}
