//go:build !linux

package runner

import "time"

// threadCPU is unknown outside Linux (no per-thread usage): benchmarks report the wall clock alone.
func threadCPU() (time.Duration, bool) { return 0, false }
