package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/fairplay-lab/fairplay/agents/nnue/train"
)

func runTrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("train", "-game G [-agent AGENT] [-games N] [-layout L] [-random-opening K] [-hidden H] [-hidden2 N] [-epochs E] [-batch-size N] [-holdout K] [-seed S] [-data FILE | -save-data FILE] -save-net FILE.nnue",
		"fairplay train -game katarenga -games 12000 -hidden 16 -save-net katarenga.nnue",
		"fairplay train -game baran -agent alphabeta:depth=2 -games 1500 -save-data baran.gob -lambda 0.7 -save-net baran.nnue",
		"fairplay train -game baran -data baran.gob -hidden 64 -epochs 12 -lambda 0.7 -save-net baran64.nnue",
		"fairplay play -game katarenga -a alphabeta:movetime=20ms,net=katarenga.nnue -b alphabeta:movetime=20ms -games 100")
	var g train.GenConfig
	var f train.FitConfig
	fs.StringVar(&g.Game, "game", "katarenga", "game: baran or katarenga")
	fs.StringVar(&g.Rules, "rules", "", "rule switches name=value,... (empty: the published rules)")
	fs.StringVar(&g.Agent, "agent", "alphabeta:depth=2", "the self-play agent (alpha-beta with a reproducible budget): its search score labels the positions")
	fs.IntVar(&g.Games, "games", 2000, "self-play games")
	var layout layoutFlag
	registerLayout(fs, &layout, layoutRandom)
	layout.aliasRandomLayouts(fs)
	var opening openingFlag
	registerOpening(fs, &opening)
	fs.IntVar(&g.Workers, "workers", runtime.GOMAXPROCS(0), "parallel self-play workers (the data do not depend on it)")
	fs.IntVar(&f.Hidden, "hidden", 32, "accumulator width per perspective (a multiple of 4, 4..1024)")
	fs.IntVar(&f.L2, "hidden2", 0, "width of a second hidden layer (1..256; 0: none, the accumulators feed the output directly)")
	deprecate(fs, "l2", "hidden2")
	fs.Float64Var(&f.Scale, "scale", 150, "evaluation units per logit (the search's units)")
	fs.Float64Var(&f.Lambda, "lambda", 1, "label = lambda·sigmoid(score/scale) + (1−lambda)·result (0..1; below 1 Katarenga overfits, as a game's layout identifies its result; Baran's network used 0.7)")
	fs.IntVar(&f.Epochs, "epochs", 20, "passes over the training positions")
	fs.IntVar(&f.Batch, "batch-size", 256, "positions per Adam step")
	deprecate(fs, "batch", "batch-size")
	fs.Float64Var(&f.LR, "lr", 1e-3, "Adam step size (the first step's, with -lr-end)")
	fs.Float64Var(&f.LREnd, "lr-end", 0, "the last step's size, reached from -lr along a half cosine over the whole fit (0 < lr-end <= lr); 0: -lr throughout")
	fs.IntVar(&f.HoldOut, "holdout", defaultHoldOut, holdoutUsage+" (the validation set: it picks the epoch kept)")
	fs.Float64Var(&f.Decay, "decay", 0, "decoupled weight decay of the first layer (AdamW), relative to the step size (-lr, or its schedule with -lr-end) (0..100)")
	fs.BoolVar(&f.Last, "last", false, "keep the last epoch's network (default: the epoch of least validation loss)")
	seed := fs.Uint64("seed", 1, "master seed of the games and of the optimiser")
	dataIn := fs.String("data", "", "fit on data sets saved by -save-data (comma-separated: their games are joined) instead of playing games")
	dataOut := fs.String("save-data", "", "also write the generated positions here (gob+gzip)")
	curve := fs.String("curve", "", "write the loss curve as CSV (epoch,train,validate)")
	out := fs.String("save-net", "", "the network file to write (must not exist)")
	deprecate(fs, "out", "save-net")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if *out == "" {
		return usagef("train: -save-net FILE.nnue is required")
	}
	switch {
	case g.Game != "baran" && g.Game != "katarenga":
		return usagef("train: -game %q: want baran or katarenga", g.Game)
	case g.Games < 2:
		return usagef("train: -games %d: want at least 2", g.Games)
	case f.Hidden < 4 || f.Hidden > 1024 || f.Hidden%4 != 0:
		return usagef("train: -hidden %d: want a multiple of 4 in 4..1024", f.Hidden)
	case f.L2 < 0 || f.L2 > 256:
		return usagef("train: -hidden2 %d: want 0..256", f.L2)
	case !(f.Scale >= 1 && f.Scale <= 10000):
		return usagef("train: -scale %g: want 1..10000", f.Scale)
	case !(f.Lambda >= 0 && f.Lambda <= 1):
		return usagef("train: -lambda %g: want 0..1", f.Lambda)
	case f.Epochs < 1 || f.Batch < 1:
		return usagef("train: -epochs %d, -batch-size %d: want >= 1", f.Epochs, f.Batch)
	case !(f.LR > 0 && f.LR < 1):
		return usagef("train: -lr %g: want a number in (0, 1)", f.LR)
	case !(f.LREnd == 0 || f.LREnd > 0 && f.LREnd <= f.LR):
		return usagef("train: -lr-end %g: want 0 (none) or a step size in (0, -lr %g]", f.LREnd, f.LR)
	case !(f.Decay >= 0 && f.Decay <= 100):
		return usagef("train: -decay %g: want 0..100", f.Decay)
	case f.HoldOut < 2:
		return usagef("train: -holdout %d: want >= 2", f.HoldOut)
	}
	if err := checkWorkers(g.Workers); err != nil {
		return err
	}
	var err error
	if g.Layout, g.RandomLayouts, err = layout.board(g.Game, false); err != nil {
		return err
	}
	g.RandomOpening = opening.count(g.RandomLayouts)
	g.Seed, f.Seed = *seed, *seed
	if _, err := os.Stat(*out); err == nil {
		return usagef("train: -save-net %s exists (a run never overwrites)", *out)
	}
	start := time.Now()
	var d *train.Data
	if *dataIn != "" {
		for _, path := range strings.Split(*dataIn, ",") {
			di, err := train.LoadData(path)
			if err != nil {
				return usagef("train: -data: %v", err)
			}
			if di.Game != g.Game {
				return usagef("train: -data %s holds %s positions, not %s", path, di.Game, g.Game)
			}
			if d == nil {
				d = di
			} else if err := d.Merge(di); err != nil {
				return usagef("train: -data: %v", err)
			}
		}
	} else {
		g.Progress = func(done int) {
			if done%max(g.Games/10, 1) == 0 {
				fmt.Fprintf(stderr, "train: %d of %d games (%s)\n", done, g.Games, time.Since(start).Round(time.Second))
			}
		}
		if d, err = train.Generate(ctx, g); err != nil {
			if ctx.Err() != nil {
				return errInterrupted
			}
			return usagef("train: %v", err)
		}
		if *dataOut != "" {
			if err := d.Save(*dataOut); err != nil {
				return err
			}
		}
	}
	gen := time.Since(start)
	fmt.Fprintf(stdout, "%s: %d positions from %d games (%s)\n", g.Game, len(d.Samples), d.Games, gen.Round(time.Second))
	fmt.Fprintf(stdout, "%6s %10s %10s\n", "epoch", "train", "validate")
	var csv strings.Builder
	csv.WriteString("epoch,train,validate\n")
	f.Progress = func(e train.Epoch) {
		fmt.Fprintf(stdout, "%6d %10.6f %10.6f\n", e.N, e.Train, e.Validate)
		fmt.Fprintf(&csv, "%d,%.8f,%.8f\n", e.N, e.Train, e.Validate)
	}
	res, err := train.Fit(ctx, d, f)
	if err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		return err
	}
	took := time.Since(start)
	fmt.Fprintf(stdout, "kept epoch %d; validation loss: network %.6f, quantized %.6f, hand-written evaluation %.6f, constant %.6f (%d train, %d validation positions)\n",
		res.Best, res.Curve[res.Best-1].Validate, res.QuantizedVal, res.HeuristicVal, res.ValidateBaseline, res.TrainN, res.ValN)
	meta := fmt.Sprintf("fairplay train %s\ngames %d, positions %d (train %d, validation %d), generation %s, total %s\nepoch %d of %d, validation loss %.6f (quantized %.6f, hand-written %.6f)\n",
		strings.Join(args, " "), d.Games, len(d.Samples), res.TrainN, res.ValN, gen.Round(time.Second), took.Round(time.Second),
		res.Best, f.Epochs, res.Curve[res.Best-1].Validate, res.QuantizedVal, res.HeuristicVal)
	n, err := res.Float.Quantize(meta)
	if err != nil {
		return err
	}
	if err := n.Save(*out); err != nil {
		return err
	}
	if *curve != "" {
		if err := os.WriteFile(*curve, []byte(csv.String()), 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "written to %s (%s in all); try it with 'fairplay play -a alphabeta:movetime=20ms,net=%s -b alphabeta:movetime=20ms'\n",
		*out, took.Round(time.Second), *out)
	return nil
}
