//go:build race

package eval_test

// raceEnabled skips the test that evaluates the three sample games afresh under the race detector,
// which slows it tenfold; TestUniformBaseline race-tests the worker pool it uses, and `make test`
// runs this package again without -race, where the test runs.
const raceEnabled = true
