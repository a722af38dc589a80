package tournament

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/runner"

	"github.com/fairplay-lab/fairplay/stats"
)

func tournamentCfg(t *testing.T, game string, gauntlet bool) TournamentConfig {
	t.Helper()
	cfg, err := NewTournamentConfig(TournamentConfig{Game: game, Agents: []string{"random", "greedy", "alphabeta:depth=1"},
		Gauntlet: gauntlet, Games: 12, Seed: 5, RandomLayouts: game == "katarenga", RandomOpening: map[string]int{"baran": 2}[game],
		Prior: 1, Bootstrap: 50})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func runT(t *testing.T, ctx context.Context, cfg TournamentConfig, s runner.Session) *TournamentOutcome {
	t.Helper()
	out, err := RunTournament(ctx, cfg, nil, s)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// cancelOn cancels a context when a line containing key is written (the runner's stderr).
type cancelOn struct {
	key    string
	cancel func()
}

func (c cancelOn) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte(c.key)) {
		c.cancel()
	}
	return len(p), nil
}

// A tournament is deterministic: one worker or two, shards merged, or an interrupted run
// resumed all give the same games in every pairing and the same ratings.csv.
func TestTournamentDeterministicShardableResumable(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		cfg := tournamentCfg(t, game, false)
		if got := len(cfg.Pairings()); got != 3 {
			t.Fatalf("%d pairings, want 3", got)
		}
		base := t.TempDir()
		dir1, dir2 := filepath.Join(base, "w1"), filepath.Join(base, "w2")
		out := runT(t, context.Background(), cfg, runner.Session{Dir: dir1, Workers: 1, Shard: runner.Shard{Index: 0, Count: 1}})
		runT(t, context.Background(), cfg, runner.Session{Dir: dir2, Workers: 2, Shard: runner.Shard{Index: 0, Count: 1}})
		if out.Interrupted || len(out.Summaries) != 3 || out.Table == nil {
			t.Fatalf("%s: outcome %+v", game, out)
		}
		ratings := readBytes(t, filepath.Join(dir1, "ratings.csv"))
		if !bytes.Equal(ratings, readBytes(t, filepath.Join(dir2, "ratings.csv"))) {
			t.Errorf("%s: ratings differ between 1 and 2 workers", game)
		}
		if !strings.HasPrefix(string(ratings), "agent,elo,ci_low,ci_high,games,score,distinct_games,game,entry,spec,fingerprint,anchor,below,games_vs_below,score_vs_below,via,gap_below,gap_below_half_prior,sweep,prior_set\n") || strings.Count(string(ratings), "\n") != 4 {
			t.Errorf("%s: ratings.csv:\n%s", game, ratings)
		}
		// Random layouts (Katarenga) or random openings (Baran) and per-pairing seeds: all
		// 36 games differ.
		if out.DistinctTotal != 36 || len(out.Distinct) != 3 || out.Distinct[0] != 24 {
			t.Errorf("%s: %d distinct games in all, %v per agent; want 36 and 24 each", game, out.DistinctTotal, out.Distinct)
		}
		for _, f := range []string{"pairings.csv", "report.md", "ratings.png", "ratings.svg", "manifest.json", "pairings/1-3/games.csv"} {
			if _, err := os.Stat(filepath.Join(dir1, f)); err != nil {
				t.Errorf("%s: %v", game, err)
			}
		}
		// Shards, then merge.
		var shards []string
		for i := 0; i < 2; i++ {
			d := filepath.Join(base, "shard", string(rune('0'+i)))
			runT(t, context.Background(), cfg, runner.Session{Dir: d, Workers: 1, Shard: runner.Shard{Index: i, Count: 2}})
			shards = append(shards, d)
		}
		merged := filepath.Join(base, "merged")
		if _, err := MergeTournament(cfg, nil, shards, merged, nil); err != nil {
			t.Fatal(err)
		}
		// Interrupt when the second pairing opens (the first may still play its last game),
		// then resume.
		resumed := filepath.Join(base, "resumed")
		ctx, cancel := context.WithCancel(context.Background())
		o := runT(t, ctx, cfg, runner.Session{Dir: resumed, Workers: 1, Shard: runner.Shard{Index: 0, Count: 1}, Stderr: cancelOn{"pairing 2/3", cancel}})
		cancel()
		if !o.Interrupted || len(o.Summaries) > 1 {
			t.Fatalf("%s: interrupted run: %+v", game, o)
		}
		runT(t, context.Background(), cfg, runner.Session{Dir: resumed, Resume: true, Workers: 2, Shard: runner.Shard{Index: 0, Count: 1}})
		// Resuming a finished tournament re-reads its pairings, it does not rewrite them
		// (a pairing's manifest holds the time it ended, so a rewrite would change it).
		mans := map[string][]byte{}
		for _, p := range cfg.Pairings() {
			f := filepath.Join(resumed, pairingDir("", p), "manifest.json")
			mans[f] = readBytes(t, f)
		}
		runT(t, context.Background(), cfg, runner.Session{Dir: resumed, Resume: true, Workers: 2, Shard: runner.Shard{Index: 0, Count: 1}})
		for f, before := range mans {
			if !bytes.Equal(before, readBytes(t, f)) {
				t.Errorf("%s: resume rewrote the finished pairing %s", game, f)
			}
		}
		for _, d := range []string{merged, resumed} {
			if !bytes.Equal(ratings, readBytes(t, filepath.Join(d, "ratings.csv"))) {
				t.Errorf("%s: %s ratings differ from the whole run's", game, filepath.Base(d))
			}
			for _, p := range cfg.Pairings() {
				f := filepath.Join(pairingDir("", p), "games.csv")
				if !bytes.Equal(readBytes(t, filepath.Join(dir1, f)), readBytes(t, filepath.Join(d, f))) {
					t.Errorf("%s: %s %s differs from the whole run's", game, filepath.Base(d), f)
				}
			}
		}
	}
}

