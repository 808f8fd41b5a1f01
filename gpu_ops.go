package batchlas

// GPU entry points of the ops; the CUDA engine replaces these.

func gpuPotrf[T Scalar](q *Queue, uplo Uplo, a *Batch[T], info *Info) error   { return errNoCUDA }
func gpuPotrs[T Scalar](q *Queue, uplo Uplo, a, b *Batch[T]) error            { return errNoCUDA }
func gpuPosv[T Scalar](q *Queue, uplo Uplo, a, b *Batch[T], info *Info) error { return errNoCUDA }
func gpuGetrf[T Scalar](q *Queue, a *Batch[T], p *Pivots, info *Info) error   { return errNoCUDA }
func gpuGetrs[T Scalar](q *Queue, t Transpose, a *Batch[T], p *Pivots, b *Batch[T]) error {
	return errNoCUDA
}
func gpuGetri[T Scalar](q *Queue, a *Batch[T], p *Pivots, info *Info) error { return errNoCUDA }
func gpuGesv[T Scalar](q *Queue, a *Batch[T], p *Pivots, b *Batch[T], info *Info) error {
	return errNoCUDA
}
func gpuInv[T Scalar](q *Queue, a, c *Batch[T], info *Info) error { return errNoCUDA }
func gpuGemm[T Scalar](q *Queue, ta, tb Transpose, alpha T, a, b *Batch[T], beta T, c *Batch[T]) error {
	return errNoCUDA
}
func gpuTrsm[T Scalar](q *Queue, s Side, u Uplo, t Transpose, d Diag, alpha T, a, b *Batch[T]) error {
	return errNoCUDA
}
func gpuTrmm[T Scalar](q *Queue, s Side, u Uplo, t Transpose, d Diag, alpha T, a, b *Batch[T]) error {
	return errNoCUDA
}
func gpuSyrk[T Scalar](q *Queue, u Uplo, t Transpose, alpha T, a *Batch[T], beta T, c *Batch[T]) error {
	return errNoCUDA
}
func gpuHerk[T Scalar](q *Queue, u Uplo, t Transpose, alpha float64, a *Batch[T], beta float64, c *Batch[T]) error {
	return errNoCUDA
}
