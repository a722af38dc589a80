package agents

import (
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// TestShallowSpec: shallow is a quiet late parameter (specs without it keep their canonical
// form), auto resolves to none under node and depth budgets and without a network, and bad
// values are refused naming the parameter.
func TestShallowSpec(t *testing.T) {
	for _, spec := range []string{"alphabeta:nodes=1000", "alphabeta:movetime=100ms", "alphabeta:depth=3"} {
		ag, err := Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		if c := ag.Spec(); strings.Contains(c, "shallow") {
			t.Errorf("%s: canonical %s names shallow at its default", spec, c)
		}
	}
	for spec, want := range map[string]int{
		"alphabeta:nodes=1000":                    0,
		"alphabeta:depth=3":                       0,
		"alphabeta:nodes=1000,shallow=2":          2,
		"alphabeta:movetime=100ms,net=none":       0,
		"alphabeta:movetime=100ms,shallow=0":      0,
		"alphabeta:movetime=100ms,shallow=3":      3,
		"alphabeta:movetime=100ms":                autoNetShallow["katarenga"],
		"alphabeta:movetime=100ms,shallow=auto":   autoNetShallow["katarenga"],
		"alphabeta:nodes=1000,shallow=1,net=none": 1,
		"alphabeta:nodes=1000,net=builtin4":       0,
		"alphabeta:depth=3,net=builtin4":          0,
	} {
		p := abPlayerOf(t, spec, "katarenga")
		got, wantBuckets := 0, 0
		if p.tt1 != nil {
			got = len(p.tt1.slim)
		}
		if want > 0 {
			wantBuckets = len(newTable(want, true).slim)
		}
		if got != wantBuckets {
			t.Errorf("%s: a shallow table of %d buckets, want %d (%d MB)", spec, got, wantBuckets, want)
		}
		p.Close()
	}
	for _, bad := range []string{"shallow=65", "shallow=-1", "shallow=x"} {
		if _, err := Parse("alphabeta:nodes=1000," + bad); err == nil || !strings.Contains(err.Error(), "shallow") {
			t.Errorf("%s: error %v, want one naming shallow", bad, err)
		}
	}
}

// TestShallowTableSplit: with shallow=1 the nodes of depth 1 and 2 store only in the shallow
// table and the deeper ones only in the main table, in both games.
func TestShallowTableSplit(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		p := abPlayerOf(t, "alphabeta:nodes=20000,shallow=1", game)
		s := midgame(game)
		if _, err := p.Choose(s, s.Legal(nil), engine.NewRand(1)); err != nil {
			t.Fatal(err)
		}
		if p.Depth < 4 {
			t.Fatalf("%s: depth %d, want at least 4", game, p.Depth)
		}
		main, shallow := tableDepths(p.tt), tableDepths(p.tt1)
		for d, n := range main {
			if d <= shallowDepth && n > 0 {
				t.Errorf("%s: %d entries of depth %d in the main table", game, n, d)
			}
		}
		for d, n := range shallow {
			if d > shallowDepth && n > 0 {
				t.Errorf("%s: %d entries of depth %d in the shallow table", game, n, d)
			}
		}
		if main[3] == 0 || shallow[1] == 0 || shallow[2] == 0 {
			t.Errorf("%s: main table depths %v, shallow %v: want entries at depths 1, 2 (shallow) and 3 (main)", game, main, shallow)
		}
		p.Close()
	}
}

// tableDepths counts a table's used entries by depth (0..63).
func tableDepths(t *table) (n [64]int) {
	for i := range t.slim {
		for _, e := range t.slim[i] {
			if e.flag() != 0 {
				n[int8(e.sd)&63]++
			}
		}
	}
	for i := range t.wide {
		for _, e := range t.wide[i] {
			if e.flag != 0 {
				n[e.depth&63]++
			}
		}
	}
	return n
}

