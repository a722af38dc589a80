package experiments

import (
	"sync"
	"testing"
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
