package durable

import (
	"os"
	"sync/atomic"
	"syscall"
	"testing"
)

// BenchmarkOneFileWrites measures what a run's csv writes cost when many goroutines produce
// them: one op is one 300 kB chunk (256 random Katarenga games' rows) appended to one file at
// its own reserved offset, by GOMAXPROCS goroutines (-cpu). "queued" is the runner's path:
// each goroutine queues its chunk and does queued writes when no other goroutine is
// (WriteQueue.Run, one writer at a time); "concurrent" lets every goroutine pwrite its own
// range at once. cpu-s/GB is the process's CPU time (user and system, all threads) per GB
// written. On Linux a buffered write takes the file's inode lock for its whole copy (ext4,
// xfs, tmpfs alike), so concurrent writers to one file wait for each other in the kernel;
// the benchmark shows whether they gain anything on a given machine and filesystem:
//
//	go test -run X -bench OneFileWrites -benchtime 2000x -cpu 1,2,4,8,16 ./internal/durable
//
// (2000 ops write 0.6 GB; the files go under the test's temporary directory, and under
// /dev/shm for the shm cases, where present.)
func BenchmarkOneFileWrites(b *testing.B) {
	const chunk = 300 << 10
	dirs := map[string]string{"disk": ""}
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		dirs["shm"] = "/dev/shm"
	}
	for _, where := range []string{"disk", "shm"} {
		dir, ok := dirs[where]
		if !ok {
			continue
		}
		for _, mode := range []string{"queued", "concurrent"} {
			b.Run(where+"/"+mode, func(b *testing.B) {
				d := dir
				if d == "" {
					d = b.TempDir()
				}
				f, err := os.CreateTemp(d, "onefile-*.tmp")
				if err != nil {
					b.Fatal(err)
				}
				defer os.Remove(f.Name())
				defer f.Close()
				buf := make([]byte, chunk)
				for i := range buf {
					buf[i] = "abcdefgh12345678 -,\n"[i%20]
				}
				q := &WriteQueue{At: f}
				var off atomic.Int64
				b.SetBytes(chunk)
				cpu0 := processCPU()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						at := off.Add(chunk) - chunk
						if mode == "concurrent" {
							if _, err := f.WriteAt(buf, at); err != nil {
								b.Error(err)
								return
							}
							continue
						}
						q.Push(WriteJob{Rows: buf, Off: at})
						q.Run()
					}
				})
				if err := q.Wait(); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				b.ReportMetric((processCPU()-cpu0)/(float64(b.N)*chunk/1e9), "cpu-s/GB")
			})
		}
	}
}

// processCPU is the process's CPU time so far (user and system, all threads), in seconds.
func processCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
