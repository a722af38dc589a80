package layouts

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/agents/fingerprint"
	"github.com/fairplay-lab/fairplay/runner"
	"github.com/fairplay-lab/fairplay/stats"
	"github.com/fairplay-lab/fairplay/tally"
)

// listFor is a rating list rating each spec at the given Elo, with the spec's real fingerprint
// (or, with fake, another one), the way a tournament's ratings.csv names it.
func listFor(t *testing.T, specs []string, elo []float64, fake bool) []tally.ListRating {
	t.Helper()
	var out []tally.ListRating
	for i, s := range specs {
		a, err := agents.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		p, err := fingerprint.Of("katarenga", a.Spec(), 1)
		if err != nil {
			t.Fatal(err)
		}
		if fake {
			p.Fingerprint = "v1:" + strings.Repeat("0", 64)
		}
		out = append(out, tally.ListRating{Game: "katarenga", Entry: s + "@x", Spec: agents.Expand(a), Fingerprint: p.Fingerprint,
			Elo: elo[i], Low: elo[i] - 50, High: elo[i] + 50})
	}
	return out
}

// A ladder rated by a list takes each level's rating (and interval) from the list, writes
// ladder_trend.csv, plays no rating games, and refuses a level the list rates in another
// version (another fingerprint) before any game is played.
func TestLayoutLadderRatingList(t *testing.T) {
	ladder := []string{"random", "greedy"}
	cfg := ladderCfg(t, ladder, "sample:3", 4, 1, 0)
	cfg.RatingList = listFor(t, ladder, []float64{0, 1053}, false)
	if _, err := NewLayoutLadderConfig(cfg); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "l")
	out := runLadder(t, context.Background(), cfg, runner.Session{Dir: dir, Workers: 1})
	lv := out.Stats.Levels
	if lv[0].Elo != 0 || lv[1].Elo != 1053 || lv[1].EloLow != 1003 || lv[1].EloHigh != 1103 || lv[1].RatedAs != "greedy@x" {
		t.Errorf("levels rated %+v, %+v: want the list's 0 and 1053 [1003, 1103]", lv[0], lv[1])
	}
	if out.Rated != nil || fileExists(filepath.Join(dir, "ratings")) {
		t.Error("a round robin was played")
	}
	if tr := readFile(t, filepath.Join(dir, "ladder_trend.csv")); !strings.HasPrefix(tr, "metric,slope_per_100_elo") || !strings.Contains(tr, "\nwhite_edge,") {
		t.Errorf("ladder_trend.csv:\n%s", tr)
	}
	if rep := readFile(t, filepath.Join(dir, "report.md")); !strings.Contains(rep, "`greedy@x`") {
		t.Error("report.md does not name the list's entries")
	}

	cfg.RatingList = listFor(t, ladder, []float64{0, 1053}, true)
	_, err := RunLayoutLadder(context.Background(), cfg, runner.Session{Dir: filepath.Join(t.TempDir(), "f"), Workers: 1})
	if err == nil || !strings.Contains(err.Error(), "another version") || !strings.Contains(err.Error(), "level 1 (random") {
		t.Errorf("a list of other versions: error %v", err)
	}
	cfg.RatingList, cfg.RatingGames = listFor(t, ladder, []float64{0, 1053}, false), 2
	if _, err := NewLayoutLadderConfig(cfg); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("a list and rating games: error %v", err)
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// With two levels the fitted slope is the line through them whatever the weights: (y₂ − y₁) /
// (x₂ − x₁) per 100 Elo; three levels on a line give that line's slope exactly, a level whose
// gap to them the prior sets left out. A weakest level that lost every rating game (its own
// group of measured gaps; every other level's rating is then set by the prior relative to it,
// the anchor) is left out and the others, whose gaps are measured, fitted: the old rule left
// out every level the prior set relative to the anchor and fitted nothing.
func TestLevelTrends(t *testing.T) {
	mk := func(elo, white, benefit float64) LadderLevel {
		return LadderLevel{Elo: elo, EloLow: math.NaN(), EloHigh: math.NaN(), White: stats.Interval{Value: white}, whiteSE: 0.02,
			Benefit: stats.Interval{Value: benefit, Low: benefit - 0.04, High: benefit + 0.04}}
	}
	w, b := levelTrends([]LadderLevel{mk(1900, 0.62, 0.03), mk(2300, 0.66, 0.01)})
	if math.Abs(w.Slope-0.01) > 1e-12 || math.Abs(b.Slope-(-0.005)) > 1e-12 || w.Levels != 2 {
		t.Errorf("two levels: slopes %v, %v per 100 Elo, want 0.01 and -0.005", w.Slope, b.Slope)
	}
	prior := mk(5000, 0.1, 0.2)
	prior.EloPrior, prior.EloGroup = true, 4
	w, _ = levelTrends([]LadderLevel{mk(0, 0.5, 0), mk(1000, 0.6, 0), mk(2500, 0.75, 0), {Elo: math.NaN()}, prior})
	if math.Abs(w.Slope-0.01) > 1e-12 || w.Levels != 3 || !(w.Low < w.Slope && w.Slope < w.High) {
		t.Errorf("three levels on a line: %+v, want slope 0.01 over 3 levels", w)
	}
	weakest := []LadderLevel{mk(0, 0.3, 0.2), mk(1000, 0.6, 0), mk(1100, 0.61, 0), mk(1300, 0.63, 0)}
	for l := 1; l < len(weakest); l++ {
		weakest[l].EloPrior, weakest[l].EloGroup = true, 1
	}
	w, _ = levelTrends(weakest)
	if math.Abs(w.Slope-0.01) > 1e-12 || w.Levels != 3 {
		t.Errorf("a weakest level that lost every game: %+v, want slope 0.01 over the 3 levels above it", w)
	}
}
