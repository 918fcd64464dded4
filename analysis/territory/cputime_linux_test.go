package territory

import (
	"syscall"
	"time"
)

// threadCPU is the CPU time of the calling OS thread (lock the goroutine to it), so that benchmarks on a
// busy machine measure the work and not the waiting.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(1, &ru) // RUSAGE_THREAD
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
