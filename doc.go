// Package batchlas runs dense linear algebra on batches of matrices: the
// same Cholesky, LU, triangular solve or matrix product on thousands of
// small or medium matrices at once, on every core of the CPU in pure Go and,
// where an NVIDIA GPU is present, on the GPU.
//
// # Batches, devices and queues
//
// A Batch holds count matrices of one shape and scalar type (float32,
// float64, complex64 or complex128) on one Device, column-major with a
// leading dimension and a batch stride, as LAPACK stores them. Work goes
// through a Queue: ops check their arguments and return those errors at
// once, then enqueue the work; Queue.Wait reports what went wrong while it
// ran. Data moves in and out with Batch.Upload and Batch.Download.
//
//	dev, _ := batchlas.OpenDevice("auto")
//	q, _ := dev.NewQueue()
//	a, _ := batchlas.NewBatch[float64](dev, n, n, count)
//	_ = a.Upload(q, host)
//	info, _ := batchlas.NewInfo(dev, count)
//	_ = batchlas.Potrf(q, batchlas.Lower, a, info)
//	err := q.Wait()
//	failed, _ := info.Failed(q)
//
// # Failures are per matrix and never silent
//
// The ops follow LAPACK: Potrf, Getrf, Getri, Posv and Gesv record a status
// per matrix in an Info (0 for success, k > 0 for failure at step k). A
// matrix that fails, or that holds NaN, affects only itself. When no Info is
// passed, failures still surface: Queue.Wait returns a *FailedError naming
// the failed matrices, matched by errors.Is(err, ErrNumerical).
//
// # Errors
//
// Bad arguments return an *ArgError naming the op and the argument, which
// matches one of ErrShape, ErrArgument or ErrDevice with errors.Is. A GPU
// that cannot be used gives ErrNoDevice or ErrLibraryNotFound with the
// reason; nothing panics on user input.
package batchlas
