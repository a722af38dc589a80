package main

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// The planner's outputs; the numbers themselves are checked against R in stats/plan_test.go.
func TestGoldenPlan(t *testing.T) {
	pilot := filepath.Join(t.TempDir(), "pilot")
	if _, _, err := runCmd(t, "play", "-game", "baran", "-games", "40", "-seed", "3", "-out", pilot, "-progress", "never"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"plan-rate", []string{"plan", "-rate", "0.5", "-effect", "0.01"}},
		{"plan-rate-games", []string{"plan", "-rate", "0.5", "-effect", "0.01", "-games", "5000", "-alpha", "0.01"}},
		{"plan-variants", []string{"plan", "-rate", "0.55", "-effect", "-0.03", "-variants", "-power", "0.9"}},
		{"plan-variants-cc", []string{"plan", "-rate", "0.5", "-effect", "0.25", "-variants", "-cc", "-power", "0.9"}},
		{"plan-elo-penta", []string{"plan", "-elo", "10", "-penta", "5,10,30,35,20", "-json"}},
		{"plan-elo-pilot", []string{"plan", "-elo", "50", "-pilot", pilot}},
	} {
		out, _, err := runCmd(t, c.args...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		golden(t, c.name, out)
	}
	// The check: about 19,600 games, as one JSON object with "games".
	out, _, err := runCmd(t, "plan", "-rate", "0.5", "-effect", "0.01", "-json")
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("-json output %q: %v", out, err)
	}
	if g, ok := v["games"].(float64); !ok || g < 19500 || g > 19700 {
		t.Errorf("-json games = %v, want about 19,600", v["games"])
	}
}

func TestPlanBadInput(t *testing.T) {
	tmp := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"plan"}, "-rate and -effect"},
		{[]string{"plan", "-rate", "0.5"}, "-rate and -effect"},
		{[]string{"plan", "-rate", "0", "-effect", "0.1"}, "rate 0"},
		{[]string{"plan", "-rate", "1", "-effect", "-0.1"}, "rate 1"},
		{[]string{"plan", "-rate", "NaN", "-effect", "0.1"}, "rate NaN"},
		{[]string{"plan", "-rate", "0.5", "-effect", "0"}, "effect 0"},
		{[]string{"plan", "-rate", "0.5", "-effect", "0.6"}, "effect 0.6"},
		{[]string{"plan", "-rate", "0.5", "-effect", "0.1", "-power", "1"}, "power 1"},
		{[]string{"plan", "-rate", "0.5", "-effect", "0.1", "-power", "1.5"}, "power 1.5"},
		{[]string{"plan", "-rate", "0.5", "-effect", "0.1", "-alpha", "0"}, "alpha 0"},
		{[]string{"plan", "-rate", "0.5", "-effect", "0.1", "-games", "-3"}, "-games -3"},
		{[]string{"plan", "-rate", "0.5", "-effect", "0.1", "-games", "1"}, "games 1"},
		{[]string{"plan", "-rate", "x", "-effect", "0.1"}, "-rate"},
		{[]string{"plan", "-elo", "10"}, "-pilot"},
		{[]string{"plan", "-rate", "0.5", "-effect", "0.1", "-cc"}, "-cc"},
		{[]string{"plan", "-elo", "0", "-penta", "1,2,3,2,1"}, "elo 0"},
		{[]string{"plan", "-elo", "10", "-penta", "1,2,3"}, "five counts"},
		{[]string{"plan", "-elo", "10", "-penta", "1,2,x,2,1"}, `"x"`},
		{[]string{"plan", "-elo", "10", "-penta", "0,0,0,0,9"}, "all scored the same"},
		{[]string{"plan", "-elo", "10", "-rate", "0.5", "-penta", "1,2,3,2,1"}, "-rate"},
		{[]string{"plan", "-elo", "10", "-pilot", filepath.Join(tmp, "none")}, "none"},
		{[]string{"plan", "-rate", "0.5", "-effect", "0.1", "-penta", "1,2,3,2,1"}, "-elo"},
	} {
		wantUsageError(t, c.want, c.args...)
	}
}
