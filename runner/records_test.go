package runner

import (
	"bytes"
	"context"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
)

// The moves column is the ground truth of a game: replaying it from the start position gives
// the recorded length, end reason and winner, and it survives a games.csv round trip.
func TestMovesReplay(t *testing.T) {
	for _, g := range []struct{ game, layout string }{{"baran", ""}, {"katarenga", "777"}} {
		m := newMatch(t, g.game, "", g.layout, 20)
		out, _ := csvOf(t, context.Background(), m, Plan{Start: 0, End: 20}, 2, 0)
		r, err := gamefile.NewCSVReader(bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		var again bytes.Buffer
		cw, _ := gamefile.NewCSVWriter(&again, r.Counters)
		for rec, err := range r.All() {
			if err != nil {
				t.Fatal(err)
			}
			if rec.Start != "" || rec.Moves == "" {
				t.Fatalf("%s game %d: start %q, moves %q", g.game, rec.Game, rec.Start, rec.Moves)
			}
			replay(t, g.game, rec)
			if err := cw.Write(rec); err != nil {
				t.Fatal(err)
			}
		}
		cw.Flush()
		if !bytes.Equal(out, again.Bytes()) {
			t.Errorf("%s: games.csv changed in a read/write round trip", g.game)
		}
	}
}

// replay plays rec.Moves from the standard start of its layout and checks the recorded result.
func replay(t *testing.T, game string, rec *gamefile.Record) {
	t.Helper()
	layout := rec.Layout
	gm, err := games.New(game, rec.Rules, layout, nil)
	if err != nil {
		t.Fatal(err)
	}
	first := engine.Player(0)
	if gm.ColourNames()[1] == rec.FirstColour {
		first = 1
	}
	s := gm.Start(first)
	n, err := engine.ApplyMoves(s, rec.Moves)
	if err != nil {
		t.Fatalf("game %d: %v", rec.Game, err)
	}
	st := s.Status()
	if s.Ply() != rec.Plies || n != rec.Plies || st.Reason != rec.Reason {
		t.Fatalf("game %d: replay gives %d plies (%d moves), %v; recorded %d, %v", rec.Game, s.Ply(), n, st.Reason, rec.Plies, rec.Reason)
	}
	want := map[string]engine.Player{"first": first, "second": first.Other(), "draw": engine.NoPlayer}[rec.Winner]
	if st.Winner != want {
		t.Fatalf("game %d: replay winner %d, recorded %s", rec.Game, st.Winner, rec.Winner)
	}
}

// Distinct samples: alpha-beta depth 2 self-play on one fixed board gives at least 90% distinct
// games (seeded root tie-breaks, independent seeds per game), on both games; with A ≠ B the two
// games of a pair differ too.
func TestDistinctSelfPlay(t *testing.T) {
	n := int64(60)
	if testing.Short() {
		n = 20
	}
	for _, g := range []struct{ game, layout, b string }{
		{"baran", "", "alphabeta:depth=2"}, {"katarenga", "0", "alphabeta:depth=2"}, {"katarenga", "0", "greedy"},
	} {
		gm, err := games.New(g.game, "", g.layout, nil)
		if err != nil {
			t.Fatal(err)
		}
		m, err := NewMatch(MatchConfig{Game: g.game, Layout: g.layout, A: "alphabeta:depth=2", B: g.b, Games: n, Seed: 11, RandomOpening: DefaultRandomOpening}, gm)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		if _, err := Run(context.Background(), m, Plan{Start: 0, End: n}, 2, nil, func(r *gamefile.Record) error {
			seen[r.Layout+"|"+r.Start+"|"+r.Moves] = true
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if float64(len(seen)) < 0.9*float64(n) {
			t.Errorf("%s %s vs %s: %d distinct games of %d", g.game, m.Cfg.A, m.Cfg.B, len(seen), n)
		}
	}
}
