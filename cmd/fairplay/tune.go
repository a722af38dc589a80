package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/fairplay-lab/fairplay/runner"
	"github.com/fairplay-lab/fairplay/study/tune"

	"github.com/fairplay-lab/fairplay/stats"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/engine/games"
)

func runTune(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tune", "-game G -agent SPEC [-params name,...] [-iterations K] [-games-per-iteration 2] [-c 0.05] [-r-end 0.02] [-seed S] [-out DIR] [-resume DIR] [-sprt-elo0 0 -sprt-elo1 10 -sprt-max-pairs 3000 | -no-sprt]",
		"fairplay tune -game katarenga -agent greedy -iterations 2000 -out tune-greedy",
		"fairplay tune -game baran -agent alphabeta:depth=2 -params king_distance,king_entry,threats -iterations 500",
		"fairplay tune -resume tune-greedy                # finish an interrupted run")
	var gf gameFlags
	gf.register(fs, layoutRandom, false)
	gf.layout.aliasRandomLayouts(fs)
	agent := fs.String("agent", "alphabeta:depth=2", "the agent whose heuristic weights are tuned (greedy, alphabeta or mcts; weights=FILE sets the start)")
	params := fs.String("params", "", "comma-separated weights to tune (default: all of the heuristic's weights; run 'fairplay agents')")
	iters := fs.Int("iterations", 1000, "SPSA iterations K")
	gpi := fs.Int64("games-per-iteration", 2, "games of θ+ against θ− per iteration (colour-swapped pairs)")
	c := fs.Float64("c", 0.05, "perturbation at the last iteration, as a fraction of each weight's range (fishtest c_end)")
	rEnd := fs.Float64("r-end", 0.02, "fishtest r_end = a_end/c_end²: the last step is r_end·c_end per game point")
	var opening openingFlag
	registerOpening(fs, &opening)
	noSPRT := fs.Bool("no-sprt", false, "skip the SPRT of the tuned against the starting weights")
	test := stats.SPRT{Alpha: 0.05, Beta: 0.05}
	fs.Float64Var(&test.Elo0, "sprt-elo0", 0, "SPRT H0 bound (nElo with -sprt-model normalized)")
	fs.Float64Var(&test.Elo1, "sprt-elo1", 10, "SPRT H1 bound")
	fs.StringVar(&test.Model, "sprt-model", "normalized", "SPRT Elo model: normalized or logistic")
	maxPairs := fs.Int64("sprt-max-pairs", 3000, "SPRT cap in pairs")
	var rf runFlags
	rf.register(fs)
	if err := rf.parseUnsharded(fs, args, stderr, "-shard: SPSA iterations depend on each other and cannot be sharded"); err != nil {
		return err
	}
	if err := parsedOnly(ctx, gf.game, *agent); err != nil {
		return err
	}
	var cfg tune.TuneConfig
	dir := rf.resume
	if dir != "" {
		if _, complete, err := resumeRun(fs, dir, tune.TuneKind, &cfg, stderr); err != nil || complete {
			if complete {
				fmt.Fprintf(stderr, "an interrupted SPRT of the tuned weights resumes with fairplay sprt -resume %s\n", filepath.Join(dir, "sprt"))
			}
			return err
		}
	} else {
		switch {
		case *iters < 1:
			return usagef("-iterations %d: want at least 1", *iters)
		case *gpi <= 0 || *gpi%2 != 0:
			return usagef("-games-per-iteration %d: want a positive even number (colour-swapped pairs)", *gpi)
		case !(*c > 0 && *c <= 0.5):
			return usagef("-c %g: want a fraction of the range in (0, 0.5]", *c)
		case !(*rEnd > 0):
			return usagef("-r-end %g: want a positive number", *rEnd)
		case *maxPairs <= 0:
			return usagef("-sprt-max-pairs %d: want a positive number", *maxPairs)
		}
		if err := test.Check(); err != nil {
			return usagef("-sprt: %v", err)
		}
		if err := sprtRange(test, "-sprt-elo0", "-sprt-elo1"); err != nil {
			return err
		}
		layout, random, err := gf.board(false)
		if err != nil {
			return err
		}
		cfg = tune.TuneConfig{Game: gf.game, Rules: gf.rules, Layout: layout, Agent: *agent,
			Iterations: *iters, GamesPerIteration: *gpi, Seed: rf.seed, RandomOpening: opening.count(random), C: *c, REnd: *rEnd, RandomLayouts: random}
		if !*noSPRT {
			cfg.SPRT, cfg.SPRTMaxPairs = &test, *maxPairs
		}
		tiles, err := gf.tilesText()
		if err != nil {
			return err
		}
		cfg.Tiles = tiles
		var names []string
		if *params != "" {
			if names, err = splitList("params", *params, ",", true); err != nil {
				return err
			}
		}
		if cfg, err = tune.NewTuneConfig(cfg, names); err != nil {
			return usageErr(err)
		}
	}
	ts, err := tilesFor(cfg.Tiles)
	if err != nil {
		return usagef("-tiles: %v", err)
	}
	gm, err := games.New(cfg.Game, cfg.Rules, cfg.Layout, ts)
	if err != nil {
		return usageErr(err)
	}
	cfg.Rules, cfg.Layout = gm.Rules(), gm.Layout()
	if dir == "" {
		if dir, err = outDir(rf.out, "tune-"+cfg.Game); err != nil {
			return err
		}
	}
	fmt.Fprintf(stderr, "fairplay tune: %s %s, %d weights, %d iterations × %d games, seed %d -> %s\n",
		cfg.Game, agents.ShortSpec(cfg.Agent), len(cfg.Params), cfg.Iterations, cfg.GamesPerIteration, cfg.Seed, dir)
	out, err := tune.RunTune(ctx, cfg, gm, runner.Session{Dir: dir, Resume: rf.resume != "", Workers: rf.workers,
		Progress: newProgress(ctx, rf.progress, stderr), Stderr: stderr, Args: append([]string{"fairplay", "tune"}, args...)})
	if err != nil {
		return err
	}
	if out.Interrupted {
		fmt.Fprintf(stderr, "interrupted after %d of %d iterations (kept in %s/trajectory.csv); finish with: fairplay tune -resume %s\n",
			out.Iterations, cfg.Iterations, dir, dir)
		return errInterrupted
	}
	fmt.Fprintf(stdout, "SPSA %s, agent %s: %d iterations × %d games, seed %d, results in %s\n\n", cfg.Game, agents.ShortSpec(cfg.Agent), cfg.Iterations, cfg.GamesPerIteration, cfg.Seed, dir)
	fmt.Fprintf(stdout, "%-16s %10s %10s %10s   %s\n", "weight", "start", "tuned", "change", "bounds")
	for _, p := range cfg.Params {
		i := out.Start.Index(p)
		s, t := out.Start[i], out.Tuned[i]
		fmt.Fprintf(stdout, "%-16s %10.4g %10.4g %+10.3g   [%g, %g]\n", p, s.Value, t.Value, t.Value-s.Value, s.Min, s.Max)
	}
	fmt.Fprintln(stdout)
	for _, w := range tune.TuneWarnings(cfg, out) { // those of report.html
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	if cfg.SPRT == nil {
		return nil
	}
	if err := tunedSPRT(ctx, cfg, gm, *cfg.SPRT, 2*cfg.SPRTMaxPairs, dir, rf, stdout, stderr); err != nil {
		return err
	}
	_, err = tune.WriteTunePage(dir, cfg, out) // now with the SPRT's verdict
	return err
}

