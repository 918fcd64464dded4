//go:build race

package sgemm

// raceEnabled: the race detector makes sync.Pool drop what it holds (the workspaces), so allocation
// counts mean nothing under it, and it slows the reference products of the big shapes tenfold.
const raceEnabled = true
