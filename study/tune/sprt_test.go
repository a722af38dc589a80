package tune

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/fairplay-lab/fairplay/runner"

	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/stats"
)

func sprtRun(t *testing.T, ctx context.Context, m *runner.Match, test stats.SPRT, dir string, resume bool, workers int, report func(SPRTStatus)) (*runner.Outcome, SPRTStatus, []byte) {
	t.Helper()
	out, st, err := RunSPRT(ctx, m, test, runner.Session{Dir: dir, Resume: resume, Workers: workers, Shard: runner.Shard{Index: 0, Count: 1}}, 1, report)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "games.csv"))
	if err != nil {
		t.Fatal(err)
	}
	return out, st, b
}

// A sequential test stops at the same pair whatever the worker count, keeps exactly the games
// up to that pair, and an interrupted test resumed from disk ends identically.
func TestSPRTStopsDeterministically(t *testing.T) {
	m := randomMatch(t, "katarenga", "", "3", 4000)
	test := stats.SPRT{Elo0: -40, Elo1: 40, Alpha: 0.05, Beta: 0.05, Model: "logistic"}
	ctx := context.Background()
	out1, st1, g1 := sprtRun(t, ctx, m, test, t.TempDir(), false, 1, nil)
	_, st2, g2 := sprtRun(t, ctx, m, test, t.TempDir(), false, 2, nil)
	if st1.Verdict == stats.Continue || !out1.Stopped || out1.Interrupted {
		t.Fatalf("no decision: %+v stopped %v", st1.Verdict, out1.Stopped)
	}
	if !bytes.Equal(g1, g2) || st1.LLR != st2.LLR {
		t.Fatal("1 and 2 workers stopped differently")
	}
	pairs := st1.Summary.Penta.Pairs()
	if st1.Summary.N != 2*pairs || out1.Manifest.Completed != 2*pairs || !out1.Manifest.StoppedEarly {
		t.Errorf("kept %d games for %d pairs (manifest %d)", st1.Summary.N, pairs, out1.Manifest.Completed)
	}
	lo, hi := test.Bounds()
	t.Logf("%s after %d pairs, LLR %.3f (%.2f, %.2f)", st1.Verdict, pairs, st1.LLR, lo, hi)

	// Interrupt after a few pairs, then resume.
	dir := t.TempDir()
	cctx, cancel := context.WithCancel(ctx)
	var lastPairs int64
	_, st3, _ := sprtRun(t, cctx, m, test, dir, false, 2, func(s SPRTStatus) {
		lastPairs = s.Summary.Penta.Pairs()
		if test.Decide(s.LLR) != stats.Continue {
			t.Errorf("reported a decided state as continuing")
		}
		if lastPairs == pairs/3 {
			cancel()
		}
	})
	cancel()
	if st3.Verdict != stats.Continue || st3.Summary.N >= 2*pairs {
		t.Fatalf("interrupted run: verdict %v after %d games", st3.Verdict, st3.Summary.N)
	}
	_, st4, g4 := sprtRun(t, ctx, m, test, dir, true, 2, nil)
	if !bytes.Equal(g1, g4) || st4.Verdict != st1.Verdict {
		t.Error("interrupted and resumed test differs from the uninterrupted one")
	}
}

// randomMatch is a match of random agents (the runner's tests have the same helper).
func randomMatch(t *testing.T, game, rules, layout string, n int64) *runner.Match {
	t.Helper()
	gm, err := games.New(game, rules, layout, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := runner.NewMatch(runner.MatchConfig{Game: game, Rules: rules, Layout: layout, A: "random", B: "random", Games: n, Seed: 42}, gm)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
