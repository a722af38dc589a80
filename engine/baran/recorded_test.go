package baran

import (
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/internal/enginetest"
)

// PlayRecorded plays the runner's loop's games under several rule sets (huff removals, strict
// and free capture, per-jump chains, passes, a low cap), from either colour.
func TestPlayRecordedMatchesLoop(t *testing.T) {
	for _, rules := range []string{"", "capture=strict,no-move=pass", "capture=free,chain-capture=per-jump,fast-row=4", "ply-cap=30"} {
		r, err := ParseRules(rules)
		if err != nil {
			t.Fatal(err)
		}
		seeds := 30
		if testing.Short() {
			seeds = 6
		}
		enginetest.CheckPlayRecorded(t, func(seed uint64) engine.State {
			return New(r, engine.Player(seed%2))
		}, seeds)
	}
}

// BenchmarkPlayRecorded measures the runner's random-vs-random game (engine.Fast.PlayRecorded:
// the legal-order pick with its count, the notation, no undo history) from the start; one op
// is one ply. Compare with BenchmarkRandomPlayout (`fairplay bench`'s loop).
func BenchmarkPlayRecorded(b *testing.B) {
	enginetest.BenchPlayRecorded(b, New(DefaultRules, 0), false)
}

// BenchmarkPlayRecordedSample is BenchmarkPlayRecorded with RecordedGame.Sample (play
// -branching=false: RandomAction's draws, no legal count); one op is one ply.
func BenchmarkPlayRecordedSample(b *testing.B) {
	enginetest.BenchPlayRecorded(b, New(DefaultRules, 0), true)
}

// Under every combination of the rule switches (and a low ply cap), PlayRecorded writes the
// notation of the runner's loop (PickLegal or RandomAction, AppendAction, Apply), in both draw
// orders. The games must contain every kind of action the notation tells
// apart (steps, slides, king jumps, single jumps, chains, captures, removals, passes), so a
// wrong text for any kind fails the test.
func TestRecordedNotationAllRules(t *testing.T) {
	seeds := uint64(100)
	if testing.Short() {
		seeds = 12
	}
	kinds := map[string]int{}
	for _, capture := range []string{"huff", "strict", "free"} {
		for _, chain := range []string{"whole", "per-jump"} {
			for _, rest := range []string{"fast-row=3,no-move=loss", "fast-row=4,no-move=pass", "fast-row=3,no-move=pass,ply-cap=40"} {
				spec := "capture=" + capture + ",chain-capture=" + chain + "," + rest
				r, err := ParseRules(spec)
				if err != nil {
					t.Fatal(err)
				}
				for seed := uint64(1); seed <= seeds; seed++ {
					checkRecordedNotation(t, spec, New(r, engine.Player(seed/2%2)), seed, kinds)
				}
				if r.NoMovePass { // Red's king, hemmed in on its throne, must pass
					start, err := ParsePosition("6k/7/7/7/w6/w6/Kww4 r - 0", r)
					if err != nil {
						t.Fatal(err)
					}
					for seed := uint64(1); seed <= 2; seed++ {
						checkRecordedNotation(t, spec, start, seed, kinds)
					}
				}
			}
		}
	}
	t.Logf("actions by kind: %v", kinds)
	for _, k := range []string{"step", "slide", "king jump", "jump", "chain", "capture", "removal", "pass"} {
		if kinds[k] == 0 {
			t.Errorf("no %s among the games' actions (%v): the test misses a case of the notation", k, kinds)
		}
	}
}

