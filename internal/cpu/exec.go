package cpu

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/batchlas/batchlas/internal/core"
)

// Exec is how an op runs: Ctx is checked between matrices (nil means never
// canceled), Workers caps the goroutines (0 means GOMAXPROCS) and Driver
// picks the algorithm of the factorizations that have two (Potrf, Posv,
// Getrf, Gesv, and Inv through Getrf).
type Exec struct {
	Ctx     context.Context
	Workers int
	Driver  Driver
}

// Driver is the algorithm that factors one matrix. The router names them
// cpu:unblocked and cpu:blocked and picks one from measured tables.
type Driver uint8

const (
	// DriverAuto uses the built-in crossover: the blocked driver from
	// cholBlockedMin (luBlockedMin), or when idle workers can share a
	// matrix of order cholParallelMin (luParallelMin) or more.
	DriverAuto Driver = iota
	// DriverUnblocked factors each matrix with the unblocked kernel on one
	// goroutine.
	DriverUnblocked
	// DriverBlocked factors each matrix with the blocked driver, shared
	// among the workers a small batch leaves idle.
	DriverBlocked
)

func (d Driver) String() string {
	switch d {
	case DriverAuto:
		return "auto"
	case DriverUnblocked:
		return "unblocked"
	case DriverBlocked:
		return "blocked"
	}
	return fmt.Sprintf("Driver(%d)", uint8(d))
}

func (x Exec) workers() int {
	if x.Workers > 0 {
		return x.Workers
	}
	return runtime.GOMAXPROCS(0)
}

func (x Exec) canceled() error {
	if x.Ctx == nil {
		return nil
	}
	if err := x.Ctx.Err(); err != nil {
		return fmt.Errorf("%w: %w", core.ErrCanceled, err)
	}
	return nil
}

// ForEach calls fn(i) for every i in [0, count), spread over the workers in
// chunks taken from a shared counter so uneven matrices balance. It checks
// the context before each chunk; on cancellation it stops handing out work
// and returns an error wrapping core.ErrCanceled (matrices already started
// finish).
func (x Exec) ForEach(count int, fn func(i int)) error {
	if count <= 0 {
		return x.canceled()
	}
	w := min(x.workers(), count)
	// About eight chunks per worker: small enough to balance, large enough
	// that the shared counter is not contended on tiny matrices.
	chunk := max(1, count/(8*w))
	if w == 1 {
		for lo := 0; lo < count; lo += chunk {
			if err := x.canceled(); err != nil {
				return err
			}
			for i := lo; i < min(lo+chunk, count); i++ {
				fn(i)
			}
		}
		return nil
	}
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range w {
		wg.Go(func() {
			for !stop.Load() {
				lo := int(next.Add(int64(chunk))) - chunk
				if lo >= count {
					return
				}
				if x.canceled() != nil {
					stop.Store(true)
					return
				}
				for i := lo; i < min(lo+chunk, count); i++ {
					fn(i)
				}
			}
		})
	}
	wg.Wait()
	if stop.Load() {
		return x.canceled()
	}
	return nil
}

// runTasks calls fn(t) for t in [0, tasks) on up to workers goroutines (the
// caller's among them), handing tasks out in order: the blocked drivers use
// it to share one matrix's slabs among workers. It does not check a context;
// a matrix is never left half done.
func runTasks(workers, tasks int, fn func(t int)) {
	if workers <= 1 || tasks <= 1 {
		for t := range tasks {
			fn(t)
		}
		return
	}
	var next atomic.Int64
	loop := func() {
		for {
			t := int(next.Add(1)) - 1
			if t >= tasks {
				return
			}
			fn(t)
		}
	}
	var wg sync.WaitGroup
	for range min(workers, tasks) - 1 {
		wg.Go(loop)
	}
	loop()
	wg.Wait()
}
