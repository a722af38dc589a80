package layouts

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/fairplay-lab/fairplay/runner"
)

// lender lends a run's idle workers to the boards still playing, so that the workers of a
// sweep whose last boards play long (an adaptive sweep's or a race's undecided boards, or a
// fixed sweep of fewer boards than workers) do not sit idle: such a board plays each step's
// games on its own worker and on the idle ones it borrowed (a worker freed during a step waits
// for a board's next step).
//
// A worker counts as idle only once every board of the run has begun (none is left for it to
// take) and it plays no board and helps none, so a run never has more goroutines playing than
// workers: a time budget's games get the cores they would have had. Game j of a board is the
// same game whichever goroutine plays it, and a board's tallies are sums, so the results do not
// depend on the lending (TestLendingPlaysTheSameGames).
type lender struct {
	workers int64
	toStart atomic.Int64 // boards of the run that have not begun
	playing atomic.Int64 // boards being played
	helping atomic.Int64 // workers lent to a board
	// lent counts the steps played with borrowed workers and peak is the most goroutines that
	// played at once, over the lender's life (tests read them).
	lent, peak atomic.Int64
	// played counts the run's games as its boards play them (the progress display).
	played atomic.Int64

	mu   sync.Mutex
	free []*runner.Worker // helpers' buffers, reused from step to step
}

// reset prepares the lender for a run (or a race's round) of boards on workers goroutines (0:
// GOMAXPROCS).
func (l *lender) reset(workers int, boards int64) {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	l.workers = int64(workers)
	l.toStart.Store(boards)
	l.playing.Store(0)
	l.helping.Store(0)
	l.played.Store(0)
}

// close ends a run: outside one, nothing is lent (a board played on its own, Sweep.Play called
// directly, keeps to its goroutine).
func (l *lender) close() {
	l.workers = 0
	l.toStart.Store(0)
}

// begin and end bracket the play of one board.
func (l *lender) begin() {
	l.playing.Add(1)
	l.toStart.Add(-1)
	l.busy()
}

// busy records the goroutines playing now in peak.
func (l *lender) busy() {
	n := l.playing.Load() + l.helping.Load()
	for p := l.peak.Load(); n > p && !l.peak.CompareAndSwap(p, n); p = l.peak.Load() {
	}
}

func (l *lender) end() { l.playing.Add(-1) }

// take borrows up to most idle workers and returns how many it got (0 while a board is still
// to begin: its worker is not idle). playing only falls once every board has begun, so a stale
// read of it borrows fewer, never more.
func (l *lender) take(most int64) int64 {
	if most <= 0 || l.toStart.Load() > 0 {
		return 0
	}
	for {
		h := l.helping.Load()
		n := min(l.workers-l.playing.Load()-h, most)
		if n <= 0 {
			return 0
		}
		if l.helping.CompareAndSwap(h, h+n) {
			l.lent.Add(1)
			l.busy()
			return n
		}
	}
}

// give returns n borrowed workers.
func (l *lender) give(n int64) { l.helping.Add(-n) }

// worker returns a helper's buffers for match m.
func (l *lender) worker(m *runner.Match) *runner.Worker {
	l.mu.Lock()
	var w *runner.Worker
	if k := len(l.free); k > 0 {
		w, l.free = l.free[k-1], l.free[:k-1]
	}
	l.mu.Unlock()
	return m.NewWorkerFrom(w)
}

func (l *lender) put(w *runner.Worker) {
	l.mu.Lock()
	l.free = append(l.free, w)
	l.mu.Unlock()
}
