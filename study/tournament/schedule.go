package tournament

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"sync"

	"github.com/fairplay-lab/fairplay/engine/katarenga"
	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/runner"
)

// Scheduling. A tournament's pairings share one pool of s.Workers play slots (runner.Slots):
// each pairing is an ordinary match run (runner.RunMatch into its own directory), and its
// workers play only while they hold a slot, earlier pairings first. Pairing k+1 is opened as
// soon as pairing k has handed its last game to a worker (Session.AllClaimed), so a worker
// whose game ends takes the next game of the earliest pairing that has one, and the slowest
// game of a pairing no longer keeps the other workers idle. Bounds: at most Workers games are
// played at once in the whole tournament (so at most 2·Workers players, each with its own
// transposition table, tree or bot process), and at most Workers+1 pairings are open (each an
// open games file, a collector and its agents' idle tables, which the Go runtime's pools drop
// within two garbage collections); a pairing opens only when every earlier one has no game left
// to start. Each game is still a function of (configuration, seed, index) and each pairing
// writes its files in game order, so every output is the same bytes as pairings played one
// after another, at any worker count.

// sequentialPairings, when set (tests), plays the pairings one after another without shared
// slots: the order before pairings shared the workers.
var sequentialPairings bool

// pairingRun is what one pairing's run returned.
type pairingRun struct {
	out *runner.Outcome
	err error
}

// playPairings plays the pairings (their shard, s.Shard) and returns the outcome with the
// pairings that completed, in list order; Interrupted when ctx ended first. The first error
// of a pairing (one not caused by the interruption) stops the others and is returned.
func (cfg TournamentConfig) playPairings(ctx context.Context, pairings [][2]int, tiles *katarenga.TileSet, s runner.Session, man *gamefile.Manifest) (*TournamentOutcome, error) {
	workers := s.Workers
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	slots, open := runner.NewSlots(workers), make(chan struct{}, workers+1)
	if sequentialPairings {
		slots, open = nil, make(chan struct{}, 1)
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	var firstErr error
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}
	runs := make([]pairingRun, len(pairings))
	start, end := s.Shard.Range(cfg.Games)
	prog := newPairingsProgress(s, len(pairings), end-start)
	if s.Resume {
		prog.recorded(func(k int) int64 { return runner.RecordedGames(pairingDir(s.Dir, pairings[k]), start, end) })
	}
	stopProgress := s.StartProgress(int64(len(pairings))*(end-start), "games", prog.done)
	var wg sync.WaitGroup
	opened := 0
	for k, p := range pairings {
		select {
		case open <- struct{}{}:
		case <-runCtx.Done():
		}
		if runCtx.Err() != nil {
			break
		}
		m, err := cfg.pairingMatch(p, tiles)
		if err != nil {
			fail(err)
			break
		}
		man.Reproducible = man.Reproducible && m.Reproducible()
		sub := pairingDir(s.Dir, p)
		if err := os.MkdirAll(sub, 0o755); err != nil {
			fail(err)
			break
		}
		if s.Stderr != nil {
			s.PrintAbove(func() {
				fmt.Fprintf(s.Stderr, "pairing %d/%d: %s vs %s (%d games)\n", k+1, len(pairings), cfg.Labels[p[0]], cfg.Labels[p[1]], cfg.Games)
			})
		}
		claimed := make(chan struct{})
		var once sync.Once
		allClaimed := func() { once.Do(func() { close(claimed) }) }
		ps := s
		ps.Dir, ps.Progress = sub, prog.pairing(k)
		if slots != nil {
			ps.Slots, ps.Rank, ps.AllClaimed = slots, k, allClaimed
		}
		opened++
		wg.Add(1)
		go func() {
			defer wg.Done()
			o, err := runner.RunMatch(runCtx, m, ps)
			err = runner.InnerReportsFailed(s.Dir, err)
			runs[k] = pairingRun{out: o, err: err}
			if o != nil {
				prog.finish(k, o.Summary.N)
			}
			if err != nil && runCtx.Err() == nil {
				fail(err)
			}
			allClaimed()
			<-open
		}()
		select {
		case <-claimed:
		case <-runCtx.Done():
		}
	}
	wg.Wait()
	stopProgress()
	if firstErr != nil {
		return nil, firstErr
	}
	out := &TournamentOutcome{Interrupted: opened < len(pairings)}
	for k, r := range runs {
		// A pairing interrupted before its first game finished fails (its plots of zero games):
		// resume replays it.
		if r.out == nil || r.err != nil || r.out.Interrupted {
			out.Interrupted = true
			continue
		}
		out.Pairs, out.Summaries = append(out.Pairs, pairings[k]), append(out.Summaries, r.out.Summary)
		man.Completed++
	}
	return out, nil
}

// pairingsProgress is the one progress display of a tournament whose pairings play at the same
// time: it counts the games in every pairing's games file, those kept from earlier sessions
// (which a pairing's run reports as it opens: planned − to play) and those finished since.
type pairingsProgress struct {
	s       runner.Session
	planned int64 // games of each pairing in this shard
	mu      sync.Mutex
	kept    []int64        // per pairing: games kept when it opened, or all of them once it ended
	running []func() int64 // per pairing: its run's count of new games, while it runs
}

func newPairingsProgress(s runner.Session, n int, planned int64) *pairingsProgress {
	return &pairingsProgress{s: s, planned: planned, kept: make([]int64, n), running: make([]func() int64, n)}
}

// pairing returns the runner.Progress of pairing k's run: nil when the tournament shows none.
func (pp *pairingsProgress) pairing(k int) runner.Progress {
	if pp.s.Progress == nil {
		return nil
	}
	return pairingProgress{pp, k}
}

// recorded counts, before any pairing opens, the games that pairing k's directory records
// (games(k)): a resumed tournament's display starts from every pairing's kept games, not only
// from those of the pairings open so far (a pairing opens only when the earlier ones have no
// game left to start). A pairing's run replaces its count when it opens (Start) or ends.
func (pp *pairingsProgress) recorded(games func(k int) int64) {
	if pp.s.Progress == nil {
		return
	}
	pp.mu.Lock()
	defer pp.mu.Unlock()
	for k := range pp.kept {
		pp.kept[k] = games(k)
	}
}

// done counts the games in the pairings' files.
func (pp *pairingsProgress) done() int64 {
	pp.mu.Lock()
	defer pp.mu.Unlock()
	var n int64
	for k, kept := range pp.kept {
		n += kept
		if f := pp.running[k]; f != nil {
			n += f()
		}
	}
	return n
}

// finish records that pairing k's run ended with n games in its file.
func (pp *pairingsProgress) finish(k int, n int64) {
	pp.mu.Lock()
	pp.kept[k], pp.running[k] = n, nil
	pp.mu.Unlock()
}

// pairingProgress is one pairing's view of the tournament's display.
type pairingProgress struct {
	pp *pairingsProgress
	k  int
}

// Start registers the pairing's run, which has total of its planned games still to play and
// counts them with done.
func (p pairingProgress) Start(total int64, _ string, done func() int64) func() {
	p.pp.mu.Lock()
	p.pp.kept[p.k], p.pp.running[p.k] = p.pp.planned-max(total, -total), done
	p.pp.mu.Unlock()
	return func() {}
}

func (p pairingProgress) PrintAbove(print func()) { p.pp.s.PrintAbove(print) }
