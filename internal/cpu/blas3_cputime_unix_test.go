//go:build unix

package cpu

import "syscall"

// cpuNanos is the process's user+system CPU time. Benchmarks report it per
// op beside wall time: on a shared machine it is not inflated by time spent
// descheduled.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
