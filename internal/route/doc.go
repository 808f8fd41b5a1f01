// Package route decides which implementation of an op runs a call.
//
// # Candidates
//
// Every op (potrf, getrf, gemm, ...) lists its implementations as
// candidates, each with one spelling: a kind (native, vendor or cpu), then
// for native kernels a tier, then parameters in name order:
//
//	cpu   vendor   native:tiny   native:blocked:nb=64
//
// A candidate's CanRun says whether it runs a call correctly (type, shape,
// device capability, memory); it holds no performance knowledge. An op lists
// its candidates in tie-break order: native before vendor before cpu, the
// simplest tier first. Adding a kernel tier is adding one candidate.
//
// # Tables
//
// Performance knowledge lives only in measured tables, one plain-text file
// per (op, dtype, device) in the repository's tuned/ folder, embedded in the
// binary; BATCHLAS_TUNED_DIR names a folder whose tables replace embedded
// ones of the same name. Each row is a measured shape followed by the
// candidates fastest first with their time in µs; "-" marks a candidate
// whose result failed the oracle check, which is never chosen. See
// tuned/README.md for the format and how tables are made and reviewed.
//
// # Choosing
//
// Choose takes a Call (op, dtype, device, shape keys) and a pin:
//
//  1. A pin passed in code wins; else BATCHLAS_<OP>_ROUTE, read at each call.
//     "auto" means no pin; "native", "vendor" and "cpu" restrict the choice
//     to that kind; a full spelling forces that candidate. A pin that is
//     misspelt (ErrArgument), names no candidate of the op, or cannot run the
//     call (ErrUnsupported) is an error: a pin never falls back silently.
//  2. The device's table, or when it has none the nearest device's table
//     (same family first: sm_90 borrows sm_89, then sm_100; cpu last), with
//     a warning once per (op, dtype, device).
//  3. The nearest row: exact keys (uplo, side, trans) must agree, relaxed
//     last key first when no row agrees; among the rest the lowest
//     Σ wₖ·|log₂(rowₖ/callₖ)| over the integer keys, equal scores preferring
//     smaller keys. The first candidate of the row that can run wins, except
//     that a candidate within TieMargin of it and earlier in the op's list
//     (native before vendor) is preferred.
//  4. Without a table, or when no candidate of the row can run, the op's
//     default order.
//
// Every Decision says why it was made; with BATCHLAS_TRACE=1 each one is
// written to stderr as one line (Decision.String).
package route
