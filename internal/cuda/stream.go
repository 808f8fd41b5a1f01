package cuda

import (
	"fmt"
	"unsafe"
)

// Stream is an in-order queue of device work. Handle is the raw CUstream
// (the same value as a cudaStream_t) that cuBLAS and cuSOLVER take.
type Stream struct {
	Handle uintptr
	ctx    *Context
}

// NewStream creates a stream that does not synchronise with the legacy
// default stream (CU_STREAM_NON_BLOCKING), so work on other streams and
// library calls on stream 0 do not serialise it.
func (c *Context) NewStream() (*Stream, error) {
	s := &Stream{ctx: c}
	err := c.Do(func() error {
		var h uintptr
		if err := result(callp(c.d.cuStreamCreate, uintptr(unsafe.Pointer(&h)), streamNonBlocking)); err != nil {
			return fmt.Errorf("cuda: creating a stream on %s: %w", c.Device, err)
		}
		s.Handle = h
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Context is the context the stream belongs to.
func (s *Stream) Context() *Context { return s.ctx }

// Synchronize waits until every operation queued on s has finished; a
// failure of any of them (a kernel fault, for example) is returned here.
func (s *Stream) Synchronize() error {
	return s.ctx.Do(func() error {
		if err := result(call(s.ctx.d.cuStreamSynchronize, s.Handle)); err != nil {
			return fmt.Errorf("cuda: synchronizing a stream on %s: %w", s.ctx.Device, err)
		}
		return nil
	})
}

// Done reports, without blocking, whether all work queued on s has finished.
func (s *Stream) Done() (bool, error) {
	var done bool
	err := s.ctx.Do(func() error {
		switch err := result(call(s.ctx.d.cuStreamQuery, s.Handle)); err {
		case nil:
			done = true
		case StatusNotReady:
		default:
			return fmt.Errorf("cuda: querying a stream on %s: %w", s.ctx.Device, err)
		}
		return nil
	})
	return done, err
}

// Wait makes later work on s wait until e has completed (device side; the
// host does not block).
func (s *Stream) Wait(e *Event) error {
	return s.ctx.Do(func() error {
		if err := result(call(s.ctx.d.cuStreamWaitEvent, s.Handle, e.Handle, 0)); err != nil {
			return fmt.Errorf("cuda: cuStreamWaitEvent: %w", err)
		}
		return nil
	})
}

// Destroy releases the stream once its queued work has finished. The
// stream must not be used afterwards.
func (s *Stream) Destroy() error {
	if s == nil || s.Handle == 0 {
		return nil
	}
	return s.ctx.Do(func() error {
		err := result(call(s.ctx.d.cuStreamDestroy, s.Handle))
		s.Handle = 0
		if err != nil {
			return fmt.Errorf("cuda: destroying a stream: %w", err)
		}
		return nil
	})
}

// Event marks a point in a stream: for timing (ElapsedMs) and for making one
// stream or the host wait for another.
type Event struct {
	Handle uintptr // CUevent
	ctx    *Context
}

// NewEvent creates an event that records time stamps.
func (c *Context) NewEvent() (*Event, error) { return c.newEvent(eventDefault) }

// NewSyncEvent creates an event without timing, which is cheaper to record
// and to wait on (staging buffers, the ordering of two streams).
func (c *Context) NewSyncEvent() (*Event, error) { return c.newEvent(eventDisableTiming) }

func (c *Context) newEvent(flags uintptr) (*Event, error) {
	e := &Event{ctx: c}
	err := c.Do(func() error {
		var h uintptr
		if err := result(callp(c.d.cuEventCreate, uintptr(unsafe.Pointer(&h)), flags)); err != nil {
			return fmt.Errorf("cuda: creating an event on %s: %w", c.Device, err)
		}
		e.Handle = h
		return nil
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// Record places e in s: it completes when all work queued on s before it has.
func (e *Event) Record(s *Stream) error {
	return e.ctx.Do(func() error { return e.recordLocked(s) })
}

// recordLocked is Record for callers already inside Do.
func (e *Event) recordLocked(s *Stream) error {
	if err := result(call(e.ctx.d.cuEventRecord, e.Handle, s.Handle)); err != nil {
		return fmt.Errorf("cuda: cuEventRecord: %w", err)
	}
	return nil
}

// Synchronize blocks the host until e has completed.
func (e *Event) Synchronize() error {
	return e.ctx.Do(func() error { return e.synchronizeLocked() })
}

func (e *Event) synchronizeLocked() error {
	if err := result(call(e.ctx.d.cuEventSynchronize, e.Handle)); err != nil {
		return fmt.Errorf("cuda: cuEventSynchronize: %w", err)
	}
	return nil
}

// Done reports, without blocking, whether e has completed. An event never
// recorded counts as completed.
func (e *Event) Done() (bool, error) {
	var done bool
	err := e.ctx.Do(func() error {
		var err error
		done, err = e.doneLocked()
		return err
	})
	return done, err
}

func (e *Event) doneLocked() (bool, error) {
	switch err := result(call(e.ctx.d.cuEventQuery, e.Handle)); err {
	case nil:
		return true, nil
	case StatusNotReady:
		return false, nil
	default:
		return false, fmt.Errorf("cuda: cuEventQuery: %w", err)
	}
}

// Destroy releases the event.
func (e *Event) Destroy() error {
	if e == nil || e.Handle == 0 {
		return nil
	}
	return e.ctx.Do(func() error {
		err := result(call(e.ctx.d.cuEventDestroy, e.Handle))
		e.Handle = 0
		if err != nil {
			return fmt.Errorf("cuda: destroying an event: %w", err)
		}
		return nil
	})
}

// ElapsedMs is the GPU time in milliseconds from start to end, both recorded
// timing events (about 0.5 µs resolution). It waits for end to complete.
func ElapsedMs(start, end *Event) (float32, error) {
	if start.ctx != end.ctx {
		return 0, fmt.Errorf("cuda: ElapsedMs: the events belong to different devices")
	}
	var ms float32
	err := end.ctx.Do(func() error {
		if err := end.synchronizeLocked(); err != nil {
			return err
		}
		if err := result(callp(end.ctx.d.cuEventElapsedTime, uintptr(unsafe.Pointer(&ms)), start.Handle, end.Handle)); err != nil {
			return fmt.Errorf("cuda: cuEventElapsedTime: %w", err)
		}
		return nil
	})
	return ms, err
}
