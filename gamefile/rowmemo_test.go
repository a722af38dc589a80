package gamefile

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

// A RowMemo writes the bytes AppendCSVRowNotation writes, row after row, whatever repeats: the
// same strings, equal strings at other addresses, a prefix of a remembered string (same
// address, shorter), fields that need quotes, empty fields, heads that repeat (a run's two
// heads taking turns) or differ in one field (the game name or layout among them), five values taking turns in a column of four
// slots, and counters of one digit, more digits and below zero.
func TestRowMemoMatchesAppend(t *testing.T) {
	r := engine.NewRand(9)
	base := "alpha,beta \"gamma\" delta"
	pool := []string{"", "first", "second", "draw", base, base[:5], base[:11], " lead", "x\ny",
		strings.Clone("first"), strings.Clone(base), "camps", "material"}
	pick := func() string { return pool[r.IntN(len(pool))] }
	var m RowMemo
	var got, want []byte
	for i := 0; i < 20000; i++ {
		rec := Record{Game: int64(i), Pair: int64(i / 2), Seed: r.Uint64(), GameName: "katarenga", Layout: "0",
			Rules: base, FirstAgent: "random", SecondAgent: base[:11], FirstIs: []string{"a", "b"}[i&1],
			FirstColour: "white", Winner: []string{"first", "second", "draw"}[r.IntN(3)],
			Reason: engine.Reason(1 + r.IntN(5)), Plies: r.IntN(300), LegalTotal: int64(r.IntN(3)) - 1,
			Forfeit: pick(), Counters: []int64{int64(i), 3, int64(r.IntN(21)) - 10}, Start: pick(), Moves: "a1-b2 c3-d4"}
		if i%4 == 3 { // a head that differs from the run's two in one field
			*[]*string{&rec.GameName, &rec.Layout, &rec.Rules, &rec.FirstAgent, &rec.SecondAgent, &rec.FirstIs, &rec.FirstColour}[r.IntN(7)] = pick()
		}
		got = m.AppendCSVRowNotation(got[:0], &rec)
		want = AppendCSVRowNotation(want[:0], &rec)
		if !bytes.Equal(got, want) {
			t.Fatalf("row %d:\n got %q\nwant %q", i, got, want)
		}
	}
	// Winner and winner_agent each take one of three values (always in their memo), and most
	// heads are one of the run's two: at least 2·19,996 + 3/4·20,000·0.9 copies from the memo.
	if m.hits < 2*19996+13500 {
		t.Errorf("%d heads and fields copied from the memo: it is not used", m.hits)
	}
}

// The memo's game and pair columns write strconv's digits for every sequence of values: runs
// counting up by one across carries (9, 99, 999999, to 19 digits), repeats, jumps back and
// forth, zero, negative values and the extremes of int64.
func TestRowMemoNumbers(t *testing.T) {
	r := engine.NewRand(11)
	starts := []int64{0, 1, 8, 98, 999990, 123456789, 999999999999999990, math.MaxInt64 - 3, -12, -1, math.MinInt64}
	var d decimal
	var got []byte
	check := func(v int64) {
		got = d.append(got[:0], v)
		if want := strconv.FormatInt(v, 10); string(got) != want {
			t.Fatalf("after %d: %d written %q, want %q", d.v, v, got, want)
		}
	}
	for i := 0; i < 2000; i++ {
		v := starts[r.IntN(len(starts))]
		if r.IntN(3) == 0 {
			v = int64(r.Uint64() >> r.IntN(64))
		}
		for k := r.IntN(30); k >= 0; k-- {
			check(v)
			if r.IntN(4) == 0 {
				check(v) // repeated, as the pair of the second game of a pair
			}
			if v == math.MaxInt64 {
				break
			}
			v++
		}
	}
}

// BenchmarkRowMemo is one games.csv row of a random Katarenga game as a run's workers write
// it (RowMemo.AppendCSVRowNotation): consecutive games and pairs, the agents' order swapped
// every game, winners and reasons drawn among the values random games end with, five
// counters and ~1 kB of moves; on layout 0, or on random layouts (a layout name of its own
// each game).
func BenchmarkRowMemo(b *testing.B) {
	for _, random := range []bool{false, true} {
		name := "layout0"
		if random {
			name = "random-layouts"
		}
		b.Run(name, func(b *testing.B) { benchRowMemo(b, random) })
	}
}

func benchRowMemo(b *testing.B, randomLayouts bool) {
	r := engine.NewRand(3)
	moves := strings.Repeat("c2-c4 f7xf5 ", 90)
	rules := "first-move-capture=allowed,no-move=loss,ply-cap=400"
	recs := make([]Record, 256)
	for i := range recs {
		recs[i] = Record{Pair: int64(i / 2), Seed: r.Uint64(), GameName: "katarenga", Layout: "0",
			Rules: rules, FirstAgent: "random", SecondAgent: "random", FirstIs: []string{"a", "b"}[i&1],
			FirstColour: "white", Winner: []string{"first", "second", "draw"}[r.IntN(3)],
			Reason: engine.Reason(2 + r.IntN(3)), Plies: 100 + r.IntN(200), LegalTotal: NotCounted,
			Counters: []int64{int64(r.IntN(9)), int64(r.IntN(9)), int64(r.IntN(2)), int64(r.IntN(2)), 0},
			Moves:    moves[:len(moves)-r.IntN(200)-1]}
		if randomLayouts {
			recs[i].Layout = strconv.Itoa(r.IntN(98304))
		}
	}
	var m RowMemo
	buf := make([]byte, 0, 2048*len(recs))
	b.ReportAllocs()
	n := int64(0)
	for b.Loop() {
		if n%int64(len(recs)) == 0 {
			buf = buf[:0]
		}
		rec := &recs[n%int64(len(recs))]
		rec.Game, rec.Pair = n, n/2
		buf = m.AppendCSVRowNotation(buf, rec)
		n++
	}
}
