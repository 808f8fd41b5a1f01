// Package core holds the vocabulary every layer of batchlas shares: the scalar
// constraint, the LAPACK-style enums, the strided-batch descriptor and the
// error sentinels. It imports nothing from batchlas, so the public package,
// the engines, the oracle and the conformance suites can all depend on it.
package core
