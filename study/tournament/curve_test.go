package tournament

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"bytes"
	"github.com/fairplay-lab/fairplay/runner"
	"math"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/stats"
	"github.com/fairplay-lab/fairplay/tally"
)

// TestCurves: the families are found by canonical spec with one budget taken out, points are
// ordered by budget whatever the list's order, a gain is the difference of the two ratings
// (with Gap's interval), and a step over two doublings counts as two.
func TestCurves(t *testing.T) {
	specs := []string{
		"alphabeta:depth=64,nodes=0,movetime=25ms,net=",     // 0: anchor
		"alphabeta:depth=64,nodes=0,movetime=100ms,net=",    // 1: listed before 50ms
		"alphabeta:depth=64,nodes=0,movetime=50ms,net=",     // 2
		"alphabeta:depth=64,nodes=0,movetime=25ms,net=none", // 3
		"alphabeta:depth=64,nodes=0,movetime=1s,net=none",   // 4: 40 times 25 ms
		"mcts:playouts=0,movetime=25ms",                     // 5: alone in its family
		"alphabeta:depth=3,nodes=0,movetime=0,net=",         // 6: no movetime; alone at depth
	}
	labels := []string{"ab:movetime=25ms", "ab:movetime=100ms", "ab:movetime=50ms", "ab:movetime=25ms,net=none", "ab:net=none,movetime=1s", "mcts:movetime=25ms", "ab:depth=3"}
	truth := []float64{0, 180, 100, -50, 300, -20, 40}
	var res []stats.PairingResult
	for i := range specs {
		for j := i + 1; j < len(specs); j++ {
			e := stats.Expected(truth[i], truth[j])
			// 100 pairs split as the expectation says: e² won twice, (1−e)² lost twice.
			w2, l2 := int64(math.Round(100*e*e)), int64(math.Round(100*(1-e)*(1-e)))
			res = append(res, stats.PairingResult{A: i, B: j, Penta: stats.Penta{l2, 0, 100 - w2 - l2, 0, w2}})
		}
	}
	tab, err := stats.Ratings(labels, res, stats.RatingOptions{Prior: 1, Bootstrap: 200, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	curves := Curves(specs, labels, tab)
	if len(curves) != 2 {
		t.Fatalf("%d curves, want 2: %+v", len(curves), curves)
	}
	ab, none := curves[0], curves[1]
	if ab.Family != "ab" || ab.Key != "movetime" || none.Family != "ab:net=none" {
		t.Errorf("families %q (%s) and %q, want ab (movetime) and ab:net=none", ab.Family, ab.Key, none.Family)
	}
	var got []string
	for _, p := range ab.Points {
		got = append(got, p.Value)
	}
	if strings.Join(got, " ") != "25ms 50ms 100ms" {
		t.Errorf("ab's budgets %v, want 25ms 50ms 100ms", got)
	}
	if p := ab.Points[2]; p.Budget != 100 || p.Doublings != 1 || p.Agent != "ab:movetime=100ms" {
		t.Errorf("ab's last point %+v", p)
	}
	g := ab.Points[2].Gain
	if want := tab.Gap(1, 2); g != want || math.Abs(g.Value-(tab.Ratings[1].Elo-tab.Ratings[2].Elo)) > 1e-9 || !(g.Low < g.Value && g.Value < g.High) {
		t.Errorf("gain 50→100 ms %+v, want Gap(1, 2) = %+v", g, want)
	}
	if m := ab.Points[1].Elo.Method; m != stats.MethodBootstrapPercentile {
		t.Errorf("50 ms rating's method %q, want %q", m, stats.MethodBootstrapPercentile)
	}
	if f, want := ab.Points[2].FromFirst, tab.Gap(1, 0); f != want {
		t.Errorf("100 ms over 25 ms: %+v, want Gap(1, 0) = %+v", f, want)
	}
	if !math.IsNaN(ab.Points[0].Gain.Value) || !math.IsNaN(ab.Points[0].Doublings) || !math.IsNaN(ab.Points[0].FromFirst.Value) {
		t.Errorf("the first point has a gain: %+v", ab.Points[0])
	}
	p := none.Points[1]
	if p.Budget != 1000 || math.Abs(p.Doublings-math.Log2(40)) > 1e-12 {
		t.Errorf("1s point: budget %v, doublings %v", p.Budget, p.Doublings)
	}
	if d := p.PerDoubling(); math.Abs(d.Value*p.Doublings-p.Gain.Value) > 1e-9 || math.Abs(d.Low*p.Doublings-p.Gain.Low) > 1e-9 {
		t.Errorf("per doubling %+v for gain %+v over %v doublings", d, p.Gain, p.Doublings)
	}
	var b bytes.Buffer
	if err := tally.WriteCurveCSV(&b, curves); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[1], "ab,movetime,25ms,25,ab:movetime=25ms,0,0,0,,,,,,,") {
		t.Errorf("curve.csv:\n%s", b.String())
	}
	f := ab.Points[2].FromFirst
	whole := fmt.Sprintf("| `ab` | whole curve |  |  | %+.0f | [%+.0f, %+.0f] | %+.0f [%+.0f, %+.0f] on average |", f.Value, f.Low, f.High, f.Value/2, f.Low/2, f.High/2)
	if md := curveSection(curves); !strings.Contains(md, "| `ab:net=none` | movetime=1s |") || !strings.Contains(md, whole) || strings.Count(md, "| whole curve |") != 1 {
		t.Errorf("report section (want %q):\n%s", whole, md)
	}
}

// TestCutParam: the budget is cut out wherever it stands, and only a whole key matches.
func TestCutParam(t *testing.T) {
	for _, c := range []struct{ spec, key, rest, value string }{
		{"alphabeta:depth=64,nodes=0,movetime=25ms,net=", "movetime", "alphabeta:depth=64,nodes=0,net=", "25ms"},
		{"mcts:playouts=800", "playouts", "mcts:", "800"},
		{"alphabeta:xnodes=5,nodes=7", "nodes", "alphabeta:xnodes=5", "7"},
		{"random", "depth", "", ""},
	} {
		rest, value, ok := cutParam(c.spec, c.key)
		if c.value == "" {
			if ok {
				t.Errorf("cutParam(%q, %s) found %q", c.spec, c.key, value)
			}
			continue
		}
		if !ok || rest != c.rest || value != c.value {
			t.Errorf("cutParam(%q, %s) = %q, %q, %v; want %q, %q", c.spec, c.key, rest, value, ok, c.rest, c.value)
		}
	}
}

// TestTournamentWritesCurves: a tournament with a depth ladder writes curve.csv, the plot in
// PNG and SVG, the report's table and the page's CSV; one without a family writes none of them.
func TestTournamentWritesCurves(t *testing.T) {
	cfg, err := NewTournamentConfig(TournamentConfig{Game: "katarenga", Agents: []string{"alphabeta:depth=1", "greedy", "alphabeta:depth=2"},
		Games: 4, Seed: 3, RandomLayouts: true, Prior: 1, Bootstrap: 20})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "t")
	out := runT(t, context.Background(), cfg, runner.Session{Dir: dir, Workers: 1, Shard: runner.Shard{Index: 0, Count: 1}})
	if len(out.Curves) != 1 || out.Curves[0].Family != "alphabeta" || out.Curves[0].Key != "depth" || len(out.Curves[0].Points) != 2 {
		t.Fatalf("curves %+v", out.Curves)
	}
	for _, f := range []string{"curve.csv", "curve_depth.png", "curve_depth.svg"} {
		if !slices.Contains(out.Outputs, f) {
			t.Errorf("outputs %v lack %s", out.Outputs, f)
		}
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	csv := string(readBytes(t, filepath.Join(dir, "curve.csv")))
	if !strings.Contains(csv, "\nalphabeta,depth,2,2,alphabeta:depth=2,") {
		t.Errorf("curve.csv:\n%s", csv)
	}
	if f := curveFinding(out.Curves[0]); !strings.HasPrefix(f, "strength curve alphabeta, depth 1 → 2: ") || !strings.Contains(string(readBytes(t, filepath.Join(dir, "report.html"))), "strength curve alphabeta") {
		t.Errorf("finding %q not on the page", f)
	}
	if !strings.Contains(out.Report, "Strength curves") || !strings.Contains(string(readBytes(t, filepath.Join(dir, "report.html"))), "curve.csv") {
		t.Error("the report or the page has no strength curve")
	}
	plain := filepath.Join(t.TempDir(), "p")
	if cfg, err = NewTournamentConfig(TournamentConfig{Game: "katarenga", Agents: []string{"random", "greedy"}, Games: 2, Seed: 3, RandomLayouts: true, Prior: 1}); err != nil {
		t.Fatal(err)
	}
	if out := runT(t, context.Background(), cfg, runner.Session{Dir: plain, Workers: 1, Shard: runner.Shard{Index: 0, Count: 1}}); len(out.Curves) != 0 || strings.Contains(out.Report, "Strength curves") {
		t.Errorf("curves without a family: %+v", out.Curves)
	}
	if _, err := os.Stat(filepath.Join(plain, "curve.csv")); !os.IsNotExist(err) {
		t.Errorf("curve.csv without a family: %v", err)
	}
}

// TestCurvesEqualBudgets: one budget written two ways makes two specs of one family, and a
// step of no doublings, which has no gain per doubling (not an infinite one).
func TestCurvesEqualBudgets(t *testing.T) {
	specs := []string{"alphabeta:depth=64,nodes=20000", "alphabeta:depth=64,nodes=020000", "alphabeta:depth=64,nodes=40000"}
	res := []stats.PairingResult{{A: 0, B: 1, Penta: stats.Penta{5, 10, 20, 10, 5}}, {A: 1, B: 2, Penta: stats.Penta{10, 10, 20, 5, 5}}}
	tab, err := stats.Ratings(specs, res, stats.RatingOptions{Prior: 1, Bootstrap: 50, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	curves := Curves(specs, specs, tab)
	if len(curves) != 1 || len(curves[0].Points) != 3 {
		t.Fatalf("curves %+v", curves)
	}
	if p := curves[0].Points[1]; !math.IsNaN(p.Doublings) || !math.IsNaN(p.PerDoubling().Value) || math.IsNaN(p.Gain.Value) {
		t.Errorf("a step of equal budgets: doublings %v, per doubling %v, gain %v; want NaN, NaN and a gain", p.Doublings, p.PerDoubling().Value, p.Gain.Value)
	}
	if p := curves[0].Points[2]; p.Doublings != 1 {
		t.Errorf("20000 to 40000 nodes: %v doublings", p.Doublings)
	}
}

// TestCurvesSkipStandIns: with movetime set, MCTS's playouts and alpha-beta's depth hold
// stand-ins for "no limit", and a node budget makes alpha-beta's depth 64: none of these is a
// budget to draw a curve along, while the same agents do form their movetime family.
func TestCurvesSkipStandIns(t *testing.T) {
	specs := []string{
		"mcts:playouts=10000000,movetime=100ms,c=1",
		"mcts:playouts=5000,movetime=100ms,c=1",
		"alphabeta:depth=64,nodes=20000,movetime=0",
		"alphabeta:depth=5,nodes=20000,movetime=0",
		"mcts:playouts=10000000,movetime=200ms,c=1",
	}
	labels := []string{"mcts:movetime=100ms", "mcts:movetime=100ms,playouts=5000", "alphabeta:nodes=20000", "alphabeta:nodes=20000,depth=5", "mcts:movetime=200ms"}
	var res []stats.PairingResult
	for i := range specs {
		for j := i + 1; j < len(specs); j++ {
			res = append(res, stats.PairingResult{A: i, B: j, Penta: stats.Penta{2, 3, 10, 3, 2}})
		}
	}
	tab, err := stats.Ratings(labels, res, stats.RatingOptions{Prior: 1, Bootstrap: 20, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	curves := Curves(specs, labels, tab)
	if len(curves) != 1 || curves[0].Key != "movetime" || curves[0].Family != "mcts" || len(curves[0].Points) != 2 {
		t.Errorf("curves %+v: want only mcts along movetime (100 and 200 ms)", curves)
	}
}
