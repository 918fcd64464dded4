//go:build !linux

package territory

import "time"

var start = time.Now()

// threadCPU falls back to the wall clock where the thread's CPU time is not available.
func threadCPU() time.Duration { return time.Since(start) }
