package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"github.com/fairplay-lab/fairplay/runner"
	"github.com/fairplay-lab/fairplay/study/layouts"

	"github.com/fairplay-lab/fairplay/gamefile"
)

func runLayouts(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("layouts", "[-a AGENT -b AGENT] [-layouts all|distinct|sample:K|random:K|FILE] [-games-per-layout N] [-adaptive [-batch N]] [-band LOW,HIGH] [-random-opening N] [-branching=false] [-rules k=v,...] [-compare DIR] [-seed S] [-workers W] [-out DIR] [-shard i/M | -shards M] [-resume DIR] [-progress auto|always|never]\n       fairplay layouts -ladder 'SPEC;SPEC;...' [-replicates R] [-rating-games N] [-top K] [sweep flags] [-compare DIR]\n       fairplay layouts -report DIR [-compare DIR]",
		"fairplay layouts -layouts distinct -games-per-layout 200 -out sweep            # every board up to mirror images, ~2 min",
		"fairplay layouts -layouts sample:500 -a alphabeta:depth=2 -b alphabeta:depth=2 -games-per-layout 40 -out ab2",
		"fairplay layouts -layouts all -adaptive -games-per-layout 2000 -batch 100 -band 0.47,0.53",
		"fairplay layouts -layouts random:200 -games-per-layout 400 -out grids            # random colour grids, not tile placements",
		"fairplay layouts -layouts mylayouts.txt -rules first-move-capture=banned -random-opening 0",
		"fairplay layouts -layouts distinct -games-per-layout 200 -branching=false -out fast # random games drawn by rejection: faster, other games",
		"fairplay layouts -layouts distinct -shard 0/4 -out part0                         # then: fairplay merge -out sweep part0 part1 part2 part3",
		"fairplay layouts -report ab2 -compare sweep                                       # rewrite ab2's reports; rank correlation with sweep",
		"fairplay layouts -resume sweep                                                    # finish an interrupted sweep",
		"fairplay layouts -ladder 'random;alphabeta:depth=1;alphabeta:depth=2' -layouts sample:200 -games-per-layout 20 -random-opening 4 -replicates 2 -out ladder   # the same boards at three rated levels: ladder.csv, fair-at-every-level.csv",
		"fairplay layouts -ladder 'alphabeta:depth=1;alphabeta:depth=2' -layouts sample:200 -compare sweep -out ladder2   # rank correlation of each level with a random-play sweep",
		"fairplay layouts -resume ladder                                                   # finish an interrupted ladder",
		"fairplay layouts -report ladder                                                   # rewrite a complete ladder's ladder.csv, report.md and plots (nothing replayed)")
	a := fs.String("a", "random", "agent A (with B different, each layout's games are colour-swapped pairs)")
	b := fs.String("b", "random", "agent B")
	set := fs.String("layouts", "distinct", "all (98,304 placements), distinct (one per mirror class), sample:K (placements), random:K (random colour grids), or a file with one layout per line")
	n := fs.Int64("games-per-layout", 200, "games per board (with -adaptive: the most a board gets)")
	adaptive := fs.Bool("adaptive", false, "play in batches and stop a board once its 95% interval lies inside or outside the fairness band")
	batch := fs.Int64("batch", 100, "with -adaptive: games per batch (even)")
	band := fs.String("band", "0.45,0.55", "fairness band for White's win rate: low,high")
	rules := fs.String("rules", "", "Katarenga rule switches")
	opening := fs.Int("random-opening", runner.DefaultRandomOpening, "play the first N plies of every game uniformly at random (varies the games of deterministic agents)")
	branching := fs.Bool("branching", true, "false: random agents and openings draw by rejection sampling (other games, equally uniform, faster; a sweep records no legal counts)")
	report := fs.String("report", "", "only re-derive the reports (layouts.csv, choices.csv, plots) of the complete sweep in this directory (of a ladder: ladder.csv, fair-at-every-level.csv, report.md)")
	compare := fs.String("compare", "", "another sweep's directory: report the rank correlation of White's rates on the boards both played")
	var lf ladderFlags
	lf.register(fs)
	var rf runFlags
	rf.register(fs)
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	shard, err := rf.check(shardEnv(ctx))
	if err != nil {
		return err
	}
	if err := parsedOnly(ctx); err != nil {
		return err
	}
	if lf.spec != "" || isLadderDir(rf.resume) || isLadderDir(*report) {
		if !*branching {
			return usagef("-branching=false: not supported with -ladder")
		}
		return runLayoutLadder(ctx, fs, &lf, &rf, shard, args, stdout, stderr)
	}
	// A list of layouts is read before the board count is known: under the cap, so that the
	// heap does not grow to twice the list and sweep while both are built.
	defer limitMemory(maxLimitBoards)()
	if *report != "" {
		return reportLayouts(stdout, *report, *compare, rf.workers)
	}
	lean := leanGC()
	defer lean()
	if *compare != "" { // checked before the sweep, not after it
		if err := checkCompare(*compare); err != nil {
			return err
		}
	}
	var cfg layouts.LayoutsConfig
	dir := rf.resume
	if dir != "" {
		var complete bool
		if shard, complete, err = resumeRun(fs, dir, layouts.SweepKind, &cfg, stderr); err != nil || complete {
			return err
		}
		if err := cfg.LoadList(dir); err != nil {
			return usagef("-resume %s", err)
		}
	} else {
		lo, hi, ok := strings.Cut(*band, ",")
		l, err1 := strconv.ParseFloat(strings.TrimSpace(lo), 64)
		h, err2 := strconv.ParseFloat(strings.TrimSpace(hi), 64)
		if !ok || err1 != nil || err2 != nil {
			return usagef("-band %q: want low,high like 0.45,0.55", *band)
		}
		cfg = layouts.LayoutsConfig{A: *a, B: *b, Layouts: *set, Games: *n, Adaptive: *adaptive, Batch: *batch,
			BandLow: l, BandHigh: h, Rules: *rules, Seed: rf.seed, RandomOpening: *opening, NoBranching: !*branching}
		switch {
		case *set == "all", *set == "distinct", strings.HasPrefix(*set, "sample:"), strings.HasPrefix(*set, "random:"):
		default:
			list, err := layouts.ParseLayoutList(*set)
			if err != nil {
				return usagef("-layouts: %v", err)
			}
			cfg.SetList(list)
		}
	}
	sw, err := layouts.NewSweep(cfg)
	if err != nil {
		return usageErr(err)
	}
	sw.Workers = rf.workers
	cfg.List = nil // the sweep holds the boards
	lean()
	if dir == "" {
		if dir, err = outDir(rf.out, "layouts"); err != nil {
			return err
		}
	}
	defer limitMemory(sw.NumBoards())()
	fmt.Fprintf(stderr, "fairplay layouts: %d layouts, %d boards, %s vs %s, up to %d games per board (shard %d/%d) -> %s\n",
		sw.NumRows()/2, sw.NumBoards(), sw.Cfg.A, sw.Cfg.B, sw.Cfg.Games, shard.Index, shard.Count, dir)
	out, err := layouts.RunLayouts(ctx, sw, runner.Session{Dir: dir, Resume: rf.resume != "", Workers: rf.workers,
		Progress: newProgress(rf.progress, stderr), Stderr: stderr, Args: append([]string{"fairplay", "layouts"}, args...), Shard: shard})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d of %d boards in %s (%s)\n", out.Manifest.Completed, out.Manifest.Planned, dir, out.Manifest.Status)
	if out.Report != nil {
		printLayoutReport(stdout, sw, out.Report)
		if r := out.Report; r.Games > 0 && float64(r.Distinct) < 0.9*float64(r.Games) {
			fmt.Fprintf(stderr, "warning: only %d of %d games are distinct: repeated games are not independent samples; give -random-opening N\n", r.Distinct, r.Games)
		}
		if *compare != "" {
			if err := compareSweeps(stdout, dir, *compare); err != nil {
				return err
			}
		}
	}
	if out.Interrupted {
		fmt.Fprintf(stderr, "interrupted: finished boards kept; finish with: fairplay layouts -resume %s\n", dir)
		return errInterrupted
	}
	return nil
}

