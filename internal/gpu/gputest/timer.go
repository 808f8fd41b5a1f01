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

// Arm is one implementation timed by Interleaved: Prepare (nil for none)
// runs before every call, outside the timer, to restore its inputs.
type Arm struct {
	Name    string
	Prepare func() error
	Run     func() error
}

// Interleaved times each arm reps times with Time and returns each arm's
// times, in the order of interleave: a first round that is not kept (it
// compiles kernels and creates workspaces), then rounds that start one
// arm later each time, so that no arm always runs first. A failing
// Prepare or Run ends the test.
func (tm *Timer) Interleaved(t testing.TB, reps int, arms []Arm) [][]float64 {
	t.Helper()
	return interleave(reps, len(arms), func(i int) float64 {
		a := arms[i]
		if a.Prepare != nil {
			if err := a.Prepare(); err != nil {
				t.Fatalf("%s: %v", a.Name, err)
			}
		}
		us, err := tm.Time(t, a.Run)
		if err != nil {
			t.Fatalf("%s: %v", a.Name, err)
		}
		return us
	})
}

// interleave calls measure(i) for the arms in rounds: round −1, not kept,
// in order 0…arms−1; round r ≥ 0 starting at arm r mod arms. It returns
// each arm's reps kept values.
func interleave(reps, arms int, measure func(arm int) float64) [][]float64 {
	kept := make([][]float64, arms)
	for rep := -1; rep < reps; rep++ {
		for o := range arms {
			i := (o + max(rep, 0)) % arms
			v := measure(i)
			if rep >= 0 {
				kept[i] = append(kept[i], v)
			}
		}
	}
	return kept
}
