package cuda

import "sync"

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
