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
}

func (q *seqFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&q.band, "band", "", "plan an adaptive sweep's band decision instead: the fairness band LOW,HIGH, with -games (the cap per board), -batch and -rates or -pilot")
	fs.Int64Var(&q.batch, "batch", 100, "with -band: games per batch")
	fs.StringVar(&q.rates, "rates", "", "with -band: the boards' true White rates, normal:MEAN,SD, beta:A,B or uniform:LOW,HIGH (or -pilot DIR: a layouts sweep's boards)")
	fs.IntVar(&q.boards, "boards", 4000, "with -band: boards to simulate")
	fs.Uint64Var(&q.seed, "seed", 1, "with -band: the simulation's seed")
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
	var rates stats.RateDist
	switch {
	case set["rates"] && set["pilot"]:
		return usagef("give -rates or -pilot, not both")
	case set["rates"]:
		if rates, err = stats.ParseRateDist(q.rates); err != nil {
			return usagef("-rates: %v", err)
		}
	case set["pilot"]:
		if rates, err = pilotRates(pilot); err != nil {
			return err
		}
	default:
		return usagef("-band needs the boards' true rates: -rates normal:MEAN,SD (or beta:A,B, uniform:LOW,HIGH) or -pilot DIR")
	}
	pl, err := stats.PlanSequential(rates, l, h, alpha, q.batch, cap, q.boards, q.seed)
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
	fmt.Fprintf(&b, "true rates  %s, %d boards simulated (seed %d)\n", pl.Rates, pl.Boards, pl.Seed)
	fmt.Fprintf(&b, "method      %s; sequential: %s, a board also stopped (undecided) once it can no longer settle before the cap; fixed n: one look, Wilson at level alpha\n\n", stats.MethodSeqPlan, stats.MethodMixtureCS)
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
// the method of moments (a point mass when sampling noise explains all the spread).
func pilotRates(pilot string) (stats.RateDist, error) {
	path := pilot
	if st, err := os.Stat(pilot); err == nil && st.IsDir() {
		path = filepath.Join(pilot, "boards.csv")
	}
	// An adaptive sweep's boards stopped early, on their results: their rates are biased (as
	// for -control), and so would be the spread fitted to them.
	if man, err := gamefile.ReadManifest(filepath.Join(filepath.Dir(path), "manifest.json")); err == nil && man.Kind == layouts.SweepKind {
		var cfg layouts.LayoutsConfig
		if json.Unmarshal(man.Config, &cfg) == nil && cfg.Adaptive {
			return stats.RateDist{}, usagef("-pilot %s: an adaptive sweep (its boards stopped early, on their results, so their rates are biased): give a sweep with a fixed number of games per board", pilot)
		}
	}
	read := func(visit func(w, n int64)) error {
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
			visit(b.WhiteWins, b.N)
		}
		return nil
	}
	var fit gamefile.ShrinkFitter
	if err := read(fit.First); err != nil {
		return stats.RateDist{}, err
	}
	if err := read(fit.Second); err != nil {
		return stats.RateDist{}, err
	}
	mu, tau2, ok := fit.Moments()
	if !ok {
		return stats.RateDist{}, usagef("-pilot %s: fewer than 4 boards with games: too few to fit the spread of their rates", path)
	}
	if m := mu*(1-mu)/tau2 - 1; tau2 > 0 && m > 0 {
		return stats.BetaRates(fmt.Sprintf("beta:%.4g,%.4g fitted to %s (mean %.4f, sd %.4f between boards)", mu*m, (1-mu)*m, pilot, mu, math.Sqrt(tau2)), mu*m, (1-mu)*m), nil
	}
	name := fmt.Sprintf("every board at %.4f, the pooled rate of %s (its spread is all sampling noise)", mu, pilot)
	return stats.RateDist{Name: name, Draw: func(rand.Source) float64 { return mu }}, nil
}
