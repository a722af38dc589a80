package katarenga

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

// notationWord writes exactly AppendAction's text (with a space before it) for every from
// square, every target (the camps included) and the pass.
func TestNotationWord(t *testing.T) {
	s := startState()
	acts := []engine.Action{Pass}
	for from := 0; from < 64; from++ {
		for to := 0; to < 68; to++ {
			acts = append(acts, engine.Action(from|to<<6))
		}
	}
	for _, a := range acts {
		w, k := notationWord(a)
		var b [8]byte
		for i := range b {
			b[i] = byte(w >> (8 * i))
		}
		if want := " " + string(s.AppendAction(nil, a)); string(b[:k]) != want {
			t.Fatalf("action %#x: notationWord %q, AppendAction %q", a, b[:k], want)
		}
	}
}

// recordedCase is one PlayRecorded game of TestPlayRecordedMatchesPlainLoop.
type recordedCase struct {
	seed    uint64
	rules   Rules
	layout  int
	pos     string // the start position (ParsePosition); "": layout's start
	sample  bool
	opening int    // RecordedGame.OpeningPlies
	prefix  string // Moves before the game
	stopAt  int    // Stop answers true at this poll (1 = the first); 0: never
}

// PlayRecorded's games, record and legal sum are those of a plain loop of RandomAction (with
// Sample) or PickLegal, AppendAction (actions separated by single spaces) and Apply: on random
// layouts, under every no-move and first-move-capture rule and short ply caps, with opening
// plies (up to beyond the first 64-ply block), after a prefix already in Moves, and stopped
// between blocks. The games must include passes and camp entries, so that every kind of
// notation is compared.
func TestPlayRecordedMatchesPlainLoop(t *testing.T) {
	games := 5000
	if testing.Short() {
		games = 1000
	}
	ruleSets := []string{"", "no-move=pass", "first-move-capture=banned", "first-move-capture=banned,no-move=pass", "ply-cap=70", "ply-cap=128,no-move=pass"}
	prefixes := []string{"", "x", "katarenga 0: "}
	rng := engine.NewRand(20261123)
	var passes, midPasses, camps, stops, multiBlock int
	for i := 0; i < games; i++ {
		r, err := ParseRules(ruleSets[i%len(ruleSets)])
		if err != nil {
			t.Fatal(err)
		}
		c := recordedCase{seed: uint64(i) + 1, rules: r, layout: rng.IntN(NumPlacements), sample: i%2 == 1,
			opening: []int{0, 0, 1, 2, 7, 63, 64, 65, 130}[rng.IntN(9)], prefix: prefixes[rng.IntN(len(prefixes))]}
		if rng.IntN(8) == 0 {
			c.stopAt = 1 + rng.IntN(4)
		}
		if i%10 == 0 { // a start where someone has no move: a pass, or a loss under no-move=loss
			c.pos = noMoveStarts[i/10%len(noMoveStarts)]
			c.rules.FirstMoveCaptureBanned, c.rules.NoMovePass = true, i%40 < 30
		}
		got, want := c.play(t, true), c.play(t, false)
		if got != want {
			t.Fatalf("%+v:\nPlayRecorded %s\nplain loop   %s", c, got, want)
		}
		passes += strings.Count(got, "pass")
		midPasses += strings.Count(got, " pass")
		for _, camp := range []string{"-a0", "-h0", "-a9", "-h9"} {
			camps += strings.Count(got, camp)
		}
		stops += strings.Count(got, "stopped")
		multiBlock += b2i(strings.Count(got, "-") > 64)
	}
	t.Logf("%d games: %d passes (%d after the first ply), %d camp entries, %d stopped, %d longer than a block",
		games, passes, midPasses, camps, stops, multiBlock)
	if passes == midPasses || midPasses == 0 || camps == 0 || stops == 0 || multiBlock == 0 {
		t.Fatalf("the games missed a case: %d passes (%d after the first ply), %d camp entries, %d stopped, %d longer than a block",
			passes, midPasses, camps, stops, multiBlock)
	}
}

