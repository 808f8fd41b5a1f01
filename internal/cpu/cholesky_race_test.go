//go:build race

package cpu

// cholRace reports a -race build, where instrumentation allocates.
const cholRace = true
