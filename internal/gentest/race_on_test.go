//go:build race

package gentest

// raceEnabled: the race detector is on. It makes sync.Pool drop a
// quarter of what it is given, at random, so that a test counting the
// allocations a pool saves cannot count on it.
const raceEnabled = true
