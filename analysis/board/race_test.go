//go:build race

package board

// raceEnabled scales down the single-goroutine random-game invariants test under the race detector,
// which slows it twelvefold and has nothing to find in it; `make test` runs this package again
// without -race, at full size.
const raceEnabled = true
