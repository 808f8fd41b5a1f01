package gputest

import (
	"slices"
	"testing"

	"github.com/batchlas/batchlas/internal/cuda"
)

// FlushBytes is what a Timer writes before each timed call: more than the
// H200's 60 MiB of L2, as the GPU MODE harness evicts it.
const FlushBytes = 256 << 20

// Timer times one call at a time on a stream with CUDA events, with the L2
// cache evicted before each call.
type Timer struct {
	s          *cuda.Stream
	start, end *cuda.Event
	flush      cuda.DevicePtr
	fill       byte
}

// NewTimer returns a Timer for s; its buffer and events are released at
// the end of the test.
func NewTimer(t testing.TB, s *cuda.Stream) *Timer {
	t.Helper()
	c := s.Context()
	return &Timer{s: s, start: Event(t, c), end: Event(t, c), flush: Alloc(t, s, FlushBytes)}
}

// Time evicts L2 (writing FlushBytes), then returns the µs the work run
// queues on the stream takes on the GPU, or run's error.
func (tm *Timer) Time(t testing.TB, run func() error) (float64, error) {
	t.Helper()
	tm.fill++
	if err := cuda.Memset(tm.s, tm.flush, tm.fill, FlushBytes); err != nil {
		t.Fatal(err)
	}
	if err := tm.start.Record(tm.s); err != nil {
		t.Fatal(err)
	}
	if err := run(); err != nil {
		return 0, err
	}
	if err := tm.end.Record(tm.s); err != nil {
		t.Fatal(err)
	}
	ms, err := cuda.ElapsedMs(tm.start, tm.end)
	if err != nil {
		t.Fatal(err)
	}
	return 1000 * float64(ms), nil
}

// Event returns a timing event on c, destroyed at the end of the test.
func Event(t testing.TB, c *cuda.Context) *cuda.Event {
	t.Helper()
	e, err := c.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Destroy() })
	return e
}

// Median is the middle of xs (the upper one of an even count), sorting xs.
func Median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}
