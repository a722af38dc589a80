package runner

// Checkpoint and resume design (format-agnostic where it can be):
//
//   - A session writes its item file (games.csv; boards.csv for layouts) under NAME.tmp, items
//     in index order, the old items of a resumed run merged in, and renames it to NAME when
//     the run ends (complete or interrupted). Every other output (summary, plots, manifest) is
//     written atomically: a temporary file renamed into place, removed on error.
//   - While it runs, a durable.Checkpointer flushes NAME.tmp at least every
//     durable.DefaultCheckpointEvery (Session.Durable can change it; and after every item
//     once the run is stopping) and rewrites manifest.json with status "running"
//     and a Checkpoint {file, bytes, items}: the first bytes of the file hold items whole
//     items. Only the file's length is recorded, so any format that appends items and can be
//     flushed to an item boundary (CSV; gzip with Flush) checkpoints the same way.
//   - After kill -9 the directory holds NAME (older items, if the run was itself a resume),
//     NAME.tmp and the checkpoint manifest. A resumed session first recovers: NAME.tmp is
//     cut to the checkpointed length and merged with NAME (both in index order) into NAME
//     atomically; then the usual resume plays the missing items. Games are pure functions of (config, seed,
//     index), so the resumed run ends with the same bytes as an uninterrupted one and loses at
//     most the games in flight and those finished since the last checkpoint.
//   - A failed write (a full disk) stops the run with an error naming what is kept: the items
//     of the last checkpoint, recovered by resuming the session (Session.Resume).
//   - A session holds an flock on DIR/.fairplay.lock while it runs (LockDir): a second process
//     resuming or writing the directory gets a clear error; kill -9 releases it.

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fairplay-lab/fairplay/internal/config"
	"github.com/fairplay-lab/fairplay/internal/durable"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/report"
	"github.com/fairplay-lab/fairplay/tally"
)

// Shard selects a contiguous block of a run's pairs: shard Index of Count.
type Shard struct{ Index, Count int }

// Range returns the games [start, end) of shard s of a run of games games (whole pairs).
func (s Shard) Range(games int64) (int64, int64) {
	pairs := uint64(max(games, 0) / 2)
	at := func(i int) int64 { // pairs*i/Count without overflow
		h, l := bits.Mul64(pairs, uint64(i))
		q, _ := bits.Div64(h, l, uint64(s.Count))
		return int64(q)
	}
	return 2 * at(s.Index), 2 * at(s.Index+1)
}

// Session is where and how a run writes: its directory, worker count, progress display and
// the command line recorded in the manifest.
type Session struct {
	Dir     string
	Resume  bool
	Workers int
	// Progress, when set, shows how far the run has come (nil: nothing is shown).
	Progress Progress
	Stderr   io.Writer
	Args     []string
	Shard    Shard
	// Stop, when set, is asked after every game (in game order) whether the run has seen
	// enough; once it says yes no later game is recorded and the run ends complete, with
	// Outcome.Stopped set. A resumed run replays the kept games through it and so stops at the
	// same game.
	Stop func(*tally.Summary) bool
	// Chunk caps the games handed to a worker at once (0: automatic).
	Chunk int64
	// Format is the games file format ("" is csv). A resumed run keeps the format of the games
	// file it finds.
	Format gamefile.Format
	// Codec is a Parquet games file's codec ("" is Snappy). A resumed run keeps the codec of
	// its games file (RunCodec).
	Codec gamefile.Codec
	// Durable adjusts how the run's item file is written and checkpointed (tests: a failing
	// disk, a checkpoint after every item); the zero value is production behaviour.
	Durable durable.Options
	// Slots, when set, are shared with other runs that play at the same time: the run's
	// workers play only while they hold one, lower Ranks first (see Slots). Workers still sets
	// how many of them the run has.
	Slots *Slots
	Rank  int
	// AllClaimed, when set, is called once, when the run's last game has been handed to a
	// worker (or there was none to play): from then on the run starts no other game, and its
	// workers leave their slots to other runs as they finish. It is not called when the run
	// finds itself complete and plays nothing, nor when it fails before playing.
	AllClaimed func()
}

