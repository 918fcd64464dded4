//go:build race

package main

// raceEnabled skips the tests that recompute figures end to end on real data under the race detector,
// which slows them about ninefold (seven minutes of the package's ten on a 2-core machine); `make test`
// runs this package again without -race, where they run.
const raceEnabled = true
