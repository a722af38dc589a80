package baran

import (
	"bytes"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

func names(s *State) string { return strings.Join(nameList(s), " ") }

func nameList(s *State) []string {
	var out []string
	for _, a := range s.Legal(nil) {
		out = append(out, s.FormatAction(a))
	}
	sort.Strings(out)
	return out
}

func mustParse(t *testing.T, pos, rules string) *State {
	t.Helper()
	r, err := ParseRules(rules)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParsePosition(pos, r)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// RULES.md §1.9: under fast-row=4 the fast warriors stand on the front row but its middle cell.
func TestFastRow4Setup(t *testing.T) {
	r, _ := ParseRules("fast-row=4")
	s := New(r, 0)
	var fast []string
	for sq := 0; sq < NumCells; sq++ {
		if s.fast&(1<<sq) != 0 {
			fast = append(fast, CellName(sq))
		}
	}
	if got := strings.Join(fast, " "); got != "e1 d2 g3 b4 f4 a5 d6 c7" {
		t.Errorf("fast warriors %s, want e1 d2 g3 b4 f4 a5 d6 c7 (Red e1 d2 b4 a5, Black g3 f4 d6 c7)", got)
	}
	if popcount(s.Warriors(0)&^s.fast) != 10 {
		t.Errorf("Red has %d normal warriors, want 10", popcount(s.Warriors(0)&^s.fast))
	}
}

func popcount(x uint64) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// A Red warrior on c3 can capture c4 by jumping to c5.
const capturePos = "6k/7/7/2w4/2W4/7/K6 r - 0"

func TestForcedCaptureModes(t *testing.T) {
	// strict: only the capture is legal.
	if got := names(mustParse(t, capturePos, "capture=strict")); got != "c3:c5" {
		t.Errorf("strict: legal %q, want c3:c5", got)
	}
	// huff: everything is legal; missing the capture gives Black the removal of c3 (or of the
	// warrior where it went).
	s := mustParse(t, capturePos, "")
	if got := names(s); !strings.Contains(got, "c3:c5") || !strings.Contains(got, "a1-b1") {
		t.Fatalf("huff: legal %q lacks the capture or the king step", got)
	}
	for _, tc := range []struct{ move, huff string }{{"a1-b1", "c3"}, {"c3-d3", "d3"}, {"c3:c5", "-"}} {
		s := mustParse(t, capturePos, "")
		a, err := s.ParseAction(tc.move)
		if err != nil {
			t.Fatal(err)
		}
		s.Apply(a)
		if f := strings.Fields(s.String()); f[2] != tc.huff {
			t.Errorf("after %s: HUFF %s, want %s (%s)", tc.move, f[2], tc.huff, s)
		}
		if tc.huff == "-" {
			continue
		}
		// Black may remove, or not: every move appears once plain and once after "x<cell> ".
		all := nameList(s)
		plainN, withX := 0, 0
		for _, n := range all {
			if strings.HasPrefix(n, "x"+tc.huff+" ") {
				withX++
			} else {
				plainN++
			}
		}
		if plainN == 0 || withX == 0 {
			t.Errorf("after %s: %d plain and %d removal actions: %v", tc.move, plainN, withX, all)
		}
		rem, err := s.ParseAction("x" + tc.huff + " g7-f7")
		if err != nil {
			t.Fatal(err)
		}
		s.Apply(rem)
		if s.Warriors(0) != 0 {
			t.Errorf("the removal did not take the Red warrior: %s", s)
		}
		if c := s.Counters(nil); c[4] != 0 || c[5] != 1 || c[6] != 1 || c[7] != 0 {
			t.Errorf("counters %v: want one removal by Black and one missed capture by Red", c)
		}
	}
	// free: no removal ever.
	s = mustParse(t, capturePos, "capture=free")
	a, _ := s.ParseAction("a1-b1")
	s.Apply(a)
	if f := strings.Fields(s.String()); f[2] != "-" {
		t.Errorf("free: HUFF %s after a missed capture, want -", f[2])
	}
}

// Red's king and warriors boxed in: no legal action.
const boxedPos = "6k/7/7/w6/ww5/Www4/KWww3 r - 0"

func TestNoMove(t *testing.T) {
	s := mustParse(t, boxedPos, "")
	if st := s.Status(); !st.Over || st.Winner != 1 || st.Reason != engine.NoMove {
		t.Errorf("no-move=loss: status %+v, want Black wins by no-move", st)
	}
	s = mustParse(t, boxedPos, "no-move=pass")
	if got := names(s); got != "pass" {
		t.Fatalf("no-move=pass: legal %q, want pass", got)
	}
	s.Apply(Pass)
	if st := s.Status(); st.Over {
		t.Fatalf("Black can move after Red's pass, status %+v", st)
	}
	s.passed = true // as if Black had passed too: Red cannot move, two passes in a row
	s.side = 0
	if st := s.Status(); !st.Over || st.Winner != engine.NoPlayer || st.Reason != engine.NoMove {
		t.Errorf("two passes: status %+v, want a draw by no-move", st)
	}
}

func TestThroneAndCap(t *testing.T) {
	// Red's king next to Black's throne, Black king still on it: the step wins and pushes him off.
	s := mustParse(t, "5Kk/7/7/7/7/7/7 r - 10", "")
	a, err := s.ParseAction("f7-g7")
	if err != nil {
		t.Fatal(err)
	}
	s.Apply(a)
	if st := s.Status(); !st.Over || st.Winner != 0 || st.Reason != engine.Throne {
		t.Errorf("status %+v, want Red wins by throne", st)
	}
	if got := s.String(); got != "6K/7/7/7/7/7/7 b - 11" {
		t.Errorf("final position %q", got)
	}
	if _, err := ParsePosition(s.String(), DefaultRules); err != nil {
		t.Errorf("the final position does not re-parse: %v", err)
	}
	// a king may not jump onto the enemy throne
	s = mustParse(t, "4Kwk/7/7/7/7/7/7 r - 0", "")
	if _, err := s.ParseAction("e7:g7"); err == nil {
		t.Error("a king jump onto the enemy throne was accepted")
	}
	s = mustParse(t, "6k/7/7/7/7/7/K6 r - 5", "ply-cap=5")
	if st := s.Status(); !st.Over || st.Reason != engine.Cap || st.Winner != engine.NoPlayer {
		t.Errorf("status at the cap %+v, want a draw by cap", st)
	}
}

func TestBadPositions(t *testing.T) {
	for _, bad := range []string{
		"", "6k/7/7/7/7/7/K6 r -", "6k/7/7/7/7/7/K6 x - 0", "6k/7/7/7/7/7/K6 r - -1",
		"6k/7/7/7/7/7 r - 0", "7k/7/7/7/7/7/K6 r - 0", "6k/7/7/7/7/7/W6 r - 0",
		"6k/7/7/7/7/7/KK5 r - 0", "6k/7/7/7/7/7/K5q r - 0", "FFFFFk1/7/7/7/7/7/K6 r - 0",
		"6k/7/7/7/7/7/K6 r c3 0", "6k/7/7/7/7/7/K6 r zz 0",
	} {
		if _, err := ParsePosition(bad, DefaultRules); err == nil {
			t.Errorf("ParsePosition(%q): want an error", bad)
		}
	}
	if _, err := ParsePosition("6k/7/7/2w4/2W4/7/K6 b c3 0", Rules{Capture: Strict, PlyCap: 400}); err == nil {
		t.Error("a removal list under capture=strict was accepted")
	}
}

// Every action prints and re-parses to itself; apply/undo restores position and hash; the
// incremental hash equals the recomputed one; piece counts never grow.
func TestActionsAndInvariants(t *testing.T) {
	rng := engine.NewRand(5)
	games := 60
	if testing.Short() {
		games = 6
	}
	for _, spec := range []string{"", "chain-capture=per-jump", "capture=strict,fast-row=4", "capture=free"} {
		r, _ := ParseRules(spec)
		for g := 0; g < games; g++ {
			s := New(r, engine.Player(g&1))
			for {
				acts := s.Legal(nil)
				if len(acts) == 0 {
					break
				}
				before, h := s.String(), s.Hash()
				n0, n1 := popcount(s.pieces[0]), popcount(s.pieces[1])
				for _, a := range acts {
					txt := s.FormatAction(a)
					b, err := s.ParseAction(txt)
					if err != nil || b != a {
						t.Fatalf("%s: action %q does not re-parse at %s: %v", spec, txt, before, err)
					}
					s.Apply(a)
					if s.Hash() != s.RecomputeHash() {
						t.Fatalf("%s: hash after %s differs from recomputed", spec, txt)
					}
					if popcount(s.pieces[0]) > n0 || popcount(s.pieces[1]) > n1 {
						t.Fatalf("%s: piece count grew after %s", spec, txt)
					}
					if !s.Undo() || s.String() != before || s.Hash() != h {
						t.Fatalf("%s: undo of %s did not restore %s", spec, txt, before)
					}
				}
				s.Apply(acts[rng.IntN(len(acts))])
			}
		}
	}
}

func TestRulesParsing(t *testing.T) {
	r, err := ParseRules(" capture=strict , ply-cap=0100 ")
	if err != nil || r.Capture != Strict || r.PlyCap != 100 {
		t.Fatalf("ParseRules: %+v %v", r, err)
	}
	if got := r.String(); got != "capture=strict,chain-capture=whole,fast-row=3,no-move=loss,ply-cap=100" {
		t.Errorf("canonical rules %q", got)
	}
	for _, bad := range []string{"capture=maybe", "colour=red", "capture", "ply-cap=0", "ply-cap=x", "capture=huff,capture=free"} {
		_, err := ParseRules(bad)
		if err == nil {
			t.Errorf("ParseRules(%q): want an error", bad)
			continue
		}
		if strings.Contains(bad, "maybe") && !strings.Contains(err.Error(), "huff, strict, free") {
			t.Errorf("error %q does not list the valid values", err)
		}
	}
}

// RandomAction picks only legal actions, each of them, uniformly: checked on positions of random
// games (with removal lists among them) by a chi-square test with a fixed seed and a tolerance
// of the mean plus 6 standard deviations of the statistic.
func TestRandomActionUniform(t *testing.T) {
	rng := engine.NewRand(12)
	checked, withHuff := 0, 0
	for g := 0; g < 40 && (checked < 60 || withHuff < 10); g++ {
		s := New(DefaultRules, engine.Player(g&1))
		for ply := 0; ; ply++ {
			acts := s.Legal(nil)
			if len(acts) == 0 {
				break
			}
			if ply%17 == 0 || (s.huff != 0 && withHuff < 10) {
				checked++
				if s.huff != 0 {
					withHuff++
				}
				idx := map[engine.Action]int{}
				for i, a := range acts {
					idx[a] = i
				}
				counts := make([]float64, len(acts))
				draws := 200 * len(acts)
				for i := 0; i < draws; i++ {
					a, ok := s.RandomAction(rng)
					j, listed := idx[a]
					if !ok || !listed {
						t.Fatalf("RandomAction chose %s, not listed at %s", s.FormatAction(a), s)
					}
					counts[j]++
				}
				chi2, e := 0.0, float64(draws)/float64(len(acts))
				for _, c := range counts {
					chi2 += (c - e) * (c - e) / e
				}
				if df := float64(len(acts) - 1); df > 0 && chi2 > df+6*math.Sqrt(2*df) {
					t.Errorf("chi-square %.1f with %v degrees of freedom at %s", chi2, df, s)
				}
			}
			s.Apply(acts[rng.IntN(len(acts))])
		}
	}
	if withHuff == 0 {
		t.Error("no position with a removal list was checked")
	}
}

// AppendAction writes what FormatAction prints, for every legal action along random games
// (huff removals and chains included), under each capture rule.
func TestAppendActionMatchesFormat(t *testing.T) {
	for _, rules := range []string{"", "capture=strict", "capture=huff"} {
		r, err := ParseRules(rules)
		if err != nil {
			t.Fatal(err)
		}
		rng := engine.NewRand(4)
		var buf []engine.Action
		for g := 0; g < 6; g++ {
			s := New(r, engine.Player(g&1))
			for {
				buf = s.Legal(buf[:0])
				if len(buf) == 0 {
					break
				}
				for _, a := range buf {
					if got := string(s.AppendAction([]byte("x"), a)); got != "x"+s.FormatAction(a) {
						t.Fatalf("%s: AppendAction %q, FormatAction %q at %s", rules, got, s.FormatAction(a), s)
					}
				}
				s.Apply(buf[rng.IntN(len(buf))])
			}
		}
	}
}

// AppendAction allocates nothing (the chain search's path stays on the stack): every legal
// action along random games, chains and huff removals included, formatted into a reused buffer.
func TestAppendActionAllocs(t *testing.T) {
	for _, rules := range []string{"", "capture=huff", "chain-capture=per-jump"} {
		r, err := ParseRules(rules)
		if err != nil {
			t.Fatal(err)
		}
		var buf []engine.Action
		out := make([]byte, 0, 64)
		chains, removals := 0, 0
		s := New(r, 0)
		allocs := testing.AllocsPerRun(10, func() { // the mean over 10 runs: a stray runtime allocation rounds away
			chains, removals = 0, 0
			rng := engine.NewRand(9)
			for g := 0; g < 4; g++ {
				s.Reset()
				for {
					buf = s.Legal(buf[:0])
					if len(buf) == 0 {
						break
					}
					for _, a := range buf {
						out = s.AppendAction(out[:0], a)
						if bytes.Count(out, []byte(":")) >= 2 {
							chains++
						}
						if out[0] == 'x' {
							removals++
						}
					}
					s.ApplyNoUndo(buf[rng.IntN(len(buf))])
				}
			}
		})
		if allocs != 0 {
			t.Errorf("%q: %v allocations formatting the actions of 4 games, want 0", rules, allocs)
		}
		if chains == 0 || (rules == "capture=huff" && removals == 0) {
			t.Errorf("%q: %d chains, %d removals formatted: the games do not cover them", rules, chains, removals)
		}
	}
}

// PickLegal is Legal plus one draw: the same action and count from the same random stream,
// under each capture rule (huff removals included) and with passes.
func TestPickLegalMatchesLegal(t *testing.T) {
	for _, rules := range []string{"", "capture=strict", "capture=huff,no-move=pass", "chain-capture=per-jump"} {
		r, err := ParseRules(rules)
		if err != nil {
			t.Fatal(err)
		}
		ra, rb := engine.NewRand(6), engine.NewRand(6)
		var buf []engine.Action
		for g := 0; g < 8; g++ {
			s := New(r, engine.Player(g&1))
			for {
				buf = s.Legal(buf[:0])
				a, n, ok := s.PickLegal(ra)
				if len(buf) == 0 {
					if ok {
						t.Fatalf("%s: PickLegal found %s where Legal is empty", rules, s.FormatAction(a))
					}
					break
				}
				want := buf[rb.IntN(len(buf))]
				if !ok || n != len(buf) || a != want {
					t.Fatalf("%s at %s: PickLegal %s (%d), want %s (%d)", rules, s, s.FormatAction(a), n, s.FormatAction(want), len(buf))
				}
				s.Apply(a)
			}
		}
	}
}

// Status reports the game over exactly when there is no legal action (the searches test Status
// instead of generating the actions), in random games under every rule variant, including
// short ply caps and passes.
func TestStatusOverIffNoLegal(t *testing.T) {
	specs := []string{"", "no-move=pass", "capture=strict,no-move=pass", "capture=free",
		"chain-capture=per-jump", "fast-row=4", "ply-cap=30"}
	eachRandomPosition(t, specs, 200, 3, func(spec string, g int, s *State, legal []engine.Action) {
		if over := s.Status().Over; over != (len(legal) == 0) {
			t.Fatalf("%q game %d ply %d: Over %v with %d legal actions\n%s", spec, g, s.Ply(), over, len(legal), s)
		}
	})
}

// eachRandomPosition calls f with every position, and its legal actions, of n uniformly random
// games (seeded by seed) under each rule set of specs, the first player alternating.
func eachRandomPosition(t *testing.T, specs []string, n int, seed uint64, f func(spec string, g int, s *State, legal []engine.Action)) {
	t.Helper()
	for _, spec := range specs {
		r, err := ParseRules(spec)
		if err != nil {
			t.Fatal(err)
		}
		rng := engine.NewRand(seed)
		for g := 0; g < n; g++ {
			s := New(r, engine.Player(g&1))
			for {
				legal := s.Legal(nil)
				f(spec, g, s, legal)
				if len(legal) == 0 {
					break
				}
				s.Apply(legal[rng.IntN(len(legal))])
			}
		}
	}
}
