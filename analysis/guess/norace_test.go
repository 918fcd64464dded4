//go:build !race

package guess

const raceEnabled = false
