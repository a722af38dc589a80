package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/fairplay-lab/fairplay/internal/durable"
	"github.com/fairplay-lab/fairplay/runner"
	"github.com/fairplay-lab/fairplay/study/layouts"

	"github.com/fairplay-lab/fairplay/gamefile"
)

func runLayouts(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("layouts", "[-a AGENT -b AGENT] [-layouts all|distinct|sample:K|random:K|FILE] [-games-per-board N] [-adaptive [-batch N] | -race fair|fairest [-race-tolerance D]] [-screen DIR -screen-keep M] [-band LOW,HIGH] [-random-opening N] [-branching=false] [-rules k=v,...] [-compare DIR] [-control DIR] [-seed S] [-workers W] [-out DIR] [-shard i/M | -shards M] [-resume DIR] [-progress auto|always|never]\n       fairplay layouts -ladder 'SPEC;SPEC;...' [-replicates R] [-rating-games-per-pairing N] [-top K] [sweep flags] [-compare DIR]\n       fairplay layouts -report DIR [-compare DIR] [-control DIR]",
		"fairplay layouts -layouts distinct -games-per-board 200 -out sweep            # every board up to mirror images, ~2 min",
		"fairplay layouts -layouts sample:500 -a alphabeta:depth=2 -b alphabeta:depth=2 -games-per-board 40 -out ab2",
		"fairplay layouts -layouts all -adaptive -games-per-board 2000 -batch 100 -band 0.47,0.53",
		"fairplay layouts -layouts random:200 -games-per-board 400 -out grids            # random colour grids, not tile placements",
		"fairplay layouts -layouts mylayouts.txt -race fair -a alphabeta:depth=2 -b alphabeta:depth=2 -games-per-board 2000 -batch 50   # which boards are fair, all answers at once",
		"fairplay layouts -layouts sample:20 -race fairest -race-tolerance 0.01 -games-per-board 4000 -out best   # which board is fairest: race.csv",
		"fairplay layouts -layouts distinct -screen sweep -screen-keep 40 -race fairest -a alphabeta:depth=2 -b alphabeta:depth=2   # race the 40 layouts random play puts nearest the band",
		"fairplay layouts -report ab2 -control sweep                                       # ab2's mean White rate over sweep's boards, random play as control variate",
		"fairplay layouts -layouts mylayouts.txt -rules first-move-capture=banned -random-opening 0",
		"fairplay layouts -layouts distinct -games-per-board 200 -branching=false -out fast # random games drawn by rejection: faster, other games",
		"fairplay layouts -layouts distinct -shard 0/4 -out part0                         # then: fairplay merge -out sweep part0 part1 part2 part3",
		"fairplay layouts -report ab2 -compare sweep                                       # rewrite ab2's reports; rank correlation with sweep",
		"fairplay layouts -resume sweep                                                    # finish an interrupted sweep",
		"fairplay layouts -ladder 'random;alphabeta:depth=1;alphabeta:depth=2' -layouts sample:200 -games-per-board 20 -random-opening 4 -replicates 2 -out ladder   # the same boards at three rated levels: ladder.csv, fair-at-every-level.csv",
		"fairplay layouts -ladder 'alphabeta:depth=1;alphabeta:depth=2' -layouts sample:200 -compare sweep -out ladder2   # rank correlation of each level with a random-play sweep",
		"fairplay layouts -ladder 'alphabeta:depth=3;alphabeta:nodes=64000' -layouts sample:100 -games-per-board 6 -rating-list docs/ratings/katarenga.csv -out top   # levels rated from the rating list: White's edge per 100 Elo in ladder_trend.csv",
		"fairplay layouts -resume ladder                                                   # finish an interrupted ladder",
		"fairplay layouts -report ladder                                                   # rewrite a complete ladder's ladder.csv, report.md and plots (nothing replayed)")
	a := fs.String("a", "random", "agent A (with B different, each layout's games are colour-swapped pairs)")
	b := fs.String("b", "random", "agent B")
	set := fs.String("layouts", "distinct", "all (98,304 placements), distinct (one per mirror class), sample:K (placements), random:K (random colour grids), or a file with one layout per line")
	n := fs.Int64("games-per-board", 200, "games per board, that is per layout and seating: a layout is two boards (with -adaptive: the most a board gets)")
	deprecate(fs, "games-per-layout", "games-per-board")
	adaptive := fs.Bool("adaptive", false, "play in batches and stop a board once its 95% interval lies inside or outside the fairness band")
	batch := fs.Int64("batch", 100, "with -adaptive or -race: games per batch (even)")
	band := fs.String("band", "0.45,0.55", "fairness band for White's win rate: low,high")
	rules := fs.String("rules", "", "Katarenga rule switches")
	var opening openingFlag
	registerOpening(fs, &opening)
	branching := fs.Bool("branching", true, "false: random agents and openings draw by rejection sampling (other games, equally uniform, faster; a sweep records no legal counts)")
	report := fs.String("report", "", "only re-derive the reports (layouts.csv, choices.csv, plots) of the complete sweep in this directory (of a ladder: ladder.csv, fair-at-every-level.csv, report.md)")
	compare := fs.String("compare", "", "another sweep's directory: report the rank correlation of White's rates on the boards both played and the change of White's rate there, paired by board")
	var xf raceFlags
	xf.register(fs)
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
	played := []string{*a, *b}
	if lf.spec != "" {
		played = []string{ladderSpec(lf.spec)}
	}
	if err := parsedOnly(ctx, "katarenga", played...); err != nil {
		return err
	}
	if lf.spec != "" || isLadderDir(rf.resume) || isLadderDir(*report) {
		if err := xf.notWith("-ladder"); err != nil {
			return err
		}
		if !*branching {
			return usagef("-branching=false: not supported with -ladder")
		}
		return runLayoutLadder(ctx, fs, &lf, &rf, shard, args, stdout, stderr)
	}
	// A list of layouts is read before the board count is known: under the cap, so that the
	// heap does not grow to twice the list and sweep while both are built.
	defer limitMemory(maxLimitBoards)()
	if *report != "" {
		if err := xf.onlyControl("-report"); err != nil {
			return err
		}
		return reportLayouts(stdout, *report, *compare, xf.control, rf.workers)
	}
	if err := xf.check(*adaptive); err != nil {
		return err
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
		if raceLeftovers(dir) {
			return usagef("-resume %s: no manifest.json, only what a run holds before its first result: an interrupted fairest race, which keeps no partial results (its rounds depend on every board); %s", dir, rerunRace(dir))
		}
		var complete bool
		if shard, complete, err = resumeRun(fs, dir, layouts.SweepKind, &cfg, stderr); err != nil || complete {
			return err
		}
		if cfg.Race == "fairest" {
			return usagef("-resume %s: a fairest race is not resumable (its rounds depend on every board); %s", dir, rerunRace(dir))
		}
		if err := cfg.LoadList(dir); err != nil {
			return usagef("-resume %s", err)
		}
	} else {
		l, h, err := parseBand(*band)
		if err != nil {
			return err
		}
		cfg = layouts.LayoutsConfig{A: *a, B: *b, Layouts: *set, Games: *n, Adaptive: *adaptive || xf.race != "", Batch: *batch,
			BandLow: l, BandHigh: h, Rules: *rules, Seed: rf.seed, RandomOpening: opening.count(false), NoBranching: !*branching,
			Race: xf.race, Tolerance: xf.tolerance}
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
	if xf.screen != "" {
		if sw, err = screenSweep(sw, cfg, &xf, stderr); err != nil {
			return err
		}
	}
	if sw.Cfg.Race == "fairest" && shard.Count > 1 {
		return usagef("-shard: a fairest race plays all its boards in rounds together; it cannot be split into shards")
	}
	sw.Workers = rf.workers
	cfg.List = nil // the sweep holds the boards
	lean()
	if *compare != "" { // the boards both sweeps hold are known before a game is played
		if err := checkShared(sw, *compare); err != nil {
			return err
		}
		sw.CompareTo = *compare
	}
	if dir == "" {
		if dir, err = outDir(rf.out, "layouts"); err != nil {
			return err
		}
	}
	defer limitMemory(sw.NumBoards())()
	fmt.Fprintf(stderr, "fairplay layouts: %d layouts, %d boards, %s vs %s, up to %d games per board (shard %d/%d) -> %s\n",
		sw.NumRows()/2, sw.NumBoards(), sw.Cfg.A, sw.Cfg.B, sw.Cfg.Games, shard.Index, shard.Count, dir)
	sess := runner.Session{Dir: dir, Resume: rf.resume != "", Workers: rf.workers,
		Progress: newProgress(ctx, rf.progress, stderr), Stderr: stderr, Args: append([]string{"fairplay", "layouts"}, args...), Shard: shard}
	run := layouts.RunLayouts
	if sw.Cfg.Race == "fairest" {
		run = layouts.RunRace
	}
	out, err := run(ctx, sw, sess)
	if err != nil {
		return err
	}
	if out.Interrupted && sw.Cfg.Race == "fairest" {
		fmt.Fprintf(stderr, "interrupted: a fairest race keeps no partial results; %s\n", rerunRace(dir))
		return errInterrupted
	}
	fmt.Fprintf(stdout, "%d of %d boards in %s (%s)\n", out.Manifest.Completed, out.Manifest.Planned, dir, out.Manifest.Status)
	if out.Report != nil {
		printLayoutReport(stdout, sw, out.Report)
		if xf.control != "" {
			if err := controlVariate(stdout, dir, xf.control); err != nil {
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

// printLayoutReport prints a sweep's findings and warnings, those of its report.html.
func printLayoutReport(w io.Writer, sw *layouts.Sweep, r *layouts.LayoutReport) {
	fmt.Fprintf(w, "\n%s\n", strings.Join(layouts.LayoutFindings(sw, r), "\n"))
	for _, t := range layouts.LayoutWarnings(r) {
		fmt.Fprintf(w, "warning: %s\n", t.Render(flagName))
	}
}

// reportLayouts re-derives a complete sweep's reports from its boards.csv, with workers
// goroutines for its parallel passes.
func reportLayouts(stdout io.Writer, dir, compare, control string, workers int) error {
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
	if control != "" && sw.Cfg.Adaptive {
		return usagef("-control: not for an adaptive sweep (a board's rate after stopping early is biased; the control variate needs fixed-n rates)")
	}
	sw.Workers = workers
	cfg.List = nil
	lean()
	defer limitMemory(sw.NumBoards())()
	if compare != "" {
		if err := checkShared(sw, compare); err != nil {
			return err
		}
		sw.CompareTo = compare
	}
	rep, _, err := layouts.WriteLayoutReportsFile(dir, sw, filepath.Join(dir, "boards.csv"))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "reports of %s rewritten\n", dir)
	printLayoutReport(stdout, sw, rep)
	if control != "" {
		return controlVariate(stdout, dir, control)
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
func checkCompare(dir string) error { return checkSweepDir("-compare", dir) }

// checkSweepDir makes sure dir, given to the flag name, holds a sweep's readable boards.csv.
func checkSweepDir(name, dir string) error {
	f, err := os.Open(filepath.Join(dir, "boards.csv"))
	if err != nil {
		return usagef("%s %s: %v (want the directory of another layouts sweep)", name, dir, err)
	}
	defer f.Close()
	if _, err := gamefile.NewBoardReader(f); err != nil {
		return usagef("%s %s: %v", name, dir, err)
	}
	return nil
}

// checkShared refuses -compare DIR when DIR's sweep is unreadable or shares no board with sw
// (a usage error: nothing to rank).
func checkShared(sw *layouts.Sweep, other string) error {
	if err := checkCompare(other); err != nil {
		return err
	}
	if _, err := layouts.SharedBoards(sw, filepath.Join(other, "boards.csv"), ""); err != nil {
		if errors.Is(err, layouts.ErrNoSharedBoards) {
			return usagef("-compare %s: %v", other, err)
		}
		return fmt.Errorf("-compare %s: %w", other, err)
	}
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

// raceLeftovers says whether dir is what an interrupted fairest race leaves: no manifest.json
// (a race writes it with its results) and nothing but the session's lock file and the
// layouts list it writes before its first round.
func raceLeftovers(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	lock := false
	for _, e := range entries {
		switch e.Name() {
		case durable.LockName:
			lock = true
		case layouts.LayoutListFile:
		default:
			return false
		}
	}
	return lock
}
