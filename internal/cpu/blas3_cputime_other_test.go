//go:build !unix

package cpu

func cpuNanos() int64 { return 0 }