// Progress shows how far a session's work has come. The runner only counts finished items;
// drawing them (a terminal bar, periodic lines) is the front end's: cmd/fairplay draws them on
// stderr. A session has one display up at a time.
type Progress interface {
	// Start shows progress toward total items of unit ("games", "boards", "iterations") until
	// the returned stop is called. done returns the items this session has finished so far;
	// any goroutine may call it, often. A negative total is a cap rather than a goal: a
	// sequential test stops when it decides.
	Start(total int64, unit string, done func() int64) (stop func())
	// PrintAbove runs print, which writes whole lines to the terminal the display draws on,
	// so that neither garbles the other: a terminal bar is cleared first and redrawn after.
	PrintAbove(print func())
}

// StartProgress starts s's progress display of total items (see Progress.Start); with no
// display, or no items, it shows nothing.
func (s Session) StartProgress(total int64, unit string, done func() int64) (stop func()) {
	if s.Progress == nil || total == 0 {
		return func() {}
	}
	return s.Progress.Start(total, unit, done)
}

// PrintAbove runs print above s's progress display (see Progress.PrintAbove), or just runs it
// when there is none.
func (s Session) PrintAbove(print func()) {
	if s.Progress == nil {
		print()
		return
	}
	s.Progress.PrintAbove(print)
}

// Outcome is what a finished (or interrupted) session produced.
type Outcome struct {
	Summary     *tally.Summary
	Manifest    *gamefile.Manifest
	Interrupted bool
	Stopped     bool // Session.Stop ended the run before its planned games
}

// ErrDirNotEmpty is returned by CheckDir for an existing non-empty directory.
var ErrDirNotEmpty error = config.Errorf("", "", "exists and is not empty (give {Resume} to finish it, or another {Dir})")

// CheckDir makes sure dir can take a new run: it must not exist, or be empty, and be writable.
// It creates dir. Nothing else is written.
func CheckDir(dir string) error {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("output directory %s %w", dir, ErrDirNotEmpty)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	// The probe's name is the system's: two runs started into one directory never remove
	// each other's probe.
	probe, err := os.CreateTemp(dir, ".write-test-*")
	if err != nil {
		return fmt.Errorf("output directory %s is not writable: %w", dir, err)
	}
	probe.Close()
	return os.Remove(probe.Name())
}

// openGames reads records from a games file in any format (games.csv, .csv.gz, .parquet, and
// their temporary NAME.tmp while a run writes them).
func OpenGames(path string) (FileSource[gamefile.Record], error) {
	f, err := gamefile.FormatOf(strings.TrimSuffix(path, ".tmp"))
	if err != nil {
		return nil, err
	}
	return gamefile.OpenGamesAs(path, f)
}

// MatchKind is the manifest kind of a match's run (play, sprt, and the matches inside studies).
const MatchKind = "match"

// NewManifest starts the manifest of a whole (unsharded) run of the given kind and planned
// units: its configuration and hash, seed and worker count; the status is "interrupted" until
// the run says otherwise.
func NewManifest(s Session, kind string, cfg any, seed uint64, unit string, planned int64) (*gamefile.Manifest, error) {
	cfgJSON, cfgHash, err := gamefile.HashConfig(cfg)
	if err != nil {
		return nil, err
	}
	man := gamefile.NewManifest(kind, s.Args)
	man.Config, man.ConfigSHA256, man.Seed = cfgJSON, cfgHash, fmt.Sprintf("%d", seed)
	man.Shards, man.Unit, man.Planned, man.EndGame = 1, unit, planned, planned
	man.Workers, man.Started, man.Status, man.Reproducible = s.Workers, time.Now().UTC(), "interrupted", true
	return man, nil
}

