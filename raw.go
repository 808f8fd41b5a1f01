package batchlas

// rawUpload and rawDownload copy a batch's whole memory span, padding
// included, from or to host memory laid out exactly like the batch. The
// conformance adapter uses them so the suites can see an engine write into
// padding that it must not touch.

func rawUpload[T Scalar](q *Queue, b *Batch[T], span []T) error {
	if b.mem.dev.kind == CUDA {
		return gpuRawUpload(q, b, span)
	}
	copy(b.mem.host[b.off:b.off+b.span()], span)
	return nil
}

func rawDownload[T Scalar](q *Queue, b *Batch[T], span []T) error {
	if b.mem.dev.kind == CUDA {
		return gpuRawDownload(q, b, span)
	}
	copy(span, b.mem.host[b.off:b.off+b.span()])
	return nil
}
