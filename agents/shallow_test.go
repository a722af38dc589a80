package agents

import (
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
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
	} {
		ag, err := Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		pl, err := ag.NewPlayer("katarenga")
		if err != nil {
			t.Fatal(err)
		}
		p := pl.(*abPlayer)
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
		ag, err := Parse("alphabeta:nodes=20000,shallow=1")
		if err != nil {
			t.Fatal(err)
		}
		pl, err := ag.NewPlayer(game)
		if err != nil {
			t.Fatal(err)
		}
		p := pl.(*abPlayer)
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