// noMoveStarts are positions on an all-blue (king-step) board, where a player has no move
// while captures are banned (first-move-capture=banned, plies 0 and 1): White at ply 0 (from
// TestNoMove); Black at ply 1 unless White's first move frees it.
var noMoveStarts = []string{
	strings.Repeat("bbbbbbbb/", 7) + "bbbbbbbb 8/8/8/8/8/8/BBB5/WWB5 w ---- 0",
	strings.Repeat("bbbbbbbb/", 7) + "bbbbbbbb 5WBB/5WWW/8/8/8/8/8/W7 w ---- 0",
}

// play plays c through PlayRecorded (recorded) or the plain loop and describes the outcome:
// whether it ended, the record, the legal sum and the final position and status.
func (c recordedCase) play(t *testing.T, recorded bool) string {
	t.Helper()
	var s *State
	if c.pos != "" {
		var err error
		if s, err = ParsePosition(c.pos, c.rules, nil); err != nil {
			t.Fatal(err)
		}
	} else {
		l, err := DefaultTiles.LayoutFromIndex(c.layout)
		if err != nil {
			t.Fatal(err)
		}
		s = New(NewBoard(l), c.rules)
	}
	var rs [3]engine.Rand
	for j := range rs {
		rs[j].Seed(engine.Derive(c.seed, uint64(j)))
	}
	polls := 0
	stop := func() bool {
		polls++
		return polls == c.stopAt
	}
	var moves string
	var legal int64
	ended := true
	if recorded {
		g := engine.RecordedGame{Rand: [2]*engine.Rand{&rs[0], &rs[1]}, Opening: &rs[2], OpeningPlies: c.opening,
			Stop: stop, Moves: []byte(c.prefix), Legal: 5, Sample: c.sample}
		ended = s.PlayRecorded(&g)
		moves, legal = string(g.Moves), g.Legal
	} else {
		buf, sep := []byte(c.prefix), ""
		legal = 5
		for {
			if s.Ply()%64 == 0 && stop() { // the poll before every block of 64 plies
				buf, ended = []byte(c.prefix), false
				break
			}
			r := &rs[s.ToMove()&1]
			if s.Ply() < c.opening {
				r = &rs[2]
			}
			var a engine.Action
			var n int
			var ok bool
			if c.sample {
				a, ok = s.RandomAction(r)
			} else {
				a, n, ok = s.PickLegal(r)
			}
			if !ok {
				break
			}
			buf = s.AppendAction(append(buf, sep...), a)
			sep = " "
			legal += int64(n)
			s.Apply(a)
		}
		moves = string(buf)
	}
	out := fmt.Sprintf("ended %v moves %q legal %d at %s %+v", ended, moves, legal, s, s.Status())
	if !ended {
		out += " stopped"
	}
	return out
}

// BenchmarkRecordedLoop compares, on layout 0 (one op is one ply), PlayRecorded's loop with the
// loops it should cost no more than: PlayRandom (`fairplay bench`'s playout, keeping the undo
// history), the same without history (noHistory: RandomAction and apply only) and its
// PickLegal counterpart (noHistory-legal); Recorded-sample is play -branching=false
// (RandomAction's draws), Recorded-legal the default (PickLegal's draws and legal counts), both
// writing the record.
func BenchmarkRecordedLoop(b *testing.B) {
	for _, name := range []string{"PlayRandom", "noHistory", "noHistory-legal", "Recorded-sample", "Recorded-legal"} {
		b.Run(name, func(b *testing.B) {
			s := startState()
			var r0, r1 engine.Rand
			r0.Seed(1)
			r1.Seed(2)
			g := engine.RecordedGame{Rand: [2]*engine.Rand{&r0, &r1}, Opening: &r0,
				Moves: make([]byte, 0, 8192), Sample: name == "Recorded-sample"}
			b.ReportAllocs()
			plies := 0
			for plies < b.N {
				s.Reset()
				switch name {
				case "PlayRandom":
					s.PlayRandom(&r0)
				case "noHistory":
					for a, ok := s.RandomAction(&r0); ok; a, ok = s.RandomAction(&r0) {
						s.apply(a)
					}
				case "noHistory-legal":
					for a, _, ok := s.PickLegal(&r0); ok; a, _, ok = s.PickLegal(&r0) {
						s.apply(a)
					}
				default:
					g.Moves = g.Moves[:0]
					s.PlayRecorded(&g)
				}
				plies += s.Ply()
			}
		})
	}
}
