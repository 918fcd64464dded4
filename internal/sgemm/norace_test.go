//go:build !race

package sgemm

const raceEnabled = false
