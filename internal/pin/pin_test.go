package pin

import (
	"runtime"
	"testing"
)

// TestWorkerPinsToOneCPU checks that a pinned worker's thread may run on exactly one CPU, that
// the CPU is the w-th allowed one, and that undo restores the whole set.
func TestWorkerPinsToOneCPU(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("CPU affinity is pinned on Linux only")
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		before, err := allowed()
		if err != nil {
			t.Error(err)
			return
		}
		for _, w := range []int{0, 1, len(before) + 1} {
			undo, ok := Worker(w)
			if !ok {
				t.Errorf("Worker(%d) could not pin", w)
				return
			}
			now, _ := allowed()
			if len(now) != 1 || now[0] != before[w%len(before)] {
				t.Errorf("Worker(%d): allowed CPUs %v, want [%d]", w, now, before[w%len(before)])
			}
			undo()
			after, _ := allowed()
			if len(after) != len(before) {
				t.Errorf("after undo: %d CPUs allowed, want %d", len(after), len(before))
			}
		}
	}()
	<-done
}
