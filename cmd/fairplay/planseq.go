package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"
	"github.com/fairplay-lab/fairplay/study/layouts"
)

// seqFlags are plan's flags for a sequential (adaptive) band design.
type seqFlags struct {
	band, rates string
	batch       int64
	boards      int
	seed        uint64
	pairs       bool
}

func (q *seqFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&q.band, "band", "", "plan an adaptive sweep's band decision instead: the fairness band LOW,HIGH, with -games (the cap per board), -batch and -rates or -pilot")
	fs.Int64Var(&q.batch, "batch", 100, "with -band: games per batch")
	fs.StringVar(&q.rates, "rates", "", "with -band: the boards' true White rates, normal:MEAN,SD, beta:A,B or uniform:LOW,HIGH (or -pilot DIR: a layouts sweep's boards)")
	fs.IntVar(&q.boards, "boards", 4000, "with -band: boards to simulate")
	fs.Uint64Var(&q.seed, "seed", 1, "with -band: the simulation's seed")
	fs.BoolVar(&q.pairs, "pairs", false, "with -band: plan a sweep of two different agents (layouts -a A -b B, A != B), whose boards are decided by colour-swapped pair (the default with -pilot of such a sweep; -pairs=false plans self-play)")
}

// parseBand reads -band LOW,HIGH (the values are checked where they are used).
func parseBand(s string) (lo, hi float64, err error) {
	a, b, ok := strings.Cut(s, ",")
	lo, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	hi, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if !ok || err1 != nil || err2 != nil {
		return 0, 0, usagef("-band %q: want low,high like 0.45,0.55", s)
	}
	return lo, hi, nil
}

