package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// maxWorkers is the most workers a command takes: four per CPU (bots and I/O may wait), at
// least 16. Each worker holds its own search tables (alpha-beta's hash table is tens of MB), so
// -workers 4096 on a small machine would take GBs before the first game.
func maxWorkers() int { return max(4*runtime.NumCPU(), 16) }

// checkWorkers refuses a worker count outside 1..maxWorkers, naming it.
func checkWorkers(w int) error {
	if m := maxWorkers(); w < 1 || w > m {
		return usagef("-workers %d: want 1..%d (4 per CPU on this machine, at least 16)", w, m)
	}
	return nil
}

// machineMemory is the memory this process may use: the smaller of the machine's (Linux
// /proc/meminfo) and its cgroup's limit; 0 when unknown (no check is made then).
func machineMemory() int64 {
	var total int64
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, ln := range strings.Split(string(b), "\n") {
			if f := strings.Fields(ln); len(f) >= 2 && f[0] == "MemTotal:" {
				if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil {
					total = kb * 1024
				}
			}
		}
	}
	for _, p := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		if b, err := os.ReadFile(p); err == nil {
			if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 && (total == 0 || n < total) {
				total = n
			}
		}
	}
	return total
}

// bytesText writes a byte count for people.
func bytesText(n float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	i := 0
	for n >= 1024 && i < len(units)-1 {
		n /= 1024
		i++
	}
	return fmt.Sprintf("%.3g %s", n, units[i])
}
