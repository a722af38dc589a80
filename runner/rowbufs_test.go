package runner

import (
	"hash/crc32"
	"testing"
	"unsafe"

	"github.com/fairplay-lab/fairplay/gamefile"
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
		g.queue = func(rows []byte, _ uint32, release func()) (bool, error) {
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

// A queued write's CRC-32C is that of the rows it queues: the worker's, made by prepareGames,
// for a whole chunk, and one of the rows written for a chunk a stop rule cut (its first rows
// only).
func TestQueuedRowsCRC(t *testing.T) {
	recs := make([]gamefile.Record, 3)
	for k := range recs {
		recs[k] = gamefile.Record{Game: int64(k), Pair: int64(k / 2), GameName: "g", Winner: "draw", Moves: "a1 b2"}
	}
	for _, hi := range []int{3, 2} {
		var got uint32
		var gotRows []byte
		g := &gamesSink{rowBufs: newRowBufs(1), flushRows: func() error { return nil }}
		g.queue = func(rows []byte, crc uint32, release func()) (bool, error) {
			got, gotRows = crc, append([]byte(nil), rows...)
			release()
			return true, nil
		}
		p := &prepared{}
		prepareGames(0, 3, true, true, false, false, nil)(recs, p)
		if err := g.writeRows(p, 0, hi, true); err != nil {
			t.Fatal(err)
		}
		if want := crc32.Checksum(gotRows, gamefile.Castagnoli); got != want || len(gotRows) == 0 {
			t.Errorf("%d of 3 rows queued: CRC-32C %08x, want %08x", hi, got, want)
		}
	}
}
