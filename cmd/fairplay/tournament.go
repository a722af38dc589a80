package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/runner"
	"github.com/fairplay-lab/fairplay/study/tournament"
)

func runTournament(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tournament", "-game G -agents 'A;B;C;...' [-gauntlet | -neighbours K] [-games-per-pairing N] [-layout L] [-random-opening N] [-prior P] [-bootstrap B] [-rules k=v,...] [-seed S] [-workers W] [-out DIR] [-shard i/M] [-resume DIR]  |  -combine [-out DIR] TOURNAMENT_OR_MATCH_DIR...",
		"fairplay tournament -game katarenga -agents 'random;greedy;alphabeta:depth=2;mcts:playouts=1000' -games-per-pairing 100 -out kat-rr",
		"fairplay tournament -game baran -agents 'alphabeta:depth=4;alphabeta:depth=2;greedy' -gauntlet -games-per-pairing 200",
		"fairplay tournament -game katarenga -agents 'random;greedy;alphabeta:depth=1;alphabeta:depth=2;alphabeta:depth=3' -neighbours 2 -games-per-pairing 40",
		"fairplay tournament -game baran -agents 'greedy;alphabeta:depth=3' -games-per-pairing 400 -shard 0/2 -out part0   # then part1, and:",
		"fairplay merge -out whole part0 part1",
		"fairplay tournament -resume kat-rr                       # finish an interrupted tournament",
		"fairplay tournament -combine -out all kat-rr kat-mcts    # one rating scale over both tournaments",
		"fairplay tournament -combine -seed 2026 -out kat-list kat-low kat-ab   # a rating list: ratings.csv with every agent's spec, fingerprint and the score against the level below",
		"fairplay tournament -combine -out kat-list2 kat-low kat-ab best-vs-top   # a finished match (fairplay play) counts as one pairing")
	var gf gameFlags
	gf.register(fs, layoutRandom, false)
	gf.layout.aliasFixedLayout(fs)
	agentList := fs.String("agents", "", "agents separated by ';' (the first is the anchor, Elo 0)")
	gauntlet := fs.Bool("gauntlet", false, "pair the first agent with each other agent only (default: every pairing)")
	band := fs.Int("neighbours", 0, "pair each agent only with the next `K` agents of the list (list them by expected strength; 0: every pairing)")
	deprecate(fs, "band", "neighbours")
	n := fs.Int64("games-per-pairing", 100, "games per pairing, in colour-swapped pairs (rounded up to even)")
	deprecate(fs, "games", "games-per-pairing")
	var opening openingFlag
	registerOpening(fs, &opening)
	prior := fs.Float64("prior", 1, "virtual draws added to every pairing in the rating fit (keeps ratings finite after a perfect score; 0: plain maximum likelihood)")
	boot := fs.Int("bootstrap", 1000, "bootstrap resamples of the pairs for the 95% rating intervals (0: none)")
	combine := fs.Bool("combine", false, "fit one rating scale over the finished tournament and match directories given as arguments (with -out, -prior, -bootstrap, -seed)")
	var rf runFlags
	rf.register(fs)
	fs.SetOutput(stderr)
	dirs, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if err := checkParsed(fs); err != nil {
		return err
	}
	if *combine {
		if err := parsedOnly(ctx, gf.game); err != nil {
			return err
		}
		return combineTournaments(dirs, rf, *prior, *boot, args, stdout)
	}
	if len(dirs) > 0 {
		return usagef("tournament: unexpected argument %q (tournament directories go with -combine)", dirs[0])
	}
	shard, err := rf.check(shardEnv(ctx))
	if err != nil {
		return err
	}
	if err := parsedOnly(ctx, gf.game, *agentList); err != nil {
		return err
	}
	var cfg tournament.TournamentConfig
	dir := rf.resume
	if dir != "" {
		var complete bool
		if shard, complete, err = resumeRun(fs, dir, tournament.TournamentKind, &cfg, stderr); err != nil || complete {
			return err
		}
		if cfg.Kind != tournament.TournamentKind {
			return usagef("-resume %s: not a tournament (resume it with its own command)", dir)
		}
	} else {
		if *n <= 0 {
			return usagef("-games-per-pairing %d: want a positive number", *n)
		}
		layout, random, err := gf.board(false)
		if err != nil {
			return err
		}
		cfg = tournament.TournamentConfig{Game: gf.game, Rules: gf.rules, Layout: layout, Gauntlet: *gauntlet, Band: *band,
			Games: *n + *n%2, Seed: rf.seed, RandomOpening: opening.count(random), Prior: *prior, Bootstrap: *boot,
			RandomLayouts: random}
		if cfg.Agents, err = splitSpecs("agents", *agentList); err != nil {
			return err
		}
		tiles, err := gf.tilesText()
		if err != nil {
			return err
		}
		cfg.Tiles = tiles
		if _, err := matchFor(runner.MatchConfig{Game: cfg.Game, Rules: cfg.Rules, Layout: cfg.Layout, Tiles: cfg.Tiles,
			A: "random", B: "random", Games: 2}); err != nil {
			return err
		}
		if cfg, err = tournament.NewTournamentConfig(cfg); err != nil {
			return usageErr(err)
		}
	}
	ts, err := tilesFor(cfg.Tiles)
	if err != nil {
		return usagef("-tiles: %v", err)
	}
	if dir == "" {
		if dir, err = outDir(rf.out, "tournament-"+cfg.Game); err != nil {
			return err
		}
	}
	fmt.Fprintf(stderr, "fairplay tournament: %s, %d agents, %d pairings × %d games (shard %d/%d), seed %d -> %s\n",
		cfg.Game, len(cfg.Agents), len(cfg.Pairings()), cfg.Games, shard.Index, shard.Count, cfg.Seed, dir)
	out, err := tournament.RunTournament(ctx, cfg, ts, runner.Session{Dir: dir, Resume: rf.resume != "", Workers: rf.workers,
		Progress: newProgress(ctx, rf.progress, stderr), Stderr: stderr, Args: append([]string{"fairplay", "tournament"}, args...), Shard: shard})
	if err != nil {
		return err
	}
	if out.Interrupted {
		fmt.Fprintf(stderr, "interrupted with %d of %d pairings complete (every finished game kept); finish with: fairplay tournament -resume %s\n", len(out.Summaries), len(cfg.Pairings()), dir)
		return errInterrupted
	}
	fmt.Fprintf(stdout, "%s\nResults in %s: ratings.csv, pairings.csv, report.md, ratings.png/.svg%s, pairings/*/games.csv\n", out.Report, dir, curveFiles(out))
	if shard.Count > 1 {
		fmt.Fprintf(stdout, "This is shard %d/%d: its ratings use only its own games; join the shards with fairplay merge -out DIR SHARD_DIR...\n", shard.Index, shard.Count)
	}
	return nil
}

