package agents

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/agents/nnue"
)

// TestExpand: the expanded spec names every parameter of the kind in declaration order, the
// late ones (left out of the canonical spec at their defaults) included, the quiet ones only
// when given, and keeps the given and normalised values.
func TestExpand(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{"random", "random"},
		{"greedy", "greedy:weights="},
		{"mcts:playouts=300", "mcts:playouts=300,movetime=0,c=1.5,temp=100,rollout=qs,prior=eval,cutoff=8,eps=0.2,tempo=auto,mm=0,pick=visits,expand=2,halving=0,qsbase=1,prune=1,refresh=1,win1=1,solver=1,reuse=1,weights=,net=auto"},
		{"alphabeta:nodes=5000,net=none", "alphabeta:depth=64,nodes=5000,movetime=0,hash=16,qs=1,pvs=1,lmr=auto,rfp=auto,fut=auto,lmp=auto,margin=150,tempo=auto,null=0,asp=1,ext=auto,exts=0,qsbase=1,weights=,net=none"},
		{"alphabeta:nodes=5000,partial=1", "alphabeta:depth=64,nodes=5000,movetime=0,hash=16,qs=1,pvs=1,lmr=auto,rfp=auto,fut=auto,lmp=auto,margin=150,tempo=auto,null=0,asp=1,ext=auto,exts=0,qsbase=1,weights=,net=auto,partial=1"},
		{"alphabeta:movetime=50ms,partial=auto", "alphabeta:depth=64,nodes=0,movetime=50ms,hash=16,qs=1,pvs=1,lmr=auto,rfp=auto,fut=auto,lmp=auto,margin=auto,tempo=auto,null=0,asp=1,ext=auto,exts=0,qsbase=1,weights=,net=auto"},
	} {
		a, err := Parse(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := Expand(a); got != c.want {
			t.Errorf("Expand(%s) = %s, want %s", c.spec, got, c.want)
		}
		k := kinds[strings.SplitN(c.spec, ":", 2)[0]]
		quiet := 0
		for _, q := range k.Quiet {
			quiet += b2i(!strings.Contains(a.Spec(), ","+q+"="))
		}
		if n := strings.Count(Expand(a), "="); n != len(k.Params)-quiet {
			t.Errorf("Expand(%s) names %d parameters, the kind has %d, %d of them quiet and not given", c.spec, n, len(k.Params), quiet)
		}
	}
}