// RunMatch plays a match's games (this session's shard) into s.Dir: the games file (games.csv
// unless Session.Format says otherwise), summary.csv, plots and manifest.json. With s.Resume,
// the games already in the run's games file are kept and only the missing ones are played; the
// result equals an uninterrupted run.
func RunMatch(ctx context.Context, m *Match, s Session) (*Outcome, error) {
	cfgJSON, cfgHash, err := gamefile.HashConfig(m.Cfg)
	if err != nil {
		return nil, err
	}
	start, end := s.Shard.Range(m.Cfg.Games)
	man := gamefile.NewManifest(MatchKind, s.Args)
	man.Config, man.ConfigSHA256 = cfgJSON, cfgHash
	man.Seed = fmt.Sprintf("%d", m.Cfg.Seed)
	man.Shard, man.Shards, man.FirstGame, man.EndGame = s.Shard.Index, s.Shard.Count, start, end
	man.Planned, man.Workers, man.Reproducible = end-start, s.Workers, m.Reproducible()
	man.Started = time.Now().UTC()
	if err := PinAgentsStop(man, s, m.Cfg.Game, func() bool { return ctx.Err() != nil }, m.Cfg.A, m.Cfg.B); err != nil {
		return nil, err
	}

	unlock, err := durable.LockDir(s.Dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if s.Resume && s.Stop == nil {
		// A run already complete under this configuration is only re-read: resuming a
		// tournament or a variants study does not rewrite its finished pairings and cells.
		if o, err := finishedRun(s.Dir, cfgHash, start, end, m.Counters()); err != nil || o != nil {
			return o, err
		}
	}
	format := s.Format
	if format == "" {
		format = gamefile.CSV
	}
	if s.Resume {
		if _, f, err := gamefile.FindGames(s.Dir); err == nil {
			format = f
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		} else {
			// Killed before its games file was first committed: the file being written tells
			// the run's format (a resumed run keeps it).
			for _, f := range gamefile.Formats {
				if _, err := os.Stat(filepath.Join(s.Dir, f.FileName()+".tmp")); err == nil {
					format = f
				}
			}
		}
	}
	reuse := reuseOf(ctx)
	if reuse != nil {
		man.BuildSHA256 = buildID()
	}
	if reused, err := startReuse(ctx, reuse, s, man, format); err != nil {
		return nil, err
	} else if reused {
		s.Resume = true // the copy is read as a resumed run's games are; nothing is left to play
	}
	gamesPath := filepath.Join(s.Dir, format.FileName())
	codec := s.Codec
	if s.Resume {
		if codec, err = RunCodec(s.Dir, format); err != nil {
			return nil, err
		}
	}
	if format == gamefile.Parquet {
		man.ParquetCodec = string(cmp.Or(codec, gamefile.Snappy))
	}
	plan := Plan{Start: start, End: end, Chunk: s.Chunk}
	var already int64
	closeOld := func() {}
	if s.Resume {
		if err := recoverGames(s.Dir, m.Counters()); err != nil {
			return nil, err
		}
		if plan, already, closeOld, err = ResumePlan(gamesPath, OpenGames, func(r *gamefile.Record) int64 { return r.Game }, start, end); err != nil {
			return nil, err
		}
	}
	defer closeOld()
	plan.Chunk = s.Chunk
	plan.share = share{slots: s.Slots, rank: s.Rank, allClaimed: s.AllClaimed}

	tf, err := durable.CreateTemp(gamesPath, s.Durable)
	if err != nil {
		return nil, err
	}
	defer tf.Abort()
	cw, err := gamefile.NewGamesWriterCodec(tf, format, codec, m.Counters())
	if err != nil {
		return nil, err
	}
	sum := tally.NewSummary(m.Counters())
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Checkpoints (a file length that holds whole games) need a format that can be cut after
	// any flushed game: CSV. Compressed formats are complete only when closed; after a kill -9
	// their run resumes from the games file of its last clean stop.
	flush := cw.Flush
	if format != gamefile.CSV {
		flush = func() error { return nil }
	}
	ck, err := durable.NewCheckpointer(s.Dir, tf, flush, man)
	if err != nil {
		return nil, err
	}
	gs := newGamesSink(sum, cw)
	// Every heavy step is the workers' (see runner_batch.go): rows, hashes, the csv file's
	// writes (queued), csv.gz's compression and Parquet's row groups at two or more workers (at
	// one, the collector's encoding runs beside the worker: it costs more than the game).
	gs.parallelEncode(s.Workers)
	if format == gamefile.CSV && tf.Q != nil {
		gs.queue, gs.flushRows, gs.help, gs.rowBufs = tf.WriteAsync, cw.Flush, tf.Q.Run, newRowBufs(s.Workers)
	}
	gs.stop, gs.onStop = s.Stop, cancel
	gs.failed = func(err error) error { cancel(); return ck.Failed(err) }
	gs.written = func(n int) error {
		if err := ck.AddN(n, runCtx.Err() != nil); err != nil {
			cancel() // no point playing games that cannot be written
			return err
		}
		return nil
	}

	var done atomic.Int64
	total := end - start - already
	if s.Stop != nil {
		total = -total // a cap, not a goal
	}
	stopProgress := s.StartProgress(total, "games", done.Load)
	t0 := time.Now()
	_, err = runBatched(runCtx, m, plan, s.Workers, &done, gs.batch(start, end), func(r *gamefile.Record) int64 { return r.Game })
	stopped := gs.stopped
	interrupted := ctx.Err() != nil && !stopped
	stopProgress()
	if err != nil {
		return nil, err
	}
	if err := cw.Close(); err != nil {
		return nil, ck.Failed(err)
	}
	closeOld()
	if err := tf.Commit(); err != nil {
		return nil, ck.Failed(err)
	}
	man.Checkpoint = nil
	sum.Distinct() // counting the distinct games (a sort of their hashes) is part of the run's time
	elapsed := time.Since(t0).Seconds()
	man.Completed = sum.N
	man.Status = "complete"
	if man.Completed < man.Planned && !stopped {
		man.Status = "interrupted"
	}
	man.StoppedEarly = stopped
	man.Ended = time.Now().UTC()
	man.Seconds = elapsed
	if elapsed > 0 && man.ReusedFrom == "" {
		man.GamesPerSecond = float64(done.Load()) / elapsed
		man.PliesPerSecond = math.Round(float64(gs.plies) / elapsed) // includes resumed games' plies
	}
	outputs, err := WriteReports(s.Dir, sum, PlotTitle(m))
	if err != nil {
		return nil, ReportsFailed(s.Dir, err)
	}
	if outputs, err = writeMatchPages(s.Dir, sum, m.Title(), man, outputs); err != nil {
		return nil, ReportsFailed(s.Dir, err)
	}
	man.Outputs = append([]string{format.FileName()}, outputs...)
	man.PeakRSSBytes = gamefile.PeakRSS()
	if err := gamefile.WriteManifest(filepath.Join(s.Dir, "manifest.json"), man); err != nil {
		return nil, ReportsFailed(s.Dir, err)
	}
	if reuse != nil && man.Status == "complete" && !stopped {
		reuse.add(cfgHash, filepath.Clean(s.Dir))
	}
	return &Outcome{Summary: sum, Manifest: man, Interrupted: interrupted || man.Status != "complete", Stopped: stopped}, nil
}

// finishedRun returns the outcome of the complete run in dir, re-read from its games file, when
// its manifest says it is complete for this configuration hash and game range and all its outputs
// are present; nil (and no error) when the run must be (re)played.
func finishedRun(dir, cfgHash string, start, end int64, counters []string) (*Outcome, error) {
	man, err := gamefile.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil || man.Status != "complete" || man.StoppedEarly || man.ConfigSHA256 != cfgHash ||
		man.FirstGame != start || man.EndGame != end || man.Completed != end-start {
		return nil, nil
	}
	for _, f := range man.Outputs {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return nil, nil
		}
	}
	src, err := gamefile.OpenRunGames(dir)
	if err != nil {
		return nil, nil
	}
	defer src.Close()
	sum := tally.NewSummary(counters)
	for r, err := range gamefile.All(src.Read) {
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		sum.Add(r)
	}
	if sum.N != end-start {
		return nil, nil // the games file disagrees with the manifest: replay what is missing
	}
	return &Outcome{Summary: sum, Manifest: man}, nil
}

