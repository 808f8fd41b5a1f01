//go:build race

package cpu

// raceEnabled: under the race detector sync.Pool drops items on purpose,
// so allocation counts mean nothing.
const raceEnabled = true
