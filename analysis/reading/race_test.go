//go:build race

package reading

// raceEnabled scales down the suite tests under the race detector, which slows the single-goroutine
// solver tenfold and more and has nothing to find in it.
const raceEnabled = true