func printLayoutReport(w io.Writer, sw *layouts.Sweep, r *layouts.LayoutReport) {
	fmt.Fprintf(w, "\n%s\n", strings.Join(layouts.LayoutFindings(sw, r), "\n"))
}

// reportLayouts re-derives a complete sweep's reports from its boards.csv, with workers
// goroutines for its parallel passes.
func reportLayouts(stdout io.Writer, dir, compare string, workers int) error {
	lean := leanGC()
	defer lean()
	var cfg layouts.LayoutsConfig
	man, err := loadRun("-report", dir, layouts.SweepKind, &cfg)
	if err != nil {
		return err
	}
	if err := cfg.LoadList(dir); err != nil {
		return usagef("-report %s", err)
	}
	if man.Status != "complete" || man.Shards != 1 {
		return usagef("-report %s: the sweep is %s (shard %d/%d); finish or merge it first", dir, man.Status, man.Shard, man.Shards)
	}
	sw, err := layouts.NewSweep(cfg)
	if err != nil {
		return err
	}
	sw.Workers = workers
	cfg.List = nil
	lean()
	defer limitMemory(sw.NumBoards())()
	rep, _, err := layouts.WriteLayoutReportsFile(dir, sw, filepath.Join(dir, "boards.csv"))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "reports of %s rewritten\n", dir)
	printLayoutReport(stdout, sw, rep)
	if compare != "" {
		return compareSweeps(stdout, dir, compare)
	}
	return nil
}

