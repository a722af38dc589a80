package layouts

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/fairplay-lab/fairplay/internal/durable"
	"github.com/fairplay-lab/fairplay/runner"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/tally"

	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// LayoutsOutcome is what a sweep session produced.
type LayoutsOutcome struct {
	// Boards holds a ladder level's boards, read back from its boards.csv by the ladder;
	// RunLayouts leaves it nil (its reports stream from disk, memory flat in the board count).
	Boards      *tally.BoardStore
	Report      *LayoutReport // nil for a partial shard or an interrupted run
	Manifest    *gamefile.Manifest
	Interrupted bool
}

type boardSource struct {
	f *os.File
	r *gamefile.BoardReader
}

func openBoards(path string) (runner.FileSource[gamefile.BoardResult], error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := gamefile.NewBoardReader(bufio.NewReader(f))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &boardSource{f, r}, nil
}

func (b *boardSource) Read() (*gamefile.BoardResult, error) { return b.r.Read() }

func (b *boardSource) Close() error { return b.f.Close() }

// RunLayouts plays a sweep's boards (this session's shard) into s.Dir: boards.csv (one row per
// board played, resumable) and, when the whole sweep is there, layouts.csv, choices.csv,
// colour_effects.csv and the plots. With s.Resume the boards already in boards.csv are kept.
// The unit of resumption is a board: a board interrupted half-way is played again.
func RunLayouts(ctx context.Context, sw *Sweep, s runner.Session) (*LayoutsOutcome, error) {
	nb := int64(sw.NumBoards())
	start := nb * int64(s.Shard.Index) / int64(s.Shard.Count)
	end := nb * int64(s.Shard.Index+1) / int64(s.Shard.Count)
	man, unlock, err := startSweep(sw, s, start, end)
	if err != nil {
		return nil, err
	}
	defer unlock()
	path := filepath.Join(s.Dir, "boards.csv")
	plan := runner.PlanOf[gamefile.BoardResult]{Start: start, End: end}
	var already int64
	closeOld := func() {}
	if s.Resume {
		if err := recoverBoards(s.Dir); err != nil {
			return nil, err
		}
		if plan, already, closeOld, err = runner.ResumePlan(path, openBoards, func(r *gamefile.BoardResult) int64 { return r.Board }, start, end); err != nil {
			return nil, err
		}
	}
	if sw.sequential() {
		// One board at a time: a board's games are many, and a board waiting in another
		// worker's chunk would keep the idle workers from being lent (lender).
		plan.Chunk = 1
	}
	defer closeOld()
	tf, err := durable.CreateTemp(path, s.Durable)
	if err != nil {
		return nil, err
	}
	defer tf.Abort()
	w := gamefile.NewBoardWriter(tf)
	ck, err := durable.NewCheckpointer(s.Dir, tf, w.Flush, man)
	if err != nil {
		return nil, err
	}
	var stored int64
	var games int64
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	sink := func(r *gamefile.BoardResult) error {
		stored++
		games += r.N
		if err := w.Write(r); err != nil {
			cancel()
			return ck.Failed(err)
		}
		if err := ck.Add(runCtx.Err() != nil); err != nil {
			cancel()
			return err
		}
		return nil
	}
	// Progress counts games, so that a board playing long still shows them; an adaptive
	// sweep's boards stop early, so their caps' sum is a cap on the games, not a goal.
	sw.lend.reset(s.Workers, end-start-already)
	defer sw.lend.close()
	total := (end - start - already) * sw.Cfg.Games
	if sw.sequential() {
		total = -total
	}
	stop := s.StartProgress(total, "games", sw.lend.played.Load)
	t0 := time.Now()
	_, err = runner.RunItems(runCtx, sw, plan, s.Workers, nil, sink, func(r *gamefile.BoardResult) int64 { return r.Board })
	interrupted := ctx.Err() != nil
	stop()
	if err != nil {
		return nil, err
	}
	if err := w.Flush(); err != nil {
		return nil, ck.Failed(err)
	}
	closeOld()
	if err := tf.Commit(); err != nil {
		return nil, ck.Failed(err)
	}
	man.Checkpoint = nil
	el := time.Since(t0).Seconds()
	man.Completed = stored
	man.Status = "complete"
	if man.Completed < man.Planned {
		man.Status = "interrupted"
	}
	man.Ended, man.Seconds = time.Now().UTC(), el
	if el > 0 {
		man.GamesPerSecond = float64(games) / el
	}
	man.Outputs = []string{"boards.csv"}
	out := &LayoutsOutcome{Manifest: man, Interrupted: interrupted || man.Status != "complete"}
	if man.Status == "complete" && s.Shard.Count == 1 {
		// The reports read the boards back from boards.csv: memory does not grow with them.
		rep, files, err := WriteLayoutReportsFile(s.Dir, sw, path)
		if err != nil {
			return nil, runner.ReportsFailed(s.Dir, err)
		}
		out.Report = rep
		man.Outputs = append(man.Outputs, files...)
	}
	man.PeakRSSBytes = gamefile.PeakRSS()
	if err := gamefile.WriteManifest(filepath.Join(s.Dir, "manifest.json"), man); err != nil {
		if man.Status == "complete" {
			err = runner.ReportsFailed(s.Dir, err)
		}
		return nil, err
	}
	return out, nil
}

