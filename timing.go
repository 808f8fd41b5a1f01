package batchlas

import (
	"fmt"
	"time"

	"github.com/batchlas/batchlas/internal/cuda"
)

// Mark is a point in a queue's work, for measuring how long the work
// between two marks took on the device: a CUDA event on a GPU (device time,
// not host time), the wall clock on the CPU (where ops finish before they
// return).
type Mark struct {
	q     *Queue
	at    time.Time
	event *cuda.Event
}

// Mark records a point after the work enqueued on q so far.
func (q *Queue) Mark() (*Mark, error) {
	if err := checkQueue("Mark", q); err != nil {
		return nil, err
	}
	m := &Mark{q: q}
	if q.gpu == nil {
		m.at = time.Now()
		return m, nil
	}
	e, err := q.gpu.g.ctx.NewEvent()
	if err != nil {
		return nil, fmt.Errorf("batchlas: Mark: %w", err)
	}
	if err := e.Record(q.gpu.stream); err != nil {
		e.Destroy()
		return nil, fmt.Errorf("batchlas: Mark: %w", err)
	}
	m.event = e
	return m, nil
}

// Since waits until the work before m has finished and returns the time
// from start to m. Both marks must come from the same queue.
func (m *Mark) Since(start *Mark) (time.Duration, error) {
	if start == nil || start.q != m.q {
		return 0, argErr(ErrArgument, "Mark.Since", "start", "is not a mark of the same queue")
	}
	if m.event == nil {
		return m.at.Sub(start.at), nil
	}
	if err := m.event.Synchronize(); err != nil {
		return 0, fmt.Errorf("batchlas: Mark.Since: %w", err)
	}
	ms, err := cuda.ElapsedMs(start.event, m.event)
	if err != nil {
		return 0, fmt.Errorf("batchlas: Mark.Since: %w", err)
	}
	return time.Duration(float64(ms) * float64(time.Millisecond)), nil
}

// Release frees the mark's device event; a mark is not used after it.
func (m *Mark) Release() {
	if m.event != nil {
		m.event.Destroy()
		m.event = nil
	}
}

// EvictCache enqueues, on a GPU, a write of a buffer four times the size of
// the device's L2 cache, so the next op reads its operands from memory as a
// first call would. Benchmarks call it before each timed repetition. On the
// CPU it does nothing.
func (q *Queue) EvictCache() error {
	if err := checkQueue("EvictCache", q); err != nil {
		return err
	}
	if q.gpu == nil {
		return nil
	}
	bytes := 4 * int64(max(q.gpu.g.dev.L2Bytes, 64<<20))
	p, err := q.gpu.alloc(bytes)
	if err != nil {
		return fmt.Errorf("batchlas: EvictCache: %w", err)
	}
	return cuda.Memset(q.gpu.stream, p, 0, bytes)
}
