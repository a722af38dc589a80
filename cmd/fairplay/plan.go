package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fairplay-lab/fairplay/gamefile"

	"github.com/fairplay-lab/fairplay/stats"
	"github.com/fairplay-lab/fairplay/tally"
)

func runPlan(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("plan", "(-rate P0 -effect D [-variants [-cc]] | -elo E (-pilot DIR | -penta N0,N1,N2,N3,N4)) [-alpha 0.05] [-power 0.8] [-games N] [-json]\n       fairplay plan -band LOW,HIGH -games CAP [-batch N] (-rates normal:MEAN,SD|beta:A,B|uniform:LOW,HIGH | -pilot SWEEP) [-pairs] [-boards K] [-seed S] [-json]",
		"fairplay plan -rate 0.5 -effect 0.01                  # games to detect a first-player rate of 0.51",
		"fairplay plan -rate 0.5 -effect 0.01 -games 5000      # power of 5000 games, smallest detectable effect",
		"fairplay plan -rate 0.55 -effect -0.03 -variants      # games to tell two rule variants apart",
		"fairplay plan -elo 20 -pilot pilot-run                # pairs to detect +20 Elo, variance from a pilot's games.csv",
		"fairplay plan -elo 10 -penta 5,10,30,35,20 -json",
		"fairplay plan -band 0.45,0.55 -games 3000 -batch 100 -rates normal:0.62,0.08   # adaptive sweep: games per board against fixed n",
		"fairplay plan -band 0.45,0.55 -games 2000 -pilot sweep                         # true rates fitted to a pilot sweep's boards",
		"fairplay plan -band 0.45,0.55 -games 3000 -rates normal:0.62,0.08 -pairs       # a sweep of two agents (-a != -b): decided by colour-swapped pair")
	rate := fs.Float64("rate", 0, "first-player win rate under the null hypothesis (with -variants: the first variant's rate)")
	effect := fs.Float64("effect", 0, "difference of rates to detect (the alternative is rate+effect)")
	variants := fs.Bool("variants", false, "compare two rule variants (two independent samples, each with its own seeds) instead of one rate against a fixed value")
	cc := fs.Bool("cc", false, "with -variants: plan for the continuity-corrected test (Fleiss-Tytun-Ury), as R's prop.test runs it")
	elo := fs.Float64("elo", 0, "logistic Elo difference between two agents to detect (colour-swapped pairs)")
	pilot := fs.String("pilot", "", "pilot run directory (or its games.csv) giving the pentanomial variance, for -elo; with -band a layouts sweep's directory (or boards.csv) giving the boards' rates")
	penta := fs.String("penta", "", "pilot pair counts by A's pair score 0,½,1,1½,2 (instead of -pilot), for -elo")
	alpha := fs.Float64("alpha", 0.05, "two-sided significance level (not with -band: layouts -adaptive decides at 0.05, fixed)")
	power := fs.Float64("power", 0.8, "power to reach (probability of detecting the effect)")
	games := fs.Int64("games", 0, "games available: report their power and the smallest detectable effect instead (0: plan the games)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	var seq seqFlags
	seq.register(fs)
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *games < 0 {
		return usagef("-games %d: want 0 (plan) or a number of games", *games)
	}
	if set["band"] {
		return planSequential(&seq, set, *pilot, *alpha, *games, *asJSON, stdout)
	}
	for _, name := range []string{"batch", "rates", "boards", "seed", "pairs"} {
		if set[name] {
			return usagef("-%s: only with -band (a sequential plan)", name)
		}
	}
	// The required numbers default to 0 and count as given when set at all (flag.Visit), so that
	// an explicit -effect 0 is refused by name rather than taken as missing.
	var pl stats.Plan
	var err error
	switch {
	case set["elo"]:
		for _, name := range []string{"rate", "effect", "variants"} {
			if set[name] {
				return usagef("-%s: not with -elo (an Elo plan takes -pilot or -penta)", name)
			}
		}
		p, perr := planPilot(*pilot, *penta, set)
		if perr != nil {
			return perr
		}
		pl, err = stats.PlanElo(p, *elo, *alpha, *power, *games)
	case set["pilot"] || set["penta"]:
		return usagef("-pilot and -penta go with -elo")
	case !set["rate"] || !set["effect"]:
		return usagef("give -rate and -effect (or -elo with -pilot); run fairplay plan -h for examples")
	case *cc && !*variants:
		return usagef("-cc goes with -variants")
	case *variants:
		pl, err = stats.PlanTwoProportions(*rate, *effect, *alpha, *power, *games, *cc)
	default:
		pl, err = stats.PlanProportion(*rate, *effect, *alpha, *power, *games)
	}
	if err != nil {
		if set["pilot"] && strings.Contains(err.Error(), "pilot") {
			return err // the pilot's data, not the command line, is at fault
		}
		return usageErr(err)
	}
	if !(*games > 0) && (pl.Games <= 0 || pl.Games > maxGames || math.IsNaN(pl.Power)) {
		name, v := "-effect", fmt.Sprint(*effect)
		if set["elo"] {
			name, v = "-elo", fmt.Sprint(*elo)
		}
		return usagef("%s %s: too small to detect: it would take more than %d games", name, v, int64(maxGames))
	}
	if *asJSON {
		b, err := json.MarshalIndent(pl, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", b)
		return err
	}
	return printPlan(stdout, pl, *games > 0)
}

// planPilot reads the pilot's pentanomial counts from -penta or from the games.csv of -pilot.
func planPilot(pilot, penta string, set map[string]bool) (stats.Penta, error) {
	var p stats.Penta
	switch {
	case set["pilot"] && set["penta"]:
		return p, usagef("give -pilot or -penta, not both")
	case set["penta"]:
		parts := strings.Split(penta, ",")
		if len(parts) != 5 {
			return p, usagef("-penta %q: want five counts N0,N1,N2,N3,N4", penta)
		}
		for i, s := range parts {
			n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
			if err != nil || n < 0 {
				return p, usagef("-penta %q: count %q is not a non-negative integer", penta, s)
			}
			p[i] = n
		}
		return p, nil
	case !set["pilot"]:
		return p, usagef("-elo needs the pilot's variance: -pilot DIR or -penta N0,N1,N2,N3,N4")
	}
	path := pilot
	if st, err := os.Stat(pilot); err == nil && st.IsDir() {
		path = filepath.Join(pilot, "games.csv")
		if found, f, err := gamefile.FindGames(pilot); err == nil && f != gamefile.CSV {
			return p, usagef("-pilot %s: its games are in %s; -pilot reads games.csv (write one with fairplay merge -format csv -out DIR2 %s)", pilot, filepath.Base(found), pilot)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return p, usagef("-pilot %s: %v", pilot, err)
	}
	defer f.Close()
	p, err = tally.ReadPenta(f)
	if err != nil {
		return p, usagef("-pilot %s: %v", path, err)
	}
	return p, nil
}

func printPlan(w io.Writer, pl stats.Plan, given bool) error {
	var b strings.Builder
	pct := func(x float64) string { return strconv.FormatFloat(100*x, 'f', 1, 64) + "%" }
	var effect, detect string
	switch pl.Design {
	case "proportion":
		fmt.Fprintf(&b, "design      one rate: %.4g against %.4g (two-sided test, alpha %g)\n", pl.Rate+pl.Effect, pl.Rate, pl.Alpha)
		effect = fmt.Sprintf("%+.4g", pl.Effect)
		detect = fmt.Sprintf("%+.4f (a rate of %.4f)", pl.Detectable, pl.Rate+pl.Detectable)
	case "two-proportions":
		fmt.Fprintf(&b, "design      two rule variants: rates %.4g and %.4g, independent seeds (two-sided test, alpha %g)\n", pl.Rate, pl.Rate+pl.Effect, pl.Alpha)
		effect = fmt.Sprintf("%+.4g", pl.Effect)
		detect = fmt.Sprintf("%+.4f (rates %.4f and %.4f)", pl.Detectable, pl.Rate, pl.Rate+pl.Detectable)
	case "elo":
		fmt.Fprintf(&b, "design      two agents: %+g Elo against 0, colour-swapped pairs (two-sided test, alpha %g)\n", pl.Effect, pl.Alpha)
		fmt.Fprintf(&b, "pilot       %d pairs, per-pair sd of A's score at the target Elo %.4f\n", pl.PilotPairs, pl.PairSD)
		effect = fmt.Sprintf("%+g Elo", pl.Effect)
		detect = fmt.Sprintf("%+.1f Elo", pl.Detectable)
	}
	fmt.Fprintf(&b, "method      %s\n", pl.Method)
	games := fmt.Sprintf("%d", pl.Games)
	switch {
	case pl.PerVariant > 0:
		games += fmt.Sprintf(" (%d per variant)", pl.PerVariant)
	case pl.Pairs > 0:
		games += fmt.Sprintf(" (%d pairs)", pl.Pairs)
	}
	if given {
		fmt.Fprintf(&b, "games       %s, given\n", games)
	} else {
		fmt.Fprintf(&b, "games       %s, needed for power %s\n", games, pct(pl.TargetPower))
	}
	fmt.Fprintf(&b, "power       %s against an effect of %s\n", pct(pl.Power), effect)
	fmt.Fprintf(&b, "detectable  %s with power %s\n", detect, pct(pl.TargetPower))
	_, err := io.WriteString(w, b.String())
	return err
}
