package cuda

import (
	"errors"
	"runtime"
	"sync"
)

// KernelSets caches kernels loaded together, per context and key: the
// kernels of one shape bucket, type or triangle that a GPU package
// launches. A call after the first is a map lookup, where JIT.Load would
// hash the whole source again (SHA-256 of tens of KB, microseconds on every
// call of a small batched op). The zero value is ready to use.
type KernelSets[K comparable] struct {
	m sync.Map // setKey[K] → []*Kernel
}

type setKey[K comparable] struct {
	ctx *Context
	key K
}

// Get returns the kernels of key in c, from load(c, key) on first use. A
// failed load is not cached. Concurrent first calls may each call load;
// JIT.Load makes them share one compilation.
func (s *KernelSets[K]) Get(c *Context, key K, load func(*Context, K) ([]*Kernel, error)) ([]*Kernel, error) {
	k := setKey[K]{c, key}
	if ks, ok := s.m.Load(k); ok {
		return ks.([]*Kernel), nil
	}
	ks, err := load(c, key)
	if err != nil {
		return nil, err
	}
	s.m.Store(k, ks)
	return ks, nil
}

// LoadEach runs loads (each compiling or loading some module), as many at
// once as GOMAXPROCS, and returns their errors joined, nil if there are
// none. On a cold kernel cache that costs about one compilation per
// processor rather than their sum; JIT.Load and KernelSets are safe for it.
func LoadEach(loads ...func() error) error {
	errs := make([]error, len(loads))
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	var wg sync.WaitGroup
	for i, load := range loads {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			errs[i] = load()
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}
