package baran

import (
	"math/bits"
	"slices"
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

// PlayRecorded with RecordedGame.Raw plays the same game (same draws, plies, end, counters)
// and AppendNotation, replaying its raw actions from the start, writes exactly the notation
// PlayRecorded writes without Raw: under several rule sets (huff removals, strict and free
// capture, per-jump chains, passes, a low cap), from either colour and from a mid-game
// position with a pending removal, with and without Sample and random opening plies.
func TestAppendNotationMatchesRecorded(t *testing.T) {
	seeds := uint64(200)
	if testing.Short() {
		seeds = 40
	}
	removals := 0
	for _, rules := range []string{"", "capture=strict,no-move=pass", "capture=free,chain-capture=per-jump,fast-row=4", "chain-capture=per-jump,fast-row=4", "ply-cap=30"} {
		r, err := ParseRules(rules)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(0); seed < seeds; seed++ {
			start := New(r, engine.Player(seed%2))
			if seed%5 == 4 { // a mid-game start: 64 random plies in
				var rr engine.Rand
				rr.Seed(seed)
				start.PlayRecorded(&engine.RecordedGame{Rand: [2]*engine.Rand{&rr, &rr}, Opening: &rr, Stop: stopAt(start, 20)})
				if start.Status().Over {
					continue
				}
				if start, err = ParsePosition(start.String(), r); err != nil {
					t.Fatal(err)
				}
			}
			var out [2]struct {
				moves  []byte
				status engine.Status
				ply    int
				legal  int64
				cnt    []int64
			}
			for k, raw := range []bool{false, true} {
				s := start.Clone().(*State)
				var ra, rb, ro engine.Rand
				ra.Seed(seed)
				rb.Seed(seed + 1000)
				ro.Seed(seed + 2000)
				g := engine.RecordedGame{Rand: [2]*engine.Rand{&ra, &rb}, Opening: &ro, OpeningPlies: int(seed % 4),
					Sample: seed%3 == 1, Raw: raw, Moves: []byte("prefix")}
				if !s.PlayRecorded(&g) {
					t.Fatal("not ended")
				}
				o := &out[k]
				o.moves, o.status, o.ply, o.legal, o.cnt = g.Moves, s.Status(), s.Ply(), g.Legal, s.Counters(nil)
			}
			want, got := out[0], out[1]
			if got.status != want.status || got.ply != want.ply || got.legal != want.legal || !slices.Equal(got.cnt, want.cnt) {
				t.Fatalf("%q seed %d: raw game ends %+v ply %d legal %d %v, want %+v ply %d legal %d %v", rules, seed,
					got.status, got.ply, got.legal, got.cnt, want.status, want.ply, want.legal, want.cnt)
			}
			raw := got.moves[len("prefix"):]
			if len(raw) != 8*(want.ply-start.Ply()) {
				t.Fatalf("%q seed %d: %d raw bytes for %d plies", rules, seed, len(raw), want.ply-start.Ply())
			}
			s := start.Clone().(*State)
			text, err := s.AppendNotation([]byte("prefix"), raw)
			if err != nil {
				t.Fatalf("%q seed %d: %v", rules, seed, err)
			}
			if string(text) != string(want.moves) {
				t.Fatalf("%q seed %d: notation\n%s\nwant\n%s", rules, seed, text, want.moves)
			}
			removals += strings.Count(string(text), "x")
		}
	}
	if removals == 0 {
		t.Error("no removal among the games: the test misses AppendAction's removal case")
	}
}

// AppendNotation rejects raw bytes that are not whole actions, or an action without a piece
// of the player to move on its start cell, with an error naming it.
func TestAppendNotationBadInput(t *testing.T) {
	s := New(DefaultRules, 0)
	if _, err := s.AppendNotation(nil, make([]byte, 7)); err == nil || !strings.Contains(err.Error(), "7 bytes") {
		t.Errorf("7 bytes: error %v", err)
	}
	bad := mkAction(24, 25, 0, -1) // d4, the empty centre
	raw := []byte{0, 0, 0, 0, 0, 0, 0, 0}
	for i := range raw {
		raw[i] = byte(uint64(bad) >> (8 * i))
	}
	if _, err := s.AppendNotation(nil, raw); err == nil || !strings.Contains(err.Error(), "action 0") {
		t.Errorf("empty start cell: error %v", err)
	}
	// A capturing jump of a warrior of the side to move that has no such path.
	s = New(DefaultRules, 0)
	own := s.pieces[s.side] &^ (1 << uint(s.king[s.side]))
	from := bits.TrailingZeros64(own)
	to := 24 // the empty centre, d4
	bad = mkAction(from, to, 1<<uint(bits.TrailingZeros64(s.pieces[s.side^1])), -1)
	for i := range raw {
		raw[i] = byte(uint64(bad) >> (8 * i))
	}
	if _, err := s.AppendNotation(nil, raw); err == nil || !strings.Contains(err.Error(), "not an action") {
		t.Errorf("a jump with no path: error %v", err)
	}
}

// stopAt returns a RecordedGame.Stop that stops s's game once it has n plies (polled every 64
// plies: a game from the start stops at 64).
func stopAt(s *State, n int) func() bool { return func() bool { return s.Ply() >= n } }

// BenchmarkPlayRecorded measures the runner's random-vs-random game (engine.RecordedPlayer:
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

// BenchmarkAppendNotation measures AppendNotation per ply of a random game recorded raw
// (RecordedGame.Raw): the replay from the start, writing the notation. One op is one ply.
func BenchmarkAppendNotation(b *testing.B) {
	s := New(DefaultRules, 0)
	var raws [][]byte
	plies := 0
	for seed := uint64(1); seed <= 32; seed++ {
		var r0, r1 engine.Rand
		r0.Seed(seed)
		r1.Seed(seed + 100)
		g := engine.RecordedGame{Rand: [2]*engine.Rand{&r0, &r1}, Opening: &r0, Raw: true}
		s.Reset()
		s.PlayRecorded(&g)
		raws = append(raws, g.Moves)
		plies += s.Ply()
	}
	buf := make([]byte, 0, 1<<16)
	b.ReportAllocs()
	b.ResetTimer()
	for n, k := 0, 0; n < b.N; k++ {
		raw := raws[k%len(raws)]
		s.Reset()
		var err error
		if buf, err = s.AppendNotation(buf[:0], raw); err != nil {
			b.Fatal(err)
		}
		n += len(raw) / 8
	}
}

// Under every combination of the rule switches (and a low ply cap), PlayRecorded writes the
// notation of the runner's loop (PickLegal or RandomAction, AppendAction, Apply: the plain
// ActionAppender path) and AppendNotation, replaying PlayRecorded's raw actions, writes it
// too, in both draw orders. The games must contain every kind of action the notation tells
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

// checkRecordedNotation plays one game from start three ways (the runner's loop, PlayRecorded,
// and PlayRecorded with Raw then AppendNotation) and fails t unless the texts are equal; it
// counts the kinds of the loop's actions into kinds.
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
	for _, raw := range []bool{false, true} {
		s := start.Clone().(*State)
		rs := newRands()
		g := engine.RecordedGame{Rand: [2]*engine.Rand{&rs[0], &rs[1]}, Opening: &rs[2], OpeningPlies: opening,
			Sample: sample, Raw: raw, Stop: func() bool { return false }}
		if !s.PlayRecorded(&g) {
			t.Fatalf("%s seed %d: PlayRecorded did not end the game", spec, seed)
		}
		got := g.Moves
		if raw {
			var err error
			if got, err = start.Clone().(*State).AppendNotation(nil, g.Moves); err != nil {
				t.Fatalf("%s seed %d: AppendNotation: %v", spec, seed, err)
			}
		}
		if string(got) != string(want) || s.String() != b.String() {
			t.Fatalf("%s seed %d (sample %v, raw %v): notation\n%s\nwant (AppendAction)\n%s", spec, seed, sample, raw, got, want)
		}
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

// PlayRecorded and AppendNotation append their text as append would: nothing is written into
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
		raw := engine.RecordedGame{Rand: [2]*engine.Rand{&r0, &r1}, Opening: &r0, Raw: true}
		r0.Seed(seed)
		r1.Seed(seed + 50)
		s.Reset()
		s.PlayRecorded(&raw)
		s.Reset()
		notated, err := s.AppendNotation(buf[:3], raw.Moves)
		if err != nil || string(notated) != string(text) {
			t.Fatalf("seed %d: AppendNotation gave %q, %v; want %q", seed, notated, err, text)
		}
		for i, c := range notated[len(notated):cap(notated)] {
			if c != sentinel {
				t.Fatalf("seed %d: AppendNotation wrote %q at %d bytes past the text's end", seed, c, i)
			}
		}
	}
}
