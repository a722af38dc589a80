package runner

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A freed slot goes to the waiting worker of the lowest rank, first come first served within a
// rank; a holder passes its slot to a lower rank only; a worker that gives up waiting leaves
// the queue, and one granted a slot as it gave up passes the slot on.
func TestSlotsOrder(t *testing.T) {
	ctx := context.Background()
	s := NewSlots(1)
	holder := newSlotWaiter(5)
	if !s.acquire(ctx, holder) {
		t.Fatal("a free slot was not taken")
	}
	got := make(chan string, 8)
	var wg sync.WaitGroup
	queue := func(name string, rank, n int) {
		w := newSlotWaiter(rank)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if s.acquire(ctx, w) {
				got <- name
			}
		}()
		waitQueued(t, s, n, name)
	}
	queue("3a", 3, 1)
	queue("1", 1, 2)
	queue("3b", 3, 3)
	if !s.pass(ctx, newSlotWaiter(1)) || len(got) != 0 {
		t.Fatal("a holder of rank 1 passed its slot to a higher rank")
	}
	for _, want := range []string{"1", "3a", "3b"} {
		s.release()
		if g := <-got; g != want {
			t.Fatalf("slot went to %s, want %s", g, want)
		}
	}
	wg.Wait()
	// The holder (rank 5) passes to a waiting rank 2, then waits for the slot again.
	queue("2", 2, 1)
	passed := make(chan bool)
	go func() { passed <- s.pass(ctx, holder) }()
	if g := <-got; g != "2" {
		t.Fatalf("pass gave the slot to %s", g)
	}
	s.release()
	if !<-passed {
		t.Fatal("the holder that passed got no slot back")
	}
	// Cancelled while waiting: out of the queue, the slot stays with the next one.
	cctx, cancel := context.WithCancel(ctx)
	gaveUp := make(chan bool)
	go func() { gaveUp <- s.acquire(cctx, newSlotWaiter(0)) }()
	waitQueued(t, s, 1, "cancelled")
	cancel()
	if <-gaveUp {
		t.Fatal("a cancelled wait took a slot")
	}
	s.release()
	if s.free != 1 || len(s.queue) != 0 {
		t.Fatalf("free %d, %d queued after every slot came back", s.free, len(s.queue))
	}
	// Granted as it gives up (the wait sees both the grant and the end of its context, in
	// either order): the slot is held, or passed back; never lost or doubled.
	done, stop := context.WithCancel(ctx)
	stop()
	for range 20 {
		w := newSlotWaiter(0)
		if !s.acquire(ctx, w) {
			t.Fatal("no slot")
		}
		late := newSlotWaiter(0)
		s.mu.Lock()
		s.enqueue(late)
		s.mu.Unlock()
		s.release() // w's slot goes to late
		if s.wait(done, late) {
			s.release()
		}
		if s.free != 1 || len(s.queue) != 0 || len(late.grant) != 0 {
			t.Fatalf("free %d, %d queued, %d grants left: a slot was lost or doubled", s.free, len(s.queue), len(late.grant))
		}
	}
}

// waitQueued waits until s's queue holds n waiters.
func waitQueued(t *testing.T, s *Slots, n int, name string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		s.mu.Lock()
		m := len(s.queue)
		s.mu.Unlock()
		if m == n {
			return
		}
	}
	t.Fatalf("%s never queued", name)
}

// sharedPlayer plays items that are their own index, each for a moment, counting the items
// played at once across every run it plays for.
type sharedPlayer struct {
	now, most *atomic.Int64
	first     *atomic.Int64 // when set, the time (ns since start) of the first item played
	start     time.Time
}

func (sharedPlayer) NewWorker() int   { return 0 }
func (sharedPlayer) ChunkWorker() int { return 0 }
func (p sharedPlayer) Play(_ int, i int64, _ func() bool) (int64, bool) {
	n := p.now.Add(1)
	for m := p.most.Load(); n > m && !p.most.CompareAndSwap(m, n); m = p.most.Load() {
	}
	if p.first != nil {
		p.first.CompareAndSwap(0, int64(time.Since(p.start)))
	}
	time.Sleep(time.Millisecond)
	p.now.Add(-1)
	return i, true
}
func (sharedPlayer) EndChunk(int, []int64, *Arena) {}

