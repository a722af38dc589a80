package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"

	"github.com/fairplay-lab/fairplay/study/tune"

	"github.com/fairplay-lab/fairplay/agents"
)

func runLearn(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("learn", "-game G [-agent AGENT] [-games N] [-layout L] [-random-opening K] [-holdout K] [-l2 X] [-seed S] [-workers W] -save-weights FILE.json",
		"fairplay learn -game katarenga -agent alphabeta:depth=2 -games 2000 -save-weights learned.json",
		"fairplay learn -game baran -agent alphabeta:nodes=5000 -games 400 -save-weights baran.json",
		"fairplay sprt -game katarenga -a alphabeta:depth=2,weights=learned.json -b alphabeta:depth=2 -elo0 0 -elo1 20 -model logistic")
	var cfg tune.LearnConfig
	fs.StringVar(&cfg.Game, "game", "katarenga", "game: baran or katarenga")
	fs.StringVar(&cfg.Rules, "rules", "", "rule switches name=value,... (empty: the published rules)")
	var layout layoutFlag
	registerLayout(fs, &layout, layoutRandom)
	layout.aliasRandomLayouts(fs)
	fs.StringVar(&cfg.Agent, "agent", "alphabeta:depth=2", "the self-play agent whose games label the positions (a reproducible budget)")
	fs.IntVar(&cfg.Games, "games", 1000, "self-play games")
	var opening openingFlag
	registerOpening(fs, &opening)
	fs.IntVar(&cfg.HoldOut, "holdout", defaultHoldOut, holdoutUsage+" (to measure the fit)")
	fs.Float64Var(&cfg.L2, "l2", 1e-3, "ridge penalty on the standardised coefficients (features are collinear: keep it > 0)")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "master seed: game i is a pure function of (configuration, seed, i)")
	fs.IntVar(&cfg.Workers, "workers", runtime.GOMAXPROCS(0), "parallel workers (results do not depend on it)")
	out := fs.String("save-weights", "", "the weights file to write (JSON {\"name\": value}; must not exist)")
	deprecate(fs, "out", "save-weights")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if *out == "" {
		return usagef("learn: -save-weights FILE.json is required")
	}
	var err error
	if cfg.Layout, cfg.RandomLayouts, err = layout.board(cfg.Game, false); err != nil {
		return err
	}
	cfg.RandomOpening = opening.count(cfg.RandomLayouts)
	if cfg.Games < 2 || cfg.HoldOut < 2 || !(cfg.L2 > 0) || math.IsInf(cfg.L2, 0) || cfg.Workers < 1 {
		return usagef("learn: want -games >= 2, -holdout >= 2, a finite -l2 > 0, -workers >= 1 (got %d, %d, %g, %d)",
			cfg.Games, cfg.HoldOut, cfg.L2, cfg.Workers)
	}
	if err := checkWorkers(cfg.Workers); err != nil {
		return err
	}
	if err := learnFits(cfg, machineMemory()); err != nil {
		return err
	}
	// The output file is checked before any game (a path that exists, or a directory that
	// takes no file, is refused up front) but written only at the end, under a temporary name
	// linked into place: a run killed (or out of memory) leaves nothing that blocks a retry,
	// and a file created meanwhile is never overwritten.
	if _, err := os.Lstat(*out); err == nil {
		return usagef("learn: -save-weights %s exists (a run never overwrites)", *out)
	}
	probe, err := os.CreateTemp(filepath.Dir(*out), "."+filepath.Base(*out)+".*.tmp")
	if err != nil {
		return usagef("learn: -save-weights %s: %v", *out, err)
	}
	probe.Close()
	os.Remove(probe.Name())
	ag, err := agents.Parse(cfg.Agent)
	if err == nil {
		err = agents.Check(ag, cfg.Game)
	}
	if err != nil {
		return usagef("learn: -agent: %v", err)
	}
	if !ag.Reproducible() {
		return usagef("learn: -agent %s: not reproducible (a time budget depends on the machine): use a depth, node or playout budget", cfg.Agent)
	}
	res, err := tune.Learn(ctx, cfg)
	if err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		return err
	}
	if err := saveNew("learn: -save-weights", *out, func(tmp string) error { return agents.SaveWeights(tmp, res.Weights) }); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d games of %s (%d drawn, not used), logistic regression on the heuristic's features\n",
		cfg.Game, res.Games, cfg.Agent, res.Draws)
	fmt.Fprintf(stdout, "%-22s %10s %9s %9s\n", "model", "positions", "log-loss", "accuracy")
	for _, r := range []struct {
		name string
		f    tune.LearnFit
	}{{"learned (train)", res.Train}, {"learned (held out)", res.Test}, {"current (held out)", res.Current}} {
		fmt.Fprintf(stdout, "%-22s %10d %9.4f %9.4f\n", r.name, r.f.Positions, r.f.LogLoss, r.f.Accuracy)
	}
	fmt.Fprintf(stdout, "\nweights (evaluation units, %d per logit):\n", tune.EvalScale)
	for _, w := range res.Weights {
		fmt.Fprintf(stdout, "  %-14s %8g\n", w.Name, w.Value)
	}
	if len(res.Clamped) > 0 {
		fmt.Fprintf(stdout, "clamped to their bounds: %v\n", res.Clamped)
	}
	fmt.Fprintf(stdout, "written to %s; verify with 'fairplay sprt ... -a AGENT,weights=%s -b AGENT'\n", *out, *out)
	return nil
}

// learnBytesPerGame is a low estimate of the memory learn keeps per game until the fit: the
// game's slot and, for each of its positions after the opening (at least 40 in a decisive game
// of either game), its feature vector and its place in the training or held-out set.
func learnBytesPerGame(features int) float64 { return 48 + 40*float64(features*8+64) }

// learnFits refuses a learn run whose positions cannot fit in memory (mem bytes; 0: unknown),
// before anything is played or written.
func learnFits(cfg tune.LearnConfig, mem int64) error {
	w, err := agents.DefaultWeights(cfg.Game)
	if err != nil || mem <= 0 {
		return nil // a bad game is refused later, with its own message
	}
	per := learnBytesPerGame(len(w))
	if need := float64(cfg.Games) * per; need > float64(mem) {
		return usagef("learn: -games %d needs at least %s of memory (every position is kept for the fit), this machine has %s: give at most %d",
			cfg.Games, bytesText(need), bytesText(float64(mem)), int64(float64(mem)/per))
	}
	return nil
}

// saveNew writes path, given by flag, through write into a temporary file beside it, then
// links it into place: path must not exist (it is never overwritten), and nothing is left
// under path on error.
func saveNew(flag, path string, write func(tmp string) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	f.Close()
	defer os.Remove(tmp)
	if err := write(tmp); err != nil {
		return err
	}
	if err := os.Link(tmp, path); err != nil {
		if os.IsExist(err) {
			return usagef("%s %s was created meanwhile (a run never overwrites)", flag, path)
		}
		return err
	}
	return nil
}
