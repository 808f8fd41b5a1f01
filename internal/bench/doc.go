// Package bench is the engine of `batchlas bench`: it generates the inputs
// of a case from a seed, times each arm side by side in one process, checks
// every timed result against a float64 or complex128 reference, and prints
// the results in the Go benchmark format that benchstat reads. The
// command-line tool only parses flags; `batchlas tune` calls Run too.
//
// # Arms
//
// An arm is an implementation of the op. Three are fixed: cpu (the batchlas
// CPU device, routing auto), gonum and gonum-par (loops of gonum calls).
// Every other arm is a routing pin (see batchlas.Route): the op runs through
// the public API with batchlas.Route(arm) on every call, on the CPU device
// for a cpu candidate (cpu:blocked, cpu:unblocked) and on the GPU named by
// Config.Device for the rest: auto, native, vendor, or one candidate such
// as native:tiny. Spellings are checked with route.ParsePin, and a
// candidate must belong to some op. A pin that cannot run a case (an error
// wrapping batchlas.ErrUnsupported) is reported as SKIP with the reason.
//
// # Timing
//
// An op that overwrites its inputs (Potrf, Getrf, the solves, Trsm ...) gets
// them back from a pristine copy before every call, outside the timer, so
// ns/op is the op alone: one call on the whole batch, including the wait for
// it to finish. The copy leaves the operands in cache as far as they fit,
// the same for every arm. Ops that do not read what they write (Gemm and
// Syrk with beta = 0, Inv into a separate C) are timed back to back. On a
// GPU each call is timed with CUDA events after an L2 eviction.
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
//
// # Triangles
//
// Config.Uplo "U" times potrf, potrs and posv on the Upper triangle
// (A = Uᴴ·U); every op runs on Lower otherwise. For potrs and posv the
// strict other triangle of A holds NaN, which the API says they must not
// read, and the checks rebuild A from the case's triangle: a solve on the
// wrong triangle fails, where on a full Hermitian A it would pass.
//
// # Suites
//
// Config.Suite runs a named list of cases (Suites) and ends with a table:
// every arm's median time per case, its ratio to the vendor arm (else to
// the first arm) and the geometric means over the cases each arm passed.
// Config.Cases picks cases by a regular expression on their names.
//
//   - small-batched: every op at n = 4 … 256 at a saturating batch, with
//     the timing and checks above.
//   - cholesky-gpumode: the 15 ranked cases of the GPU MODE cholesky task
//     (perf-anchors §1), with its own inputs, timing and test: k distinct
//     inputs per case called back to back between two marks after an L2
//     eviction, and §1.5's test on every matrix of every input after the
//     warm-up and after the last repetition (see gmcheck.go for exactly
//     what is tested). GPU MODE's row-major lower L is column-major upper
//     U = Lᵀ, so the suite calls Potrf with Upper.
//
// Config.Inputs "gpumode" runs one potrf case (N, Batch) the way that suite
// runs its cases, on Config.Uplo's triangle (Lower by default): above
// n = 1024 the inputs are formed and checked on the GPU, so large orders
// cost the host O(n²) per matrix.
package bench
