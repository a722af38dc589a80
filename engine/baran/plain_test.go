package baran

import (
	"math/bits"
	"sort"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/internal/plain"
)

// key describes an action the way the plain implementation does: "rem|from|to|captured".
func key(a engine.Action) string {
	if a == Pass {
		return "pass"
	}
	from, to, capt, rem := decode(a)
	var cs []string
	for m := capt; m != 0; m &= m - 1 {
		cs = append(cs, CellName(bits.TrailingZeros64(m)))
	}
	sort.Strings(cs)
	r := ""
	if rem >= 0 {
		r = CellName(rem)
	}
	return r + "|" + CellName(from) + "|" + CellName(to) + "|" + strings.Join(cs, ",")
}

func plainRules(r Rules) plain.BaranRules {
	return plain.BaranRules{Capture: []string{"huff", "strict", "free"}[r.Capture], PerJump: r.PerJump,
		FastRow4: r.FastRow4, NoMovePass: r.NoMovePass, PlyCap: r.PlyCap}
}

func statusString(st engine.Status) string {
	if !st.Over {
		return ""
	}
	w := "draw"
	if st.Winner >= 0 {
		w = []string{"r", "b"}[st.Winner]
	}
	return w + " " + st.Reason.String()
}

// allRuleSets lists every combination of Baran's variant values, with the default cap and a
// small one so that capped games occur.
func allRuleSets() []string {
	var out []string
	for _, c := range []string{"huff", "strict", "free"} {
		for _, cc := range []string{"whole", "per-jump"} {
			for _, fr := range []string{"3", "4"} {
				for _, nm := range []string{"loss", "pass"} {
					for _, pc := range []string{"400", "37"} {
						out = append(out, "capture="+c+",chain-capture="+cc+",fast-row="+fr+",no-move="+nm+",ply-cap="+pc)
					}
				}
			}
		}
	}
	return out
}

// TestAgainstPlain compares the fast generator with the plain one, action list for action list,
// position string for position string and status for status, on positions from random games
// under every variant value.
func TestAgainstPlain(t *testing.T) {
	target := 100_000
	if testing.Short() {
		target = 4_000
	}
	sets := allRuleSets()
	perSet := target/len(sets) + 1
	rng := engine.NewRand(1)
	total := 0
	seen := map[string]int{} // end statuses met, to show the comparison reached them
	for _, spec := range sets {
		r, err := ParseRules(spec)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for game := 0; n < perSet; game++ {
			first := engine.Player(game & 1)
			fast := New(r, first)
			slow := plain.NewBaran(plainRules(r), int(first))
			for n < perSet {
				n++
				if fs, ss := fast.String(), slow.String(); fs != ss {
					t.Fatalf("%s: positions differ\nfast  %s\nplain %s", spec, fs, ss)
				}
				if fh, rh := fast.Hash(), fast.RecomputeHash(); fh != rh {
					t.Fatalf("%s: incremental hash %x != recomputed %x at %s", spec, fh, rh, fast)
				}
				acts := fast.Legal(nil)
				var keys []string
				for _, a := range acts {
					keys = append(keys, key(a))
				}
				sort.Strings(keys)
				want := slow.Actions()
				if strings.Join(keys, " ") != strings.Join(want, " ") {
					t.Fatalf("%s: actions differ at %s\nfast  %v\nplain %v", spec, fast, keys, want)
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
				fast.Apply(a)
				slow.Apply(key(a))
			}
		}
		total += n
	}
	t.Logf("compared %d positions under %d rule sets; ends met: %v", total, len(sets), seen)
}
