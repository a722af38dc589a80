package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/runner"
	"github.com/fairplay-lab/fairplay/study/layouts"
	"github.com/fairplay-lab/fairplay/study/variants"
	"github.com/fairplay-lab/fairplay/tally"

	"github.com/fairplay-lab/fairplay/gamefile"
)

// ladderFlags are the flags of `fairplay layouts -ladder`.
type ladderFlags struct {
	spec        string
	replicates  int
	ratingGames int64
	ratingBoot  int
	ratingList  string
	top         int
}

func (l *ladderFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&l.spec, "ladder", "", "play the sweep at several strength levels: agents weakest first, separated by ';' (each level self-play on the same boards, its own seeds; rated on one scale); writes DIR/level-K/, ladder.csv, fair-at-every-level.csv, report.md, report.html; 'default' is variants' five-level ladder from both searcher families, "+defaultVariantLadder+"")
	fs.IntVar(&l.replicates, "replicates", 1, "with -ladder: independent sweeps per level (2 measures the noise ceiling: the rank correlation between replicates)")
	fs.Int64Var(&l.ratingGames, "rating-games-per-pairing", variants.DefaultRatingGames, "with -ladder: games per pairing of the round robin that rates the levels (colour-swapped pairs, random tile placements); 0: not rated")
	deprecate(fs, "rating-games", "rating-games-per-pairing")
	fs.IntVar(&l.ratingBoot, "rating-bootstrap", variants.DefaultRatingBootstrap, "with -ladder: bootstrap resamples for the level ratings' 95% intervals")
	fs.StringVar(&l.ratingList, "rating-list", "", "with -ladder: rate the levels from this rating list (a ratings.csv with the list's columns, such as docs/ratings/katarenga.csv) instead of a round robin; every level must be on it with the fingerprint it plays with; -rating-games-per-pairing is then 0")
	fs.IntVar(&l.top, "top", layouts.DefaultLadderTop, "with -ladder: boards in the held-out top list fair-at-every-level.csv")
}

// isLadderDir reports whether dir holds a layout ladder (its manifest's kind says so).
func isLadderDir(dir string) bool {
	if dir == "" {
		return false
	}
	man, err := gamefile.ReadManifest(filepath.Join(dir, "manifest.json"))
	return err == nil && man.Kind == layouts.LayoutLadderKind
}

