package runner

import (
	"sync"
	"sync/atomic"
)

// handoff carries finished chunks from the workers to the collector. A channel send to a
// collector asleep on an idle core wakes it through the kernel (a futex: 2% of a one-worker run
// of random Katarenga games, one wake per chunk); a handoff wakes the collector only once
// wakeAt chunks are ready, when a worker is about to wait for a token (the collector holds
// them), and when the run ends.
type handoff[R any] struct {
	mu     sync.Mutex
	ready  []*chunk[R]
	wakeAt int
	wake   chan struct{} // capacity 1: a wake-up pending
	closed atomic.Bool
}

func newHandoff[R any](wakeAt int) *handoff[R] {
	return &handoff[R]{wakeAt: max(1, wakeAt), wake: make(chan struct{}, 1)}
}

// put hands over a finished chunk.
func (h *handoff[R]) put(c *chunk[R]) {
	h.mu.Lock()
	h.ready = append(h.ready, c)
	n := len(h.ready)
	h.mu.Unlock()
	if n >= h.wakeAt {
		h.signal()
	}
}

// signal wakes the collector if it waits.
func (h *handoff[R]) signal() {
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

// close says that no chunk will follow (every put happened before it).
func (h *handoff[R]) close() {
	h.closed.Store(true)
	h.signal()
}

// take returns the ready chunks in buf, waiting until there are some; nil once the handoff
// is closed and empty.
func (h *handoff[R]) take(buf []*chunk[R]) []*chunk[R] {
	for {
		closed := h.closed.Load() // before the look: a close after it leaves a wake-up
		h.mu.Lock()
		buf = append(buf[:0], h.ready...)
		clear(h.ready)
		h.ready = h.ready[:0]
		h.mu.Unlock()
		if len(buf) > 0 {
			return buf
		}
		if closed {
			return nil
		}
		<-h.wake
	}
}
