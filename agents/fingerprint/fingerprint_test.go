package fingerprint

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var fingerprintText = regexp.MustCompile(`^v1:[0-9a-f]{64}$`)

// TestPlay: a fingerprint is a pure function of the game and the agent (not of the workers),
// one move per position; agents that play differently get different fingerprints, in each game.
func TestPlay(t *testing.T) {
	for _, game := range []string{"baran", "katarenga"} {
		prints := map[string]string{}
		for _, spec := range []string{"random", "greedy", "alphabeta:depth=1", "alphabeta:depth=2", "mcts:playouts=30"} {
			one, err := Play(game, spec, 1)
			if err != nil {
				t.Fatal(err)
			}
			three, err := Play(game, spec, 3)
			if err != nil {
				t.Fatal(err)
			}
			if !fingerprintText.MatchString(one.Fingerprint) || one.Unpinned != "" {
				t.Fatalf("%s %s: fingerprint %q (unpinned %q)", game, spec, one.Fingerprint, one.Unpinned)
			}
			if one.Fingerprint != three.Fingerprint || !slices.Equal(one.Moves, three.Moves) {
				t.Errorf("%s %s: 1 worker %s, 3 workers %s", game, spec, one.Fingerprint, three.Fingerprint)
			}
			if len(one.Moves) != 32 {
				t.Errorf("%s %s: %d moves, want 32", game, spec, len(one.Moves))
			}
			if prev, ok := prints[one.Fingerprint]; ok {
				t.Errorf("%s: %s and %s have one fingerprint", game, prev, spec)
			}
			prints[one.Fingerprint] = spec
		}
	}
}

// TestPlayNames: the canonical and expanded specs are recorded; a spec with an other spelling
// of the same agent has the same fingerprint.
func TestPlayNames(t *testing.T) {
	a, err := Play("katarenga", "alphabeta:depth=2", 2)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Play("katarenga", a.Expanded, 2)
	if err != nil {
		t.Fatal(err)
	}
	if a.Fingerprint != b.Fingerprint || a.Spec != b.Spec || !strings.HasSuffix(a.Expanded, ",net=auto") {
		t.Errorf("%+v\n%+v", a.Pin, b.Pin)
	}
}

// TestUnpinned: a time-budgeted agent has no fingerprint and says why, and still pins the
// built-in network it would use; an external program is not started and has none either; a
// spec that does not parse is an error naming it.
func TestUnpinned(t *testing.T) {
	r, err := Play("baran", "alphabeta:movetime=5ms", 2)
	if err != nil {
		t.Fatal(err)
	}
	if r.Fingerprint != "" || !strings.HasPrefix(r.Unpinned, "time-budgeted (movetime=5ms)") || len(r.Moves) != 0 || len(r.Files["net"]) != 64 {
		t.Errorf("%+v", r)
	}
	e, err := Play("katarenga", "ext:cmd=/nonexistent/bot", 1)
	if err != nil || e.Fingerprint != "" || !strings.HasPrefix(e.Unpinned, "an external program") {
		t.Errorf("an external program (not started): %+v, %v", e, err)
	}
	if _, err := Play("baran", "alphabeta:depth=x", 1); err == nil || !strings.Contains(err.Error(), "depth") {
		t.Errorf("a bad spec: err %v", err)
	}
	if _, err := Play("chess", "random", 1); err == nil {
		t.Error("an unknown game: no error")
	}
}

// TestWeightsChangePlay: the same spec with a weights file of other content pins other files
// and (here) plays otherwise; Of does not serve a stale pin after the file changed.
func TestWeightsChangePlay(t *testing.T) {
	w := filepath.Join(t.TempDir(), "w.json")
	write := func(s string) {
		if err := os.WriteFile(w, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"material": 100}`)
	a, err := Of("katarenga", "greedy:weights="+w, 1)
	if err != nil {
		t.Fatal(err)
	}
	write(`{"material": 400, "camps": 0, "baseline": 0}`)
	b, err := Of("katarenga", "greedy:weights="+w, 1)
	if err != nil {
		t.Fatal(err)
	}
	if a.Files["weights"] == b.Files["weights"] || a.Fingerprint == b.Fingerprint {
		t.Errorf("weights changed, pin did not:\n%+v\n%+v", a, b)
	}
}
