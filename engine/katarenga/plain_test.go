package katarenga

import (
	"sort"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/internal/plain"
)

func statusString(st engine.Status) string {
	if !st.Over {
		return ""
	}
	w := "draw"
	if st.Winner >= 0 {
		w = []string{"w", "b"}[st.Winner]
	}
	return w + " " + st.Reason.String()
}

func allRuleSets() []string {
	var out []string
	for _, f := range []string{"allowed", "banned"} {
		for _, nm := range []string{"loss", "pass"} {
			for _, pc := range []string{"400", "23"} {
				out = append(out, "first-move-capture="+f+",no-move="+nm+",ply-cap="+pc)
			}
		}
	}
	return out
}

// randomGrid colours the board at random, biased per game so that some boards are mostly one
// colour (blocked pawns, long slides and no-move positions happen there).
func randomGrid(r *engine.Rand) Grid {
	var g Grid
	bias := Colour(r.IntN(4))
	for i := range g {
		if r.IntN(3) == 0 {
			g[i] = bias
		} else {
			g[i] = Colour(r.IntN(4))
		}
	}
	return g
}

// TestAgainstPlain compares the fast generator with the plain one on positions of random games
// on random placements and random custom grids, under every variant value.
func TestAgainstPlain(t *testing.T) {
	target := 100_000
	if testing.Short() {
		target = 5_000
	}
	sets := allRuleSets()
	perSet := target/len(sets) + 1
	rng := engine.NewRand(2)
	total := 0
	seen := map[string]int{} // end statuses met, to show the comparison reached them
	for _, spec := range sets {
		r, err := ParseRules(spec)
		if err != nil {
			t.Fatal(err)
		}
		pr := plain.KataRules{FirstMoveCaptureBanned: r.FirstMoveCaptureBanned, NoMovePass: r.NoMovePass, PlyCap: r.PlyCap}
		n := 0
		for game := 0; n < perSet; game++ {
			var l Layout
			if game%3 == 2 {
				l = DefaultTiles.FindGrid(randomGrid(rng))
			} else {
				l, _ = DefaultTiles.LayoutFromIndex(rng.IntN(NumPlacements))
			}
			fast := New(NewBoard(l), r)
			slow, err := plain.ParseKata(fast.String(), pr)
			if err != nil {
				t.Fatal(err)
			}
			for n < perSet {
				n++
				if fs, ss := fast.String(), slow.String(); fs != ss {
					t.Fatalf("%s: positions differ\nfast  %s\nplain %s", spec, fs, ss)
				}
				if fh, rh := fast.Hash(), fast.RecomputeHash(); fh != rh {
					t.Fatalf("%s: incremental hash %x != recomputed %x at %s", spec, fh, rh, fast)
				}
				acts := fast.Legal(nil)
				checkHashAfter(t, spec, fast, acts, true)
				var names []string
				for _, a := range acts {
					names = append(names, fast.FormatAction(a))
				}
				sort.Strings(names)
				want := slow.Actions()
				if strings.Join(names, " ") != strings.Join(want, " ") {
					t.Fatalf("%s: actions differ at %s\nfast  %v\nplain %v", spec, fast, names, want)
				}
				if fs, ss := statusString(fast.Status()), slow.Status(); fs != ss {
					t.Fatalf("%s: status differs at %s: fast %q plain %q", spec, fast, fs, ss)
				}
				if len(acts) == 0 {
					seen[statusString(fast.Status())]++
					break
				}
				if len(acts) == 1 && acts[0] == Pass {
					seen["pass"]++
				}
				a := acts[rng.IntN(len(acts))]
				slow.Apply(fast.FormatAction(a))
				fast.Apply(a)
			}
		}
		total += n
	}
	t.Logf("compared %d positions under %d rule sets; ends met: %v", total, len(sets), seen)
}

// checkHashAfter requires HashAfter to give the hash Apply leads to for each of acts and for a
// pass (legal or not: a search's null move plays one), and with pass, after a pass for each of
// the moves that follow it.
func checkHashAfter(t *testing.T, spec string, s *State, acts []engine.Action, pass bool) {
	t.Helper()
	for _, a := range append(acts, Pass) {
		before := s.HashAfter(a)
		s.Apply(a)
		if h := s.Hash(); before != h {
			s.Undo()
			t.Fatalf("%s: HashAfter(%s) = %x, Hash after Apply %x at %s", spec, s.FormatAction(a), before, h, s)
		}
		if a == Pass && pass {
			checkHashAfter(t, spec, s, s.Legal(nil), false)
		}
		s.Undo()
	}
}
