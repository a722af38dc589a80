package agents

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/agents/nnue"
)

// playerNet is the network a player evaluates with (nil: the heuristic).
func playerNet(t *testing.T, spec, game string) *nnue.Net {
	t.Helper()
	pl, err := mustAgent(t, spec).NewPlayer(game)
	if err != nil {
		t.Fatalf("%s in %s: %v", spec, game, err)
	}
	switch p := pl.(type) {
	case *abPlayer:
		if p.nn != nil {
			return p.nn.Net
		}
	case *mctsPlayer:
		if p.qs != nil && p.qs.nn != nil {
			return p.qs.nn.Net
		}
	default:
		t.Fatalf("%s: player %T", spec, pl)
	}
	return nil
}

// TestNetBuiltinVersions: net=builtin2 names Katarenga's second shipped network: it parses,
// stays in the spec, round-trips through it, loads that network and is recorded by its file's
// SHA-256; net=builtin stays the first, net=builtin3 the third, net=builtin4 the fourth, net=builtin5 the fifth and net=builtin6 the sixth; a game without a second
// network and numbers that name none are refused.
func TestNetBuiltinVersions(t *testing.T) {
	v1, err := nnue.BuiltinVersion("katarenga", 1)
	if err != nil {
		t.Fatal(err)
	}
	v2, err := nnue.BuiltinVersion("katarenga", 2)
	if err != nil {
		t.Fatal(err)
	}
	v3, err := nnue.BuiltinVersion("katarenga", 3)
	if err != nil {
		t.Fatal(err)
	}
	v4, err := nnue.BuiltinVersion("katarenga", 4)
	if err != nil {
		t.Fatal(err)
	}
	v5, err := nnue.BuiltinVersion("katarenga", 5)
	if err != nil {
		t.Fatal(err)
	}
	v6, err := nnue.BuiltinVersion("katarenga", 6)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"alphabeta:nodes=2000", "mcts:playouts=50"} {
		spec := mustAgent(t, kind+",net=builtin2").Spec()
		if !strings.HasSuffix(spec, ",net=builtin2") {
			t.Errorf("spec %s: want net=builtin2 at the end", spec)
		}
		if again := mustAgent(t, spec).Spec(); again != spec {
			t.Errorf("spec %s re-parsed as %s", spec, again)
		}
		if got := playerNet(t, spec, "katarenga"); got != v2 {
			t.Errorf("%s: plays %p, want the second network %p", spec, got, v2)
		}
		if got := playerNet(t, kind+",net=builtin", "katarenga"); got != v1 {
			t.Errorf("%s,net=builtin: not the first network", kind)
		}
		if got := playerNet(t, kind+",net=builtin3", "katarenga"); got != v3 {
			t.Errorf("%s,net=builtin3: not the third network", kind)
		}
		if got := playerNet(t, kind+",net=builtin4", "katarenga"); got != v4 {
			t.Errorf("%s,net=builtin4: not the fourth network", kind)
		}
		if got := playerNet(t, kind+",net=builtin5", "katarenga"); got != v5 || v5.H != 32 {
			t.Errorf("%s,net=builtin5: not the fifth network (H = 32)", kind)
		}
		if got := playerNet(t, kind+",net=builtin6", "katarenga"); got != v6 || v6.H != 32 || v6 == v5 {
			t.Errorf("%s,net=builtin6: not the sixth network (H = 32)", kind)
		}
		if _, err := mustAgent(t, spec).NewPlayer("baran"); err == nil && nnue.LatestBuiltin("baran") < 2 {
			t.Errorf("%s accepted for Baran, which has one network", spec)
		}
	}
	sum2, _ := nnue.BuiltinVersionSHA256("katarenga", 2)
	if got, err := Inputs(mustAgent(t, "alphabeta:depth=2,net=builtin2"), "katarenga"); err != nil || got["net"] != sum2 {
		t.Errorf("Inputs of net=builtin2: %v (%v), want %s", got, err, sum2)
	}
	for _, bad := range []string{"builtin0", "builtin1", "builtin02", "builtin999", "builtin-2"} {
		if _, err := Parse("alphabeta:depth=2,net=" + bad); err == nil {
			t.Errorf("net=%s accepted", bad)
		}
	}
}

