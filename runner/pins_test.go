package runner

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/tally"
)

// weightsMatch is a Katarenga match of n games between greedy reading a weights file of
// its own (returned) and random.
func weightsMatch(t *testing.T, n int64) (*Match, string) {
	t.Helper()
	w := filepath.Join(t.TempDir(), "w.json")
	if err := os.WriteFile(w, []byte(`{"material": 100}`), 0o644); err != nil {
		t.Fatal(err)
	}
	gm, err := games.New("katarenga", "", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMatch(MatchConfig{Game: "katarenga", A: "greedy:weights=" + w, B: "random", Games: n, Seed: 5}, gm)
	if err != nil {
		t.Fatal(err)
	}
	return m, w
}

// changeWeights rewrites the weights file w: the agent reading it plays differently.
func changeWeights(t *testing.T, w string) {
	t.Helper()
	if err := os.WriteFile(w, []byte(`{"material": 400, "camps": 0, "baseline": 0}`), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestResumeRefusesChangedAgent: a run's manifest pins its agents; resuming it after an
// agent's weights file changed (its play with it) is refused with a message naming the agent,
// while a resume with the same agents, or of a manifest that pins none (an older version's),
// goes on.
func TestResumeRefusesChangedAgent(t *testing.T) {
	t.Parallel()
	m, w := weightsMatch(t, 4)
	dir := t.TempDir()
	out, err := RunMatch(context.Background(), m, Session{Dir: dir, Workers: 1, Shard: Shard{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(out.Manifest.Agents); n != 2 || out.Manifest.Agents[0].Files["weights"] == "" || out.Manifest.Agents[1].Spec != "random" {
		t.Fatalf("pins %+v", out.Manifest.Agents)
	}
	if _, err := RunMatch(context.Background(), m, Session{Dir: dir, Resume: true, Workers: 1, Shard: Shard{0, 1}}); err != nil {
		t.Fatalf("resume with the same agents: %v", err)
	}
	changeWeights(t, w)
	_, err = RunMatch(context.Background(), m, Session{Dir: dir, Resume: true, Workers: 1, Shard: Shard{0, 1}})
	if err == nil || !strings.Contains(err.Error(), "agent greedy:weights="+w+" plays differently") || !strings.Contains(err.Error(), "start a new run") {
		t.Fatalf("resume after the weights changed: err %v", err)
	}
	// A manifest that pins no agents (written before runs pinned them) is not checked.
	man, err := gamefile.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	man.Agents = nil
	if err := gamefile.WriteManifest(filepath.Join(dir, "manifest.json"), man); err != nil {
		t.Fatal(err)
	}
	if _, err := RunMatch(context.Background(), m, Session{Dir: dir, Resume: true, Workers: 1, Shard: Shard{0, 1}}); err != nil {
		t.Fatalf("resume of a manifest without pins: %v", err)
	}
}

// TestSamePins compares pins by spec and game: another fingerprint, other files or other
// resolved options (where the old pin records them) differ, an agent only one side pins does not.
func TestSamePins(t *testing.T) {
	a := gamefile.AgentPin{Game: "baran", Spec: "greedy:weights=", Fingerprint: "v1:aa"}
	b := a
	b.Fingerprint = "v1:bb"
	c := a
	c.Files = map[string]string{"weights": "cc"}
	other := gamefile.AgentPin{Game: "katarenga", Spec: "greedy:weights=", Fingerprint: "v1:dd"}
	timed := gamefile.AgentPin{Game: "katarenga", Spec: "alphabeta:movetime=100ms", Resolved: "tempo=50,hist=0"}
	retimed := timed
	retimed.Resolved = "tempo=25,hist=1"
	unresolved := timed // a manifest written before resolved options were recorded
	unresolved.Resolved = ""
	for _, x := range []struct {
		old, now []gamefile.AgentPin
		differ   bool
	}{
		{[]gamefile.AgentPin{a}, []gamefile.AgentPin{a}, false},
		{[]gamefile.AgentPin{a}, []gamefile.AgentPin{b}, true},
		{[]gamefile.AgentPin{a}, []gamefile.AgentPin{c}, true},
		{[]gamefile.AgentPin{a}, []gamefile.AgentPin{other}, false},
		{nil, []gamefile.AgentPin{b}, false},
		{[]gamefile.AgentPin{timed}, []gamefile.AgentPin{timed}, false},
		{[]gamefile.AgentPin{timed}, []gamefile.AgentPin{retimed}, true},
		{[]gamefile.AgentPin{unresolved}, []gamefile.AgentPin{retimed}, false},
	} {
		err := SamePins(x.old, x.now, "then", "now")
		if (err != nil) != x.differ {
			t.Errorf("%+v vs %+v: err %v, want differ %v", x.old, x.now, err, x.differ)
		}
	}
	if err := SamePins([]gamefile.AgentPin{a}, []gamefile.AgentPin{c}, "then", "now"); err == nil || !strings.Contains(err.Error(), "files map[] then, map[weights:cc] now") {
		t.Errorf("files: %v", err)
	}
}

// A resume interrupted while it pins its agents (before its first game) keeps the run's pins
// in the manifest it writes: with none, the next resume would check nothing, and an agent
// changed since would add its games to the run under the old one's name.
func TestInterruptedResumeKeepsPins(t *testing.T) {
	t.Parallel()
	m, w := weightsMatch(t, 8)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	var seen atomic.Int64
	s := Session{Dir: dir, Workers: 1, Shard: Shard{0, 1}, Stop: func(*tally.Summary) bool {
		if seen.Add(1) == 4 {
			cancel()
		}
		return false
	}}
	if _, err := RunMatch(ctx, m, s); err != nil {
		t.Fatal(err)
	}
	man, err := gamefile.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil || man.Status == "complete" || len(man.Agents) != 2 {
		t.Fatalf("interrupted run: status %s, pins %+v (%v)", man.Status, man.Agents, err)
	}
	// The agent changes, and a resume is interrupted at once: while it fingerprints the new agent.
	changeWeights(t, w)
	stopped, stop := context.WithCancel(context.Background())
	stop()
	if _, err := RunMatch(stopped, m, Session{Dir: dir, Resume: true, Workers: 1, Shard: Shard{0, 1}}); err != nil {
		t.Fatal(err)
	}
	after, err := gamefile.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil || !slices.EqualFunc(after.Agents, man.Agents, func(a, b gamefile.AgentPin) bool {
		return a.Spec == b.Spec && a.Fingerprint == b.Fingerprint && maps.Equal(a.Files, b.Files)
	}) {
		t.Fatalf("after a resume interrupted while pinning: pins %+v, want the run's %+v (%v)", after.Agents, man.Agents, err)
	}
	_, err = RunMatch(context.Background(), m, Session{Dir: dir, Resume: true, Workers: 1, Shard: Shard{0, 1}})
	if err == nil || !strings.Contains(err.Error(), "plays differently") {
		t.Fatalf("resume with the changed agent after an interrupted resume: err %v", err)
	}
}
