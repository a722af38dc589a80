package runner

import (
	"fmt"
	"reflect"
	"testing"

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

// The engine's RecordedPlayer (the runner's path for random-vs-random games) gives every record
// exactly as the runner's random-vs-random loop (PickLegal, AppendAction, Apply) and as the
// per-ply agent loop do: game by game, under every rule set of both games, with and without a
// random opening, from openings and on random layouts; and likewise with NoBranching
// (RandomAction's draws, every LegalTotal NotCounted).
func TestRecordedPlayerMatchesLoop(t *testing.T) {
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
		cfgs = append(cfgs, cfg{game: game, opening: 2, openings: true}, cfg{game: game, opening: 9, openings: true})
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
		var ms [3]*Match
		var ws [3]*worker
		for loop := range ms {
			if ms[loop], err = NewMatch(mc, gm); err != nil {
				t.Fatal(err)
			}
			ms[loop].loop = loop
			ws[loop] = ms[loop].NewWorker()
		}
		if ws[0].states[gm.FirstColours()[0]].rp == nil {
			t.Fatalf("%s: the State is no engine.RecordedPlayer", c.game)
		}
		for i := int64(0); i < n; i++ {
			var recs [3]gamefile.Record
			for loop := range ms {
				r, ok := ms[loop].Play(ws[loop], i, stop)
				if !ok {
					t.Fatalf("%+v game %d: not finished", c, i)
				}
				recs[loop] = r
			}
			for loop := 1; loop < 3; loop++ {
				if !reflect.DeepEqual(recs[0], recs[loop]) {
					t.Fatalf("%+v game %d: RecordedPlayer and loop %d differ:\n%+v\n%+v", c, i, loop, recs[0], recs[loop])
				}
			}
			if recs[0].Moves == "" || recs[0].LegalTotal == 0 || (recs[0].LegalTotal == gamefile.NotCounted) != c.noBranching {
				t.Fatalf("%+v game %d: implausible record %+v", c, i, recs[0])
			}
		}
	}
}

// A stop request abandons a RecordedPlayer's game, as it does the loop's.
func TestRecordedPlayerStops(t *testing.T) {
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
