package runner

import (
	"testing"
	"unsafe"

	"github.com/fairplay-lab/fairplay/internal/durable"
)

// Every rows buffer that a queued write gives back is reused: after a burst of queued writes
// as long as a run can hold (every prepared buffer full and the longest queue), the chunks
// that follow all get a written buffer back, none a new one. With room for 16 buffers, the
// ones given back beyond 16 were dropped, and later chunks grew new ones.
func TestRowBufsKeepEveryBuffer(t *testing.T) {
	for _, workers := range []int{1, 2, 16} {
		g := &gamesSink{rowBufs: newRowBufs(workers), flushRows: func() error { return nil }}
		var held []func()
		g.queue = func(rows []byte, release func()) (bool, error) {
			held = append(held, release)
			return true, nil
		}
		// a run holds at most one buffer in each prepared buffer and one in each queued write
		burst := prepPerWorker*workers + 4*durable.MaxQueued + 1
		mine := map[*byte]bool{} // the buffers handed to the queue
		for i := 0; i < burst; i++ {
			p := &prepared{rows: make([]byte, 100, 128), ends: []int{100}}
			mine[unsafe.SliceData(p.rows)] = true
			if err := g.writeRows(p, 0, 1, true); err != nil {
				t.Fatal(err)
			}
		}
		for _, release := range held {
			release()
		}
		for i := 0; i < burst; i++ {
			p := &prepared{rows: make([]byte, 100, 128), ends: []int{100}}
			if err := g.writeRows(p, 0, 1, true); err != nil {
				t.Fatal(err)
			}
			if !mine[unsafe.SliceData(p.rows)] || len(p.rows) != 0 {
				t.Fatalf("workers %d: chunk %d after the burst of %d writes got a new rows buffer, not a written one", workers, i, burst)
			}
		}
	}
}