// recoverGames folds the checkpointed games.csv.tmp of a killed run into games.csv (see the
// design note above).
func recoverGames(dir string, counters []string) error {
	return RecoverCheckpoint(dir, "games.csv", OpenGames,
		func(r *gamefile.Record) int64 { return r.Game },
		func(w io.Writer) (func(*gamefile.Record) error, func() error, error) {
			cw, err := gamefile.NewCSVWriter(w, counters)
			if err != nil {
				return nil, nil, err
			}
			return cw.Write, cw.Flush, nil
		})
}

// WriteReports writes summary.csv and the plots of a summary into dir and returns their names.
func WriteReports(dir string, sum *tally.Summary, title string) ([]string, error) {
	var sb bytes.Buffer
	if err := tally.WriteSummaryCSV(&sb, sum.Stats()); err != nil {
		return nil, err
	}
	if err := gamefile.WriteFileAtomic(filepath.Join(dir, "summary.csv"), sb.Bytes()); err != nil {
		return nil, err
	}
	outputs := []string{"summary.csv"}
	for _, plot := range []func(*tally.Summary, string, string) ([]string, error){
		report.PlotOutcomes, report.PlotLengths, report.PlotRunning} {
		files, err := plot(sum, title, dir)
		if err != nil {
			return nil, err
		}
		outputs = append(outputs, files...)
	}
	return outputs, nil
}

