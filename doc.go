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
// # Routing
//
// Each op has several implementations: the pure-Go engine ("cpu"), the
// vendor's libraries on a GPU ("vendor": cuBLAS, cuSOLVER) and batchlas's
// own GPU kernels ("native:tiny", ...). A call runs the one measured fastest
// for the nearest shape on its device, from tables embedded in the binary
// (the tuned folder); `batchlas route` shows a decision and why, and
// BATCHLAS_TRACE=1 prints every decision. A pin overrides the tables: Route
// for one call, WithRoute for a queue, BATCHLAS_<OP>_ROUTE for the process.
// A pin that cannot run a call is an error, never a silent fallback.
//
// # Errors
//
// Bad arguments return an *ArgError naming the op and the argument, which
// matches one of ErrShape, ErrArgument or ErrDevice with errors.Is. A GPU
// that cannot be used gives ErrNoDevice or ErrLibraryNotFound with the
// reason; nothing panics on user input.
package batchlas
