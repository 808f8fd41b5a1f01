package batchlas

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/batchlas/batchlas/internal/cpu"
)

// Queue is an in-order stream of work on one device. Ops enqueue work and
// return at once with argument errors only; failures found while running
// (a canceled context, a device error, failed matrices with no Info to
// report them) surface from Wait. On the CPU an op runs before it returns;
// on a GPU it runs asynchronously. Use a Queue from one goroutine at a time;
// use several queues for concurrent work.
type Queue struct {
	dev *Device
	ctx context.Context
	gpu *gpuQueue // CUDA: the stream and the checks pending on it

	pins   map[string]string // op → pin, from WithRoute
	optErr error             // the first bad QueueOption
	closed bool              // by Close: every op refuses the queue

	mu   sync.Mutex
	errs []error
}

// QueueOption configures NewQueue.
type QueueOption func(*Queue)

// WithContext makes the queue's work stop when ctx ends: on the CPU, between
// matrices of a batch; on a GPU, before each op is enqueued. The stopped
// work is reported by Wait as an error wrapping ErrCanceled. A stopped op
// leaves its outputs and its Info partly written: on the CPU the matrices
// it never reached keep their input and read 0 in the Info, and an op that
// did not start leaves the Info as it was, so after ErrCanceled neither
// says which matrices were done.
func WithContext(ctx context.Context) QueueOption {
	return func(q *Queue) { q.ctx = ctx }
}

// NewQueue creates a queue on d.
func (d *Device) NewQueue(opts ...QueueOption) (*Queue, error) {
	q := &Queue{dev: d, ctx: context.Background()}
	for _, o := range opts {
		o(q)
		if q.optErr != nil {
			return nil, q.optErr
		}
	}
	if d.kind == CUDA {
		g, err := newGPUQueue(d)
		if err != nil {
			return nil, err
		}
		q.gpu = g
	}
	return q, nil
}

// Device returns the device the queue runs on.
func (q *Queue) Device() *Device { return q.dev }

// Wait blocks until all work enqueued so far has finished and returns what
// went wrong since the last Wait (joined), then forgets it.
func (q *Queue) Wait() error {
	var syncErr error
	if q.gpu != nil && !q.closed {
		syncErr = q.gpu.wait(q)
	}
	q.mu.Lock()
	errs := q.errs
	q.errs = nil
	q.mu.Unlock()
	return errors.Join(append(errs, syncErr)...)
}

// Close waits for the queue and releases it; the error is Wait's. Ops on a
// closed queue are argument errors (on a GPU its stream is gone); a second
// Close does nothing.
func (q *Queue) Close() error {
	if q.closed {
		return nil
	}
	err := q.Wait()
	q.closed = true
	if q.gpu != nil {
		err = errors.Join(err, q.gpu.close())
	}
	return err
}

// fail records an error found while running, for Wait.
func (q *Queue) fail(op string, err error) {
	if err == nil {
		return
	}
	var fe *FailedError
	if !errors.As(err, &fe) {
		err = fmt.Errorf("batchlas: %s: %w", op, err)
	}
	q.mu.Lock()
	q.errs = append(q.errs, err)
	q.mu.Unlock()
}

// canceled records and reports a context that has ended, so an op can skip
// its work.
func (q *Queue) canceled(op string) bool {
	if err := q.ctx.Err(); err != nil {
		q.fail(op, fmt.Errorf("%w: %w", ErrCanceled, err))
		return true
	}
	return false
}

func (q *Queue) exec() cpu.Exec {
	return cpu.Exec{Ctx: q.ctx, Workers: q.dev.workers}
}

// infoScratch lends an info slice for ops whose caller passed no Info.
var infoScratch = sync.Pool{New: func() any { return new([]int32) }}

// runCPU runs an op that reports per-matrix status. With info == nil it
// lends a scratch slice and turns any failure into a FailedError for Wait.
func runCPU(q *Queue, op string, info *Info, count int, run func(info []int32) error) error {
	if q.canceled(op) {
		return nil
	}
	var buf []int32
	var scratch *[]int32
	if info != nil {
		buf = info.host[:count]
	} else {
		scratch = infoScratch.Get().(*[]int32)
		if cap(*scratch) < count {
			*scratch = make([]int32, count)
		}
		buf = (*scratch)[:count]
		defer infoScratch.Put(scratch)
	}
	clear(buf)
	if err := run(buf); err != nil {
		if errors.Is(err, ErrUnsupported) {
			return fmt.Errorf("batchlas: %s: %w", op, err)
		}
		q.fail(op, err)
		return nil
	}
	if info == nil {
		q.fail(op, failures(op, buf))
	}
	return nil
}

// runCPUPlain runs an op with no per-matrix status.
func runCPUPlain(q *Queue, op string, run func() error) error {
	return runCPU(q, op, nil, 0, func([]int32) error { return run() })
}
