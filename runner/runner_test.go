package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/tally"

	"github.com/fairplay-lab/fairplay/engine/games"
)

func newMatch(t *testing.T, game, rules, layout string, n int64) *Match {
	t.Helper()
	gm, err := games.New(game, rules, layout, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMatch(MatchConfig{Game: game, Rules: rules, Layout: layout, A: "random", B: "random", Games: n, Seed: 42}, gm)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// csvOf plays the plan and returns games.csv as bytes.
func csvOf(t *testing.T, ctx context.Context, m *Match, plan Plan, workers int, stopAfter int) ([]byte, bool) {
	t.Helper()
	var buf bytes.Buffer
	cw, _ := gamefile.NewCSVWriter(&buf, m.Counters())
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	n := 0
	interrupted, err := Run(ctx, m, plan, workers, nil, func(r *gamefile.Record) error {
		n++
		if stopAfter > 0 && n == stopAfter {
			cancel()
		}
		return cw.Write(r)
	})
	if err != nil {
		t.Fatal(err)
	}
	cw.Flush()
	return buf.Bytes(), interrupted
}

// A game is a pure function of (configuration, seed, index): the worker count, sharding and an
// interruption followed by a resume all give byte-identical games.csv.
func TestDeterminism(t *testing.T) {
	for _, g := range []struct{ game, layout string }{{"baran", ""}, {"katarenga", "777"}} {
		n := int64(600)
		if testing.Short() {
			n = 120
		}
		m := newMatch(t, g.game, "", g.layout, n)
		ctx := context.Background()
		one, _ := csvOf(t, ctx, m, Plan{Start: 0, End: n}, 1, 0)
		four, _ := csvOf(t, ctx, m, Plan{Start: 0, End: n}, 4, 0)
		if !bytes.Equal(one, four) {
			t.Fatalf("%s: 1 worker and 4 workers differ", g.game)
		}
		// Shards: concatenating the rows of 3 shards gives the single run.
		var merged []byte
		for i := 0; i < 3; i++ {
			lo, hi := Shard{i, 3}.Range(n)
			part, _ := csvOf(t, ctx, m, Plan{Start: lo, End: hi}, 2, 0)
			if i > 0 {
				part = part[bytes.IndexByte(part, '\n')+1:] // drop the header
			}
			merged = append(merged, part...)
		}
		if !bytes.Equal(one, merged) {
			t.Fatalf("%s: merged shards differ from the single run", g.game)
		}
		// Interrupt after some games, then resume from what was written.
		partial, interrupted := csvOf(t, ctx, m, Plan{Start: 0, End: n}, 3, int(n/3))
		if !interrupted {
			t.Fatalf("%s: cancellation not reported", g.game)
		}
		r, err := gamefile.NewCSVReader(bytes.NewReader(partial))
		if err != nil {
			t.Fatal(err)
		}
		done := NewBitset(n)
		kept := 0
		for rec, err := range r.All() {
			if err != nil {
				t.Fatal(err)
			}
			done.Set(rec.Game)
			kept++
		}
		if kept < int(n/3) || kept >= int(n) {
			t.Fatalf("%s: interrupted run kept %d games, want at least %d and fewer than %d", g.game, kept, n/3, n)
		}
		old, _ := gamefile.NewCSVReader(bytes.NewReader(partial))
		resumed, _ := csvOf(t, ctx, m, Plan{Start: 0, End: n, Done: done, Old: old}, 2, 0)
		if !bytes.Equal(one, resumed) {
			t.Fatalf("%s: interrupted and resumed run differs from the uninterrupted one", g.game)
		}
	}
}

// Colour-swapped pairs: game 2p has A first, 2p+1 B first, both on the pair's seed when A ≠ B
// (each game on its own seed in self-play); Baran alternates the first colour by pair.
func TestPairs(t *testing.T) {
	for _, b := range []string{"greedy", "random"} {
		testPairs(t, b)
	}
}

func testPairs(t *testing.T, b string) {
	gm, _ := games.New("baran", "", "", nil)
	m, err := NewMatch(MatchConfig{Game: "baran", A: "random", B: b, Games: 8, Seed: 42}, gm)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := csvOf(t, context.Background(), m, Plan{Start: 0, End: 8}, 2, 0)
	r, _ := gamefile.NewCSVReader(bytes.NewReader(out))
	var recs []*gamefile.Record
	for rec, err := range r.All() {
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	for i, rec := range recs {
		wantFirst := []string{"a", "b"}[i%2]
		wantColour := []string{"red", "black"}[(i/2)%2]
		shared := rec.Seed == recs[i&^1].Seed
		if i%2 == 0 {
			shared = rec.Seed == recs[i+1].Seed
		}
		if rec.FirstIs != wantFirst || rec.FirstColour != wantColour || rec.Pair != int64(i/2) || shared == m.SelfPlay() {
			t.Errorf("B %s, game %d: first %s colour %s pair %d seed %x", b, i, rec.FirstIs, rec.FirstColour, rec.Pair, rec.Seed)
		}
	}
}

func TestRunMatchFiles(t *testing.T) {
	dir := t.TempDir()
	m := newMatch(t, "katarenga", "", "", 200)
	out, err := RunMatch(context.Background(), m, Session{Dir: dir, Workers: 2, Shard: Shard{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if out.Manifest.Status != "complete" || out.Manifest.Completed != 200 || out.Summary.N != 200 {
		t.Fatalf("manifest %+v", out.Manifest)
	}
	for _, f := range []string{"games.csv", "summary.csv", "manifest.json", "outcomes.png", "outcomes.svg", "lengths.png", "lengths.svg", "running.png", "running.svg"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s missing or empty: %v", f, err)
		}
	}
	if err := CheckDir(dir); err == nil {
		t.Error("CheckDir accepted a directory holding a run")
	}
}

// A bot that crashes or answers nonsense forfeits each of its games and the run goes on.
func TestForfeitsDoNotStopTheRun(t *testing.T) {
	for k, bot := range []string{"crashbot.sh", "illegalbot.sh", "garbagebot.sh"} {
		reason := []string{"exit", "illegal", "protocol"}[k]
		gm, _ := games.New("katarenga", "", "", nil)
		m, err := NewMatch(MatchConfig{Game: "katarenga", A: "ext:cmd=../agents/testdata/" + bot, B: "random", Games: 6, Seed: 1}, gm)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		out, err := RunMatch(context.Background(), m, Session{Dir: dir, Workers: 2, Shard: Shard{0, 1}})
		if err != nil {
			t.Fatal(err)
		}
		if out.Summary.N != 6 || out.Summary.Forfeits != 6 || out.Summary.BWins != 6 || out.Manifest.Reproducible {
			t.Errorf("%s: %d games, %d forfeits, %d wins for B, reproducible %v", bot, out.Summary.N, out.Summary.Forfeits, out.Summary.BWins, out.Manifest.Reproducible)
		}
		// Every forfeit is agent a's, for the bot's reason, in the summary and in games.csv.
		if got := out.Summary.ForfeitsBy[0][slices.Index(tally.ForfeitReasons[:], reason)]; got != 6 {
			t.Errorf("%s: %d forfeits of agent a for %s, want 6", bot, got, reason)
		}
		b, _ := os.ReadFile(filepath.Join(dir, "games.csv"))
		if bytes.Count(b, []byte(","+reason+",")) != 6 {
			t.Errorf("%s: games.csv does not give reason %s for every game:\n%s", bot, reason, b)
		}
	}
}

// Random layouts: both games of a pair share a tile placement drawn from the pair's seed when
// A ≠ B (self-play games each draw their own); pairs differ; the layout column records it;
// Baran refuses the option.
func TestRandomLayouts(t *testing.T) {
	gm, _ := games.New("katarenga", "", "", nil)
	m, err := NewMatch(MatchConfig{Game: "katarenga", A: "greedy", B: "random", Games: 40, Seed: 3, RandomLayouts: true}, gm)
	if err != nil {
		t.Fatal(err)
	}
	var recs []gamefile.Record
	if _, err := Run(context.Background(), m, Plan{Start: 0, End: 40}, 2, nil, func(r *gamefile.Record) error {
		recs = append(recs, *r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	distinct := map[string]bool{}
	for i := 0; i < len(recs); i += 2 {
		if recs[i].Layout != recs[i+1].Layout {
			t.Fatalf("pair %d: layouts %s and %s", i/2, recs[i].Layout, recs[i+1].Layout)
		}
		distinct[recs[i].Layout] = true
	}
	if len(distinct) < 18 {
		t.Errorf("%d distinct layouts in 20 pairs", len(distinct))
	}
	self, _ := NewMatch(MatchConfig{Game: "katarenga", A: "greedy", B: "greedy", Games: 40, Seed: 3, RandomLayouts: true}, gm)
	same := 0
	for i := int64(0); i < 40; i += 2 {
		r0, _ := self.Play(self.NewWorker(), i, func() bool { return false })
		r1, _ := self.Play(self.NewWorker(), i+1, func() bool { return false })
		if r0.Layout == r1.Layout {
			same++
		}
	}
	if same > 1 {
		t.Errorf("self-play: %d of 20 pairs share their layout", same)
	}
	bg, _ := games.New("baran", "", "", nil)
	if _, err := NewMatch(MatchConfig{Game: "baran", A: "random", B: "random", Games: 2, RandomLayouts: true}, bg); err == nil {
		t.Error("random layouts accepted for Baran")
	}
}

// Parallel does every index once, whatever the workers, and stops handing out indices after a
// call fails.
func TestParallel(t *testing.T) {
	for _, workers := range []int{0, 1, 3, 64} {
		done := make([]int, 100)
		if !Parallel(len(done), workers, func() *int { return new(int) }, func(c *int, j int) bool { *c++; done[j]++; return true }) {
			t.Fatalf("%d workers: false with every call true", workers)
		}
		for j, d := range done {
			if d != 1 {
				t.Fatalf("%d workers: index %d done %d times", workers, j, d)
			}
		}
		var calls atomic.Int64
		if Parallel(1000, workers, func() struct{} { return struct{}{} }, func(_ struct{}, j int) bool { calls.Add(1); return j != 10 }) {
			t.Errorf("%d workers: true although index 10 failed", workers)
		}
		if calls.Load() == 1000 {
			t.Errorf("%d workers: every index was handed out after a failure", workers)
		}
	}
}