// checkRecordedNotation plays one game from start two ways (the runner's loop and PlayRecorded)
// and fails t unless the texts are equal; it counts the kinds of the loop's actions into kinds.
func checkRecordedNotation(t *testing.T, spec string, start *State, seed uint64, kinds map[string]int) {
	t.Helper()
	sample := seed%2 == 0
	newRands := func() [3]engine.Rand {
		var rs [3]engine.Rand
		for j := range rs {
			rs[j].Seed(engine.Derive(seed, uint64(j)))
		}
		return rs
	}
	opening := int(seed % 3)
	// The runner's loop.
	b := start.Clone().(*State)
	rs := newRands()
	var want []byte
	for ply := 0; ; ply++ {
		rr := &rs[b.side]
		if b.Ply() < opening {
			rr = &rs[2]
		}
		var a engine.Action
		var ok bool
		if sample {
			a, ok = b.RandomAction(rr)
		} else {
			a, _, ok = b.PickLegal(rr)
		}
		if !ok {
			break
		}
		if ply > 0 {
			want = append(want, ' ')
		}
		m := len(want)
		want = b.AppendAction(want, a)
		text := string(want[m:])
		from, to, capt, _ := decode(a)
		switch {
		case a == Pass:
			kinds["pass"]++
		case capt != 0:
			kinds["capture"]++
		case int(b.king[b.side]) == from && strings.Contains(text, ":"):
			kinds["king jump"]++
		case strings.Count(text, ":") > 1:
			kinds["chain"]++
		case strings.Contains(text, ":"):
			kinds["jump"]++
		case nbrMask[from]&(1<<to) == 0:
			kinds["slide"]++
		default:
			kinds["step"]++
		}
		if strings.HasPrefix(text, "x") {
			kinds["removal"]++
		}
		b.Apply(a)
	}
	s := start.Clone().(*State)
	rs = newRands()
	g := engine.RecordedGame{Rand: [2]*engine.Rand{&rs[0], &rs[1]}, Opening: &rs[2], OpeningPlies: opening,
		Sample: sample, Stop: func() bool { return false }}
	if !s.PlayRecorded(&g) {
		t.Fatalf("%s seed %d: PlayRecorded did not end the game", spec, seed)
	}
	if string(g.Moves) != string(want) || s.String() != b.String() {
		t.Fatalf("%s seed %d (sample %v): notation\n%s\nwant (AppendAction)\n%s", spec, seed, sample, g.Moves, want)
	}
}

// stepMask, built from dirs before the tables' init, equals nbrMask.
func TestStepMask(t *testing.T) {
	for sq := 0; sq < NumCells; sq++ {
		if stepMask[sq] != nbrMask[sq] {
			t.Errorf("stepMask[%s] = %#x, nbrMask %#x", CellName(sq), stepMask[sq], nbrMask[sq])
		}
	}
}

// slideOpen answers as slideOK for every start and end cell over random occupancies (each
// cell occupied with probability 1/4, 1/2 or 3/4).
func TestSlideOpen(t *testing.T) {
	var r engine.Rand
	r.Seed(7)
	for k := 0; k < 300; k++ {
		occ := r.Uint64() & boardMask
		switch k % 3 {
		case 0:
			occ &= r.Uint64()
		case 2:
			occ |= r.Uint64() & boardMask
		}
		for from := 0; from < NumCells; from++ {
			for to := 0; to < NumCells; to++ {
				if got, want := slideOpen(uint(from), uint(to), occ), slideOK(from, to, boardMask&^occ); got != want {
					t.Fatalf("slideOpen(%s, %s, %#x) = %v, slideOK %v", CellName(from), CellName(to), occ, got, want)
				}
			}
		}
	}
}

// PlayRecorded appends its text as append would: nothing is written into
// the buffer's capacity beyond the text's end (a caller's bytes there survive).
func TestRecordedWritesNoSpareCapacity(t *testing.T) {
	const sentinel = 0xa5
	for seed := uint64(1); seed <= 20; seed++ {
		s := New(DefaultRules, engine.Player(seed%2))
		buf := make([]byte, 3, 1<<14)
		for i := range buf[:cap(buf)] {
			buf[:cap(buf)][i] = sentinel
		}
		var r0, r1 engine.Rand
		r0.Seed(seed)
		r1.Seed(seed + 50)
		g := engine.RecordedGame{Rand: [2]*engine.Rand{&r0, &r1}, Opening: &r0, Moves: buf}
		s.PlayRecorded(&g)
		text := g.Moves
		if &text[0] != &buf[0] {
			t.Fatal("the buffer was reallocated: make it larger")
		}
		for i, c := range text[len(text):cap(text)] {
			if c != sentinel {
				t.Fatalf("seed %d: PlayRecorded wrote %q at %d bytes past the text's end", seed, c, i)
			}
		}
	}
}