// TestShallowProbe: with a shallow table, nodes of depth 1 and 2 find only its entries, a node
// of depth 3 finds the main table's and, when the main table has none, the shallow entry's move
// (not its bound), and deeper nodes only the main table's; both tables age with the moves.
func TestShallowProbe(t *testing.T) {
	p := abPlayerOf(t, "alphabeta:nodes=1000,shallow=1", "katarenga")
	defer p.Close()
	const key, other = 0x1234_5678_9abc_d000, 0x0fed_cba9_8765_4000
	p.tt1.store(key, 77, 5, 2, ttLower, 0)
	p.tt.store(other, 88, 6, 5, ttExact, 0)
	for _, c := range []struct {
		key      uint64
		depth    int
		main, ok bool
		move     engine.Action
		flag     uint8
	}{
		{key, 1, false, true, 77, ttLower},
		{key, 2, false, true, 77, ttLower},
		{key, 3, true, false, 77, ttLower}, // the move only
		{key, 4, true, false, 0, 0},
		{other, 2, false, false, 0, 0}, // the main table is not looked at
		{other, 3, true, true, 88, ttExact},
		{other, 6, true, true, 88, ttExact},
	} {
		tt, e, ok := p.probe(c.key, c.depth)
		if (tt == p.tt) != c.main || ok != c.ok || e.move != c.move || e.flag != c.flag {
			t.Errorf("probe(%x, depth %d) = main %v, %+v, %v; want main %v, move %d, flag %d, %v",
				c.key, c.depth, tt == p.tt, e, ok, c.main, c.move, c.flag, c.ok)
		}
	}
	s := midgame("katarenga")
	g0, g1 := p.tt.gen, p.tt1.gen
	if _, err := p.Choose(s, s.Legal(nil), engine.NewRand(1)); err != nil {
		t.Fatal(err)
	}
	if p.tt.gen != g0+1 || p.tt1.gen != g1+1 {
		t.Errorf("generations after a move: main %d, shallow %d; want %d, %d", p.tt.gen, p.tt1.gen, g0+1, g1+1)
	}
}

// TestShallowPool: a player's shallow table goes back to the agent's pool at Close and comes
// out cleared for the next player.
func TestShallowPool(t *testing.T) {
	ag, err := Parse("alphabeta:nodes=2000,shallow=1")
	if err != nil {
		t.Fatal(err)
	}
	pl, _ := ag.NewPlayer("katarenga")
	p := pl.(*abPlayer)
	s := midgame("katarenga")
	if _, err := p.Choose(s, s.Legal(nil), engine.NewRand(1)); err != nil {
		t.Fatal(err)
	}
	t1 := p.tt1
	if n := tableDepths(t1); n[1] == 0 {
		t.Fatal("no depth-1 entries in the shallow table after a search")
	}
	p.Close()
	if p.tt1 != nil {
		t.Fatal("Close kept the shallow table")
	}
	pl, _ = ag.NewPlayer("katarenga")
	q := pl.(*abPlayer)
	defer q.Close()
	if q.tt1 != t1 {
		t.Skip("the pool dropped the table (sync.Pool may), so there is no reuse to check")
	}
	if tableDepths(q.tt1) != [64]int{} || q.tt1.gen != 0 {
		t.Errorf("a reused shallow table was not cleared: depths %v, gen %d", tableDepths(q.tt1), q.tt1.gen)
	}
}

// abPlayerOf makes a player of an alpha-beta spec for game.
func abPlayerOf(t *testing.T, spec, game string) *abPlayer {
	t.Helper()
	pl, err := mustAgent(t, spec).NewPlayer(game)
	if err != nil {
		t.Fatal(err)
	}
	return pl.(*abPlayer)
}

// TestChildBucket: the bucket prefetched for a child is the one the child probes first at the
// depth it is searched with, in the table the search's probe chooses (the shallow table's up to
// shallowDepth, the main table's deeper; with one table always the main one's); none at a
// leaf; none in Baran (wide entries).
func TestChildBucket(t *testing.T) {
	for _, spec := range []string{"alphabeta:nodes=1000,shallow=1", "alphabeta:nodes=1000"} {
		p := abPlayerOf(t, spec, "katarenga")
		s := midgame("katarenga")
		p.tx = newTactics(s)
		for _, a := range append(s.Legal(nil), katarenga.Pass) {
			s.Apply(a)
			key := s.Hash()
			s.Undo()
			for depth := -1; depth <= 5; depth++ {
				var want *slimBucket
				if depth > 0 {
					tt := p.tt // the table search probes first (absearch.go)
					if p.tt1 != nil {
						tt, _, _ = p.probe(key, depth)
					}
					want = &tt.slim[key&uint64(len(tt.slim)-1)]
				}
				if got := p.childBucket(a, depth); got != want {
					t.Fatalf("%s: childBucket(%s, %d) = %p, want %p", spec, s.FormatAction(a), depth, got, want)
				}
			}
		}
		p.Close()
	}
	p := abPlayerOf(t, "alphabeta:nodes=1000", "baran")
	defer p.Close()
	s := midgame("baran")
	p.tx = newTactics(s)
	if b := p.childBucket(s.Legal(nil)[0], 3); b != nil {
		t.Errorf("baran: childBucket = %p, want nil", b)
	}
}
