//go:build race

package train

// raceEnabled skips the parameter-recovery test under the race detector, which slows its three
// trainings about ninefold; `make test` runs this package again without -race, where it runs.
const raceEnabled = true