// startSweep opens a session of sw over boards start..end−1 in s.Dir: its manifest, the
// directory's lock (unlock releases it) and the list file of a list sweep.
func startSweep(sw *Sweep, s runner.Session, start, end int64) (man *gamefile.Manifest, unlock func(), err error) {
	cfgJSON, cfgHash, err := gamefile.HashConfig(sw.Cfg)
	if err != nil {
		return nil, nil, err
	}
	man = gamefile.NewManifest(SweepKind, s.Args)
	man.Unit = "boards"
	man.Config, man.ConfigSHA256, man.Seed = cfgJSON, cfgHash, fmt.Sprint(sw.Cfg.Seed)
	man.Shard, man.Shards, man.FirstGame, man.EndGame = s.Shard.Index, max(1, s.Shard.Count), start, end
	man.Planned, man.Workers, man.Reproducible, man.Started = end-start, s.Workers, sw.Reproducible(), time.Now().UTC()
	if err := runner.PinAgents(man, s, "katarenga", sw.Cfg.A, sw.Cfg.B); err != nil {
		return nil, nil, err
	}
	if unlock, err = durable.LockDir(s.Dir); err != nil {
		return nil, nil, err
	}
	if err := writeListFile(s.Dir, sw.Cfg, func(k int) katarenga.Layout { return sw.Row(2 * k).Layout }); err != nil {
		unlock()
		return nil, nil, err
	}
	return man, unlock, nil
}

// recoverBoards folds the checkpointed boards.csv.tmp of a killed sweep into boards.csv (see
// the design note at the top of session.go).
func recoverBoards(dir string) error {
	return runner.RecoverCheckpoint(dir, "boards.csv", openBoards,
		func(r *gamefile.BoardResult) int64 { return r.Board },
		func(w io.Writer) (func(*gamefile.BoardResult) error, func() error, error) {
			bw := gamefile.NewBoardWriter(w)
			return bw.Write, bw.Flush, nil
		})
}

// MergeLayouts joins the boards.csv files of a sweep's shards (in shard order) into dir and
// writes the full reports, checking that every board appears exactly once.
func MergeLayouts(sw *Sweep, files []string, dir string, args []string) (*LayoutsOutcome, error) {
	cfgJSON, cfgHash, err := gamefile.HashConfig(sw.Cfg)
	if err != nil {
		return nil, err
	}
	man := gamefile.NewManifest(SweepKind, args)
	man.Unit = "boards"
	man.Config, man.ConfigSHA256, man.Seed = cfgJSON, cfgHash, fmt.Sprint(sw.Cfg.Seed)
	nb := int64(sw.NumBoards())
	man.Shard, man.Shards, man.EndGame, man.Planned, man.Started = 0, 1, nb, nb, time.Now().UTC()
	man.Reproducible = sw.Reproducible()
	if err := runner.PinAgents(man, runner.Session{}, "katarenga", sw.Cfg.A, sw.Cfg.B); err != nil {
		return nil, err
	}
	if err := writeListFile(dir, sw.Cfg, func(k int) katarenga.Layout { return sw.Row(2 * k).Layout }); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "boards.csv")
	tf, err := durable.CreateTemp(path, durable.Options{})
	if err != nil {
		return nil, err
	}
	defer tf.Discard() // a failed merge leaves no boards file behind: it is rerun whole
	w := gamefile.NewBoardWriter(tf)
	merged, err := runner.Concat(files, openBoards, func(r *gamefile.BoardResult) int64 { return r.Board }, "board", func(r *gamefile.BoardResult) error {
		return w.Write(r)
	})
	if err != nil {
		return nil, err
	}
	if merged != nb {
		return nil, fmt.Errorf("the shards hold %d boards, the sweep has %d", merged, nb)
	}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	if err := tf.Commit(); err != nil {
		return nil, err
	}
	rep, outs, err := WriteLayoutReportsFile(dir, sw, path)
	if err != nil {
		return nil, err
	}
	man.Completed, man.Status, man.Ended = nb, "complete", time.Now().UTC()
	man.Outputs = append([]string{"boards.csv"}, outs...)
	man.PeakRSSBytes = gamefile.PeakRSS()
	if err := gamefile.WriteManifest(filepath.Join(dir, "manifest.json"), man); err != nil {
		return nil, err
	}
	return &LayoutsOutcome{Report: rep, Manifest: man}, nil
}
