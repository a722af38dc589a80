package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/runner"
	"github.com/fairplay-lab/fairplay/study/tune"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"
)

// maxNElo is the largest normalized Elo bound the GSPRT's model can test: nElo e asks for a
// per-pair t-value of √2·e·ln10/800, and no distribution of pair scores on [0, 1] reaches a
// t-value of 1 (e ≈ 245.7): beyond it the log-likelihood ratio stays 0 (or NaN) and the test
// would run to -max-pairs without deciding.
const maxNElo = 240

// sprtRange refuses bounds outside the range the test's model can tell apart, naming the flag.
func sprtRange(t stats.SPRT, flag0, flag1 string) error {
	if t.Model != "normalized" {
		return nil // logistic Elo is bounded by SPRT.Check
	}
	for _, b := range []struct {
		name string
		v    float64
	}{{flag0, t.Elo0}, {flag1, t.Elo1}} {
		if b.v < -maxNElo || b.v > maxNElo {
			return usagef("%s %g: want normalized Elo within ±%d (beyond it the model cannot tell the hypotheses apart)", b.name, b.v, maxNElo)
		}
	}
	return nil
}

func runSPRT(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("sprt", "-game G -a AGENT -b AGENT -elo0 E0 -elo1 E1 [-alpha 0.05 -beta 0.05] [-model normalized|logistic] [-max-pairs K] [-rating-interval N] [-seed S] [-workers W] [-out DIR] [-resume DIR]",
		"fairplay sprt -game baran -a alphabeta:depth=3 -b alphabeta:depth=2 -elo0 0 -elo1 10",
		"fairplay sprt -game katarenga -a 'greedy:weights=tuned.json' -b greedy -model logistic -elo0 0 -elo1 20 -max-pairs 20000",
		"fairplay sprt -resume sprt-run                   # finish an interrupted test")
	var gf gameFlags
	gf.register(fs, layoutRandom, false)
	gf.layout.aliasRandomLayouts(fs)
	a := fs.String("a", "", "agent A, the candidate (run 'fairplay agents' for the list)")
	b := fs.String("b", "", "agent B, the baseline")
	test := stats.SPRT{}
	fs.Float64Var(&test.Elo0, "elo0", 0, "H0: A is elo0 stronger (nElo for -model normalized, logistic Elo otherwise)")
	fs.Float64Var(&test.Elo1, "elo1", 5, "H1: A is elo1 stronger")
	fs.Float64Var(&test.Alpha, "alpha", 0.05, "probability of accepting H1 when H0 holds")
	fs.Float64Var(&test.Beta, "beta", 0.05, "probability of accepting H0 when H1 holds")
	fs.StringVar(&test.Model, "model", "normalized", "Elo model of the bounds: normalized (fishtest's nElo) or logistic")
	maxPairs := fs.Int64("max-pairs", 50000, "stop as inconclusive after this many pairs")
	every := fs.Int64("rating-interval", 100, "print the test's state every N pairs (0: only at the end), as cutechess's and fastchess's -ratinginterval")
	deprecate(fs, "report", "rating-interval")
	var opening openingFlag
	registerOpening(fs, &opening)
	var rf runFlags
	rf.register(fs)
	if err := rf.parseUnsharded(fs, args, stderr, "-shard: a sequential test cannot be sharded (its stop depends on every earlier pair)"); err != nil {
		return err
	}
	if err := parsedOnly(ctx, gf.game, *a, *b); err != nil {
		return err
	}
	var cfg runner.MatchConfig
	dir := rf.resume
	if dir != "" {
		if _, complete, err := resumeRun(fs, dir, runner.MatchKind, &cfg, stderr); err != nil || complete {
			return err
		}
		if cfg.SPRT == nil {
			return usagef("-resume %s: not an sprt run (finish it with fairplay play -resume)", dir)
		}
		test = *cfg.SPRT
	} else {
		if *a == "" || *b == "" {
			return usagef("give both agents: -a CANDIDATE -b BASELINE")
		}
		if err := test.Check(); err != nil {
			return usageErr(err)
		}
		if err := sprtRange(test, "-elo0", "-elo1"); err != nil {
			return err
		}
		if *maxPairs <= 0 {
			return usagef("-max-pairs %d: want a positive number", *maxPairs)
		}
		if *every < 0 {
			return usagef("-rating-interval %d: want 0 or more pairs", *every)
		}
		layout, random, err := gf.board(false)
		if err != nil {
			return err
		}
		cfg = runner.MatchConfig{Game: gf.game, Rules: gf.rules, Layout: layout, A: *a, B: *b,
			Games: 2 * *maxPairs, Seed: rf.seed, RandomOpening: opening.count(random), SPRT: &test, RandomLayouts: random}
		tiles, err := gf.tilesText()
		if err != nil {
			return err
		}
		cfg.Tiles = tiles
	}
	m, err := matchFor(cfg)
	if err != nil {
		return err
	}
	if dir == "" {
		if dir, err = outDir(rf.out, "sprt-"+cfg.Game); err != nil {
			return err
		}
	}
	sess := runner.Session{Dir: dir, Resume: rf.resume != "", Workers: rf.workers, Progress: newProgress(ctx, rf.progress, stderr),
		Stderr: stderr, Args: append([]string{"fairplay", "sprt"}, args...), Shard: runner.Shard{Index: 0, Count: 1}}
	st, err := sequentialTest(ctx, m, test, sess, *every, stdout, stderr)
	if err != nil {
		return err
	}
	if st.Verdict == stats.Continue && !st.complete {
		fmt.Fprintf(stderr, "interrupted: finished pairs kept; continue with: fairplay sprt -resume %s\n", dir)
		return errInterrupted
	}
	return nil
}

