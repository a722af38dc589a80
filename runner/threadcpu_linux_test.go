package runner

import (
	"syscall"
	"time"
)

// threadCPU is the CPU time (user + system) of the calling thread so far; benchmarks that lock
// their goroutine to its thread report it beside the wall clock, which a loaded machine
// stretches.
func threadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
