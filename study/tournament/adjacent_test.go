package tournament

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/runner"
	"github.com/fairplay-lab/fairplay/stats"
)

// ladder fits a three-level ladder 0 < 1 < 2 whose neighbours played 20 colour-swapped
// pairs each, the upper one scoring the pentanomial penta against the lower one.
func ladder(t *testing.T, penta stats.Penta) (*stats.RatingTable, []stats.PairingResult) {
	t.Helper()
	res := []stats.PairingResult{{A: 1, B: 0, Penta: penta}, {A: 2, B: 1, Penta: penta}}
	tab, err := stats.Ratings([]string{"weak", "mid", "strong"}, res, stats.RatingOptions{Prior: 1})
	if err != nil {
		t.Fatal(err)
	}
	return tab, res
}

// A ladder whose neighbours sweep each other is flagged at every step (score outside
// 0.25–0.75, and a gap that the prior sets: halving it moves the gap by far more than a
// tenth); one whose neighbours score 0.6 is not flagged at all.
func TestAdjacentStepsFlagSweepsOnly(t *testing.T) {
	labels := []string{"weak", "mid", "strong"}
	tab, res := ladder(t, stats.Penta{0, 0, 0, 0, 20}) // 40–0
	steps, err := AdjacentSteps(tab, res)
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 2 || steps[0].Upper != 2 || steps[0].Lower != 1 || steps[1].Upper != 1 || steps[1].Lower != 0 {
		t.Fatalf("steps %+v, want strong>mid, mid>weak", steps)
	}
	for _, s := range steps {
		if !s.Sweep || !s.PriorSet || s.Score != 1 || s.Games != 40 || !s.Flagged() {
			t.Errorf("sweeping step %+v: want a flagged sweep set by the prior", s)
		}
		// 40–0 with one virtual draw: 40.5 of 41 points, with half a draw 40.25 of 40.5.
		if math.Abs(s.GapHalfPrior-s.Gap) < 0.1*s.Gap {
			t.Errorf("gap %.0f, %.0f at half the prior: the prior should set it", s.Gap, s.GapHalfPrior)
		}
	}
	w := adjacentWarning(labels, steps)
	if !strings.Contains(w, "2 step(s)") || !strings.Contains(w, "`strong` over `mid` (score 1.000 in 40 games)") {
		t.Errorf("warning: %q", w)
	}
	if tbl := adjacentTable(labels, steps); !strings.Contains(tbl, "no: sweep, set by the prior") {
		t.Errorf("table:\n%s", tbl)
	}

	tab, res = ladder(t, stats.Penta{1, 3, 7, 5, 4}) // 24–16: 0.6
	if steps, err = AdjacentSteps(tab, res); err != nil {
		t.Fatal(err)
	}
	for _, s := range steps {
		if s.Flagged() || math.Abs(s.Score-0.6) > 1e-12 {
			t.Errorf("spaced step %+v flagged", s)
		}
	}
	if w := adjacentWarning(labels, steps); w != "" {
		t.Errorf("spaced ladder warned: %q", w)
	}
	if tbl := adjacentTable(labels, steps); strings.Contains(tbl, "no:") {
		t.Errorf("spaced ladder's table:\n%s", tbl)
	}
	// Levels next to each other that never met are measured through a common opponent both
	// scored 0.25–0.75 against; without one they are named as such.
	for _, c := range []struct {
		penta stats.Penta // strong against weak
		via   int
	}{{stats.Penta{1, 3, 6, 6, 4}, 0}, {stats.Penta{0, 0, 0, 0, 20}, -1}} {
		res = []stats.PairingResult{{A: 1, B: 0, Penta: stats.Penta{2, 4, 6, 5, 3}}, {A: 2, B: 0, Penta: c.penta}}
		if tab, err = stats.Ratings(labels, res, stats.RatingOptions{Prior: 1}); err != nil {
			t.Fatal(err)
		}
		if steps, err = AdjacentSteps(tab, res); err != nil {
			t.Fatal(err)
		}
		s := steps[0]
		if s.Upper != 2 || s.Lower != 1 || s.Games != 0 || !math.IsNaN(s.Score) || s.Via != c.via {
			t.Errorf("unpaired neighbours %+v, want strong over mid through %d", s, c.via)
		}
		w := adjacentWarning(labels, steps)
		if c.via < 0 && (!s.Flagged() || !strings.Contains(w, "never played each other")) {
			t.Errorf("unpaired neighbours without a common opponent: flagged %v, warning %q", s.Flagged(), w)
		}
		if c.via >= 0 && (s.Flagged() || !strings.Contains(adjacentTable(labels, steps), "yes through `weak`")) {
			t.Errorf("unpaired neighbours measured through weak: %+v\n%s", s, adjacentTable(labels, steps))
		}
	}
}