// Two runs of three workers each, sharing two slots: at most two items are played at once,
// every item of each run arrives once and in order, and the run of lower rank goes first: the
// later run plays nothing until the first has claimed its last chunk, unless a worker waited
// for its collector meanwhile (it then gives its slot back, which a later run may take).
func TestSharedSlotsBoundAndOrder(t *testing.T) {
	slots := NewSlots(2)
	var now, most atomic.Int64
	start := time.Now()
	var claimedAt atomic.Int64
	var firstOfSecond atomic.Int64
	var firstWait atomic.Int64 // when a worker first waited for its collector (0: never)
	defer func() { tokenWait = nil }()
	tokenWait = func() { firstWait.CompareAndSwap(0, max(1, int64(time.Since(start)))) }
	type result struct {
		got []int64
		err error
	}
	run := func(rank int, first *atomic.Int64, claimed func(), started chan<- struct{}) result {
		var r result
		gp := sharedPlayer{now: &now, most: &most, first: first, start: start}
		plan := PlanOf[int64]{Start: 0, End: 40, chunk: 2, share: share{slots: slots, rank: rank, allClaimed: claimed}}
		_, r.err = runBatched(context.Background(), gp, plan, 3, nil, perItem(func(x *int64) error {
			if len(r.got) == 0 && started != nil {
				close(started)
			}
			r.got = append(r.got, *x)
			return nil
		}), func(x *int64) int64 { return *x })
		return r
	}
	var claims atomic.Int32
	started := make(chan struct{})
	results := make([]result, 2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		results[0] = run(0, nil, func() { claims.Add(1); claimedAt.Store(int64(time.Since(start))) }, started)
	}()
	<-started
	go func() {
		defer wg.Done()
		results[1] = run(1, &firstOfSecond, func() { claims.Add(1) }, nil)
	}()
	wg.Wait()
	if m := most.Load(); m > 2 || m < 1 {
		t.Errorf("%d items played at once, want at most the 2 slots", m)
	}
	for k, r := range results {
		if r.err != nil {
			t.Fatal(r.err)
		}
		if len(r.got) != 40 {
			t.Fatalf("run %d: %d items, want 40", k, len(r.got))
		}
		for i, v := range r.got {
			if int64(i) != v {
				t.Fatalf("run %d: item %d is %d", k, i, v)
			}
		}
	}
	if c := claims.Load(); c != 2 {
		t.Errorf("allClaimed called %d times over two runs, want 2", c)
	}
	if w := firstWait.Load(); w != 0 && w < claimedAt.Load() {
		t.Logf("a worker waited for its collector at %v, before the first run claimed its last chunk: the order is not checked", time.Duration(w))
	} else if firstOfSecond.Load() < claimedAt.Load() {
		t.Errorf("the second run played at %v, before the first claimed its last chunk at %v",
			time.Duration(firstOfSecond.Load()), time.Duration(claimedAt.Load()))
	}
}

// countingPlayer is a sharedPlayer that counts the workers made.
type countingPlayer struct {
	sharedPlayer
	made *atomic.Int64
}

func (p countingPlayer) ChunkWorker() int { p.made.Add(1); return 0 }

// A worker that finds every chunk claimed makes no worker and takes no slot: of three workers
// sharing one slot, for one chunk, one worker is made. (Each of the others waited its turn for
// the slot, made a worker and only then found nothing left to play, taking the slot from a later
// run's worker between its chunks.)
func TestSlotsNoWorkerAfterLastChunk(t *testing.T) {
	var now, most, made atomic.Int64
	gp := countingPlayer{sharedPlayer{now: &now, most: &most, start: time.Now()}, &made}
	plan := PlanOf[int64]{Start: 0, End: 2, chunk: 2, share: share{slots: NewSlots(1)}}
	var got []int64
	if _, err := runBatched(context.Background(), gp, plan, 3, nil, perItem(func(x *int64) error {
		got = append(got, *x)
		return nil
	}), func(x *int64) int64 { return *x }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || made.Load() != 1 {
		t.Errorf("%d items, %d workers made: want 2 items by 1 worker", len(got), made.Load())
	}
}

// A worker that must wait for its collector (every token held) gives its slot back first, so
// that another run can play meanwhile: while the one worker of a run sharing one slot waits
// behind its held-up collector, the slot can be taken (before, it stayed with the idle worker
// until the collector moved). The run still delivers every item in order.
func TestSlotReleasedWhileWaitingForTokens(t *testing.T) {
	slots := NewSlots(1)
	defer func() { tokenWait = nil }()
	taken := make(chan bool, 1)
	var once sync.Once
	tokenWait = func() {
		once.Do(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			ok := slots.acquire(ctx, newSlotWaiter(0))
			if ok {
				slots.release()
			}
			taken <- ok
		})
	}
	var now, most atomic.Int64
	gp := sharedPlayer{now: &now, most: &most, start: time.Now()}
	plan := PlanOf[int64]{Start: 0, End: 40, chunk: 2, share: share{slots: slots}}
	release := make(chan struct{})
	go func() {
		select {
		case ok := <-taken:
			if !ok {
				t.Error("the slot stayed with a worker waiting for its collector")
			}
		case <-time.After(10 * time.Second):
			t.Error("the worker never waited for a token")
		}
		close(release)
	}()
	var got []int64
	if _, err := runBatched(context.Background(), gp, plan, 1, nil, perItem(func(x *int64) error {
		if len(got) == 0 {
			<-release
		}
		got = append(got, *x)
		return nil
	}), func(x *int64) int64 { return *x }); err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		if int64(i) != v {
			t.Fatalf("item %d is %d", i, v)
		}
	}
	if len(got) != 40 {
		t.Errorf("%d items, want 40", len(got))
	}
	slots.mu.Lock()
	defer slots.mu.Unlock()
	if slots.free != 1 || len(slots.queue) != 0 {
		t.Errorf("after the run: %d free slots, %d waiting; want 1 and 0", slots.free, len(slots.queue))
	}
}