// MergeRuns concatenates the games files of a run's shards (given in shard order, in any
// format) into dir, in the given format (Parquet: in codec, "" for Snappy), with the same
// outputs as a single run, checking that every game appears exactly once.
func MergeRuns(m *Match, files []string, dir string, args []string, format gamefile.Format, codec gamefile.Codec) (*Outcome, error) {
	if format == "" {
		format = gamefile.CSV
	}
	cfgJSON, cfgHash, err := gamefile.HashConfig(m.Cfg)
	if err != nil {
		return nil, err
	}
	man := gamefile.NewManifest(MatchKind, args)
	man.Config, man.ConfigSHA256 = cfgJSON, cfgHash
	man.Seed = fmt.Sprintf("%d", m.Cfg.Seed)
	man.Shard, man.Shards, man.FirstGame, man.EndGame, man.Planned = 0, 1, 0, m.Cfg.Games, m.Cfg.Games
	man.Reproducible = m.Reproducible()
	man.Started = time.Now().UTC()
	if err := PinAgents(man, Session{}, m.Cfg.Game, m.Cfg.A, m.Cfg.B); err != nil {
		return nil, err
	}
	if format == gamefile.Parquet {
		man.ParquetCodec = string(cmp.Or(codec, gamefile.Snappy))
	}
	gamesPath := filepath.Join(dir, format.FileName())
	tf, err := durable.CreateTemp(gamesPath, durable.Options{})
	if err != nil {
		return nil, err
	}
	defer tf.Discard() // a failed merge leaves no games file behind: it is rerun whole
	cw, err := gamefile.NewGamesWriterCodec(tf, format, codec, m.Counters())
	if err != nil {
		return nil, err
	}
	sum := tally.NewSummary(m.Counters())
	next, err := Concat(files, OpenGames, func(r *gamefile.Record) int64 { return r.Game }, "game", func(r *gamefile.Record) error {
		sum.Add(r)
		return cw.Write(r)
	})
	if err != nil {
		return nil, err
	}
	if next != m.Cfg.Games {
		return nil, fmt.Errorf("the shards hold %d games, the run planned %d", next, m.Cfg.Games)
	}
	if err := cw.Close(); err != nil {
		return nil, err
	}
	if err := tf.Commit(); err != nil {
		return nil, err
	}
	man.Completed, man.Status, man.Ended = sum.N, "complete", time.Now().UTC()
	outputs, err := WriteReports(dir, sum, PlotTitle(m))
	if err != nil {
		return nil, err
	}
	if outputs, err = writeMatchPages(dir, sum, m.Title(), man, outputs); err != nil {
		return nil, err
	}
	man.Outputs = append([]string{format.FileName()}, outputs...)
	man.PeakRSSBytes = gamefile.PeakRSS()
	if err := gamefile.WriteManifest(filepath.Join(dir, "manifest.json"), man); err != nil {
		return nil, err
	}
	return &Outcome{Summary: sum, Manifest: man}, nil
}
