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
// address, shorter), fields that need quotes, empty fields, and three values taking turns in
// a column of two slots.
func TestRowMemoMatchesAppend(t *testing.T) {
	r := engine.NewRand(9)
	base := "alpha,beta \"gamma\" delta"
	pool := []string{"", "first", "second", "draw", base, base[:5], base[:11], " lead", "x\ny",
		strings.Clone("first"), strings.Clone(base), "camps", "material"}
	pick := func() string { return pool[r.IntN(len(pool))] }
	var m RowMemo
	var got, want []byte
	for i := 0; i < 20000; i++ {
		rec := Record{Game: int64(i), Pair: int64(i / 2), Seed: r.Uint64(), GameName: pick(), Layout: pick(),
			Rules: pick(), FirstAgent: pick(), SecondAgent: pick(), FirstIs: []string{"a", "b"}[i&1],
			FirstColour: pick(), Winner: []string{"first", "second", "draw"}[r.IntN(3)],
			Reason: engine.Reason(1 + r.IntN(4)), Plies: r.IntN(300), LegalTotal: int64(r.IntN(3)) - 1,
			Forfeit: pick(), Counters: []int64{int64(i), 3}, Start: pick(), Moves: "a1-b2 c3-d4"}
		got = m.AppendCSVRowNotation(got[:0], &rec)
		want = AppendCSVRowNotation(want[:0], &rec)
		if !bytes.Equal(got, want) {
			t.Fatalf("row %d:\n got %q\nwant %q", i, got, want)
		}
	}
	// first_is alone repeats one of two strings: at least 19,998 fields came from the memo.
	if m.hits < 19998 {
		t.Errorf("%d fields copied from the memo: it is not used", m.hits)
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
