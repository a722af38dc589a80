package agents

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
)

// ruleSets lists every variant value of both games (each switched once from the defaults).
func ruleSets() map[string][]string {
	return map[string][]string{
		"baran":     {"", "capture=strict", "capture=free", "chain-capture=per-jump", "fast-row=4", "no-move=pass", "ply-cap=60"},
		"katarenga": {"", "first-move-capture=banned", "no-move=pass", "ply-cap=60"},
	}
}

func mustAgent(t *testing.T, spec string) Agent {
	t.Helper()
	a, err := Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// Every agent returns only listed actions, on positions of random games under every variant.
func TestAgentsPlayLegally(t *testing.T) {
	specs := []string{"random", "greedy", "alphabeta:depth=2", "alphabeta:nodes=300", "mcts:playouts=30", "mcts:playouts=20,rollout=heuristic,cutoff=10", "mcts:playouts=25,halving=8,mm=0.5,tempo=50,rollout=ply,pick=value"}
	positions := 12
	if testing.Short() {
		positions = 3
	}
	for game, sets := range ruleSets() {
		for _, rules := range sets {
			gm, err := games.New(game, rules, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			rng := engine.NewRand(uint64(len(rules)) + 1)
			for _, spec := range specs {
				pl, err := mustAgent(t, spec).NewPlayer(game)
				if err != nil {
					t.Fatal(err)
				}
				s := gm.Start(0)
				for n := 0; n < positions; {
					legal := s.Legal(nil)
					if len(legal) == 0 {
						s = gm.Start(1 % engine.Player(len(gm.FirstColours())))
						continue
					}
					before := s.String()
					a, err := pl.Choose(s, legal, rng)
					if err != nil {
						t.Fatalf("%s %s %s: %v", game, rules, spec, err)
					}
					if s.String() != before {
						t.Fatalf("%s: %s left the position changed", game, spec)
					}
					found := false
					for _, l := range legal {
						found = found || l == a
					}
					if !found {
						t.Fatalf("%s %s %s: chose an unlisted action at %s", game, rules, spec, s)
					}
					n++
					// advance a few random plies for variety
					for k := 0; k < 7 && len(legal) > 0; k++ {
						s.Apply(legal[rng.IntN(len(legal))])
						legal = s.Legal(nil)
					}
				}
				if c, ok := pl.(Closer); ok {
					c.Close()
				}
			}
		}
	}
}

// minimax is plain negamax without pruning, with the same leaf and terminal scoring.
func minimax(s engine.State, depth, ply int, w Weights) int32 {
	moves := s.Legal(nil)
	if len(moves) == 0 {
		return terminal(s, ply)
	}
	if depth == 0 {
		return int32(Evaluate(s, w))
	}
	best := int32(math.MinInt32)
	for _, a := range moves {
		s.Apply(a)
		v := -minimax(s, depth-1, ply+1, w)
		s.Undo()
		if v > best {
			best = v
		}
	}
	return best
}

// Alpha-beta (with its transposition table and move ordering, quiescence off) returns the
// plain minimax value at the same depth, and plays a move of that value.
func TestAlphaBetaEqualsMinimax(t *testing.T) {
	n := 12
	if testing.Short() {
		n = 3
	}
	for _, game := range []string{"baran", "katarenga"} {
		gm, _ := games.New(game, "", "", nil)
		rng := engine.NewRand(3)
		w, _ := DefaultWeights(game)
		for i := 0; i < n; i++ {
			s := gm.Start(0)
			for k := 0; k < 10+rng.IntN(40); k++ {
				l := s.Legal(nil)
				if len(l) == 0 {
					break
				}
				s.Apply(l[rng.IntN(len(l))])
			}
			legal := s.Legal(nil)
			if len(legal) == 0 {
				continue
			}
			for depth := 1; depth <= 3; depth++ {
				// Reductions and extensions change the searched tree; PVS, aspiration and the
				// table must not change the value.
				ag := mustAgent(t, "alphabeta:qs=0,lmr=0,rfp=0,fut=0,lmp=0,ext=0,depth="+string(rune('0'+depth))).(*AlphaBeta)
				pl, _ := ag.NewPlayer(game)
				p := pl.(*abPlayer)
				p.tx, p.rootDepth = newTactics(s), depth
				want := minimax(s, depth, 0, w)
				if got := p.search(s, depth, -Win-1, Win+1, 0, true); got != want {
					t.Fatalf("%s depth %d at %s: alpha-beta %d, minimax %d", game, depth, s, got, want)
				}
				for _, spec := range []string{"alphabeta:qs=0,lmr=0,rfp=0,fut=0,lmp=0,ext=0,depth=", "classic:qs=0,depth="} {
					ww, want := w, want
					if strings.HasPrefix(spec, "classic") { // 0.1's weights
						ww = classicWeights(game)
						want = minimax(s, depth, 0, ww)
					}
					pl2, _ := mustAgent(t, spec+string(rune('0'+depth))).NewPlayer(game)
					a, _ := pl2.Choose(s, legal, rng)
					s.Apply(a)
					got := -minimax(s, depth-1, 1, ww)
					s.Undo()
					if got != want {
						t.Fatalf("%s %s%d: the chosen move is worth %d, the best %d", game, spec, depth, got, want)
					}
				}
			}
		}
	}
}

// With a fixed seed an agent's choices repeat exactly.
func TestDeterministicChoices(t *testing.T) {
	for _, spec := range []string{"greedy", "alphabeta:depth=3", "alphabeta:nodes=500", "mcts:playouts=50"} {
		var runs [2][]engine.Action
		for k := 0; k < 2; k++ {
			gm, _ := games.New("katarenga", "", "17", nil)
			s := gm.Start(0)
			r := engine.NewRand(99)
			ag := mustAgent(t, spec)
			pl, _ := ag.NewPlayer("katarenga")
			for ply := 0; ply < 30; ply++ {
				l := s.Legal(nil)
				if len(l) == 0 {
					break
				}
				a, _ := pl.Choose(s, l, r)
				runs[k] = append(runs[k], a)
				s.Apply(a)
			}
		}
		if len(runs[0]) != len(runs[1]) {
			t.Fatalf("%s: games of different length", spec)
		}
		for i := range runs[0] {
			if runs[0][i] != runs[1][i] {
				t.Fatalf("%s: ply %d differs between two runs with one seed", spec, i)
			}
		}
	}
}

func TestSpecs(t *testing.T) {
	for spec, want := range map[string]string{
		"random":                   "random",
		"alphabeta:depth=3":        "alphabeta:depth=3,nodes=0,movetime=0,hash=16,qs=1,pvs=1,lmr=auto,rfp=auto,fut=auto,lmp=auto,margin=150,tempo=auto,null=0,asp=1,ext=auto,exts=0,qsbase=1,weights=",
		"alphabeta:nodes=20000":    "alphabeta:depth=64,nodes=20000,movetime=0,hash=16,qs=1,pvs=1,lmr=auto,rfp=auto,fut=auto,lmp=auto,margin=150,tempo=auto,null=0,asp=1,ext=auto,exts=0,qsbase=1,weights=",
		"alphabeta:movetime=0.1s":  "alphabeta:depth=64,nodes=0,movetime=100ms,hash=16,qs=1,pvs=1,lmr=auto,rfp=auto,fut=auto,lmp=auto,margin=auto,tempo=auto,null=0,asp=1,ext=auto,exts=0,qsbase=1,weights=",
		"classic:depth=7":          "classic:depth=7,nodes=0,qs=1,tt=16,weights=",
		"mcts:playouts=2000,c=1.4": "mcts:playouts=2000,movetime=0,c=1.4,temp=100,rollout=qs,prior=eval,cutoff=8,eps=0.2,tempo=auto,mm=0,pick=visits,expand=2,halving=0,qsbase=1,prune=1,refresh=1,win1=1,solver=1,reuse=1,weights=",
		"mcts:movetime=50ms":       "mcts:playouts=10000000,movetime=50ms,c=1.5,temp=100,rollout=qs,prior=eval,cutoff=8,eps=0.2,tempo=auto,mm=0,pick=visits,expand=2,halving=0,qsbase=1,prune=1,refresh=1,win1=1,solver=1,reuse=1,weights=",
	} {
		if got := mustAgent(t, spec).Spec(); got != want {
			t.Errorf("%s -> %s, want %s", spec, got, want)
		}
	}
	for _, bad := range []string{"wizard", "alphabeta:depth=0", "alphabeta:speed=3", "mcts:c=x", "random:x=1", "ext", "ext:cmd=x,timeout=soon", "mcts:rollout=smart", "alphabeta:depth", "alphabeta:movetime=fast", "alphabeta:movetime=-1s", "alphabeta:hash=0", "alphabeta:lmr=4", "alphabeta:rfp=9", "alphabeta:fut=-1", "alphabeta:lmp=x", "alphabeta:margin=0", "alphabeta:ext=2", "alphabeta:exts=17", "alphabeta:qsbase=2", "mcts:prior=move,rollout=ply", "mcts:prior=move,rollout=eval", "mcts:prior=move,mm=0.5", "mcts:qsbase=5", "mcts:tempo=x", "mcts:prune=2", "mcts:refresh=yes", "mcts:win1=-1"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q): want an error", bad)
		}
	}
}

