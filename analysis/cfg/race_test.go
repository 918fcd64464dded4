//go:build race

package cfg

// raceEnabled scales down the single-goroutine property tests under the race detector, which slows
// them tenfold and has nothing to find in them.
const raceEnabled = true