// A step measured only through a common opponent whose gap the prior sets is named without
// a score: the two never played, so there is none to print.
func TestAdjacentWarningUnpairedPriorSet(t *testing.T) {
	labels := []string{"weak", "mid", "strong"}
	steps := []AdjacentStep{{Upper: 2, Lower: 1, Score: math.NaN(), Via: 0, PriorSet: true}}
	w := adjacentWarning(labels, steps)
	if strings.Contains(w, "NaN") || !strings.Contains(w, "`strong` over `mid` (never paired; through `weak`)") {
		t.Errorf("warning: %q", w)
	}
	// The table names the common opponent too, beside the verdict.
	if tbl := adjacentTable(labels, steps); !strings.Contains(tbl, "no: set by the prior (never paired; through `weak`)") {
		t.Errorf("table:\n%s", tbl)
	}
}

// The head-to-head totals sum every pairing of two agents in either order (hand-counted
// points), give NaN for two that never played, and refuse an agent index outside the list.
func TestHeadToHeadTotals(t *testing.T) {
	res := []stats.PairingResult{
		{A: 0, B: 1, Penta: stats.Penta{0, 0, 0, 0, 2}}, // 0 scores 4 of 4
		{A: 1, B: 0, Penta: stats.Penta{2, 0, 0, 0, 0}}, // 0 scores 4 of 4
		{A: 1, B: 0, Penta: stats.Penta{0, 0, 1, 0, 0}}, // 0 scores 1 of 2
		{A: 2, B: 1, Penta: stats.Penta{0, 1, 0, 0, 0}}, // 2 scores ½ of 2
	}
	h, err := newHeadToHead(3, res)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		a, b         int
		score, games float64
	}{{0, 1, 0.9, 10}, {1, 0, 0.1, 10}, {2, 1, 0.25, 2}, {1, 2, 0.75, 2}} {
		if sc, g := h.score(c.a, c.b); math.Abs(sc-c.score) > 1e-12 || g != c.games {
			t.Errorf("%d against %d: %v in %v games, want %v in %v", c.a, c.b, sc, g, c.score, c.games)
		}
	}
	if sc, g := h.score(0, 2); !math.IsNaN(sc) || g != 0 {
		t.Errorf("never played: %v in %v games", sc, g)
	}
	if _, err := newHeadToHead(2, res); err == nil || !strings.Contains(err.Error(), "pairing 4: agents 2 and 1, want indices below 2") {
		t.Errorf("agent 2 of 2: error %v", err)
	}
}

// A real sweep is reported: greedy wins every Katarenga game against random, and the
// tournament's report.md and report.html warn about the step.
func TestTournamentReportWarnsOfSweep(t *testing.T) {
	cfg, err := NewTournamentConfig(TournamentConfig{Game: "katarenga", Agents: []string{"random", "greedy"}, Games: 8, Seed: 3, RandomLayouts: true, Prior: 1})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out := runT(t, context.Background(), cfg, runner.Session{Dir: dir, Workers: 1, Shard: runner.Shard{Index: 0, Count: 1}})
	if len(out.Steps) != 1 || !out.Steps[0].Sweep {
		t.Fatalf("steps %+v: greedy should sweep random", out.Steps)
	}
	for _, f := range []string{"report.md", "report.html"} {
		if b := readBytes(t, filepath.Join(dir, f)); !strings.Contains(string(b), "not measured by their games") {
			t.Errorf("%s has no sweep warning", f)
		}
	}
}

