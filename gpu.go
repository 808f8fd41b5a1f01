package batchlas

import "fmt"

// The CUDA side of the public API. Until the GPU engine is wired in, every
// entry here reports that no GPU can be used.

type gpuDevice struct{}

type gpuQueue struct{}

type gpuMemory struct {
	ptr   uintptr
	bytes int64
}

var errNoCUDA = fmt.Errorf("%w: the CUDA engine is not built into this version", ErrNoDevice)

func openCUDA(ordinal int) (*Device, error) { return nil, errNoCUDA }

func cudaStatus() []DeviceStatus {
	return []DeviceStatus{{Spec: "cuda", Kind: CUDA, Err: errNoCUDA}}
}

func newGPUQueue(d *Device) (*gpuQueue, error) { return nil, errNoCUDA }

func (g *gpuQueue) wait(q *Queue) error { return nil }
func (g *gpuQueue) close() error        { return nil }

func allocGPU(dev *Device, bytes int64) (gpuMemory, error) { return gpuMemory{}, errNoCUDA }

func (m gpuMemory) free(dev *Device) {}

func gpuUpload[T Scalar](q *Queue, b *Batch[T], host []T) error   { return errNoCUDA }
func gpuDownload[T Scalar](q *Queue, b *Batch[T], host []T) error { return errNoCUDA }

func gpuDownloadInt32(q *Queue, m gpuMemory, n int) ([]int32, error) { return nil, errNoCUDA }

func gpuRawUpload[T Scalar](q *Queue, b *Batch[T], span []T) error   { return errNoCUDA }
func gpuRawDownload[T Scalar](q *Queue, b *Batch[T], span []T) error { return errNoCUDA }

func gpuUploadInt32(q *Queue, m gpuMemory, values []int32) error { return errNoCUDA }
