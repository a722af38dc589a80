package runner

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"

	"github.com/fairplay-lab/fairplay/engine/games"
)

// TestNotationNeedsNoQuotes checks what prepareGames relies on when it encodes a match's rows
// with gamefile.AppendCSVRowNotation: the move text a match records (engine notation) never needs
// CSV quoting, so the row is the one AppendCSVRow writes. Both games, every rule set of
// ruleSets (passes and capped games included), random play in the engine's recorded path (with
// and without the legal count, with random openings) and through the per-ply agent loop.
func TestNotationNeedsNoQuotes(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		for _, rules := range ruleSets(t, game) {
			gm, err := games.New(game, rules, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				b           string
				games       int64
				noBranching bool
				opening     int
			}{{"random", 16, false, 0}, {"random", 16, true, 3}, {"greedy", 2, false, 1}} {
				m, err := NewMatch(MatchConfig{Game: game, A: "random", B: c.b, Games: c.games, Seed: 7,
					NoBranching: c.noBranching, RandomOpening: c.opening}, gm)
				if err != nil {
					t.Fatal(err)
				}
				w := m.NewWorker()
				for i := int64(0); i < c.games; i++ {
					r, ok := m.Play(w, i, func() bool { return false })
					if !ok {
						t.Fatalf("%s %q game %d: not finished", game, rules, i)
					}
					if strings.ContainsAny(r.Moves, ",\"\r\n") || strings.HasPrefix(r.Moves, " ") {
						t.Fatalf("%s %q game %d: moves %q need quoting", game, rules, i, r.Moves)
					}
					if a, b := gamefile.AppendCSVRow(nil, &r), gamefile.AppendCSVRowNotation(nil, &r); !bytes.Equal(a, b) {
						t.Fatalf("%s %q game %d: rows differ:\n%s\n%s", game, rules, i, a, b)
					}
				}
			}
		}
	}
}

// TestChunkCap checks which matches hand their games to the collector in chunks of up to 256
// (random vs random, cheap games) and which keep the default cap of 64 (any searching agent).
func TestChunkCap(t *testing.T) {
	gm, err := games.New("katarenga", "", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		a, b string
		want int64
	}{{"random", "random", 256}, {"random", "greedy", 64}, {"alphabeta:depth=1", "random", 64}} {
		m, err := NewMatch(MatchConfig{Game: "katarenga", A: c.a, B: c.b, Games: 2, Seed: 1}, gm)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.chunkCap(); got != c.want {
			t.Errorf("%s vs %s: chunk cap %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
