// Package bench is the engine of `batchlas bench`: it generates the inputs
// of a case from a seed, times each arm (an implementation of the op: the
// batchlas CPU engine, a loop of gonum calls, later the GPU tiers) side by
// side in one process, checks every timed result against a float64 or
// complex128 reference, and prints the results in the Go benchmark format
// that benchstat reads. The command-line tool only parses flags.
//
// # Timing
//
// An op that overwrites its inputs (Potrf, Getrf, the solves, Trsm ...) gets
// them back from a pristine copy before every call, outside the timer, so
// ns/op is the op alone: one call on the whole batch, including the wait for
// it to finish. The copy leaves the operands in cache as far as they fit,
// the same for every arm. Ops that do not read what they write (Gemm and
// Syrk with beta = 0, Inv into a separate C) are timed back to back.
//
// Repetitions of the arms are interleaved (cpu, gonum, cpu, gonum ...) so
// that drift in clock speed or load affects every arm alike.
//
// # Checks
//
// After the warm-up call and after every repetition the result of the last
// call is checked on the first, middle and last matrix against a reference
// computed in float64 or complex128 from the same inputs, as a scaled
// residual in the 1-norm, for example ‖A − L·Lᴴ‖ / (n·‖A‖·eps) for Potrf,
// which must not exceed Tolerance; every info entry of the batch must be 0.
// An arm that fails is reported as FAIL and its times are not printed.
package bench