// mergeTournament merges the shard directories of a tournament (checked and in shard order)
// into out, for fairplay merge.
func mergeTournament(_ context.Context, job mergeJob) error {
	dirs, out, args, stdout := job.dirs, job.out, job.args, job.stdout
	var cfg tournament.TournamentConfig
	if _, err := loadResume(dirs[0], tournament.TournamentKind, &cfg); err != nil {
		return err
	}
	ts, err := tilesFor(cfg.Tiles)
	if err != nil {
		return err
	}
	dir, err := outDir(out, "merge")
	if err != nil {
		return err
	}
	res, err := tournament.MergeTournament(cfg, ts, dirs, dir, append([]string{"fairplay", "merge"}, args...))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d pairings merged from %d shards into %s\n\n%s", len(res.Summaries), len(dirs), filepath.Clean(dir), res.Report)
	return nil
}

// combineTournaments is fairplay tournament -combine: one rating fit over finished tournaments.
func combineTournaments(dirs []string, rf runFlags, prior float64, boot int, args []string, stdout io.Writer) error {
	if len(dirs) == 0 {
		return usagef("-combine: give the directories of finished tournaments or matches")
	}
	if prior < 0 || boot < 0 {
		return usagef("-prior %v, -bootstrap %d: want 0 or more", prior, boot)
	}
	// Every source is checked before -out is made: a wrong directory is a usage error that
	// leaves nothing behind.
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "manifest.json")); err != nil {
			return usagef("-combine: %s is not a run directory (%v)", d, err)
		}
		man, k, err := readRunManifest("-combine", d, "")
		if err != nil {
			return err
		}
		if k.kind != tournament.TournamentKind && k.kind != runner.MatchKind {
			return usagef("-combine %s: it holds a %s run; -combine fits tournaments and matches (fairplay play)", d, runName(man, k))
		}
		if k.kind == runner.MatchKind {
			var m runner.MatchConfig
			if err := json.Unmarshal(man.Config, &m); err == nil && m.A == m.B {
				return usagef("-combine %s: a match of %s against itself rates nothing", d, agents.ShortSpec(m.A))
			}
			if _, _, err := gamefile.FindGames(d); err != nil {
				return usagef("-combine %s: %v", d, err)
			}
		}
		if isSPRT(man) {
			return usagef("-combine %s: a sequential test stops when its decision is reached, so its games are not a fixed sample to rate from; combine matches of a fixed number of games (fairplay play)", d)
		}
		if man.Status != "complete" {
			return usagef("-combine %s: the %s is %s (shard %d of %d): finish it with fairplay %s -resume %s, or merge its shards, first", d, runName(man, k), man.Status, man.Shard, man.Shards, commandOf(man, k), d)
		}
		if man.Shards != 1 {
			return usagef("-combine %s: the %s is shard %d of %d: merge its shards first (fairplay merge)", d, runName(man, k), man.Shard, man.Shards)
		}
	}
	if err := tournament.CheckCombine(dirs); err != nil {
		return usageErr(fmt.Errorf("-combine: %w", err))
	}
	dir, err := outDir(rf.out, "ratings")
	if err != nil {
		return err
	}
	out, err := tournament.CombineTournaments(dirs, prior, boot, rf.seed, dir, append([]string{"fairplay", "tournament"}, args...))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s\nResults in %s: ratings.csv (the rating list: specs, fingerprints, steps), pairings.csv, report.md, ratings.png/.svg%s\n", out.Report, dir, curveFiles(out))
	return nil
}

// curveFiles names the strength-curve outputs of a tournament for its closing line ("" when
// no agents differ in one budget alone).
func curveFiles(out *tournament.TournamentOutcome) string {
	if len(out.Curves) == 0 {
		return ""
	}
	var plots []string
	for _, f := range out.Outputs {
		if strings.HasPrefix(f, "curve_") && strings.HasSuffix(f, ".png") {
			plots = append(plots, strings.TrimSuffix(f, ".png")+".png/.svg")
		}
	}
	return ", curve.csv (strength curves), " + strings.Join(plots, ", ")
}