func TestWeightsJSON(t *testing.T) {
	w, _ := DefaultWeights("baran")
	path := filepath.Join(t.TempDir(), "w.json")
	w[0].Value = 123.5
	if err := SaveWeights(path, w); err != nil {
		t.Fatal(err)
	}
	back, err := LoadWeights("baran", path)
	if err != nil || back[0].Value != 123.5 || len(back) != len(w) {
		t.Fatalf("weights round trip: %v %v", back, err)
	}
	if err := w.SetJSON([]byte(`{"nonsense": 1}`)); err == nil || !strings.Contains(err.Error(), "nonsense") {
		t.Errorf("unknown weight accepted: %v", err)
	}
	g := mustAgent(t, "greedy:weights="+filepath.Join(t.TempDir(), "missing.json"))
	if _, err := g.NewPlayer("baran"); err == nil {
		t.Error("a missing weights file was accepted")
	}
}

// External bots: a good one plays; crash, timeout, garbage and illegal answers are errors
// (the runner turns them into forfeits).
func TestExternal(t *testing.T) {
	gm, _ := games.New("baran", "", "", nil)
	s := gm.Start(0)
	legal := s.Legal(nil)
	bot := func(name, extra string) Player {
		a := mustAgent(t, "ext:cmd="+filepath.Join("testdata", name)+extra)
		p, err := a.NewPlayer("baran")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := bot("firstbot.sh", "")
	a, err := p.Choose(s, legal, nil)
	if err != nil || a != legal[0] {
		t.Errorf("firstbot: %v %v", s.FormatAction(a), err)
	}
	p.(Closer).Close()
	for _, c := range []struct{ name, extra, want string }{
		{"crashbot.sh", "", "exited"},
		{"slowbot.sh", ",timeout=300ms", "within"},
		{"garbagebot.sh", "", "banana"},
		{"illegalbot.sh", "", "illegal"},
		{"no-such-bot", "", "cannot start"},
	} {
		p := bot(c.name, c.extra)
		_, err := p.Choose(s, legal, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want one mentioning %q", c.name, err, c.want)
		}
		p.(Closer).Close()
	}
}

// The Go example bot of docs/protocol.md plays whole games: in persistent mode (protocol 2),
// several in one process, and with protocol 1 one per process.
func TestExampleGoBot(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	bin := filepath.Join(t.TempDir(), "gobot")
	if out, err := exec.Command("go", "build", "-o", bin, "./testdata/gobot").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, persist := range []string{"on", "off"} {
		ag := mustAgent(t, "ext:cmd="+bin+",persist="+persist)
		for _, game := range []string{"baran", "katarenga", "baran", "katarenga"} {
			gm, _ := games.New(game, "", "", nil)
			s := gm.Start(0)
			pl, _ := ag.NewPlayer(game)
			for ply := 0; ply < 40; ply++ {
				legal := s.Legal(nil)
				if len(legal) == 0 {
					break
				}
				var a engine.Action
				var err error
				if ply%2 == 0 {
					a, err = pl.Choose(s, legal, nil)
				} else {
					a = legal[0]
				}
				if err != nil {
					t.Fatalf("persist=%s, %s ply %d: %v", persist, game, ply, err)
				}
				s.Apply(a)
			}
			pl.(Closer).Close()
		}
		Release(ag)
	}
}

// Tuning hooks: the starting weights come from the weights file, WithWeights changes only the
// evaluation (a fresh agent), and WithWeightsFile rewrites the spec's weights parameter.
func TestTuningHooks(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/w.json"
	if err := os.WriteFile(path, []byte(`{"material": 123}`), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := Parse("alphabeta:depth=1,weights=" + path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := HeuristicWeights(a, "katarenga")
	if err != nil || w[w.Index("material")].Value != 123 {
		t.Fatalf("start weights %v %v", w, err)
	}
	w2 := append(Weights(nil), w...)
	w2[0].Value = 7
	b, err := WithWeights(a, w2)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := HeuristicWeights(b, "katarenga"); got[0].Value != 7 || b.Spec() != a.Spec() {
		t.Errorf("WithWeights: %v spec %s", got[0], b.Spec())
	}
	if got, _ := HeuristicWeights(a, "katarenga"); got[0].Value != 123 {
		t.Error("WithWeights changed the original agent")
	}
	spec, err := WithWeightsFile("greedy", dir+"/t.json")
	if err != nil || spec != "greedy:weights="+dir+"/t.json" {
		t.Errorf("WithWeightsFile: %q %v", spec, err)
	}
	if _, err := WithWeightsFile("random", "x.json"); err == nil {
		t.Error("random has no weights, accepted")
	}
	if _, err := WithWeightsFile("greedy", "a,b.json"); err == nil {
		t.Error("a comma in the path accepted")
	}
	if _, err := WithWeights(Random{}, w); err == nil {
		t.Error("WithWeights(random) accepted")
	}
}

// TestExtAuto checks that ext=auto (the default) turns threat extensions off in Katarenga and
// on in Baran, and that ext=0/1 override it in both games.
func TestExtAuto(t *testing.T) {
	for _, c := range []struct {
		spec, game string
		want       bool
	}{
		{"alphabeta", "katarenga", false}, {"alphabeta", "baran", true},
		{"alphabeta:ext=1", "katarenga", true}, {"alphabeta:ext=0", "baran", false},
	} {
		p, err := mustAgent(t, c.spec).NewPlayer(c.game)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.(*abPlayer).ext; got != c.want {
			t.Errorf("%s in %s: extensions %v, want %v", c.spec, c.game, got, c.want)
		}
	}
}

// Close gives the transposition table back to the agent's pool without allocating: the pool
// holds a pointer, not a table boxed in an interface.
func TestCloseReturnsTableWithoutAllocating(t *testing.T) {
	for _, spec := range []string{"alphabeta:depth=2,hash=1", "classic:depth=2,tt=8"} {
		ag := mustAgent(t, spec)
		const runs = 50
		players := make([]Closer, runs+1) // AllocsPerRun calls the function runs+1 times
		for i := range players {
			p, err := ag.NewPlayer("katarenga")
			if err != nil {
				t.Fatal(err)
			}
			players[i] = p.(Closer)
		}
		k := 0
		if n := testing.AllocsPerRun(runs, func() { players[k].Close(); k++ }); n != 0 {
			t.Errorf("%s: %v allocations per Close, want 0", spec, n)
		}
	}
}
