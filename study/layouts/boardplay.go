package layouts

import (
	"sync"
	"sync/atomic"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/runner"
	"github.com/fairplay-lab/fairplay/tally"
)

// sweepWorker is what one goroutine of a sweep reuses from board to board: the match worker's
// buffers and the distinct-games set, so that a game allocates nothing of the sweep's own (a
// random game nothing at all: TestSweepGamesAllocateNothing; a searching agent's player
// allocates in the agent).
type sweepWorker struct {
	w    *runner.Worker
	seen tally.DistinctMoves
}

func (sw *Sweep) NewWorker() *sweepWorker { return &sweepWorker{} }

func (sw *Sweep) ChunkWorker() *sweepWorker { return &sweepWorker{} }

func (sw *Sweep) EndChunk(*sweepWorker, []gamefile.BoardResult, *runner.Arena) {}

// Play plays every game of board i (an adaptive sweep: until the board is decided): a pure
// function of (configuration, seed, board). Its distinct games are counted by their 128-bit
// tally.MoveHash (16 bytes a game; see there for the probability that two distinct games are
// counted as one, below 2^-107 a pair).
func (sw *Sweep) Play(sk *sweepWorker, i int64, stop func() bool) (gamefile.BoardResult, bool) {
	l := sw.Board(int(i))
	res := gamefile.BoardResult{Board: i, Key: boardKey(l), Grid: l.Grid.String()}
	sk.seen.Reset()
	ok := sw.playGames(sk, i, 0, sw.Cfg.Games, &res, sk.seen.Add, stop)
	res.Distinct = sk.seen.Count()
	return res, ok
}

// playGames plays games from..to−1 of board i into res with sk's reused buffers, which holds the
// board's games before from, and gives each game's moves to seen; an adaptive sweep stops at the
// first whole batch after which the board is decided, or can no longer be decided before the cap
// (stats.BandLooks.Futile: it would reach the cap undecided whatever its games). Game j is a pure
// function of (configuration, seed, board, j), so a board played in pieces plays the same games
// as in one go. At each step (an adaptive sweep's batch, otherwise lendStep games) the board
// borrows the run's idle workers (lender) and plays the step's games on them too.
func (sw *Sweep) playGames(sk *sweepWorker, i, from, to int64, res *gamefile.BoardResult, seen func(moves []byte), stop func() bool) bool {
	sw.lend.begin()
	defer sw.lend.end()
	l := sw.Board(int(i))
	m := runner.PreparedMatch(runner.MatchConfig{Game: "katarenga", Rules: sw.Cfg.Rules, Layout: l.Name(), A: sw.Cfg.A, B: sw.Cfg.B,
		Games: sw.Cfg.Games, Seed: boardSeed(sw.Cfg.Seed, sw.game.Rules(), l), RandomOpening: sw.Cfg.RandomOpening, NoBranching: sw.Cfg.NoBranching}, sw.game.WithLayout(l), sw.a, sw.b)
	sk.w = m.NewWorkerFrom(sk.w)
	w := sk.w
	for j := from; j < to; {
		step := int64(lendStep)
		if sw.looks != nil {
			step = sw.Cfg.Batch
			if j > 0 && j%step == 0 && (sw.decided(res) || !sw.noFutility && sw.futile(res.WhiteWins, res.N)) {
				break
			}
		}
		end := min(to, (j/step+1)*step)
		if n := sw.lend.take(min(end-j-1, sw.lend.workers-1)); n > 0 {
			ok := sw.playShared(m, w, n, j, end, res, seen, stop)
			sw.lend.give(n)
			if !ok {
				return false
			}
		} else {
			for k := j; k < end; k++ {
				rec, moves, ok := m.PlayView(w, k, stop)
				if !ok {
					return false
				}
				seen(moves)
				count(res, &rec, k)
			}
		}
		sw.lend.played.Add(end - j)
		j = end
	}
	return true
}

// lendStep is the number of games a board plays between two looks for idle workers, except
// on an adaptive sweep's boards, which look at each batch.
const lendStep = 32

// playShared plays games from..to−1 of a board with match m on its own worker w and n borrowed
// ones, each goroutine taking the next game as it finishes one, and counts each game into res
// and seen under a lock (the tallies are sums, so their order does not matter). It returns
// false when stop said so.
func (sw *Sweep) playShared(m *runner.Match, w *runner.Worker, n, from, to int64, res *gamefile.BoardResult, seen func(moves []byte), stop func() bool) bool {
	var next atomic.Int64
	next.Store(from)
	var failed atomic.Bool
	var mu sync.Mutex
	play := func(w *runner.Worker) {
		for {
			j := next.Add(1) - 1
			if j >= to || failed.Load() {
				return
			}
			rec, moves, ok := m.PlayView(w, j, stop)
			if !ok {
				failed.Store(true)
				return
			}
			mu.Lock()
			seen(moves)
			count(res, &rec, j)
			mu.Unlock()
		}
	}
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hw := sw.lend.worker(m)
			play(hw)
			sw.lend.put(hw)
		}()
	}
	play(w)
	wg.Wait()
	return !failed.Load()
}

// count adds game j's record to a board's tallies.
func count(res *gamefile.BoardResult, rec *gamefile.Record, j int64) {
	res.N++
	res.PliesSum += int64(rec.Plies)
	sel := (j/2)%2 == 0 // the selection half: whole pairs
	if sel {
		res.NSelect++
	}
	switch rec.Winner {
	case "first":
		res.WhiteWins++
		if sel {
			res.WhiteWinsSelect++
		}
	case "second":
		res.BlackWins++
	default:
		res.Draws++
	}
	switch rec.WinnerAgent() {
	case "a":
		res.AWins++
	case "b":
		res.BWins++
	}
	if rec.Reason == engine.Cap {
		res.Caps++
	}
	if len(rec.Counters) == 5 {
		res.CampsWhite += rec.Counters[2]
		res.FirstMoveCaptures += rec.Counters[4]
	}
}
