package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fairplay-lab/fairplay/runner"
	"github.com/fairplay-lab/fairplay/study/variants"
)

// defaultVariantLadder is the strength ladder of `fairplay variants`, weakest first: five
// levels from both searcher families (MCTS, and alpha-beta), each cheap enough for a few
// hundred games per cell. Measured on the shared 2-core machine (one worker, self-play,
// seconds per game, Katarenga / Baran): greedy 0.06 / 0.03, mcts:playouts=1000,cutoff=4
// 0.10 / 0.53, alphabeta:depth=2 0.13 / 0.17, alphabeta:depth=3 0.52 / 1.15
// (alphabeta:depth=4 3.0 / 6.0 was too slow for a default). The order follows the in-run
// ratings of the Katarenga first-move study (docs/baran-variants.md, 60 games per pairing,
// today's agents): greedy +574, alphabeta:depth=2 +1098, MCTS +1256, alphabeta:depth=3
// +1284. `cutoff` only acts on random or heuristic rollouts; it is kept so that the level's
// name matches the published studies.
const defaultVariantLadder = "random;greedy;alphabeta:depth=2;mcts:playouts=1000,cutoff=4;alphabeta:depth=3"

// varyFlag collects repeated -vary NAME=v1,v2 flags.
type varyFlag []variants.Vary

func (v *varyFlag) String() string {
	var parts []string
	for _, x := range *v {
		parts = append(parts, x.Name+"="+strings.Join(x.Values, ","))
	}
	return strings.Join(parts, " ")
}

func (v *varyFlag) Set(s string) error {
	name, vals, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(name) == "" || strings.TrimSpace(vals) == "" {
		return fmt.Errorf("%q: want NAME=value1,value2[,...]", s)
	}
	x := variants.Vary{Name: strings.TrimSpace(name)}
	for _, val := range strings.Split(vals, ",") {
		x.Values = append(x.Values, strings.TrimSpace(val))
	}
	*v = append(*v, x)
	return nil
}

