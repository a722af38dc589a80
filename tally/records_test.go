package tally

import (
	"math"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"

	"github.com/fairplay-lab/fairplay/engine"
)

// randomRecords makes n varied records with the given number of counters (the gamefile tests have
// the same generator; test files cannot be shared across packages).
func randomRecords(n int, counters int) []*gamefile.Record {
	rng := engine.NewRand(5)
	reasons := []engine.Reason{engine.Throne, engine.Camps, engine.Material, engine.NoMove, engine.Cap, engine.Forfeit}
	winners := []string{"first", "second", "draw"}
	var rs []*gamefile.Record
	for i := 0; i < n; i++ {
		r := &gamefile.Record{Game: int64(i), Pair: int64(i / 2), Seed: rng.Uint64(), GameName: "katarenga",
			Layout: []string{"0", "", "wrbg-1234"}[i%3], Rules: "first-move-capture=allowed,no-move=loss,ply-cap=400",
			FirstAgent: `ext:cmd="./bot, x"`, SecondAgent: "random", FirstIs: []string{"a", "b"}[i%2],
			FirstColour: "white", Winner: winners[rng.IntN(3)], Reason: reasons[rng.IntN(len(reasons))],
			Plies: rng.IntN(400), LegalTotal: int64(rng.IntN(100000))}
		for k := 0; k < counters; k++ {
			r.Counters = append(r.Counters, int64(rng.IntN(20))-2)
		}
		if r.Reason == engine.Forfeit {
			r.Forfeit = []string{"timeout", "illegal"}[i%2]
		}
		if i%7 == 3 {
			r.Start = "line one\nline \"two\""
		}
		var mv []string
		for k := rng.IntN(30); k > 0; k-- {
			mv = append(mv, string(rune('a'+rng.IntN(8)))+"1-b2")
		}
		r.Moves = strings.Join(mv, " ")
		rs = append(rs, r)
	}
	return rs
}

func approx(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol || math.IsNaN(got) != math.IsNaN(want) {
		t.Errorf("%s = %.6f, want %.6f (±%g)", what, got, want, tol)
	}
}
