//go:build race

package guess

// raceEnabled skips the test that guesses a whole game with two predictors under the race detector,
// which slows it tenfold; the guessing code runs no goroutines of its own, and `make test` runs this
// package again without -race, where the test runs.
const raceEnabled = true
