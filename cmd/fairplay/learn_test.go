package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/agents"
)

// fairplay learn writes a weights file that loads, reports the held-out fit, refuses to
// overwrite, and rejects bad flags as usage errors.
func TestLearnCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "w.json")
	stdout, _, err := runCmd(t, "learn", "-game", "katarenga", "-agent", "greedy", "-games", "40", "-holdout", "4", "-save-weights", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "learned (held out)") || !strings.Contains(stdout, "current (held out)") {
		t.Errorf("report lacks the held-out fits:\n%s", stdout)
	}
	if _, err := agents.LoadWeights("katarenga", out); err != nil {
		t.Fatalf("learned weights do not load: %v", err)
	}
	before, _ := os.ReadFile(out)
	for _, args := range [][]string{
		{"learn", "-game", "katarenga", "-agent", "greedy", "-games", "4", "-save-weights", out},
		{"learn", "-game", "katarenga", "-agent", "greedy", "-games", "4"},
		{"learn", "-game", "katarenga", "-agent", "wizard", "-games", "4", "-save-weights", out + "2"},
		{"learn", "-game", "katarenga", "-agent", "greedy", "-games", "1", "-save-weights", out + "3"},
		{"learn", "-game", "katarenga", "-agent", "greedy", "-holdout", "1", "-save-weights", out + "4"},
		{"learn", "-game", "katarenga", "-agent", "alphabeta:depth=1,weights=" + out + "-missing.json", "-games", "4", "-save-weights", out + "5"},
	} {
		_, _, err := runCmd(t, args...)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: err %v, want a usage error", args, err)
		}
	}
	if after, _ := os.ReadFile(out); string(after) != string(before) {
		t.Error("an existing weights file was overwritten")
	}
}
