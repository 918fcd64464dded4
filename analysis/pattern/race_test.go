//go:build race

package pattern

// raceEnabled scales down the single-goroutine property tests under the race detector, which slows
// them twentyfold and has nothing to find in them.
const raceEnabled = true
