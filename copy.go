package batchlas

// Copy copies every matrix of src into dst (LAPACK's lacpy for a batch),
// on the device they share. The two must have the same shape and count and
// must not overlap; their leading dimensions and strides may differ.
func Copy[T Scalar](q *Queue, src, dst *Batch[T]) error {
	const op = "Copy"
	if err := checkQueue(op, q); err != nil {
		return err
	}
	if err := firstErr(checkBatch(op, q, "src", src), checkBatch(op, q, "dst", dst)); err != nil {
		return err
	}
	if err := firstErr(
		checkDims(op, "dst", dst, src.rows, src.cols),
		checkCount(op, "dst", dst, src.count),
		checkDistinct(op, "src", src, "dst", dst),
	); err != nil {
		return err
	}
	if q.dev.kind == CUDA {
		return gpuRun(q, op, func() error {
			return copyBatch[T](q, src.devPtr(), src.ld, int64(src.stride), dst.devPtr(), dst.ld, int64(dst.stride), src.rows, src.cols, src.count)
		})
	}
	return runCPUPlain(q, op, func() error {
		s, d := src.layout(), dst.layout()
		return q.exec().ForEach(src.count, func(i int) { copyMatrix(d, s, i) })
	})
}
