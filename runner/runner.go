package runner

import (
	"context"
	"io"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/fairplay-lab/fairplay/gamefile"
)

// Bitset marks game indices relative to a start index.
type Bitset []uint64

// NewBitset holds n bits.
func NewBitset(n int64) Bitset { return make(Bitset, (n+63)/64) }

// Set marks bit i.
func (b Bitset) Set(i int64) { b[i>>6] |= 1 << (i & 63) }

// Has reports bit i.
func (b Bitset) Has(i int64) bool { return b[i>>6]&(1<<(i&63)) != 0 }

// Source yields finished items in increasing index order, io.EOF at the end.
type Source[R any] interface {
	Read() (*R, error)
}

// RecordSource yields game records in increasing game order.
type RecordSource = Source[gamefile.Record]

// PlanOf says which work items a run must do: every index in [Start, End) not marked in Done
// (Done may be nil), and the already finished items (Old, in order) to merge into the output.
type PlanOf[R any] struct {
	Start, End int64
	Done       Bitset
	Old        Source[R]
	// Chunk caps the items handed to a worker at once (0: automatic). Small chunks waste less
	// work when a sequential test stops the run early.
	Chunk int64
	// chunk, when positive, is the chunk size whatever the plan's size (tests).
	chunk int64
	// share is how the run shares its workers' play with other runs (zero: it does not).
	share share
}

// share ties a run to other runs that play at the same time (Session.Slots, Rank, AllClaimed).
type share struct {
	slots *Slots // when set, a worker holds one of them while it plays a chunk
	rank  int
	// allClaimed, when set, is called once, when the run's last chunk has been claimed (or
	// when there was none): its workers then start no other item.
	allClaimed func()
}

// Plan is the plan of a match: its items are games.
type Plan = PlanOf[gamefile.Record]

// ItemPlayer does work item i; ok is false when stop said so before the item was finished.
// run's workers come from ChunkWorker, and after each chunk EndChunk completes the chunk's
// finished items (a Match fills in their moves and counters from per-chunk buffers: copies, or
// with a non-nil arena views of the arena's buffers, which are reused once the chunk is
// written).
type ItemPlayer[W, R any] interface {
	NewWorker() W
	ChunkWorker() W
	Play(w W, i int64, stop func() bool) (R, bool)
	EndChunk(w W, recs []R, a *Arena)
}

// Releaser is implemented by ItemPlayers that keep resources between items, such as the idle
// processes of persistent external bots (agents.Releaser): a run calls Release once its
// workers have stopped.
type Releaser interface{ Release() }

// reclaimer is an ItemPlayer whose worker can take back the buffers of its last chunk's arena
// (see batchSink.prepare): the chunk's items then no longer point into them.
type reclaimer[W, R any] interface {
	Reclaim(w W, recs []R, a *Arena)
}

// defaultChunkCap caps the items of a chunk: 64 keeps the last chunks of a run of slow items
// (searching agents) short.
const defaultChunkCap = 64

// intoPlayer is an ItemPlayer that can write an item straight into its chunk's slot (a
// Match's PlayInto): no copy of the record from the player's stack to the chunk.
type intoPlayer[W, R any] interface {
	PlayInto(w W, i int64, stop func() bool, dst *R) bool
}

// chunkCapper is an ItemPlayer whose items are cheap enough for a larger cap than
// defaultChunkCap: every chunk costs a hand-off to the collector (a wake-up: ~10–20 µs measured
// on this machine, 4% of the time of a chunk of 64 random Katarenga games; chunks above the
// default cap wake it every fourth chunk, see handoff).
type chunkCapper interface{ chunkCap() int64 }

type chunk[R any] struct {
	seq   int
	recs  []R
	prep  *prepared // what the worker prepared for the collector (nil without sink.prepare)
	arena *Arena    // the buffers recs point into, when sink.recycle (nil otherwise)
}

// Run plays the plan's games on workers goroutines and hands every finished game, the old ones
// merged in, to sink in increasing game order. On cancellation of ctx it stops dispatching,
// abandons games in progress, and still delivers every finished game. done counts finished new
// games as they finish (for progress displays). It returns whether the run was interrupted.
func Run(ctx context.Context, m *Match, plan Plan, workers int, done *atomic.Int64, sink func(*gamefile.Record) error) (interrupted bool, err error) {
	return RunItems(ctx, m, plan, workers, done, sink, func(r *gamefile.Record) int64 { return r.Game })
}

