// Package cpu is batchlas's pure-Go engine. Every op takes an Exec (the
// context to cancel with and the number of workers) and strided batches of
// column-major matrices, and runs the matrices of the batch in parallel, one
// worker per core. Matrices never share state: a failure in one (reported in
// its info entry) leaves every other matrix exactly as if it had been alone.
package cpu