func runVariants(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("variants", "-game G -vary NAME=v1,v2[,...] [-vary ...] [-ladder 'SPEC;SPEC;...'] [-games-per-cell N] [-rating-games-per-pairing N] [-race fair|fairest [-band LOW,HIGH] [-race-tolerance D] [-batch N]] [-rules k=v,...] [-seed S] [-workers W] [-out DIR] [-resume DIR]",
		"fairplay variants -game baran -vary capture=huff,strict,free -ladder 'random;greedy;alphabeta:depth=2' -games-per-cell 400 -out baran-capture",
		"fairplay variants -game baran -vary chain-capture=whole,per-jump -vary fast-row=3,4 -games-per-cell 200",
		"fairplay variants -game katarenga -vary first-move-capture=allowed,banned -games-per-cell 1000   # a random tile placement per pair",
		"fairplay variants -game katarenga -vary first-move-capture=allowed,banned -ladder 'random;greedy;alphabeta:depth=1;alphabeta:depth=2' -games-per-cell 100 -rating-games-per-pairing 60   # level_elo, strength_trend.csv",
		"fairplay variants -game baran -vary capture=huff,strict -ladder 'alphabeta:depth=2;alphabeta:nodes=3000,net=builtin' -games-per-cell 600 -rating-list docs/ratings/baran.csv   # levels rated from the rating list, no round robin",
		"fairplay variants -game baran -vary capture=huff,strict,free -ladder 'alphabeta:depth=2' -race fairest -games-per-cell 4000 -batch 200   # which setting is fairest at that level: races.csv",
		"fairplay variants -game baran -vary capture=huff,strict,free -vary fast-row=3,4 -ladder 'greedy;alphabeta:depth=2' -race fair -band 0.45,0.55 -games-per-cell 2000   # which settings are fair, at each level",
		"fairplay variants -resume baran-capture            # finish an interrupted study")
	var gf gameFlags
	gf.register(fs, layoutRandom, false)
	gf.layout.aliasFixedLayout(fs)
	var vary varyFlag
	fs.Var(&vary, "vary", "a rule switch and the values to compare, NAME=v1,v2 (repeat for a factorial design)")
	ladder := fs.String("ladder", defaultVariantLadder, "agents of increasing strength, separated by ';' (each cell is self-play; the levels are rated against each other, see -rating-games-per-pairing). Seconds per game measured on a shared 2-core machine, Katarenga / Baran: greedy 0.06 / 0.03, mcts:playouts=1000,cutoff=4 0.10 / 0.53, alphabeta:depth=2 0.13 / 0.17, alphabeta:depth=3 0.52 / 1.15, alphabeta:depth=4 3.0 / 6.0")
	n := fs.Int64("games-per-cell", 200, "games per cell (variant combination × level), in colour-swapped pairs (rounded up to even)")
	deprecate(fs, "games", "games-per-cell")
	ratingGames := fs.Int64("rating-games-per-pairing", variants.DefaultRatingGames, "games per pairing of the round robin that rates the ladder's levels on the baseline rules (the first value of each -vary), in colour-swapped pairs; 0: no level ratings and no strength_trend.csv")
	ratingBoot := fs.Int("rating-bootstrap", variants.DefaultRatingBootstrap, "bootstrap resamples for the level ratings' 95% intervals")
	deprecate(fs, "rating-games", "rating-games-per-pairing")
	ratingList := fs.String("rating-list", "", "rate the levels from this rating list (a ratings.csv with the list's columns, such as docs/ratings/baran.csv) instead of a round robin; every level must be on it with the fingerprint it plays with; -rating-games-per-pairing is then 0")
	var opening openingFlag
	registerOpening(fs, &opening)
	var race variantRaceFlags
	race.register(fs)
	var rf runFlags
	rf.register(fs)
	if err := rf.parseUnsharded(fs, args, stderr, "-shard: shard a study by running one fairplay play per cell; variants runs whole"); err != nil {
		return err
	}
	if err := parsedOnly(ctx, gf.game, *ladder); err != nil {
		return err
	}
	var cfg variants.VariantsConfig
	dir := rf.resume
	if dir != "" {
		if err := refuseRaceResume(dir); err != nil {
			return err
		}
		if _, complete, err := resumeRun(fs, dir, variants.VariantsKind, &cfg, stderr); err != nil || complete {
			return err
		}
	} else {
		if *n <= 0 {
			return usagef("-games-per-cell %d: want a positive number", *n)
		}
		if *ratingGames < 0 || *ratingBoot < 0 {
			return usagef("-rating-games-per-pairing %d, -rating-bootstrap %d: want 0 or more", *ratingGames, *ratingBoot)
		}
		layout, random, err := gf.board(false)
		if err != nil {
			return err
		}
		cfg = variants.VariantsConfig{Game: gf.game, Rules: gf.rules, Layout: layout, Vary: vary,
			Games: *n + *n%2, Seed: rf.seed, RandomOpening: opening.count(random), RatingGames: *ratingGames + *ratingGames%2, RatingBootstrap: *ratingBoot,
			RandomLayouts: random}
		ladderSpecs, err := splitSpecs("ladder", *ladder)
		if err != nil {
			return err
		}
		cfg.Ladder = ladderSpecs
		if *ratingList != "" {
			set := false
			fs.Visit(func(f *flag.Flag) { set = set || f.Name == "rating-games-per-pairing" })
			if set && *ratingGames > 0 {
				return usagef("-rating-games-per-pairing %d: not with -rating-list (the levels are rated by the list)", *ratingGames)
			}
			cfg.RatingGames = 0
			if cfg.RatingList, err = readLevelList(*ratingList, gf.game, ladderSpecs); err != nil {
				return err
			}
		}
		tiles, err := gf.tilesText()
		if err != nil {
			return err
		}
		cfg.Tiles = tiles
		if err := race.apply(fs, &cfg); err != nil {
			return err
		}
		if cfg, err = variants.NewVariantsConfig(cfg); err != nil {
			return usageErr(err)
		}
	}
	ts, err := tilesFor(cfg.Tiles)
	if err != nil {
		return usagef("-tiles: %v", err)
	}
	if dir == "" {
		if dir, err = outDir(rf.out, "variants-"+cfg.Game); err != nil {
			return err
		}
	}
	cells, _ := cfg.Cells()
	sess := runner.Session{Dir: dir, Resume: rf.resume != "", Workers: rf.workers,
		Progress: newProgress(ctx, rf.progress, stderr), Stderr: stderr, Args: append([]string{"fairplay", "variants"}, args...)}
	if cfg.Race != "" {
		return runVariantRace(ctx, cfg, ts, sess, len(cells), stdout, stderr)
	}
	fmt.Fprintf(stderr, "fairplay variants: %s, %d cells × %d games, seed %d -> %s\n", cfg.Game, len(cells), cfg.Games, cfg.Seed, dir)
	out, err := variants.RunVariants(ctx, cfg, ts, sess)
	if err != nil {
		return err
	}
	if out.Interrupted {
		fmt.Fprintf(stderr, "interrupted after %d of %d cells (finished games kept); finish with: fairplay variants -resume %s\n", len(out.Cells), len(cells), dir)
		return errInterrupted
	}
	report, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s\nResults in %s: %s\n", report, dir, variantsResults(cfg, out.Outputs))
	return nil
}

// variantsResults lists what a finished variant study wrote (outputs: its manifest's): the
// strength trend's files only when it fitted one (levels rated, at least two measured against
// each other), ratings/ only when it played rating games.
func variantsResults(cfg variants.VariantsConfig, outputs []string) string {
	trend := slices.Contains(outputs, "strength_trend.csv")
	files := "variants.csv, differences.csv"
	if trend {
		files += ", strength_trend.csv"
	}
	files += ", report.md, report.html, variants_*.png/.svg"
	if trend {
		files += ", strength_*.png/.svg"
	}
	if cfg.RatingGames > 0 && len(cfg.Ladder) > 1 && len(cfg.RatingList) == 0 {
		files += ", ratings/"
	}
	return files + ", cells/"
}

// splitSpecs splits a ';'-separated list of agent specs, trimming surrounding space. An empty
// item ('random;;greedy', 'a;b;') is refused, naming the flag.
func splitSpecs(flagName, list string) ([]string, error) {
	return splitList(flagName, list, ";", false)
}

// splitList splits the list a flag was given at sep, trimming surrounding space: an empty item
// is refused, and with distinct a repeated one, each naming the flag and the item's position.
func splitList(flagName, list, sep string, distinct bool) ([]string, error) {
	var out []string
	seen := map[string]int{}
	for i, a := range strings.Split(list, sep) {
		a = strings.TrimSpace(a)
		if a == "" {
			return nil, usagef("-%s %q: item %d is empty", flagName, list, i+1)
		}
		if j, ok := seen[a]; ok && distinct {
			return nil, usagef("-%s %q: %s is given twice (items %d and %d)", flagName, list, a, j+1, i+1)
		}
		seen[a] = i
		out = append(out, a)
	}
	return out, nil
}
