package runner

import (
	"slices"
	"unsafe"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/gamefile"
)

// Worker holds one goroutine's reusable game states and buffers (NewWorker).
type Worker struct {
	states   []kit // states[c]: the start state with first colour c
	openings []kit // this worker's copies of the match's openings
	buf      []engine.Action
	cnt      []int64
	moves    []byte // the game's actions in notation, reused between games
	mstart   int    // where the current game's actions start in moves
	rng      [3]engine.Rand
	rg       engine.RecordedGame // a whole random-vs-random game played by the engine
	// batch: the worker plays chunks for run. Games then append their actions to moves and
	// their counters to cnts, and EndChunk gives a whole chunk's records their Moves and
	// Counters from one string and one slice: no allocation per game.
	batch bool
	spans []span // moves and counters of the chunk's games, in order
	cnts  []int64
}

type span struct{ m0, m1, c0, c1 int }

// NewWorker returns a worker for m's games, for one goroutine.
func (m *Match) NewWorker() *Worker { return m.NewWorkerFrom(nil) }

// NewWorkerFrom is NewWorker keeping the buffers of old, a worker of another match that is not
// used again (nil: none): a sweep that plays one match per board reuses one worker's buffers
// (the legal-action list alone is 32 kB) from board to board instead of allocating them anew.
func (m *Match) NewWorkerFrom(old *Worker) *Worker {
	w := &Worker{}
	if old != nil {
		w = old
		*w = Worker{buf: old.buf[:0], cnt: old.cnt[:0], moves: old.moves[:0], states: old.states[:0], openings: old.openings[:0]}
	}
	if w.buf == nil {
		w.buf = make([]engine.Action, 0, engine.MaxActions)
	}
	for _, c := range m.game.FirstColours() {
		if int(c) >= len(w.states) {
			w.states = append(w.states, make([]kit, int(c)+1-len(w.states))...)
		}
		w.states[c] = m.kitOf(m.game.Start(c))
	}
	for _, o := range m.openings {
		w.openings = append(w.openings, m.kitOf(o.Clone()))
	}
	return w
}

// ChunkWorker returns a worker for a run that takes its games in chunks (an ItemPlayer's): Play
// then leaves each game's moves and counters in the worker's chunk buffers, and EndChunk gives
// the whole chunk's records them at once (no allocation per game).
func (m *Match) ChunkWorker() *Worker {
	w := m.NewWorker()
	w.batch = true
	return w
}

// chunkCap lets runs of random vs random games (at most ~100 µs each) hand their games to the
// collector 256 at a time instead of 64: fewer hand-offs (chunkCapper). Chunks group games
// only; no game depends on them.
func (m *Match) chunkCap() int64 {
	if m.randomBoth {
		return 4 * defaultChunkCap
	}
	return defaultChunkCap
}

// EndChunk hands the chunk's records (those play returned ok, in order) their moves and
// counters, and empties the worker's chunk buffers. Without an arena the records get copies;
// with one they point into it: the worker's buffers move into the arena and the arena's old
// buffers (of a chunk already written) become the worker's.
func (m *Match) EndChunk(w *Worker, recs []gamefile.Record, a *Arena) {
	if len(recs) != len(w.spans) {
		panic("runner: EndChunk: records and spans differ")
	}
	var moves string
	var cnts []int64
	if a != nil {
		a.moves, w.moves = w.moves, a.moves[:0]
		a.cnts, w.cnts = w.cnts, a.cnts[:0]
		moves, cnts = unsafe.String(unsafe.SliceData(a.moves), len(a.moves)), a.cnts
	} else {
		moves = string(w.moves)
		if len(w.cnts) > 0 {
			cnts = slices.Clone(w.cnts)
		}
		w.moves, w.cnts = w.moves[:0], w.cnts[:0]
	}
	for k, sp := range w.spans {
		recs[k].Moves = moves[sp.m0:sp.m1]
		if sp.c1 > sp.c0 {
			recs[k].Counters = cnts[sp.c0:sp.c1:sp.c1]
		}
	}
	w.spans = w.spans[:0]
}

// Reclaim gives w back the moves buffer that EndChunk moved into a, once the chunk's records
// need no more than their numbers (reclaimer): the records' moves are emptied, the worker's
// next chunk reuses the buffer, and a keeps the buffer EndChunk gave w (none, for a new
// arena). The counters stay in a (the summary adds them).
func (m *Match) Reclaim(w *Worker, recs []gamefile.Record, a *Arena) {
	for k := range recs {
		recs[k].Moves = ""
	}
	a.moves, w.moves = w.moves[:0], a.moves[:0]
}