// leanGC lowers the collector's slack (GOGC) to a quarter of the live heap, unless GOGC is
// set, while a list is read and a sweep resolved: a burst of long-lived allocations (the list,
// the boards, their hash table) that would otherwise let the heap grow to twice their size
// (peak RSS 199 MB for a list of a million grids; the games and reports then run at the
// default). It returns a function, safe to call twice, that collects once (so that the
// collector paces from the heap without the list, not from its last mark with it: without this
// the heap ran up to the memory limit, 188 MB RSS, while layouts.txt was written) and restores
// the previous setting.
func leanGC() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	prev := debug.SetGCPercent(25)
	var once sync.Once
	return func() {
		once.Do(func() {
			runtime.GC()
			debug.SetGCPercent(prev)
		})
	}
}

// maxLimitBoards is a board count for which limitMemory sets its cap.
const maxLimitBoards = 1 << 20

// limitMemory sets a soft memory limit for a sweep of boards boards (unless GOMEMLIMIT is
// set): 64 MiB plus 1 KiB a board, at most 180 MiB. The sweep and its tallies take some 70
// bytes a board (100 while the reports are derived), so the cap leaves room for the colour-effect
// fit's working set; without a limit the garbage collector lets the heap grow to twice its peak
// live size and more while the reports are derived (RSS 513 MB for the full 98,304-board sweep
// before; 170 MB with the limit).
// It returns a function that restores the previous limit: the limit is process-wide, and a
// study runs later commands in the same process.
func limitMemory(boards int) (restore func()) {
	if boards > maxLimitBoards {
		boards = maxLimitBoards
	}
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	prev := debug.SetMemoryLimit(min(64<<20+int64(boards)<<10, 180<<20))
	return func() { debug.SetMemoryLimit(prev) }
}

// checkCompare makes sure dir holds a sweep's boards.csv that -compare can read.
func checkCompare(dir string) error {
	f, err := os.Open(filepath.Join(dir, "boards.csv"))
	if err != nil {
		return usagef("-compare %s: %v (want the directory of another layouts sweep)", dir, err)
	}
	defer f.Close()
	if _, err := gamefile.NewBoardReader(f); err != nil {
		return usagef("-compare %s: %v", dir, err)
	}
	return nil
}

// compareSweeps prints the Spearman correlation between the White rates of the sweep in dir
// and another sweep's, over the boards both played.
func compareSweeps(w io.Writer, dir, other string) error {
	if err := checkCompare(other); err != nil {
		return err
	}
	s, n, err := layouts.CompareSweeps(filepath.Join(dir, "boards.csv"), filepath.Join(other, "boards.csv"), dir)
	if err != nil {
		return fmt.Errorf("-compare %s: %w", other, err)
	}
	fmt.Fprintf(w, "rank correlation of White's rate with %s over %d common boards: Spearman %.3f [%.3f, %.3f] (%s)\n",
		other, n, s.Value, s.Low, s.High, s.Method)
	return nil
}

// mergeSweep merges the shards of a layout sweep.
func mergeSweep(_ context.Context, job mergeJob) error {
	defer limitMemory(maxLimitBoards)() // while the list is read (see runLayouts)
	lean := leanGC()
	defer lean()
	var lc layouts.LayoutsConfig
	if _, err := loadResume(job.dirs[0], layouts.SweepKind, &lc); err != nil {
		return err
	}
	if err := lc.LoadList(job.dirs[0]); err != nil { // every shard's hash pins the same list
		return usagef("shard %s", err)
	}
	sw, err := layouts.NewSweep(lc)
	if err != nil {
		return err
	}
	lc.List = nil
	lean()
	dir, err := outDir(job.out, "merge")
	if err != nil {
		return err
	}
	var files []string
	for _, d := range job.dirs {
		files = append(files, filepath.Join(d, "boards.csv"))
	}
	defer limitMemory(sw.NumBoards())()
	res, err := layouts.MergeLayouts(sw, files, dir, append([]string{"fairplay", "merge"}, job.args...))
	if err != nil {
		return err
	}
	fmt.Fprintf(job.stdout, "%d boards merged from %d shards into %s\n", res.Manifest.Completed, len(job.dirs), dir)
	printLayoutReport(job.stdout, sw, res.Report)
	return nil
}
