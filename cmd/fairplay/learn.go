package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/fairplay-lab/fairplay/study/tune"

	"github.com/fairplay-lab/fairplay/agents"
)

func runLearn(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("learn", "-game G [-agent AGENT] [-games N] [-random-opening K] [-random-layouts] [-holdout K] [-l2 X] [-seed S] [-workers W] -out FILE.json",
		"fairplay learn -game katarenga -random-layouts -agent alphabeta:depth=2 -games 2000 -out learned.json",
		"fairplay learn -game baran -agent alphabeta:nodes=5000 -games 400 -out baran.json",
		"fairplay sprt -game katarenga -random-layouts -a alphabeta:depth=2,weights=learned.json -b alphabeta:depth=2 -elo0 0 -elo1 20 -model logistic")
	var cfg tune.LearnConfig
	fs.StringVar(&cfg.Game, "game", "katarenga", "game: baran or katarenga")
	fs.StringVar(&cfg.Rules, "rules", "", "rule switches name=value,... (empty: the published rules)")
	fs.StringVar(&cfg.Layout, "layout", "", "Katarenga layout: index, layout string or colour grid (default 0)")
	fs.BoolVar(&cfg.RandomLayouts, "random-layouts", false, "Katarenga: play each game on its own uniformly drawn tile placement")
	fs.StringVar(&cfg.Agent, "agent", "alphabeta:depth=2", "the self-play agent whose games label the positions (a reproducible budget)")
	fs.IntVar(&cfg.Games, "games", 1000, "self-play games")
	fs.IntVar(&cfg.RandomOpening, "random-opening", 4, "uniformly random plies at the start of each game (not sampled)")
	fs.IntVar(&cfg.HoldOut, "holdout", 5, "every K-th game is held out to measure the fit")
	fs.Float64Var(&cfg.L2, "l2", 1e-3, "ridge penalty on the standardised coefficients (features are collinear: keep it > 0)")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "master seed: game i is a pure function of (configuration, seed, i)")
	fs.IntVar(&cfg.Workers, "workers", 2, "parallel workers (results do not depend on it)")
	out := fs.String("out", "", "weights file to write (JSON {\"name\": value}; must not exist)")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if *out == "" {
		return usagef("learn: -out FILE.json is required")
	}
	if cfg.Games < 2 || cfg.HoldOut < 2 || cfg.RandomOpening < 0 || !(cfg.L2 > 0) || math.IsInf(cfg.L2, 0) || cfg.Workers < 1 {
		return usagef("learn: want -games >= 2, -holdout >= 2, -random-opening >= 0, a finite -l2 > 0, -workers >= 1 (got %d, %d, %d, %g, %d)",
			cfg.Games, cfg.HoldOut, cfg.RandomOpening, cfg.L2, cfg.Workers)
	}
	// Claim the output file before any game: a path that exists or cannot be created is refused
	// up front, and nothing created meanwhile is overwritten.
	f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if os.IsExist(err) {
			return usagef("learn: -out %s exists (a run never overwrites)", *out)
		}
		return usagef("learn: -out %s: %v", *out, err)
	}
	f.Close()
	saved := false
	defer func() {
		if !saved {
			os.Remove(*out)
		}
	}()
	ag, err := agents.Parse(cfg.Agent)
	if err == nil {
		err = agents.Check(ag, cfg.Game)
	}
	if err != nil {
		return usagef("learn: -agent: %v", err)
	}
	res, err := tune.Learn(ctx, cfg)
	if err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		return err
	}
	if err := agents.SaveWeights(*out, res.Weights); err != nil {
		return err
	}
	saved = true
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