// ratings.csv of a combined fit is a rating list: each agent's row carries the spec with every
// parameter and the fingerprint its tournament's manifest pinned, a versioned entry name made
// from that fingerprint, the anchor, and the step to the agent below.
func TestCombinedRatingsCSVCarriesManifestFingerprints(t *testing.T) {
	base := t.TempDir()
	var dirs []string
	for i, agents := range [][]string{{"random", "greedy"}, {"greedy", "alphabeta:nodes=10"}} {
		cfg, err := NewTournamentConfig(TournamentConfig{Game: "katarenga", Agents: agents, Games: 4, Seed: uint64(i + 1), RandomLayouts: true, Prior: 1})
		if err != nil {
			t.Fatal(err)
		}
		d := filepath.Join(base, string(rune('a'+i)))
		runT(t, context.Background(), cfg, runner.Session{Dir: d, Workers: 1, Shard: runner.Shard{Index: 0, Count: 1}})
		dirs = append(dirs, d)
	}
	pins := map[string]gamefile.AgentPin{}
	for _, d := range dirs {
		man, err := gamefile.ReadManifest(filepath.Join(d, "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range man.Agents {
			pins[p.Spec] = p
		}
	}
	if len(pins) != 3 {
		t.Fatalf("manifests pin %d agents, want 3", len(pins))
	}
	if _, err := CombineTournaments(dirs, 1, 0, 1, filepath.Join(base, "c"), nil); err != nil {
		t.Fatal(err)
	}
	man, err := gamefile.ReadManifest(filepath.Join(base, "c", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var combined TournamentConfig
	if err := json.Unmarshal(man.Config, &combined); err != nil {
		t.Fatal(err)
	}
	specOf := map[string]string{} // label → canonical spec
	for i, l := range combined.Labels {
		specOf[l] = combined.Agents[i]
	}
	rows, err := csv.NewReader(bytes.NewReader(readBytes(t, filepath.Join(base, "c", "ratings.csv")))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, h := range []string{"game", "entry", "spec", "fingerprint", "anchor", "below", "games_vs_below", "score_vs_below", "sweep", "prior_set"} {
		if _, ok := col[h]; !ok {
			t.Fatalf("ratings.csv has no column %s: %v", h, rows[0])
		}
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows, want a header and 3 agents", len(rows))
	}
	anchors := 0
	for _, r := range rows[1:] {
		p, ok := pins[specOf[r[col["agent"]]]]
		if !ok {
			t.Errorf("%s: no manifest pins it", r[col["agent"]])
			continue
		}
		if r[col["fingerprint"]] != p.Fingerprint || r[col["spec"]] != p.Expanded || p.Fingerprint == "" {
			t.Errorf("%s: fingerprint %q spec %q, the manifest pins %q %q", r[col["agent"]], r[col["fingerprint"]], r[col["spec"]], p.Fingerprint, p.Expanded)
		}
		if want := r[col["agent"]] + "@" + strings.TrimPrefix(p.Fingerprint, "v1:")[:12]; r[col["entry"]] != want {
			t.Errorf("entry %q, want %q", r[col["entry"]], want)
		}
		if r[col["game"]] != "katarenga" {
			t.Errorf("game %q", r[col["game"]])
		}
		if r[col["anchor"]] == "true" {
			anchors++
			if r[col["agent"]] != "random" {
				t.Errorf("anchor %s, want random", r[col["agent"]])
			}
		}
	}
	if anchors != 1 {
		t.Errorf("%d anchors", anchors)
	}
	if last := rows[3]; last[col["below"]] != "" || last[col["games_vs_below"]] != "0" || last[col["score_vs_below"]] != "" {
		t.Errorf("the last row has a step below it: %v", last)
	}
}
