// Package oracle holds the reference side of batchlas's tests: slow,
// unblocked, obviously correct implementations of the ops, the residual
// metrics the conformance suites bound, and deterministic generators of test
// matrices with known properties.
//
// # One representation
//
// Every reference computation runs on Mat, a dense column-major matrix of
// complex128, whatever the engine's scalar type: float32 and float64 data is
// loaded with a zero imaginary part, complex64 widened to complex128. For real
// data the complex arithmetic is exactly the real arithmetic (the imaginary
// parts stay zero and never feed back), so a real reference costs about four
// times a real loop and needs no second code path. Load and Store move one
// matrix of a core.Strided batch in and out, converting to and from T.
//
// # Semantics followed
//
// The references follow LAPACK and the reference BLAS: Potrf is the unblocked
// left-looking dpotf2 (info = k when the leading minor of order k is not
// positive definite, a NaN diagonal included); Getrf is dgetf2 with the pivot
// chosen as the first largest cabs1 = |re| + |im| (info = the first exactly
// zero U(k, k), the factorization continuing past it); BLAS calls with alpha =
// 0 do not read A or B, and with beta = 0 do not read C.
//
// # Metrics
//
// Residuals are computed in float64 and returned in units of the tolerance
// (already divided by n·eps or (k+2)·eps), so a test compares them with a
// small constant. Every metric lets NaN through: a NaN anywhere in the data
// gives a NaN metric, and a NaN compared with a bound fails. A test must
// therefore write its check as "fail unless r <= bound".
package oracle