// TestInputs: the files an agent reads are pinned by their content, the built-in network
// the version net=builtin<v> names or net=auto chooses (the game's newest, under a time budget), and nothing
// for an agent on the built-in heuristic.
func TestInputs(t *testing.T) {
	w := filepath.Join(t.TempDir(), "w.json")
	if err := os.WriteFile(w, []byte(`{"material": 150}`), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(`{"material": 150}`))
	wsum := hex.EncodeToString(sum[:])
	baranNet, err := nnue.BuiltinSHA256("baran")
	if err != nil {
		t.Fatal(err)
	}
	katNet, _ := nnue.BuiltinSHA256("katarenga")
	katNet2, _ := nnue.BuiltinVersionSHA256("katarenga", 2)
	katNet3, _ := nnue.BuiltinVersionSHA256("katarenga", 3)
	katNet4, _ := nnue.BuiltinVersionSHA256("katarenga", 4)
	katNet5, _ := nnue.BuiltinVersionSHA256("katarenga", 5)
	katNet6, _ := nnue.BuiltinVersionSHA256("katarenga", 6) // the newest, net=auto's
	if baranNet == katNet || len(baranNet) != 64 {
		t.Fatalf("built-in network hashes %q and %q", baranNet, katNet)
	}
	if hs := map[string]bool{katNet: true, katNet2: true, katNet3: true, katNet4: true, katNet5: true, katNet6: true}; len(hs) != 6 || hs[""] {
		t.Fatalf("Katarenga's built-in network hashes %q, %q, %q, %q, %q, %q: want six distinct", katNet, katNet2, katNet3, katNet4, katNet5, katNet6)
	}
	for _, c := range []struct {
		spec, game       string
		weights, network string
	}{
		{"alphabeta:depth=2", "baran", "", ""},
		{"alphabeta:depth=2,weights=" + w, "baran", wsum, ""},
		{"greedy:weights=" + w, "katarenga", wsum, ""},
		{"alphabeta:depth=2,net=builtin", "katarenga", "", katNet},
		{"alphabeta:movetime=10ms", "baran", "", baranNet}, // auto: the network at a time budget
		{"alphabeta:movetime=10ms", "katarenga", "", katNet6},
		{"mcts:movetime=10ms", "katarenga", "", katNet6},
		{"alphabeta:movetime=10ms,net=builtin", "katarenga", "", katNet},
		{"alphabeta:depth=2,net=builtin2", "katarenga", "", katNet2},
		{"alphabeta:depth=2,net=builtin3", "katarenga", "", katNet3},
		{"alphabeta:depth=2,net=builtin4", "katarenga", "", katNet4},
		{"alphabeta:depth=2,net=builtin5", "katarenga", "", katNet5},
		{"alphabeta:depth=2,net=builtin6", "katarenga", "", katNet6},
		{"alphabeta:nodes=1000", "katarenga", "", ""}, // ... nor under a node budget
		{"mcts:playouts=100,net=builtin", "baran", "", baranNet},
		{"mcts:movetime=10ms,net=none", "baran", "", ""},
		{"random", "baran", "", ""},
	} {
		a, err := Parse(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Inputs(a, c.game)
		if err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		if got["weights"] != c.weights || got["net"] != c.network || len(got) != btoi(c.weights != "")+btoi(c.network != "") {
			t.Errorf("Inputs(%s, %s) = %v, want weights %q net %q", c.spec, c.game, got, c.weights, c.network)
		}
	}
	a, _ := Parse("alphabeta:depth=2,weights=" + w)
	os.Remove(w)
	if _, err := Inputs(a, "baran"); err == nil || !strings.Contains(err.Error(), "w.json") {
		t.Errorf("a weights file gone: err %v, want one naming the file", err)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Searches: alpha-beta (classic too) and MCTS search; random, greedy and external programs do not.
func TestSearches(t *testing.T) {
	for spec, want := range map[string]bool{"alphabeta:depth=1": true, "classic": true, "mcts:playouts=10": true, "random": false, "greedy": false, "ext:cmd=x": false} {
		if got := Searches(spec); got != want {
			t.Errorf("Searches(%s) = %v", spec, got)
		}
	}
}

// Resolved gives a movetime alpha-beta's auto options as they resolve for the game and its
// evaluation, and nothing for the agents a fingerprint pins or whose options do not depend on
// the budget.
func TestResolved(t *testing.T) {
	for _, c := range []struct{ spec, game, want string }{
		{"alphabeta:movetime=100ms", "katarenga", "tempo=0,hist=1,cm=0,lmr=3,rfp=3,fut=2,lmp=3,ext=0,partial=1,margin=75,shallow=1"},
		{"alphabeta:movetime=100ms,shallow=0", "katarenga", "tempo=0,hist=1,cm=0,lmr=3,rfp=3,fut=2,lmp=3,ext=0,partial=1,margin=75"},
		{"alphabeta:movetime=100ms", "baran", "tempo=0,hist=0,cm=0,lmr=1,rfp=0,fut=0,lmp=0,ext=1,partial=1,margin=150"},
		{"alphabeta:movetime=100ms,net=none", "katarenga", "tempo=50,hist=0,cm=0,lmr=3,rfp=3,fut=2,lmp=3,ext=0,partial=1,margin=150"},
		{"alphabeta:movetime=100ms,partial=0,cm=1", "baran", "tempo=0,hist=0,cm=1,lmr=1,rfp=0,fut=0,lmp=0,ext=1,partial=0,margin=150"},
		{"alphabeta:movetime=100ms,imp=1", "katarenga", "tempo=0,hist=1,cm=0,lmr=3,rfp=3,fut=2,lmp=3,ext=0,partial=1,imp=1,margin=75,shallow=1"},
		{"alphabeta:movetime=100ms,margin=150", "katarenga", "tempo=0,hist=1,cm=0,lmr=3,rfp=3,fut=2,lmp=3,ext=0,partial=1,shallow=1"},
		{"alphabeta:movetime=100ms,shallow=2", "baran", "tempo=0,hist=0,cm=0,lmr=1,rfp=0,fut=0,lmp=0,ext=1,partial=1,margin=150,shallow=2"},
		{"alphabeta:nodes=30000", "katarenga", ""},
		{"mcts:movetime=100ms", "katarenga", ""},
	} {
		got, err := Resolved(mustAgent(t, c.spec), c.game)
		if err != nil || got != c.want {
			t.Errorf("Resolved(%s, %s) = %q, %v; want %q", c.spec, c.game, got, err, c.want)
		}
	}
}
