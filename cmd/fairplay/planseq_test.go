package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/stats"
)

// plan -band: the table of designs with games saved, the same numbers as stats.PlanSequential
// for the same seed (JSON), a pilot sweep's fitted rates, and usage errors naming the flag.
func TestPlanSequentialCLI(t *testing.T) {
	out, _, err := runCmd(t, "plan", "-band", "0.45,0.55", "-games", "3000", "-batch", "100", "-rates", "normal:0.62,0.08", "-boards", "500")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"sequential", "fixed n = cap", "fixed n, as many settled", "games saved by stopping early", "90th pct"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	js, _, err := runCmd(t, "plan", "-band", "0.45,0.55", "-games", "3000", "-batch", "100", "-rates", "normal:0.62,0.08", "-boards", "500", "-json")
	if err != nil {
		t.Fatal(err)
	}
	var got stats.SeqPlan
	if err := json.Unmarshal([]byte(js), &got); err != nil {
		t.Fatal(err)
	}
	rates, _ := stats.ParseRateDist("normal:0.62,0.08")
	want, _ := stats.PlanSequential(rates, 0.45, 0.55, 0.05, 100, 3000, 500, 1, false)
	if got.SavedCap != want.SavedCap || got.Designs[0].Mean != want.Designs[0].Mean || got.Designs[2].Name != want.Designs[2].Name {
		t.Errorf("JSON %+v, want %+v", got, want)
	}
	dir := filepath.Join(t.TempDir(), "pilot")
	if _, _, err := runCmd(t, "layouts", "-layouts", "random:10", "-games-per-layout", "100", "-seed", "4", "-out", dir, "-progress", "never"); err != nil {
		t.Fatal(err)
	}
	out, _, err = runCmd(t, "plan", "-band", "0.45,0.55", "-games", "1000", "-pilot", dir, "-boards", "200")
	if err != nil || !strings.Contains(out, "fitted to "+dir) && !strings.Contains(out, "the pooled rate of "+dir) {
		t.Errorf("-pilot: %v\n%s", err, out)
	}
	// A sweep of two agents: -pairs plans its design, by colour-swapped pair (the same numbers
	// as stats.PlanSequential's pairs), and a pilot of such a sweep implies it.
	js, _, err = runCmd(t, "plan", "-band", "0.45,0.55", "-games", "3000", "-batch", "100", "-rates", "normal:0.62,0.08", "-boards", "500", "-pairs", "-json")
	if err != nil {
		t.Fatal(err)
	}
	var gotPairs stats.SeqPlan
	if err := json.Unmarshal([]byte(js), &gotPairs); err != nil {
		t.Fatal(err)
	}
	wantPairs, _ := stats.PlanSequential(rates, 0.45, 0.55, 0.05, 100, 3000, 500, 1, true)
	if !gotPairs.Pairs || gotPairs.Designs[0].Mean != wantPairs.Designs[0].Mean || gotPairs.Designs[0].Mean == want.Designs[0].Mean || got.Pairs {
		t.Errorf("-pairs: JSON %+v, want %+v (and not the games' %+v)", gotPairs, wantPairs, want)
	}
	two := filepath.Join(t.TempDir(), "two")
	if _, _, err := runCmd(t, "layouts", "-layouts", "random:10", "-games-per-layout", "40", "-a", "greedy", "-b", "random", "-seed", "4", "-out", two, "-progress", "never"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "unit        the colour-swapped pair"},
		{[]string{"-pairs=false"}, "unit        the game (self-play"},
	} {
		out, _, err = runCmd(t, append([]string{"plan", "-band", "0.45,0.55", "-games", "1000", "-pilot", two, "-boards", "200"}, c.args...)...)
		if err != nil || !strings.Contains(out, c.want) || !strings.Contains(out, "noise as of independent games: fewer than") {
			t.Errorf("-pilot of greedy vs random %v: want %q and the noise named: %v\n%s", c.args, c.want, err, out)
		}
	}
	adaptive := filepath.Join(t.TempDir(), "adaptive")
	if _, _, err := runCmd(t, "layouts", "-layouts", "random:6", "-adaptive", "-batch", "20", "-games-per-board", "100", "-seed", "4", "-out", adaptive, "-progress", "never"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		want string
		args []string
	}{
		{"-pilot " + adaptive + ": an adaptive sweep", []string{"-band", "0.45,0.55", "-games", "100", "-pilot", adaptive}},
		{"-pilot " + filepath.Join(adaptive, "boards.csv") + ": an adaptive sweep", []string{"-band", "0.45,0.55", "-games", "100", "-pilot", filepath.Join(adaptive, "boards.csv")}},
		{"-band \"0.5\"", []string{"-band", "0.5", "-games", "100", "-rates", "beta:2,2"}},
		{"-band needs -games", []string{"-band", "0.45,0.55", "-rates", "beta:2,2"}},
		{"-band needs the boards' true rates", []string{"-band", "0.45,0.55", "-games", "100"}},
		{"-rates", []string{"-band", "0.45,0.55", "-games", "100", "-rates", "gamma:1,1"}},
		{"-effect: not with -band", []string{"-band", "0.45,0.55", "-games", "100", "-rates", "beta:2,2", "-effect", "0.1"}},
		{"-rates: only with -band", []string{"-rate", "0.5", "-effect", "0.1", "-rates", "beta:2,2"}},
		{"-batch 0: want a positive even number", []string{"-band", "0.45,0.55", "-games", "100", "-batch", "0", "-rates", "beta:2,2"}},
		{"-batch 25: want a positive even number", []string{"-band", "0.45,0.55", "-games", "100", "-batch", "25", "-rates", "beta:2,2"}},
		{"-pairs: only with -band", []string{"-rate", "0.5", "-effect", "0.1", "-pairs"}},
		{"-alpha 0.01: not with -band", []string{"-band", "0.45,0.55", "-games", "100", "-alpha", "0.01", "-rates", "beta:2,2"}},
		{"-pilot " + dir + "x", []string{"-band", "0.45,0.55", "-games", "100", "-pilot", dir + "x"}},
	} {
		wantUsageError(t, c.want, append([]string{"plan"}, c.args...)...)
	}
}