func TestTournamentGauntletAndConfigErrors(t *testing.T) {
	cfg := tournamentCfg(t, "katarenga", true)
	if p := cfg.Pairings(); len(p) != 2 || p[0] != [2]int{0, 1} || p[1] != [2]int{0, 2} {
		t.Errorf("gauntlet pairings %v", p)
	}
	cfg.Gauntlet, cfg.Agents = false, []string{"a", "b", "c", "d"}
	cfg.Band = 2
	if p := cfg.Pairings(); len(p) != 5 || p[2] != [2]int{1, 2} || p[4] != [2]int{2, 3} {
		t.Errorf("band pairings %v", p)
	}
	for _, tc := range []struct {
		cfg  TournamentConfig
		want string
	}{
		{TournamentConfig{Game: "baran", Agents: []string{"random"}, Games: 2}, "at least two"},
		{TournamentConfig{Game: "baran", Agents: []string{"random", "nosuch"}, Games: 2}, "agent 2"},
		{TournamentConfig{Game: "baran", Agents: []string{"random", "greedy", "greedy:weights="}, Games: 2}, "is agent 2"},
		{TournamentConfig{Game: "baran", Agents: []string{"random", "greedy"}, Games: 3}, "Games 3"},
		{TournamentConfig{Game: "baran", Agents: []string{"random", "greedy"}, Games: 2, Prior: -1}, "Prior -1"},
		{TournamentConfig{Game: "baran", Agents: []string{"random", "greedy"}, Games: 2, RandomLayouts: true}, "Katarenga"},
		{TournamentConfig{Game: "baran", Agents: []string{"random", "greedy"}, Games: 2, Band: 1, Gauntlet: true}, "Band 1"},
	} {
		if _, err := NewTournamentConfig(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err %v, want %q", tc.cfg, err, tc.want)
		}
	}
}

// Two tournaments sharing an agent combine into one rating scale: the fit over the union of
// their pairings, agents matched by spec, the first tournament's first agent the anchor.
func TestCombineTournaments(t *testing.T) {
	base := t.TempDir()
	var dirs []string
	var outs []*TournamentOutcome
	for i, agents := range [][]string{{"random", "greedy"}, {"classic:depth=1", "greedy:weights="}} {
		cfg, err := NewTournamentConfig(TournamentConfig{Game: "katarenga", Agents: agents, Games: 8, Seed: uint64(i + 1), RandomLayouts: true, Prior: 1})
		if err != nil {
			t.Fatal(err)
		}
		d := filepath.Join(base, string(rune('a'+i)))
		outs = append(outs, runT(t, context.Background(), cfg, runner.Session{Dir: d, Workers: 1, Shard: runner.Shard{Index: 0, Count: 1}}))
		dirs = append(dirs, d)
	}
	out, err := CombineTournaments(dirs, 1, 0, 1, filepath.Join(base, "c"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Pairs) != 2 || out.Pairs[0] != [2]int{0, 1} || out.Pairs[1] != [2]int{2, 1} || out.DistinctTotal != 16 {
		t.Fatalf("combined pairs %v, %d distinct games", out.Pairs, out.DistinctTotal)
	}
	res := []stats.PairingResult{{A: 0, B: 1, Penta: outs[0].Summaries[0].Penta}, {A: 2, B: 1, Penta: outs[1].Summaries[0].Penta}}
	wantFit(t, out, 3, res)
	if !strings.Contains(out.Report, "ratings from 2 tournaments") {
		t.Errorf("report:\n%s", out.Report)
	}
	// A tournament's pairing is a match directory: given beside its tournament, its games
	// would count twice.
	if _, err := CombineTournaments([]string{dirs[0], filepath.Join(dirs[0], "pairings", "1-2")}, 1, 0, 1, filepath.Join(base, "d"), nil); err == nil || !strings.Contains(err.Error(), "replays") {
		t.Errorf("a tournament's own pairing given beside it: %v", err)
	}
	// The same games must not count twice: a directory given twice, or a pairing replayed by a
	// second tournament with the same seed and agent positions.
	if _, err := CombineTournaments([]string{dirs[0], dirs[0]}, 1, 0, 1, filepath.Join(base, "e"), nil); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("a tournament given twice: %v", err)
	}
	cfg, err := NewTournamentConfig(TournamentConfig{Game: "katarenga", Agents: []string{"random", "greedy", "classic:depth=1"}, Games: 8, Seed: 1, RandomLayouts: true, Prior: 1})
	if err != nil {
		t.Fatal(err)
	}
	again := filepath.Join(base, "again")
	runT(t, context.Background(), cfg, runner.Session{Dir: again, Workers: 1, Shard: runner.Shard{Index: 0, Count: 1}})
	if _, err := CombineTournaments([]string{dirs[0], again}, 1, 0, 1, filepath.Join(base, "f"), nil); err == nil || !strings.Contains(err.Error(), "replays") {
		t.Errorf("a replayed pairing was counted twice: %v", err)
	}
}

func readBytes(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wantFit checks a combined outcome's ratings against stats.FitRatings over res (prior 1).
func wantFit(t *testing.T, out *TournamentOutcome, n int, res []stats.PairingResult) {
	t.Helper()
	want, err := stats.FitRatings(n, res, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range out.Table.Ratings {
		if math.Abs(r.Elo-want[i]) > 1e-9 {
			t.Errorf("%s: %v, want %v", r.Agent, r.Elo, want[i])
		}
	}
}
