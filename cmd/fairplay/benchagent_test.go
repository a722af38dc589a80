package main

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestBenchAgent(t *testing.T) {
	for _, c := range []struct{ game, agent, unit string }{
		{"katarenga", "alphabeta:depth=1", "nodes"},
		{"katarenga", "classic:depth=1", "nodes"},
		{"baran", "mcts:playouts=20,prune=0", "playouts"},
		{"baran", "greedy", ""},
	} {
		out, _, err := runCmd(t, "bench", "-game", c.game, "-agent", c.agent, "-seconds", "0.01", "-positions", "3", "-json")
		if err != nil {
			t.Fatal(err)
		}
		var r AgentBenchResult
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%s: %v\n%s", c.agent, err, out)
		}
		if r.Positions != 3 || r.Moves < 3 || r.MsPerMove <= 0 || r.WorkUnit != c.unit || (c.unit != "" && r.WorkPerSec <= 0) {
			t.Errorf("%s: %+v", c.agent, r)
		}
		if c.unit == "playouts" && r.Work != 20*r.Moves {
			t.Errorf("%s: %d playouts in %d moves, want 20 a move", c.agent, r.Work, r.Moves)
		}
	}
	out, _, err := runCmd(t, "bench", "-game", "katarenga", "-agent", "alphabeta:depth=1", "-seconds", "0.01", "-positions", "2")
	if err != nil || !strings.Contains(out, "nodes/s") {
		t.Errorf("table output: %v\n%s", err, out)
	}
	for _, args := range [][]string{{"-agent", "nosuch"}, {"-agent", "greedy", "-positions", "0"}} {
		_, _, err := runCmd(t, append([]string{"bench", "-seconds", "0.01"}, args...)...)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: err %v, want a usage error", args, err)
		}
	}
}