// tunedSPRT tests the tuned weights against the starting ones in dir/sprt, out of sample: on
// games seeded apart from every tuning game (the weights were selected on those), scored by
// pairs (pentanomial).
func tunedSPRT(ctx context.Context, cfg tune.TuneConfig, gm *games.Game, test stats.SPRT, games int64, dir string, rf runFlags, stdout, stderr io.Writer) error {
	a, err := agents.WithWeightsFile(cfg.Agent, filepath.Join(dir, "tuned.json"))
	if err != nil {
		return usageErr(err)
	}
	b, err := agents.WithWeightsFile(cfg.Agent, filepath.Join(dir, "start.json"))
	if err != nil {
		return usageErr(err)
	}
	m, err := runner.NewMatch(runner.MatchConfig{Game: cfg.Game, Rules: cfg.Rules, Layout: cfg.Layout, Tiles: cfg.Tiles,
		A: a, B: b, Games: games, Seed: tune.HeldOutSeed(cfg.Seed), RandomOpening: max(cfg.RandomOpening, 1), SPRT: &test, RandomLayouts: cfg.RandomLayouts}, gm)
	if err != nil {
		return usageErr(err)
	}
	sub := filepath.Join(dir, "sprt")
	if err := runner.CheckDir(sub); err != nil {
		return err
	}
	sess := runner.Session{Dir: sub, Workers: rf.workers, Progress: newProgress(ctx, rf.progress, stderr), Stderr: stderr,
		Args: []string{"fairplay", "tune", "(sprt of tuned vs start)"}, Shard: runner.Shard{Index: 0, Count: 1}}
	st, err := sequentialTest(ctx, m, test, sess, 0, stdout, stderr)
	if err != nil {
		return err
	}
	if st.Verdict == stats.Continue && !st.complete {
		fmt.Fprintf(stderr, "interrupted: continue the test with: fairplay sprt -resume %s\n", sub)
		return errInterrupted
	}
	return nil
}