// testResult is a finished (or interrupted) sequential test.
type testResult struct {
	tune.SPRTStatus
	complete bool // false when interrupted before a decision or the cap
}

// sequentialTest runs an SPRT of m's agents in sess.Dir, printing its state every `every`
// pairs and the verdict, and writes sprt.txt beside the games.
func sequentialTest(ctx context.Context, m *runner.Match, test stats.SPRT, sess runner.Session, every int64, stdout, stderr io.Writer) (testResult, error) {
	header := fmt.Sprintf("SPRT %s\n  A = %s\n  B = %s\n  H0: %s = %g, H1: %s = %g, alpha %g, beta %g, pentanomial GSPRT; cap %d pairs, seed %d\n",
		m.Cfg.Game+" ("+m.Cfg.Rules+")", agents.ShortSpec(m.Cfg.A), agents.ShortSpec(m.Cfg.B), eloName(test), test.Elo0, eloName(test), test.Elo1,
		test.Alpha, test.Beta, m.Cfg.Games/2, m.Cfg.Seed)
	fmt.Fprint(stdout, header)
	fmt.Fprintf(stderr, "fairplay sprt: results in %s\n", sess.Dir)
	out, st, err := tune.RunSPRT(ctx, m, test, sess, every, func(st tune.SPRTStatus) {
		fmt.Fprintln(stdout, st.Line())
	})
	if err != nil {
		return testResult{}, err
	}
	verdict := st.Verdict.String()
	complete := !out.Interrupted
	if st.Verdict == stats.Continue {
		verdict = "inconclusive (the cap was reached)"
		if !complete {
			verdict = "interrupted before a decision"
		}
	}
	final := fmt.Sprintf("%s\n%s after %d pairs (%d games)\n", st.Line(), verdict, st.Summary.Penta.Pairs(), st.Summary.N)
	if d, n := st.Summary.Distinct(); d < n {
		if p := st.Summary.Penta; p.Pairs() >= 20 && slices.Contains(p[:], p.Pairs()) { // the warning of the report (tally.PlayFindings)
			final += "warning: every pair scored the same and games repeat: deterministic agents repeat their games, give -random-opening N\n"
		}
	}
	fmt.Fprint(stdout, final)
	if err := gamefile.WriteFileAtomic(filepath.Join(sess.Dir, "sprt.txt"), []byte(header+final)); err != nil {
		return testResult{}, runner.ReportsFailed(sess.Dir, err)
	}
	if err := tune.WriteSPRTPage(sess.Dir, m, out, st, verdict); err != nil {
		return testResult{}, runner.ReportsFailed(sess.Dir, err)
	}
	return testResult{st, complete}, nil
}

func eloName(t stats.SPRT) string {
	if t.Model == "normalized" {
		return "nElo"
	}
	return "Elo"
}