// TestNetAutoNewest: net=auto under a movetime budget plays the game's newest shipped network
// (in Katarenga the sixth, not an earlier one) and records its SHA-256; under node, depth
// and playout budgets it stays the heuristic.
func TestNetAutoNewest(t *testing.T) {
	if v := nnue.LatestBuiltin("katarenga"); v != 6 {
		t.Fatalf("Katarenga's newest network is version %d, want 6", v)
	}
	for _, game := range []string{"baran", "katarenga"} {
		latest := nnue.LatestBuiltin(game)
		want, err := nnue.BuiltinVersion(game, latest)
		if err != nil {
			t.Fatal(err)
		}
		sum, _ := nnue.BuiltinVersionSHA256(game, latest)
		for _, spec := range []string{"alphabeta:movetime=10ms", "mcts:movetime=10ms"} {
			if got := playerNet(t, spec, game); got != want {
				t.Errorf("%s in %s: plays %p, want version %d %p", spec, game, got, latest, want)
			}
			if got, err := Inputs(mustAgent(t, spec), game); err != nil || got["net"] != sum {
				t.Errorf("Inputs(%s, %s) = %v (%v), want net %s", spec, game, got, err, sum)
			}
		}
		for _, spec := range []string{"alphabeta:nodes=1000", "alphabeta:depth=2", "mcts:playouts=50"} {
			if got := playerNet(t, spec, game); got != nil {
				t.Errorf("%s in %s: plays a network", spec, game)
			}
		}
	}
	for v := 1; v < nnue.LatestBuiltin("katarenga"); v++ {
		older, err := nnue.BuiltinVersion("katarenga", v)
		if err != nil {
			t.Fatal(err)
		}
		for _, spec := range []string{"alphabeta:movetime=10ms", "mcts:movetime=10ms"} {
			if playerNet(t, spec, "katarenga") == older {
				t.Errorf("%s: net=auto plays Katarenga's network %d", spec, v)
			}
		}
	}
}

// TestAutoWithNetwork: tempo=auto, hist=auto and margin=auto resolve by game, budget and
// evaluation as documented: under movetime with any network (auto's choice, builtin, builtin2,
// a file) Katarenga takes tempo 0, hist 1 and margin 75; under movetime with the heuristic,
// and under a node budget with or without the network, tempo 50, hist 0 and margin 150; depth
// alone tempo 0; Baran keeps tempo 0, hist 0 and margin 150 everywhere; a given value is kept.
func TestAutoWithNetwork(t *testing.T) {
	n1, err := nnue.Builtin("katarenga")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "kat.nnue")
	if err := n1.Save(file); err != nil {
		t.Fatal(err)
	}
	type want struct {
		tempo  int32
		hist   int
		margin int32
	}
	for _, c := range []struct {
		game, spec string
		want       want
	}{
		{"katarenga", "alphabeta:depth=3", want{0, 0, 150}},
		{"katarenga", "alphabeta:depth=3,net=builtin", want{0, 0, 150}},
		{"katarenga", "alphabeta:nodes=1000", want{50, 0, 150}},
		{"katarenga", "alphabeta:nodes=1000,net=builtin2", want{50, 0, 150}},
		{"katarenga", "alphabeta:nodes=1000,margin=auto", want{50, 0, 150}},
		{"katarenga", "alphabeta:movetime=10ms", want{0, 1, 75}},
		{"katarenga", "alphabeta:movetime=10ms,net=none", want{50, 0, 150}},
		{"katarenga", "alphabeta:movetime=10ms,net=builtin", want{0, 1, 75}},
		{"katarenga", "alphabeta:movetime=10ms,net=builtin2", want{0, 1, 75}},
		{"katarenga", "alphabeta:movetime=10ms,net=" + file, want{0, 1, 75}},
		{"katarenga", "alphabeta:movetime=10ms,nodes=1000", want{0, 1, 75}},
		{"katarenga", "alphabeta:movetime=10ms,tempo=40,hist=2", want{40, 2, 75}},
		{"katarenga", "alphabeta:movetime=10ms,margin=150", want{0, 1, 150}},
		{"katarenga", "alphabeta:movetime=10ms,margin=90", want{0, 1, 90}},
		{"baran", "alphabeta:movetime=10ms", want{0, 0, 150}},
		{"baran", "alphabeta:movetime=10ms,net=none", want{0, 0, 150}},
		{"baran", "alphabeta:nodes=1000,net=builtin", want{0, 0, 150}},
	} {
		pl, err := mustAgent(t, c.spec).NewPlayer(c.game)
		if err != nil {
			t.Fatalf("%s in %s: %v", c.spec, c.game, err)
		}
		p := pl.(*abPlayer)
		if got := (want{p.tempo, p.hist, p.margin}); got != c.want {
			t.Errorf("%s in %s: tempo %d hist %d margin %d, want %v", c.spec, c.game, got.tempo, got.hist, got.margin, c.want)
		}
		p.Close()
	}
}

// Checking an agent for a game loads the network it would play there, so that a built-in
// version the game does not have is refused before any game, naming the value.
func TestCheckNetForGame(t *testing.T) {
	for _, c := range []struct {
		spec, game string
		ok         bool
	}{
		{"alphabeta:movetime=10ms,net=builtin2", "katarenga", true},
		{"alphabeta:movetime=10ms,net=builtin2", "baran", false},
		{"mcts:playouts=10,net=builtin2", "baran", false},
		{"mcts:movetime=10ms", "baran", true},
		{"alphabeta:nodes=100,net=builtin", "baran", true},
	} {
		err := Check(mustAgent(t, c.spec), c.game)
		if (err == nil) != c.ok || (err != nil && !strings.Contains(err.Error(), "net=builtin2")) {
			t.Errorf("Check(%s, %s) = %v, want ok %v", c.spec, c.game, err, c.ok)
		}
	}
}
