package runner

import (
	"container/heap"
	"context"
	"sync"
)

// Slots are play slots shared by runs that play at the same time (a tournament's pairings,
// each a RunMatch given Session.Slots): a worker of such a run holds a slot while it plays a
// chunk, so that the runs together play at most n chunks at once, whatever their own worker
// counts. A freed slot goes to the waiting worker of the lowest rank (Session.Rank; first come,
// first served within a rank), and a worker hands its slot over between chunks when a worker of
// a lower rank waits: the runs of lower ranks go first, later ones take the slots they leave
// idle, also the slot of a worker that waits for its own run's collector (it gives the slot
// back while it waits). Slots only decide when a chunk is played, never what it holds: a game stays a function
// of (configuration, seed, index).
type Slots struct {
	mu    sync.Mutex
	free  int
	queue waitQueue
	seq   uint64
}

// NewSlots returns n slots (at least one).
func NewSlots(n int) *Slots { return &Slots{free: max(n, 1)} }

// slotWaiter is one worker's place in the queue, reused from chunk to chunk (no allocation per
// wait).
type slotWaiter struct {
	rank  int
	seq   uint64 // arrival order within a rank
	at    int    // index in the queue; -1 when not queued
	grant chan struct{}
}

func newSlotWaiter(rank int) *slotWaiter {
	return &slotWaiter{rank: rank, at: -1, grant: make(chan struct{}, 1)}
}

// acquire waits for a slot for w; false when ctx ended first (w then holds none).
func (s *Slots) acquire(ctx context.Context, w *slotWaiter) bool {
	s.mu.Lock()
	if s.free > 0 {
		s.free--
		s.mu.Unlock()
		return true
	}
	s.enqueue(w)
	s.mu.Unlock()
	return s.wait(ctx, w)
}

// pass is called between chunks by w, which holds a slot: when a worker of a lower rank waits,
// the slot goes to it and w waits for another. It returns whether w holds a slot (false: ctx
// ended while it waited).
func (s *Slots) pass(ctx context.Context, w *slotWaiter) bool {
	s.mu.Lock()
	if len(s.queue) == 0 || s.queue[0].rank >= w.rank {
		s.mu.Unlock()
		return true
	}
	s.grantNext()
	s.enqueue(w)
	s.mu.Unlock()
	return s.wait(ctx, w)
}

// release gives back a slot: to the first waiting worker, or to the free slots.
func (s *Slots) release() {
	s.mu.Lock()
	if len(s.queue) > 0 {
		s.grantNext()
	} else {
		s.free++
	}
	s.mu.Unlock()
}

// enqueue queues w; s.mu is held.
func (s *Slots) enqueue(w *slotWaiter) {
	s.seq++
	w.seq = s.seq
	heap.Push(&s.queue, w)
}

// grantNext hands a slot to the first waiting worker; s.mu is held and the queue not empty.
func (s *Slots) grantNext() {
	w := heap.Pop(&s.queue).(*slotWaiter)
	w.grant <- struct{}{} // buffered: w takes it whenever it looks
}

// wait waits for w's grant. When ctx ends first, w leaves the queue, or, granted meanwhile,
// passes the slot on.
func (s *Slots) wait(ctx context.Context, w *slotWaiter) bool {
	select {
	case <-w.grant:
		return true
	case <-ctx.Done():
	}
	s.mu.Lock()
	if w.at >= 0 {
		heap.Remove(&s.queue, w.at)
		s.mu.Unlock()
		return false
	}
	s.mu.Unlock()
	<-w.grant // granted after all: the slot is w's to give back
	s.release()
	return false
}

// waitQueue is a heap of waiting workers, lowest (rank, seq) first.
type waitQueue []*slotWaiter

func (q waitQueue) Len() int { return len(q) }
func (q waitQueue) Less(i, j int) bool {
	if q[i].rank != q[j].rank {
		return q[i].rank < q[j].rank
	}
	return q[i].seq < q[j].seq
}
func (q waitQueue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].at, q[j].at = i, j
}
func (q *waitQueue) Push(x any) {
	w := x.(*slotWaiter)
	w.at = len(*q)
	*q = append(*q, w)
}
func (q *waitQueue) Pop() any {
	old := *q
	w := old[len(old)-1]
	old[len(old)-1] = nil
	w.at = -1
	*q = old[:len(old)-1]
	return w
}
