package gputest

import (
	"testing"

	"github.com/batchlas/batchlas/internal/cuda"
)

// CheckResources logs k's registers, local and shared memory and occupancy
// at threads per block with dynamic bytes of dynamic shared memory (which
// the caller has allowed), and fails the test on any local memory (spills
// or a stack array: a register row that is not register-resident) or on a
// launch the device would refuse.
func CheckResources(t testing.TB, k *cuda.Kernel, threads, dynamic int) {
	t.Helper()
	blocks, err := k.ActiveBlocksPerSM(threads, dynamic)
	if err != nil {
		t.Error(err)
	}
	t.Logf("%-44s %3d registers, %d B local, %5d B shared + %6d B dynamic, %2d blocks of %3d per SM, compiled in %v (cached %v)",
		k.Name, k.Registers, k.LocalBytes, k.StaticSharedBytes, dynamic, blocks, threads, k.CompileTime.Round(1e6), k.FromCache)
	if k.LocalBytes != 0 {
		t.Errorf("%s uses %d bytes of local memory per thread", k.Name, k.LocalBytes)
	}
	if k.Registers <= 0 || k.MaxThreadsPerBlock < threads || blocks < 1 {
		t.Errorf("%s: %d registers, at most %d threads per block, %d blocks per SM", k.Name, k.Registers, k.MaxThreadsPerBlock, blocks)
	}
}
