package tournament

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/runner"
	"github.com/fairplay-lab/fairplay/stats"
)

// playMatch plays a fixed-size match (fairplay play) into dir, its games in the given format,
// and returns its outcome.
func playMatch(t *testing.T, dir string, cfg runner.MatchConfig, format gamefile.Format) *runner.Outcome {
	t.Helper()
	gm, err := games.New(cfg.Game, cfg.Rules, cfg.Layout, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Rules = gm.Rules()
	m, err := runner.NewMatch(cfg, gm)
	if err != nil {
		t.Fatal(err)
	}
	if err := runner.CheckDir(dir); err != nil {
		t.Fatal(err)
	}
	o, err := runner.RunMatch(context.Background(), m, runner.Session{Dir: dir, Workers: 1, Shard: runner.Shard{Index: 0, Count: 1}, Format: format})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// A match counts in a combined fit as a tournament of one pairing: the fit equals the
// Bradley–Terry fit over the tournament's pairing and the match's, oriented as the match's A
// against its B, and its agents are labelled by their short specs.
func TestCombineMatches(t *testing.T) {
	base := t.TempDir()
	cfg, err := NewTournamentConfig(TournamentConfig{Game: "katarenga", Agents: []string{"random", "greedy"}, Games: 8, Seed: 1, RandomLayouts: true, Prior: 1})
	if err != nil {
		t.Fatal(err)
	}
	tour := filepath.Join(base, "t")
	to := runT(t, context.Background(), cfg, runner.Session{Dir: tour, Workers: 1, Shard: runner.Shard{Index: 0, Count: 1}})
	match := filepath.Join(base, "m")
	// In Parquet: a match's games are read in whatever format it wrote them.
	mo := playMatch(t, match, runner.MatchConfig{Game: "katarenga", A: "classic:depth=1", B: "greedy", Games: 10, Seed: 5, RandomLayouts: true}, gamefile.Parquet)
	if _, f, err := gamefile.FindGames(match); err != nil || f != gamefile.Parquet {
		t.Fatalf("the match's games: %v, %v", f, err)
	}

	out, err := CombineTournaments([]string{tour, match}, 1, 0, 1, filepath.Join(base, "c"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Pairs) != 2 || out.Pairs[0] != [2]int{0, 1} || out.Pairs[1] != [2]int{2, 1} || out.DistinctTotal > 18 || out.DistinctTotal < 10 {
		t.Fatalf("combined pairs %v, %d distinct games", out.Pairs, out.DistinctTotal)
	}
	if got := out.Summaries[1].Penta; got != mo.Summary.Penta {
		t.Errorf("the match's pairing counts %v, its own summary %v", got, mo.Summary.Penta)
	}
	res := []stats.PairingResult{{A: 0, B: 1, Penta: to.Summaries[0].Penta}, {A: 2, B: 1, Penta: mo.Summary.Penta}}
	wantFit(t, out, 3, res)
	if got := out.Table.Ratings[2].Agent; got != "classic:depth=1" {
		t.Errorf("the match's agent labelled %q, want its short spec", got)
	}
	if !strings.Contains(out.Report, "ratings from 1 tournament and 1 match\n") || !strings.Contains(out.Report, "from the tournaments and matches in") {
		t.Errorf("report:\n%s", out.Report)
	}

	// Refused, by CheckCombine as by CombineTournaments: a match of an agent against itself,
	// a sequential test, a match of another game, an unfinished match, a match given twice,
	// and a match that replays another's games with more of them (a game depends on the
	// configuration, seed and index only, so the longer match holds the shorter's games).
	self := filepath.Join(base, "self")
	playMatch(t, self, runner.MatchConfig{Game: "katarenga", A: "random", B: "random", Games: 2, Seed: 6, RandomLayouts: true}, gamefile.CSV)
	baran := filepath.Join(base, "baran")
	playMatch(t, baran, runner.MatchConfig{Game: "baran", A: "random", B: "greedy", Games: 2, Seed: 7}, gamefile.CSV)
	longer := filepath.Join(base, "longer")
	playMatch(t, longer, runner.MatchConfig{Game: "katarenga", A: "classic:depth=1", B: "greedy", Games: 12, Seed: 5, RandomLayouts: true}, gamefile.CSV)
	seq := copyRun(t, self, filepath.Join(base, "seq"), func(m map[string]any) {
		c := m["config"].(map[string]any)
		c["b"] = "greedy"
		c["sprt"] = map[string]any{"elo0": 0, "elo1": 5, "alpha": 0.05, "beta": 0.05, "model": "normalized"}
	})
	part := copyRun(t, self, filepath.Join(base, "part"), func(m map[string]any) {
		m["status"] = "interrupted"
		m["config"].(map[string]any)["b"] = "greedy"
	})
	for _, tc := range []struct {
		dirs []string
		want string
	}{
		{[]string{tour, self}, "against itself"},
		{[]string{tour, seq}, "sequential test"},
		{[]string{tour, baran}, "with rules"},
		{[]string{tour, part}, "finish or merge it first"},
		{[]string{tour, match, seq}, "sequential test"},
		{[]string{match, tour, match}, "twice"},
		{[]string{tour, match, longer}, "replays the games of"},
	} {
		if err := CheckCombine(tc.dirs); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CheckCombine %v: err %v, want %q", tc.dirs, err, tc.want)
		}
		out := filepath.Join(t.TempDir(), "c")
		_, err := CombineTournaments(tc.dirs, 1, 0, 1, out, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err %v, want %q", tc.dirs, err, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: a refused combine wrote %s", tc.dirs, out)
		}
	}
	if err := CheckCombine([]string{tour, match}); err != nil {
		t.Errorf("CheckCombine refused good sources: %v", err)
	}
}

// copyRun copies a run's manifest and games into dst, editing the manifest's JSON with edit.
func copyRun(t *testing.T, src, dst string, edit func(map[string]any)) string {
	t.Helper()
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(readBytes(t, filepath.Join(src, "manifest.json")), &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dst, "manifest.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	games, _, err := gamefile.FindGames(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dst, filepath.Base(games)), readBytes(t, games), 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}
