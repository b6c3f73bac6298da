//go:build !race

package ahpimpl

const raceEnabled = false
