package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/agents/fingerprint"
)

// TestAgentsFingerprint: agents -fingerprint prints an agent's record, the JSON one with a
// move per position; the fingerprint is the one runs record; bad values are usage errors.
func TestAgentsFingerprint(t *testing.T) {
	out, _, err := runCmd(t, "agents", "-fingerprint", "alphabeta:depth=1", "-game", "baran", "-workers", "2")
	if err != nil {
		t.Fatal(err)
	}
	want, err := fingerprint.Of("baran", "alphabeta:depth=1", 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"game         baran", "spec         " + want.Spec, "expanded     " + want.Expanded, "fingerprint  " + want.Fingerprint, "positions    32 (set v1)", "work         "} {
		if !strings.Contains(out, line) {
			t.Errorf("output lacks %q:\n%s", line, out)
		}
	}
	out, _, err = runCmd(t, "agents", "-fingerprint", "greedy", "-json")
	if err != nil {
		t.Fatal(err)
	}
	var rec fingerprint.Record
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Game != "katarenga" || len(rec.Moves) != 32 || !strings.HasPrefix(rec.Fingerprint, "v1:") {
		t.Errorf("JSON record %+v", rec)
	}
	out, _, err = runCmd(t, "agents", "-fingerprint", "mcts:movetime=10ms", "-game", "baran")
	if err != nil || !strings.Contains(out, "fingerprint  none: time-budgeted (movetime=10ms)") || !strings.Contains(out, "net          sha256 ") {
		t.Errorf("a time-budgeted agent: err %v\n%s", err, out)
	}
	out, _, err = runCmd(t, "agents", "-fingerprint", "alphabeta:movetime=10ms,net=none", "-game", "katarenga")
	if err != nil || !strings.Contains(out, "resolved     tempo=50,hist=0,cm=0,lmr=3,rfp=3,fut=2,lmp=3,ext=0,partial=1,margin=150\n") {
		t.Errorf("a time-budgeted alpha-beta's resolved options: err %v\n%s", err, out)
	}
	wantUsageError(t, "-fingerprint alphabeta:depth=0", "agents", "-fingerprint", "alphabeta:depth=0")
	wantUsageError(t, `-game "chess"`, "agents", "-fingerprint", "random", "-game", "chess")
	wantUsageError(t, "-json goes with -fingerprint", "agents", "-json")
}

// TestPinsRefuseMixedAgents: shards played with two contents of one weights file do not
// merge, a merge by a program whose agents play otherwise than the shards' is refused, and
// tournaments whose same-named agent played differently do not combine.
func TestPinsRefuseMixedAgents(t *testing.T) {
	tmp := t.TempDir()
	d := func(s string) string { return filepath.Join(tmp, s) }
	w := d("w.json")
	setW := func(s string) {
		if err := os.WriteFile(w, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a := "greedy:weights=" + w
	play := func(dir, shard string) {
		t.Helper()
		if _, _, err := runCmd(t, "play", "-a", a, "-games", "8", "-seed", "3", "-shard", shard, "-workers", "1", "-progress", "never", "-out", d(dir)); err != nil {
			t.Fatal(err)
		}
	}
	setW(`{"material": 100}`)
	play("s0", "0/2")
	play("s1", "1/2")
	setW(`{"material": 400, "camps": 0, "baseline": 0}`)
	play("t1", "1/2")
	wantUsageError(t, "plays differently", "merge", "-out", d("m1"), d("s0"), d("t1"))
	_, _, err := runCmd(t, "merge", "-out", d("m2"), d("s0"), d("s1"))
	if err == nil || !strings.Contains(err.Error(), "in the shards") || !strings.Contains(err.Error(), "merge with the program that played the shards") {
		t.Errorf("merge after the weights changed: err %v", err)
	}
	setW(`{"material": 100}`)
	if _, _, err := runCmd(t, "merge", "-out", d("m3"), d("s0"), d("s1")); err != nil {
		t.Errorf("merge of shards played as the program plays: %v", err)
	}

	tour := func(dir, seed string) {
		t.Helper()
		if _, _, err := runCmd(t, "tournament", "-agents", "random;"+a, "-games", "2", "-seed", seed, "-bootstrap", "0", "-workers", "1", "-progress", "never", "-out", d(dir)); err != nil {
			t.Fatal(err)
		}
	}
	tour("r1", "1")
	setW(`{"material": 400, "camps": 0, "baseline": 0}`)
	tour("r2", "2")
	_, _, err = runCmd(t, "tournament", "-combine", "-out", d("c"), d("r1"), d("r2"))
	if err == nil || !strings.Contains(err.Error(), "plays differently") || !strings.Contains(err.Error(), "two agents") {
		t.Errorf("combine: err %v", err)
	}
}
