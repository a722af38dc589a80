package games

import (
	"slices"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

func TestNew(t *testing.T) {
	g, err := New("katarenga", "first-move-capture=banned", "C13-A02-D10-B01", nil)
	if err != nil {
		t.Fatal(err)
	}
	if g.Layout() != "54603" || !strings.HasPrefix(g.Rules(), "first-move-capture=banned") || len(g.FirstColours()) != 1 {
		t.Errorf("katarenga: layout %s rules %s", g.Layout(), g.Rules())
	}
	s := g.Start(0)
	if s.Game() != "katarenga" || len(s.Legal(nil)) == 0 {
		t.Error("katarenga start position has no moves")
	}
	b, err := New("baran", "", "", nil)
	if err != nil || len(b.FirstColours()) != 2 || b.Start(1).ToMove() != 1 {
		t.Fatalf("baran: %v", err)
	}
	if _, err := b.ParsePosition("nonsense"); err == nil {
		t.Error("a bad position parsed")
	}
	st, err := b.ParsePosition("6k/7/7/7/7/7/K6 b - 3")
	if err != nil || st == nil || st.Ply() != 3 {
		t.Errorf("ParsePosition: %v", err)
	}
	for _, bad := range [][3]string{{"chess", "", ""}, {"baran", "", "0"}, {"katarenga", "", "nope"}, {"baran", "capture=maybe", ""}} {
		if _, err := New(bad[0], bad[1], bad[2], nil); err == nil {
			t.Errorf("New%v: want an error", bad)
		}
	}
}

// ZeroByRule against the engines: in random games under a value that keeps a counter at zero
// by rule, that counter is zero in every game; under the published rules the same counter is
// not (so the list names real counters that the rule, not chance, keeps at zero).
func TestZeroByRule(t *testing.T) {
	for _, game := range Names {
		vs, err := Variants(game)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			for val := range v.ZeroByRule {
				zero, err := ZeroByRule(game, v.Name+"="+val)
				if err != nil || len(zero) == 0 {
					t.Fatalf("%s %s=%s: %v %v", game, v.Name, val, zero, err)
				}
				if got := counterTotals(t, game, v.Name+"="+val, zero); slices.ContainsFunc(got, func(c int64) bool { return c != 0 }) {
					t.Errorf("%s %s=%s: counters %v total %v, want 0", game, v.Name, val, zero, got)
				}
				if got := counterTotals(t, game, "", zero); slices.Contains(got, 0) {
					t.Errorf("%s published rules: counters %v total %v: one is never counted", game, zero, got)
				}
			}
		}
	}
	if z, err := ZeroByRule("katarenga", ""); err != nil || len(z) != 0 {
		t.Errorf("published rules: %v %v, want none", z, err)
	}
}

// counterTotals plays 200 random games under rules (Katarenga on 200 layouts) and sums, for each named counter (its
// colour variants added up), its value at the end of every game.
func counterTotals(t *testing.T, game, rules string, names []string) []int64 {
	t.Helper()
	g, err := New(game, rules, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	r := engine.NewRand(7)
	out := make([]int64, len(names))
	for i := range 200 {
		gi := g
		if game == "katarenga" {
			if gi, err = g.WithLayoutIndex(i * 491); err != nil {
				t.Fatal(err)
			}
		}
		fc := gi.FirstColours()
		s := gi.Start(fc[i%len(fc)])
		engine.Playout(s, r, nil)
		st := s.(engine.Stats)
		for k, c := range st.Counters(nil) {
			name := st.CounterNames()[k]
			for _, suf := range []string{"_red", "_black", "_white"} {
				name = strings.TrimSuffix(name, suf)
			}
			if j := slices.Index(names, name); j >= 0 {
				out[j] += c
			}
		}
	}
	return out
}
