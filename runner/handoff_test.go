package runner

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"
)

// Every chunk put by concurrent workers is taken exactly once, whatever wakeAt, including
// those put just before close; take returns nil only after close, once empty.
func TestHandoff(t *testing.T) {
	for _, wakeAt := range []int{1, 3, 4, 1000} {
		for _, workers := range []int{1, 2, 5} {
			h := newHandoff[int](wakeAt)
			const per = 2000
			var wg sync.WaitGroup
			for w := 0; w < workers; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; i < per; i++ {
						h.put(&chunk[int]{seq: w*per + i})
						if i%97 == 0 {
							h.signal() // as a worker about to wait for a token
						}
					}
				}()
			}
			go func() { wg.Wait(); h.close() }()
			seen := make([]int, workers*per)
			var buf []*chunk[int]
			for {
				if buf = h.take(buf); buf == nil {
					break
				}
				if len(buf) == 0 {
					t.Fatal("take returned an empty batch")
				}
				for _, c := range buf {
					seen[c.seq]++
				}
			}
			for i, n := range seen {
				if n != 1 {
					t.Fatalf("wakeAt %d, %d workers: chunk %d taken %d times", wakeAt, workers, i, n)
				}
			}
			if h.take(nil) != nil {
				t.Errorf("wakeAt %d: take after the end returned chunks", wakeAt)
			}
		}
	}
}

// slowFirstPlayer plays items that are their own index; item 0 takes a while, so the other
// workers finish chunks beyond it until every token is held.
type slowFirstPlayer struct{}

func (slowFirstPlayer) NewWorker() int   { return 0 }
func (slowFirstPlayer) ChunkWorker() int { return 0 }
func (slowFirstPlayer) Play(_ int, i int64, _ func() bool) (int64, bool) {
	if i == 0 {
		time.Sleep(100 * time.Millisecond)
	}
	return i, true
}
func (slowFirstPlayer) EndChunk(int, []int64, *Arena) {}

// With chunks above defaultChunkCap and a core to spare (a wake-up every fourth chunk), a run whose first chunk is
// slow fills every token with later chunks: the workers must wake the collector before they
// wait for a token, or the run never ends. Every item arrives once, in order.
func TestHandoffTokensExhausted(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8)) // fewer workers than GOMAXPROCS: lazy wake-ups
	for _, workers := range []int{2, 3} {
		const size, nChunks = defaultChunkCap + 1, 60
		var got []int64
		done := make(chan error, 1)
		go func() {
			_, err := RunItems[int, int64](context.Background(), slowFirstPlayer{}, PlanOf[int64]{Start: 0, End: size * nChunks, chunk: size},
				workers, nil, func(r *int64) error { got = append(got, *r); return nil }, func(r *int64) int64 { return *r })
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%d workers: the run did not end (the collector slept while the workers waited for tokens)", workers)
		}
		if len(got) != size*nChunks {
			t.Fatalf("%d workers: %d items, want %d", workers, len(got), size*nChunks)
		}
		for i, v := range got {
			if int64(i) != v {
				t.Fatalf("%d workers: item %d is %d", workers, i, v)
			}
		}
	}
}