// planSequential plans an adaptive sweep's band decision by simulation (stats.PlanSequential).
func planSequential(q *seqFlags, set map[string]bool, pilot string, alpha float64, cap int64, asJSON bool, stdout io.Writer) error {
	for _, name := range []string{"rate", "effect", "variants", "cc", "elo", "penta", "power"} {
		if set[name] {
			return usagef("-%s: not with -band (a sequential plan takes -games, -batch, -rates or -pilot)", name)
		}
	}
	l, h, err := parseBand(q.band)
	if err != nil {
		return err
	}
	if !set["games"] || cap <= 0 {
		return usagef("-band needs -games N: the most games a board gets (the cap)")
	}
	// The design planned is layouts -adaptive's: batches of colour-swapped pairs (an even
	// -batch, as the sweep requires) decided at its fixed level 0.05. A plan for another design
	// would describe no sweep that can be run.
	if q.batch <= 0 || q.batch%2 != 0 {
		return usagef("-batch %d: want a positive even number (layouts -adaptive plays its batches in colour-swapped pairs)", q.batch)
	}
	if set["alpha"] && alpha != layouts.FamilyAlpha {
		return usagef("-alpha %g: not with -band (layouts -adaptive decides at level %g, fixed)", alpha, layouts.FamilyAlpha)
	}
	pairs := q.pairs
	var rates stats.RateDist
	switch {
	case set["rates"] && set["pilot"]:
		return usagef("give -rates or -pilot, not both")
	case set["rates"]:
		if rates, err = stats.ParseRateDist(q.rates); err != nil {
			return usagef("-rates: %v", err)
		}
	case set["pilot"]:
		var paired bool
		if rates, paired, err = pilotRates(pilot); err != nil {
			return err
		}
		if !set["pairs"] {
			pairs = paired
		}
	default:
		return usagef("-band needs the boards' true rates: -rates normal:MEAN,SD (or beta:A,B, uniform:LOW,HIGH) or -pilot DIR")
	}
	pl, err := stats.PlanSequential(rates, l, h, alpha, q.batch, cap, q.boards, q.seed, pairs)
	if err != nil {
		return usageErr(err)
	}
	if asJSON {
		b, err := json.MarshalIndent(pl, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", b)
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "design      adaptive band decision: band %g-%g, batches of %d, at most %d games a board, alpha %g\n", pl.Low, pl.High, pl.Batch, pl.Cap, pl.Alpha)
	seq, fixed := pl.Designs[0].Method, "Wilson at level alpha"
	if pl.Pairs {
		fmt.Fprintf(&b, "unit        the colour-swapped pair (two agents, -a != -b): batches of %d pairs, at most %d pairs a board; the two games of a pair simulated as independent (design effect 1)\n", pl.Batch/2, pl.Cap/2)
		fixed = "Wilson at n/2 pairs, level alpha (" + pl.Designs[1].Method + ")"
	} else {
		b.WriteString("unit        the game (self-play, -a = -b: independent games; -pairs plans a sweep of two agents)\n")
	}
	fmt.Fprintf(&b, "true rates  %s, %d boards simulated (seed %d)\n", pl.Rates, pl.Boards, pl.Seed)
	fmt.Fprintf(&b, "method      %s; sequential: %s, a board also stopped (undecided) once it can no longer settle before the cap; fixed n: one look, %s\n\n", stats.MethodSeqPlan, seq, fixed)
	fmt.Fprintf(&b, "%-26s %12s %10s %9s %9s\n", "design", "games/board", "90th pct", "settled", "wrong")
	for _, d := range pl.Designs {
		fmt.Fprintf(&b, "%-26s %12.1f %10d %8.1f%% %8.2f%%\n", d.Name, d.Mean, d.P90, 100*d.Decided, 100*d.Wrong)
	}
	fmt.Fprintf(&b, "\ngames saved by stopping early: %.0f%% against the cap, %.0f%% against the fixed n that settles as many boards\n", 100*pl.SavedCap, 100*pl.SavedMatch)
	fmt.Fprintf(&b, "the futility stop (a board that can no longer be settled before the cap stops there, undecided; no decision changes) saved %.1f%% against the sequential design without it\n", 100*pl.SavedFutility)
	if pl.SavedMatch < 0 {
		b.WriteString("(negative: with these rates the width an anytime-valid sequence pays costs more than stopping early saves)\n")
	}
	_, err = io.WriteString(stdout, b.String())
	return err
}

// pilotRates fits the distribution of the boards' true White rates to a layouts sweep's
// boards.csv: a beta with the boards' pooled rate as mean and their between-board variance by
// the method of moments (a point mass when sampling noise explains all the spread). paired
// says the pilot was a sweep of two different agents (its manifest's a != b): its sampling
// noise is then that of colour-swapped pairs, at the design effect estimated between its
// boards' halves (stats.PairDeff; independent games where too few boards give one).
func pilotRates(pilot string) (rates stats.RateDist, paired bool, err error) {
	path := pilot
	if st, err := os.Stat(pilot); err == nil && st.IsDir() {
		path = filepath.Join(pilot, "boards.csv")
	}
	// An adaptive sweep's boards stopped early, on their results: their rates are biased (as
	// for -control), and so would be the spread fitted to them.
	if man, err := gamefile.ReadManifest(filepath.Join(filepath.Dir(path), "manifest.json")); err == nil && man.Kind == layouts.SweepKind {
		var cfg layouts.LayoutsConfig
		if json.Unmarshal(man.Config, &cfg) == nil && cfg.Adaptive {
			return stats.RateDist{}, false, usagef("-pilot %s: an adaptive sweep (its boards stopped early, on their results, so their rates are biased): give a sweep with a fixed number of games per board", pilot)
		}
		paired = cfg.A != cfg.B
	}
	read := func(visit func(b *gamefile.BoardResult)) error {
		f, err := os.Open(path)
		if err != nil {
			return usagef("-pilot %s: %v (want a layouts sweep's directory or its boards.csv)", pilot, err)
		}
		defer f.Close()
		r, err := gamefile.NewBoardReader(bufio.NewReader(f))
		if err != nil {
			return usagef("-pilot %s: %v", path, err)
		}
		for b, err := range gamefile.All(r.Read) {
			if err != nil {
				return usagef("-pilot %s: %v", path, err)
			}
			visit(b)
		}
		return nil
	}
	var fit gamefile.ShrinkFitter
	var pd stats.PairDeff
	if err := read(func(b *gamefile.BoardResult) {
		fit.First(b.WhiteWins, b.N)
		pd.Add(b.WhiteWinsSelect, b.NSelect, b.WhiteWins, b.N)
	}); err != nil {
		return stats.RateDist{}, false, err
	}
	if err := read(func(b *gamefile.BoardResult) { fit.Second(b.WhiteWins, b.N) }); err != nil {
		return stats.RateDist{}, false, err
	}
	deff, noise := 1.0, ""
	if paired {
		var ok bool
		if deff, ok = pd.Value(); ok {
			noise = fmt.Sprintf(", noise by pair at design effect %.3g", deff)
		} else {
			deff, noise = 1, fmt.Sprintf(", noise as of independent games: fewer than %d boards to estimate the pairs' design effect from", stats.MinPairDeffBoards)
		}
	}
	mu, tau2, ok := fit.MomentsDeff(deff)
	if !ok {
		return stats.RateDist{}, false, usagef("-pilot %s: fewer than 4 boards with games: too few to fit the spread of their rates", path)
	}
	if m := mu*(1-mu)/tau2 - 1; tau2 > 0 && m > 0 {
		return stats.BetaRates(fmt.Sprintf("beta:%.4g,%.4g fitted to %s (mean %.4f, sd %.4f between boards%s)", mu*m, (1-mu)*m, pilot, mu, math.Sqrt(tau2), noise), mu*m, (1-mu)*m), paired, nil
	}
	name := fmt.Sprintf("every board at %.4f, the pooled rate of %s (its spread is all sampling noise%s)", mu, pilot, noise)
	return stats.RateDist{Name: name, Draw: func(rand.Source) float64 { return mu }}, paired, nil
}
