package layouts

import (
	"context"
	"fmt"
	"hash"
	"hash/fnv"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/internal/durable"
	"github.com/fairplay-lab/fairplay/runner"
	"github.com/fairplay-lab/fairplay/stats"
)

// RunRace plays a fairest race (Cfg.Race fairest) into s.Dir: in rounds, one batch of games for
// every board still racing, after which stats.Race eliminates the boards surely less fair than
// another; it ends when one board is left (or the leader is within the tolerance of every other),
// or when the boards left reach the cap. Then it writes boards.csv (every board's games, so the
// usual reports follow), race.csv (each board's answer) and the reports. Board j's game g is the
// sweep's game g of board j, so the results depend neither on the worker count nor on how the
// rounds fell. A race is not resumable: interrupted, it leaves no results (run it again: the
// same seed plays the same games).
func RunRace(ctx context.Context, sw *Sweep, s runner.Session) (*LayoutsOutcome, error) {
	if sw.Cfg.Race != stats.RaceFairest {
		return nil, fmt.Errorf("race %q: RunRace plays fairest races (fair races are sweeps)", sw.Cfg.Race)
	}
	nb := sw.NumBoards()
	s.Shard = runner.Shard{Index: 0, Count: 1}
	man, unlock, err := startSweep(sw, s, 0, int64(nb))
	if err != nil {
		return nil, err
	}
	defer unlock()
	race, err := stats.NewRace(stats.RaceFairest, nb, sw.Cfg.BandLow, sw.Cfg.BandHigh, FamilyAlpha, sw.Cfg.Tolerance, sw.bandRho())
	if err != nil {
		return nil, err
	}
	res := make([]gamefile.BoardResult, nb)
	seen := make([]map[uint64]struct{}, nb)
	for i := range res {
		l := sw.Board(i)
		res[i] = gamefile.BoardResult{Board: int64(i), Key: boardKey(l), Grid: l.Grid.String()}
		seen[i] = map[uint64]struct{}{}
	}
	batch, cap := sw.Cfg.Batch, sw.Cfg.Games
	var rounds atomic.Int64
	stopProgress := s.StartProgress((cap+batch-1)/batch, "rounds", rounds.Load)
	t0 := time.Now()
	// The race counts in units (sw.units): a paired sweep's are pairs, each observation a
	// pair's mean.
	per := sw.Cfg.Batch / sw.units(sw.Cfg.Batch)
	_, ok := race.Run(sw.units(cap), sw.units(batch), func(active []int, from, to int64) ([]float64, bool) {
		before := make([]int64, len(active))
		for j, k := range active {
			before[j] = res[k].WhiteWins
		}
		if !sw.playRound(ctx, active, res, seen, from*per, to*per, s.Workers) {
			return nil, false
		}
		sums := make([]float64, len(active))
		for j, k := range active {
			sums[j] = float64(res[k].WhiteWins-before[j]) / float64(per)
		}
		rounds.Add(1)
		return sums, true
	})
	if !ok {
		stopProgress()
		return &LayoutsOutcome{Manifest: man, Interrupted: true}, nil
	}
	stopProgress()
	var games int64
	for i := range res {
		res[i].Distinct = int64(len(seen[i]))
		games += res[i].N
	}
	path := filepath.Join(s.Dir, "boards.csv")
	tf, err := durable.CreateTemp(path, s.Durable)
	if err != nil {
		return nil, err
	}
	defer tf.Abort()
	w := gamefile.NewBoardWriter(tf)
	for i := range res {
		if err := w.Write(&res[i]); err != nil {
			return nil, err
		}
	}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	if err := tf.Commit(); err != nil {
		return nil, err
	}
	el := time.Since(t0).Seconds()
	if err := writeRaceCSV(s.Dir, sw, func(i int) (*gamefile.BoardResult, stats.ArmState, int64, error) {
		return &res[i], race.Arms[i].State, race.Arms[i].SettledAt * per, nil
	}); err != nil {
		return nil, err
	}
	man.Completed, man.Status, man.Ended, man.Seconds = int64(nb), "complete", time.Now().UTC(), el
	if el > 0 {
		man.GamesPerSecond = float64(games) / el
	}
	rep, files, err := WriteLayoutReportsFile(s.Dir, sw, path)
	if err != nil {
		return nil, err
	}
	man.Outputs = append([]string{"boards.csv"}, files...)
	man.PeakRSSBytes = gamefile.PeakRSS()
	if err := gamefile.WriteManifest(filepath.Join(s.Dir, "manifest.json"), man); err != nil {
		return nil, err
	}
	return &LayoutsOutcome{Report: rep, Manifest: man}, nil
}

// playRound plays games from..to−1 of the active boards on workers goroutines; false when
// interrupted.
func (sw *Sweep) playRound(ctx context.Context, active []int, res []gamefile.BoardResult, seen []map[uint64]struct{}, from, to int64, workers int) bool {
	stop := func() bool { return ctx.Err() != nil }
	type local struct {
		h  hash.Hash64
		sk *sweepWorker
	}
	sw.lend.reset(workers, int64(len(active)))
	defer sw.lend.close()
	ok := runner.Parallel(len(active), workers, func() local { return local{fnv.New64a(), &sweepWorker{}} }, func(l local, j int) bool {
		k := active[j]
		return sw.playGames(l.sk, int64(k), from, to, &res[k], func(moves []byte) { // under a lock when helped
			l.h.Reset()
			l.h.Write(moves)
			seen[k][l.h.Sum64()] = struct{}{}
		}, stop)
	})
	return ok && ctx.Err() == nil
}
