package cuda

import (
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

func TestKernelSets(t *testing.T) {
	var sets KernelSets[int]
	calls := 0
	fail := true
	load := func(c *Context, key int) ([]*Kernel, error) {
		calls++
		if fail {
			return nil, errors.New("no device")
		}
		return []*Kernel{{Name: "k", ctx: c}}, nil
	}
	c1, c2 := &Context{}, &Context{}
	if _, err := sets.Get(c1, 7, load); err == nil {
		t.Fatal("a failed load returned no error")
	}
	fail = false
	ks, err := sets.Get(c1, 7, load) // a failure is not remembered
	if err != nil || len(ks) != 1 || ks[0].ctx != c1 || calls != 2 {
		t.Fatalf("Get = %v, %v after %d loads", ks, err, calls)
	}
	if again, _ := sets.Get(c1, 7, load); calls != 2 || again[0] != ks[0] {
		t.Errorf("the second Get loaded again (%d loads)", calls)
	}
	if other, _ := sets.Get(c2, 7, load); calls != 3 || other[0] == ks[0] {
		t.Errorf("another context shares the set (%d loads)", calls)
	}
	if _, _ = sets.Get(c1, 8, load); calls != 4 {
		t.Errorf("another key shares the set (%d loads)", calls)
	}
}

func TestLoadEach(t *testing.T) {
	if err := LoadEach(); err != nil {
		t.Errorf("no loads: %v", err)
	}
	limit := max(1, runtime.GOMAXPROCS(0))
	var running, most, ran atomic.Int32
	errA, errB := errors.New("a failed"), errors.New("b failed")
	loads := make([]func() error, 4*limit+3)
	for i := range loads {
		loads[i] = func() error {
			now := running.Add(1)
			for m := most.Load(); now > m && !most.CompareAndSwap(m, now); m = most.Load() {
			}
			time.Sleep(2 * time.Millisecond)
			running.Add(-1)
			ran.Add(1)
			switch i {
			case 1:
				return errA
			case len(loads) - 1:
				return errB
			}
			return nil
		}
	}
	err := LoadEach(loads...)
	if !errors.Is(err, errA) || !errors.Is(err, errB) {
		t.Errorf("LoadEach returned %v, want both failures", err)
	}
	if int(ran.Load()) != len(loads) {
		t.Errorf("%d of %d loads ran", ran.Load(), len(loads))
	}
	if m := int(most.Load()); m > limit {
		t.Errorf("%d loads at once, more than GOMAXPROCS = %d", m, limit)
	}
}