// runLayoutLadder is `fairplay layouts -ladder` (and -resume of a ladder's directory): the
// sweep flags of fs decide the sweep played at every level.
func runLayoutLadder(ctx context.Context, fs *flag.FlagSet, lf *ladderFlags, rf *runFlags, shard runner.Shard, args []string, stdout, stderr io.Writer) error {
	if shard.Count != 1 {
		return usagef("-shard: a ladder runs whole (shard a level by running fairplay layouts -a SPEC -b SPEC per level)")
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	val := func(name string) string { return fs.Lookup(name).Value.String() }
	var cfg layouts.LayoutLadderConfig
	dir := rf.resume
	if rep := val("report"); rep != "" && lf.spec == "" {
		// Re-derive a complete ladder's reports: every level and the ratings are re-read (nothing
		// is played) and ladder.csv, fair-at-every-level.csv, report.md and the plots rewritten.
		man, err := loadRun("-report", rep, layouts.LayoutLadderKind, &cfg)
		if err != nil {
			return err
		}
		if set["rating-list"] {
			return usagef("-rating-list %s: a ladder's level ratings are fixed when it starts; drop -rating-list (start a new ladder to rate it from a list)", lf.ratingList)
		}
		if set["compare"] && val("compare") != cfg.Compare {
			return usagef("-compare %s: a ladder's reference sweep is fixed when it starts (%q); drop -compare", val("compare"), cfg.Compare)
		}
		if man.Status != "complete" {
			return usagef("-report %s: the ladder is %s; finish it first with -resume", rep, man.Status)
		}
		if err := cfg.Sweep.LoadList(rep); err != nil {
			return usagef("-report %s", err)
		}
		dir = rep
	} else if dir != "" {
		if _, complete, err := resumeRun(fs, dir, layouts.LayoutLadderKind, &cfg, stderr); err != nil || complete {
			return err
		}
		if err := cfg.Sweep.LoadList(dir); err != nil {
			return usagef("-resume %s", err)
		}
	} else {
		for _, bad := range []string{"a", "b", "adaptive", "batch", "report"} {
			if set[bad] {
				return usagef("-%s: not with -ladder (every level is self-play of its agent on the same boards and games per board)", bad)
			}
		}
		l, h, err := parseBand(val("band"))
		if err != nil {
			return err
		}
		n, err := strconv.ParseInt(val("games-per-board"), 10, 64)
		if err != nil {
			return usagef("-games-per-board %q: %v", val("games-per-board"), err)
		}
		opening := fs.Lookup("random-opening").Value.(*openingFlag).count(false) // every board is one start
		sweep := layouts.LayoutsConfig{Layouts: val("layouts"), Games: n, BandLow: l, BandHigh: h, Rules: val("rules"),
			Seed: rf.seed, RandomOpening: opening, Batch: 2}
		switch s := sweep.Layouts; {
		case s == "all", s == "distinct", strings.HasPrefix(s, "sample:"), strings.HasPrefix(s, "random:"):
		default:
			list, err := layouts.ParseLayoutList(s)
			if err != nil {
				return usagef("-layouts: %v", err)
			}
			sweep.SetList(list)
		}
		if lf.ratingGames < 0 {
			return usagef("-rating-games-per-pairing %d: want 0 (levels not rated) or more", lf.ratingGames)
		}
		if c := val("compare"); c != "" {
			if err := layouts.CheckLadderCompare(c); err != nil {
				return usageErr(err)
			}
		}
		levels, err := splitSpecs("ladder", ladderSpec(lf.spec))
		if err != nil {
			return err
		}
		cfg = layouts.LayoutLadderConfig{Sweep: sweep, Ladder: levels, Replicates: lf.replicates,
			RatingGames: lf.ratingGames + lf.ratingGames%2, RatingBootstrap: lf.ratingBoot, Compare: val("compare"), Top: lf.top}
		if lf.ratingList != "" {
			if set["rating-games-per-pairing"] && lf.ratingGames > 0 {
				return usagef("-rating-games-per-pairing %d: not with -rating-list (the levels are rated by the list)", lf.ratingGames)
			}
			cfg.RatingGames = 0
			if cfg.RatingList, err = readLevelList(lf.ratingList, "katarenga", levels); err != nil {
				return err
			}
		}
		if cfg, err = layouts.NewLayoutLadderConfig(cfg); err != nil {
			return usageErr(err)
		}
		if cfg.Compare != "" { // every level plays the same boards: refuse a reference that shares none, as a sweep does
			sw, err := layouts.NewSweep(cfg.LevelSweep(0, 0))
			if err != nil {
				return usageErr(err)
			}
			if err := checkShared(sw, cfg.Compare); err != nil {
				return err
			}
		}
		if dir, err = outDir(rf.out, "layouts-ladder"); err != nil {
			return err
		}
	}
	if cfg.Compare != "" {
		if err := layouts.CheckLadderCompare(cfg.Compare); err != nil {
			return err
		}
	}
	fmt.Fprintf(stderr, "fairplay layouts -ladder: %d levels × %d replicate(s), %s, %d games per board -> %s\n",
		len(cfg.Ladder), cfg.Replicates, orList(cfg), cfg.Sweep.Games, dir)
	out, err := layouts.RunLayoutLadder(ctx, cfg, runner.Session{Dir: dir, Resume: rf.resume != "" || val("report") != "", Workers: rf.workers,
		Progress: newProgress(ctx, rf.progress, stderr), Stderr: stderr, Args: append([]string{"fairplay", "layouts"}, args...)})
	if err != nil {
		return err
	}
	if out.Interrupted {
		fmt.Fprintf(stderr, "interrupted: finished boards kept; finish with: fairplay layouts -resume %s\n", dir)
		return errInterrupted
	}
	report, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		return err
	}
	files := "ladder.csv, "
	if slices.Contains(out.Outputs, "ladder_trend.csv") {
		files += "ladder_trend.csv, "
	}
	files += "fair-at-every-level.csv, report.md, ladder_*.png/.svg, report.html, level-*/"
	if out.Rated != nil {
		files += ", ratings/"
	}
	fmt.Fprintf(stdout, "%s\nResults in %s: %s\n", report, dir, files)
	return nil
}

// readLevelList reads a rating list (-rating-list) and keeps its entries of game whose spec,
// with every parameter, is one of the levels' (several versions of one agent may be kept: the
// run picks the one with the fingerprint the level plays with). A level with no entry is a
// usage error naming it.
func readLevelList(path, game string, levels []string) ([]tally.ListRating, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usagef("-rating-list: %v", err)
	}
	defer f.Close()
	list, err := tally.ReadRatingList(f)
	if err != nil {
		return nil, usagef("-rating-list %s: %v", path, err)
	}
	var keep []tally.ListRating
	for l, spec := range levels {
		a, err := agents.Parse(spec)
		if err != nil {
			return nil, usagef("-ladder: level %d (%s): %v", l+1, spec, err)
		}
		expanded, found := agents.Expand(a), false
		for _, e := range list {
			if e.Game == game && e.Spec == expanded {
				keep, found = append(keep, e), true
			}
		}
		if !found {
			return nil, usagef("-rating-list %s: level %d (%s) is not on the list: no %s entry with the spec %s", path, l+1, spec, game, expanded)
		}
	}
	return keep, nil
}

func orList(cfg layouts.LayoutLadderConfig) string {
	if cfg.Sweep.Layouts == "list" {
		return fmt.Sprintf("%d layouts", cfg.Sweep.ListLen)
	}
	return cfg.Sweep.Layouts + " layouts"
}

// ladderSpec resolves -ladder's value: "default" names the default ladder of `fairplay variants`
// (five levels from both searcher families); anything else is a list of agents.
func ladderSpec(v string) string {
	if v == "default" {
		return defaultVariantLadder
	}
	return v
}
