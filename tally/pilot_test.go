package tally

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"

	"github.com/fairplay-lab/fairplay/engine"
)

// ReadPenta pairs games by their pair number whatever their order, and skips a lone game.
func TestReadPenta(t *testing.T) {
	var buf bytes.Buffer
	w, err := gamefile.NewCSVWriter(&buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	game := func(g int64, firstIs, winner string) *gamefile.Record {
		return &gamefile.Record{Game: g, Pair: g / 2, GameName: "baran", FirstIs: firstIs, Winner: winner, Reason: engine.Throne}
	}
	for _, r := range []*gamefile.Record{
		game(1, "b", "second"), game(0, "a", "first"), // A wins both: 2 points
		game(2, "a", "draw"), game(3, "b", "first"), // ½ + 0: ½ point
		game(4, "a", "second"), game(5, "b", "second"), // 0 + 1: 1 point
		game(6, "a", "first"), // no partner
	} {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	p, err := ReadPenta(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if p != (stats.Penta{0, 1, 1, 0, 1}) {
		t.Errorf("penta %v, want [0 1 1 0 1]", p)
	}
	if _, err := ReadPenta(strings.NewReader("a,b\n1,2\n")); err == nil {
		t.Error("not a games file: no error")
	}
}
