package tune

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/runner"

	"github.com/fairplay-lab/fairplay/agents"

	"github.com/fairplay-lab/fairplay/engine/games"
)

func tuneRun(t *testing.T, cfg TuneConfig, dir string, resume bool, workers int) *TuneOutcome {
	t.Helper()
	gm, err := games.New(cfg.Game, cfg.Rules, cfg.Layout, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := RunTune(context.Background(), cfg, gm, runner.Session{Dir: dir, Resume: resume, Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A tuning run is reproducible: the worker count does not change the trajectory, and a run
// cut short (with a torn last line) and resumed ends byte-identical to the uninterrupted one.
func TestTuneReproducibleAndResumable(t *testing.T) {
	cfg, err := NewTuneConfig(TuneConfig{Game: "katarenga", Layout: "11", Agent: "greedy", Iterations: 40,
		GamesPerIteration: 4, Seed: 9, RandomOpening: 2, C: 0.05, REnd: 0.02}, []string{"camps", "advance", "material"})
	if err != nil {
		t.Fatal(err)
	}
	def, _ := agents.DefaultWeights("katarenga")
	if strings.Join(cfg.Params, ",") != "material,camps,advance" || cfg.Start[1] != def[def.Index("camps")].Value {
		t.Fatalf("params %v start %v: want the heuristic's order and its values", cfg.Params, cfg.Start)
	}
	d1, d2, d3 := t.TempDir(), t.TempDir(), t.TempDir()
	out := tuneRun(t, cfg, d1, false, 1)
	tuneRun(t, cfg, d2, false, 2)
	full, _ := os.ReadFile(filepath.Join(d1, "trajectory.csv"))
	two, _ := os.ReadFile(filepath.Join(d2, "trajectory.csv"))
	if !bytes.Equal(full, two) {
		t.Fatal("1 and 2 workers give different trajectories")
	}
	if out.Iterations != 40 || len(out.Trajectory) != 41 || out.Interrupted {
		t.Fatalf("iterations %d rows %d", out.Iterations, len(out.Trajectory))
	}
	moved := false
	for i, p := range cfg.Params {
		if out.Tuned[out.Tuned.Index(p)].Value != cfg.Start[i] {
			moved = true
		}
	}
	if !moved {
		t.Error("no weight moved in 40 iterations")
	}
	for _, f := range []string{"start.json", "tuned.json", "trajectory.png", "trajectory.svg", "manifest.json"} {
		if _, err := os.Stat(filepath.Join(d1, f)); err != nil {
			t.Error(err)
		}
	}
	// Keep the header, the start row and 15 iterations, plus half of the next line.
	lines := bytes.SplitAfter(full, []byte("\n"))
	cut := bytes.Join(lines[:17], nil)
	cut = append(cut, lines[17][:len(lines[17])/2]...)
	os.WriteFile(filepath.Join(d3, "trajectory.csv"), cut, 0o644)
	tuneRun(t, cfg, d3, true, 2)
	resumed, _ := os.ReadFile(filepath.Join(d3, "trajectory.csv"))
	if !bytes.Equal(full, resumed) {
		t.Error("the resumed trajectory differs from the uninterrupted one")
	}
	if _, err := NewTuneConfig(TuneConfig{Game: "katarenga", Agent: "greedy", GamesPerIteration: 2}, []string{"speed"}); err == nil || !strings.Contains(err.Error(), "speed") {
		t.Errorf("unknown weight: %v", err)
	}
	if _, err := NewTuneConfig(TuneConfig{Game: "baran", Agent: "random", GamesPerIteration: 2}, nil); err == nil {
		t.Error("tuning the random agent accepted")
	}
}
