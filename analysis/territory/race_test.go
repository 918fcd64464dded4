//go:build race

package territory

// The race detector slows the float loops about 7x; the 19x19 comparison then takes ~26 s alone.
func init() { raceEnabled = true }
