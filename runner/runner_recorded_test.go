package runner

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/gamefile"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
)

// ruleSets lists every combination of a game's rule switches with a fixed set of values (the
// ply cap at its default and at a low value, so that capped games are among those compared).
func ruleSets(t *testing.T, game string) []string {
	t.Helper()
	vs, err := games.Variants(game)
	if err != nil {
		t.Fatal(err)
	}
	sets := []string{""}
	for _, v := range vs {
		vals := v.Values
		if vals == nil {
			vals = []string{v.Default, "30"}
		}
		var next []string
		for _, s := range sets {
			for _, val := range vals {
				item := v.Name + "=" + val
				if s != "" {
					item = s + "," + item
				}
				next = append(next, item)
			}
		}
		sets = next
	}
	return sets
}

// randomOpenings returns n positions reached by uniformly random plies from the start (seeded).
func randomOpenings(t *testing.T, gm *games.Game, n int, seed uint64) []string {
	t.Helper()
	var out []string
	var r engine.Rand
	r.Seed(seed)
	buf := make([]engine.Action, 0, engine.MaxActions)
	for len(out) < n {
		s := gm.Start(gm.FirstColours()[len(out)%len(gm.FirstColours())])
		for k := 1 + r.IntN(12); k > 0; k-- {
			if buf = s.Legal(buf[:0]); len(buf) == 0 {
				break
			}
			s.Apply(buf[r.IntN(len(buf))])
		}
		if !s.Status().Over {
			out = append(out, s.String())
		}
	}
	return out
}

// uniformAgent chooses as agents.Random does, through the plain per-ply loop: a uniformly random
// legal action, from the legal list (legal[r.IntN(len)], PickLegal's draw) or, with sample, by
// the game's rejection sampler (RandomAction, as NoBranching draws).
type uniformAgent struct{ sample bool }

func (uniformAgent) Spec() string                              { return "random" }
func (uniformAgent) Reproducible() bool                        { return true }
func (a uniformAgent) NewPlayer(string) (agents.Player, error) { return a, nil }
func (a uniformAgent) Choose(s engine.State, legal []engine.Action, r *engine.Rand) (engine.Action, error) {
	if a.sample {
		act, _ := s.(engine.Fast).RandomAction(r)
		return act, nil
	}
	return legal[r.IntN(len(legal))], nil
}

// A random-vs-random game played whole inside the engine (engine.Fast.PlayRecorded, the
// runner's path for such games) gives every record exactly as the per-ply agent loop does with
// players that choose the same way: game by game, under every rule set of both games, with and
// without a random opening, from openings and on random layouts; and likewise with NoBranching
// (RandomAction's draws, every LegalTotal NotCounted).
func TestWholeRandomGameMatchesLoop(t *testing.T) {
	type cfg struct {
		game, rules, layout string
		opening             int
		openings, randomLay bool
		noBranching         bool
	}
	var cfgs []cfg
	for _, game := range []string{"katarenga", "baran"} {
		for k, rules := range ruleSets(t, game) {
			layout := ""
			if game == "katarenga" {
				layout = fmt.Sprint([]int{0, 999, 31337}[k%3])
			}
			cfgs = append(cfgs, cfg{game: game, rules: rules, layout: layout, opening: k % 4})
		}
		cfgs = append(cfgs, cfg{game: game, openings: true}, cfg{game: game, opening: 2, openings: true}, cfg{game: game, opening: 9, openings: true})
	}
	cfgs = append(cfgs, cfg{game: "katarenga", randomLay: true}, cfg{game: "katarenga", randomLay: true, opening: 3,
		rules: "first-move-capture=banned,no-move=pass"})
	for _, c := range cfgs {
		c.noBranching = true
		cfgs = append(cfgs, c)
	}
	n := int64(40)
	if testing.Short() {
		n = 8
	}
	stop := func() bool { return false }
	for k, c := range cfgs {
		gm, err := games.New(c.game, c.rules, c.layout, nil)
		if err != nil {
			t.Fatal(err)
		}
		mc := MatchConfig{Game: c.game, A: "random", B: "random", Games: n, Seed: uint64(1000 + k),
			RandomOpening: c.opening, RandomLayouts: c.randomLay, NoBranching: c.noBranching}
		if c.openings {
			mc.Openings = randomOpenings(t, gm, 5, uint64(k))
		}
		whole, err := NewMatch(mc, gm)
		if err != nil {
			t.Fatal(err)
		}
		loop, err := NewMatchWith(mc, gm, uniformAgent{c.noBranching}, uniformAgent{c.noBranching})
		if err != nil {
			t.Fatal(err)
		}
		ws := [2]*Worker{whole.NewWorker(), loop.NewWorker()}
		if ws[0].states[gm.FirstColours()[0]].fast == nil {
			t.Fatalf("%s: the State has no engine.Fast path", c.game)
		}
		for i := int64(0); i < n; i++ {
			var recs [2]gamefile.Record
			for k, m := range []*Match{whole, loop} {
				r, ok := m.Play(ws[k], i, stop)
				if !ok {
					t.Fatalf("%+v game %d: not finished", c, i)
				}
				recs[k] = r
			}
			if !reflect.DeepEqual(recs[0], recs[1]) {
				t.Fatalf("%+v game %d: the whole game and the loop differ:\n%+v\n%+v", c, i, recs[0], recs[1])
			}
			if recs[0].Moves == "" || recs[0].LegalTotal == 0 || (recs[0].LegalTotal == gamefile.NotCounted) != c.noBranching {
				t.Fatalf("%+v game %d: implausible record %+v", c, i, recs[0])
			}
		}
	}
}

// A stop request abandons a whole random game, as it does the loop's.
func TestWholeRandomGameStops(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		m := newMatch(t, game, "", "", 2)
		w := m.ChunkWorker()
		calls := 0
		_, ok := m.Play(w, 0, func() bool { calls++; return calls > 1 })
		if ok || len(w.moves) != 0 || len(w.spans) != 0 {
			t.Fatalf("%s: a game stopped after its first 64 plies was recorded (ok %v, %d bytes of moves)", game, ok, len(w.moves))
		}
		if calls != 2 {
			t.Fatalf("%s: stop polled %d times, want 2 (plies 0 and 64)", game, calls)
		}
	}
}