// run is Run for any kind of work item; index tells an item's index.
func RunItems[W, R any](ctx context.Context, gp ItemPlayer[W, R], plan PlanOf[R], workers int, done *atomic.Int64, sink func(*R) error, index func(*R) int64) (bool, error) {
	return runBatched(ctx, gp, plan, workers, done, perItem(sink), index)
}

// tokenWait, when set (by a test), is called by a worker that finds every token held, before it
// waits for one: the point at which a test knows the worker can take no further chunk.
var tokenWait func()

// runBatched is run with a sink that takes a chunk's items at once, with what the worker
// prepared for them (see batchSink).
func runBatched[W, R any](ctx context.Context, gp ItemPlayer[W, R], plan PlanOf[R], workers int, done *atomic.Int64, sink batchSink[R], index func(*R) int64) (bool, error) {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	todo := plan.End - plan.Start
	size := todo / int64(workers*64)
	size = max(1, min(size, defaultChunkCap))
	if c, ok := any(gp).(chunkCapper); ok {
		cap := c.chunkCap()
		size = max(1, min(todo/int64(workers*64), cap))
		if cap > defaultChunkCap && sink.block > 0 {
			// The blocks of the games file, whatever the run's size: a block of cheap items
			// takes milliseconds, so a run of few blocks still ends within one of them.
			size = sink.block
		}
	}
	if plan.Chunk > 0 {
		size = min(size, plan.Chunk)
	}
	if plan.chunk > 0 {
		size = plan.chunk
	}
	capTokens := 0
	if sink.blockTokens > 0 && size == sink.block {
		capTokens = sink.blockTokens
	}
	// base is where chunk 0 starts: Start, or with a sink's blocks the start of Start's block
	// (chunk 0 then holds the indices of that block from Start on).
	base := plan.Start
	if sink.block > 0 {
		base -= plan.Start % size
	}
	// Workers claim chunks themselves: chunk k holds the indices in [base+k·size,
	// base+(k+1)·size) ∩ [Start, End) not marked done (possibly none, on a resume), so chunks
	// come in index order by k. A worker takes a token before it claims a chunk and always
	// returns what it claimed, so the collector sees every k up to the last claimed; the tokens bound the
	// chunks in flight or waiting to be written. No dispatcher goroutine stands between a
	// worker and its next chunk, and out never blocks a worker (it holds every token's chunk).
	// Chunks of cheap items (random games: above defaultChunkCap) wake the collector every
	// few chunks instead of every chunk (handoff), with twice the tokens so that the workers
	// keep playing while it catches up, when a core is left for the collector (fewer workers
	// than GOMAXPROCS): waking it there costs a futex call per chunk, 2% of a one-worker
	// run. With every core playing, waking it late cost two-worker runs 4.8% (10 pairs of
	// alternating runs), so it is woken at every chunk. Slower items always wake it at once, so
	// that their games reach the file (and a checkpoint) as soon as they are done.
	// A sink whose chunks hold megabytes (Parquet row groups encoded by the workers) caps the
	// tokens per worker: each worker then plays one chunk while its last one waits for the
	// collector (which only copies it), and the memory of a run grows with the workers by a
	// few chunks each, not by eight.
	wakeAt, perWorker := 1, 4
	if size > defaultChunkCap && workers < runtime.GOMAXPROCS(0) {
		wakeAt, perWorker = 4, 8
	}
	if capTokens > 0 && capTokens < perWorker {
		wakeAt, perWorker = 1, capTokens
	}
	out := newHandoff[R](wakeAt)
	tokens := make(chan struct{}, perWorker*workers)
	stopped := func() bool { return ctx.Err() != nil }
	pool := newPrepPool(workers)
	var chunks chunkPool[R]
	if sink.recycle {
		chunks = make(chunkPool[R], 8*workers)
	}
	var claimed atomic.Int64
	nChunks := (plan.End - base + size - 1) / size
	reclaim, _ := any(gp).(reclaimer[W, R])
	into, _ := any(gp).(intoPlayer[W, R])
	var allClaimed sync.Once
	slots := plan.share.slots

	var wg sync.WaitGroup
	for k := 0; k < workers; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The worker is made once it has a chunk to play (with shared slots, while it holds
			// one): the runs waiting for slots hold no workers' buffers, and a worker that finds
			// every chunk claimed makes none.
			var w W
			made := false
			var sw *slotWaiter
			holding := false
			if slots != nil {
				sw = newSlotWaiter(plan.share.rank)
				defer func() {
					if holding {
						slots.release()
					}
				}()
			}
			for ctx.Err() == nil {
				select {
				case tokens <- struct{}{}:
				default: // the collector holds every token: wake it, then wait
					out.signal()
					if holding {
						// A shared slot would idle while this worker waits for its collector:
						// it goes back, to a worker of another run or to the free slots, and
						// is asked for again below once a token comes.
						slots.release()
						holding = false
					}
					if tokenWait != nil {
						tokenWait()
					}
					select {
					case tokens <- struct{}{}:
					case <-ctx.Done():
						return
					}
				}
				if slots != nil {
					if claimed.Load() >= nChunks {
						// Nothing left to play: leave (a held slot goes back) without waiting
						// for a slot, or taking one from another run's worker.
						if plan.share.allClaimed != nil {
							allClaimed.Do(plan.share.allClaimed) // none to claim at all
						}
						<-tokens
						return
					}
					if holding {
						holding = slots.pass(ctx, sw)
					} else {
						holding = slots.acquire(ctx, sw)
					}
					if !holding {
						<-tokens
						return
					}
				}
				// A claimed chunk is always returned (empty when the run was stopped meanwhile:
				// play then abandons its first game), so that no later chunk's games wait for it.
				seq := claimed.Add(1) - 1
				if seq >= nChunks-1 && plan.share.allClaimed != nil {
					allClaimed.Do(plan.share.allClaimed)
				}
				if seq >= nChunks {
					<-tokens
					return
				}
				if !made { // once there is a chunk to play
					w, made = gp.ChunkWorker(), true
				}
				c := chunks.get(size)
				c.seq = int(seq)
				lo := base + seq*size
				for i := max(lo, plan.Start); i < min(lo+size, plan.End); i++ {
					if plan.Done != nil && plan.Done.Has(i-plan.Start) {
						continue
					}
					if into != nil {
						n := len(c.recs)
						if n < cap(c.recs) {
							c.recs = c.recs[:n+1] // a recycled slot: PlayInto overwrites it whole
						} else {
							c.recs = append(c.recs, *new(R))
						}
						if !into.PlayInto(w, i, stopped, &c.recs[n]) {
							c.recs = c.recs[:n]
							break
						}
						continue
					}
					rec, ok := gp.Play(w, i, stopped)
					if !ok {
						break
					}
					c.recs = append(c.recs, rec)
				}
				gp.EndChunk(w, c.recs, c.arena)
				if sink.prepare != nil {
					c.prep = pool.get()
					if spent := sink.prepare(c.recs, c.prep); spent && c.arena != nil && reclaim != nil {
						reclaim.Reclaim(w, c.recs, c.arena)
					}
				}
				if done != nil {
					done.Add(int64(len(c.recs)))
				}
				out.put(c)
				if sink.help != nil {
					sink.help()
				}
			}
		}()
	}
	go func() { wg.Wait(); out.close() }()

	// Collector: emit chunks in claim order, merging the old records in.
	var oldNext *R
	oldErr := error(nil)
	readOld := func() {
		if plan.Old == nil || oldErr != nil {
			oldNext = nil
			return
		}
		r, err := plan.Old.Read()
		if err != nil {
			if err != io.EOF {
				oldErr = err
			}
			oldNext = nil
			return
		}
		oldNext = r
	}
	readOld()
	var sinkErr error
	flushOld := func(before int64) {
		for oldNext != nil && index(oldNext) < before {
			if sinkErr == nil {
				sinkErr = sink.old(oldNext)
			}
			readOld()
		}
	}
	pending := map[int]*chunk[R]{}
	next := 0
	var batch []*chunk[R]
	for {
		if batch = out.take(batch); batch == nil {
			break
		}
		for _, c := range batch {
			pending[c.seq] = c
		}
		for {
			c, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			// Hand the chunk over in runs of consecutive new items, old items merged in between.
			for lo := 0; lo < len(c.recs); {
				flushOld(index(&c.recs[lo]))
				hi := lo + 1
				for hi < len(c.recs) && (oldNext == nil || index(&c.recs[hi]) < index(oldNext)) {
					hi++
				}
				if sinkErr == nil {
					sinkErr = sink.items(c.recs, c.prep, lo, hi)
				}
				lo = hi
			}
			pool.put(c.prep)
			c.prep = nil
			chunks.put(c)
			<-tokens
		}
	}
	flushOld(math.MaxInt64)
	if r, ok := any(gp).(Releaser); ok {
		r.Release() // every worker has stopped: no item is in progress
	}
	if oldErr != nil {
		return stopped(), oldErr
	}
	return stopped(), sinkErr
}
