//go:build race

package cnn

// raceEnabled: the race detector makes sync.Pool drop what it holds (sgemm's workspaces), so allocation
// counts mean nothing under it.
const raceEnabled = true
