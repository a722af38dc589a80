package tally

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"

	"github.com/fairplay-lab/fairplay/engine"
)

func rec(i int64, winner string, reason engine.Reason, plies int) *gamefile.Record {
	r := &gamefile.Record{Game: i, Pair: i / 2, Seed: uint64(i/2) * 77, GameName: "katarenga", Layout: "0", Rules: "x=y",
		FirstAgent: "random", SecondAgent: "greedy", FirstIs: "a", FirstColour: "white", Winner: winner,
		Reason: reason, Plies: plies, LegalTotal: int64(plies) * 10, Counters: []int64{i, 2}}
	if i%2 == 1 {
		r.FirstIs = "b"
		r.FirstAgent, r.SecondAgent = r.SecondAgent, r.FirstAgent
	}
	return r
}

func TestSummaryCounts(t *testing.T) {
	s := NewSummary([]string{"c1", "c2"})
	// pair 0: A wins both (first in game 0, second in game 1); pair 1: a draw and a cap;
	// pair 2: B wins both.
	for _, r := range []*gamefile.Record{
		rec(0, "first", engine.Camps, 100), rec(1, "second", engine.Material, 50),
		rec(2, "draw", engine.NoMove, 10), rec(3, "draw", engine.Cap, 400),
		rec(4, "second", engine.Camps, 80), rec(5, "first", engine.Camps, 90),
	} {
		s.Add(r)
	}
	if s.N != 6 || s.FirstWins != 2 || s.SecondWins != 2 || s.Draws != 2 || s.Caps != 1 || s.AWins != 2 || s.BWins != 2 {
		t.Fatalf("counts %+v", s)
	}
	if s.Penta != (stats.Penta{1, 0, 1, 0, 1}) {
		t.Errorf("pentanomial %v, want [1 0 1 0 1]", s.Penta)
	}
	stats := map[string]Stat{}
	for _, st := range s.Stats() {
		if _, dup := stats[st.Name]; !dup {
			stats[st.Name] = st
		}
	}
	approx(t, "balance", stats["balance"].Value, 1, 1e-12)
	approx(t, "drawishness", stats["drawishness"].Value, 1.0/6, 1e-12)
	approx(t, "cap rate", stats["cap_rate"].Value, 1.0/6, 1e-12)
	approx(t, "duration", stats["duration_mean"].Value, 730.0/6, 1e-9)
	approx(t, "branching", stats["branching_mean"].Value, 10, 1e-12)
	approx(t, "branching ci", stats["branching_mean"].High, 10, 1e-9) // every game has exactly 10
	approx(t, "c2 mean", stats["c2_mean"].Value, 2, 1e-12)
	approx(t, "a score", stats["a_score"].Value, 0.5, 1e-12)
	if len(s.Lengths) != 401 || s.Lengths[400] != 1 {
		t.Errorf("length histogram: %d bins", len(s.Lengths))
	}
	var b bytes.Buffer
	if err := WriteSummaryCSV(&b, s.Stats()); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "statistic,value,ci_low,ci_high,method,n\ngames,6,,,count,6\n") {
		t.Errorf("summary.csv starts %q", b.String()[:80])
	}
}

func TestRunningThinning(t *testing.T) {
	s := NewSummary(nil)
	for i := int64(0); i < 100_000; i++ {
		s.Add(rec(i, "first", engine.Camps, 3))
	}
	if len(s.Running) >= maxPoints || len(s.Running) < maxPoints/4 {
		t.Errorf("%d running points for 100000 games", len(s.Running))
	}
	last := s.Running[len(s.Running)-1]
	if last.FirstWins != last.N || last.N > 100_000 {
		t.Errorf("last point %+v", last)
	}
}

func TestCSVRoundTrip(t *testing.T) {
	var b bytes.Buffer
	w, _ := gamefile.NewCSVWriter(&b, []string{"c1", "c2"})
	in := []*gamefile.Record{rec(0, "first", engine.Camps, 100), rec(1, "draw", engine.Cap, 400)}
	for _, r := range in {
		w.Write(r)
	}
	w.Flush()
	r, err := gamefile.NewCSVReader(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range in {
		got, err := r.Read()
		if err != nil {
			t.Fatal(err)
		}
		if got.Game != want.Game || got.Seed != want.Seed || got.Reason != want.Reason || got.Rules != want.Rules ||
			got.Counters[0] != want.Counters[0] || got.WinnerAgent() != want.WinnerAgent() {
			t.Errorf("round trip %+v -> %+v", want, got)
		}
	}
	for _, bad := range []string{"", "a,b\n", strings.Replace(b.String(), ",camps,", ",flood,", 1)} {
		r, err := gamefile.NewCSVReader(strings.NewReader(bad))
		if err == nil {
			if _, err = r.Read(); err == nil {
				t.Errorf("bad games.csv accepted: %q", bad)
			}
		}
	}
}

// Counters kept per side also get a per-game total: (1+2), (3+4) → mean 5, and the total's
// interval uses the per-game totals (sample variance of {3, 7} = 8, standard error 2).
func TestSideTotals(t *testing.T) {
	s := NewSummary([]string{"captures_red", "captures_black", "first_move_captures"})
	s.Add(&gamefile.Record{Game: 0, Winner: "draw", Counters: []int64{1, 2, 0}})
	s.Add(&gamefile.Record{Game: 2, Pair: 1, Winner: "draw", Counters: []int64{3, 4, 1}}) // two one-game clusters
	var got *Stat
	for _, st := range s.Stats() {
		if st.Name == "captures_mean" {
			st := st
			got = &st
		}
		if st.Name == "first_move_captures_mean" && st.Value != 0.5 {
			t.Errorf("first_move_captures_mean %v", st.Value)
		}
	}
	if got == nil || got.Value != 5 {
		t.Fatalf("captures_mean %+v, want 5", got)
	}
	if !(math.Abs((got.High-got.Low)/2-stats.Z95*2) <= 1e-9) { // a NaN interval fails too // sd of {3, 7} is 2√2, se = 2
		t.Errorf("captures_mean interval [%v, %v], want ±%v", got.Low, got.High, stats.Z95*2)
	}
}

// BenchmarkSummaryAdd measures Summary.Add per game on records shaped like random Katarenga
// games (~1 kB of moves, five counters, pairs of two games).
func BenchmarkSummaryAdd(b *testing.B) {
	counters := []string{"captures_white", "captures_black", "camps_white", "camps_black", "first_move_captures"}
	recs := randomRecords(1024, len(counters))
	rng := engine.NewRand(2)
	for _, r := range recs {
		mv := make([]string, 160+rng.IntN(20))
		for k := range mv {
			mv[k] = string([]byte{'a' + byte(rng.IntN(8)), '1' + byte(rng.IntN(8)), '-', 'a' + byte(rng.IntN(8)), '1' + byte(rng.IntN(8))})
		}
		r.Moves = strings.Join(mv, " ")
	}
	s := NewSummary(counters)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := recs[i%len(recs)]
		r.Game, r.Pair = int64(i), int64(i/2)
		s.Add(r)
	}
}

// AddHashed with DistinctHash gives the summary Add gives, statistic for statistic.
func TestAddHashedMatchesAdd(t *testing.T) {
	counters := []string{"captures_white", "captures_black", "camps_white"}
	recs := randomRecords(2000, len(counters))
	a, b := NewSummary(counters), NewSummary(counters)
	for i, r := range recs {
		r.Moves = r.Moves[:len(r.Moves)*(i%3)/2] // some repeats: distinct_games below n
		a.Add(r)
		b.AddHashed(r, DistinctHash(r))
	}
	sa, sb := a.Stats(), b.Stats()
	if len(sa) != len(sb) {
		t.Fatalf("%d statistics, want %d", len(sb), len(sa))
	}
	for i := range sa {
		x, y := sa[i], sb[i]
		if x.Name != y.Name || x.N != y.N || x.Method != y.Method || !same(x.Value, y.Value) || !same(x.Low, y.Low) || !same(x.High, y.High) {
			t.Errorf("AddHashed gave %+v, Add %+v", y, x)
		}
	}
	if d, n := a.Distinct(); d == n || d == 0 {
		t.Errorf("distinct %d of %d: the test wants repeats", d, n)
	}
}

func same(x, y float64) bool { return x == y || (math.IsNaN(x) && math.IsNaN(y)) }

// Games whose legal actions were not counted (-branching=false) leave branching_mean blank
// (method not-counted), never a mean of zeros; counted games give the mean legal count per ply.
func TestSummaryBranchingNotCounted(t *testing.T) {
	for _, uncounted := range []bool{false, true} {
		s := NewSummary(nil)
		var legal, plies float64
		for _, r := range randomRecords(40, 0) {
			if uncounted {
				r.LegalTotal = gamefile.NotCounted
			}
			legal, plies = legal+float64(max(r.LegalTotal, 0)), plies+float64(r.Plies)
			s.Add(r)
		}
		var got *Stat
		for _, st := range s.Stats() {
			if st.Name == "branching_mean" {
				got = &st
			}
		}
		switch {
		case got == nil:
			t.Fatalf("uncounted %v: no branching_mean", uncounted)
		case uncounted && (!math.IsNaN(got.Value) || got.Method != MethodNotCounted || got.N != 0):
			t.Errorf("uncounted: branching_mean %+v, want a blank not-counted value of n 0", *got)
		case !uncounted && math.Abs(got.Value-legal/plies) > 1e-9*got.Value:
			t.Errorf("counted: branching_mean %v, want %v", got.Value, legal/plies)
		}
	}
}

// A's perfect score: from one won pair a_score is the exact [0.025, 1] (not [1, 1]), a_elo has
// no value (its bound −512 is a bound), and the findings print no "NaN"; 20 won pairs of
// distinct games raise no "agents may repeat their games" warning.
func TestPerfectScoreRows(t *testing.T) {
	run := func(pairs int64) *Summary {
		s := NewSummary(nil)
		for i := int64(0); i < 2*pairs; i++ {
			first := "a"
			if i%2 == 1 {
				first = "b"
			}
			w := map[string]string{"a": "first", "b": "second"}[first]
			s.Add(&gamefile.Record{Game: i, Pair: i / 2, GameName: "baran", FirstIs: first, Winner: w, Reason: engine.Throne, Plies: 7 + int(i%5), Moves: fmt.Sprint(i)})
		}
		return s
	}
	s := run(1)
	rows := s.Stats()
	sc, _ := StatByName(rows, "a_score")
	if sc.Value != 1 || sc.Low != 0.025 || sc.High != 1 || sc.Method != stats.MethodPerfectScore {
		t.Errorf("one pair won: a_score %+v, want 1 [0.025, 1] %s", sc.Interval, stats.MethodPerfectScore)
	}
	if e, _ := StatByName(rows, "a_elo"); !math.IsNaN(e.Value) || e.Method != stats.OneSidedMethod {
		t.Errorf("one pair won: a_elo %+v, want no value", e.Interval)
	}
	f, _ := PlayFindings(s, true)
	for _, line := range f {
		if strings.Contains(line, "NaN") {
			t.Errorf("finding prints NaN: %s", line)
		}
	}
	if _, w := PlayFindings(run(20), true); len(w) != 0 {
		t.Errorf("20 distinct pairs won: warnings %q", w)
	}
}

// A rare count (one game of twenty with 3 captures) has a mean whose normal interval reached
// below 0; the interval of a count's mean starts at 0 at the lowest.
func TestCountMeanNonNegative(t *testing.T) {
	s := NewSummary([]string{"captures"})
	for i := int64(0); i < 20; i++ {
		var c int64
		if i == 4 {
			c = 3
		}
		s.Add(&gamefile.Record{Game: i, Pair: i / 2, GameName: "baran", FirstIs: "a", Winner: "first", Reason: engine.Throne, Plies: 9, Counters: []int64{c}})
	}
	st, _ := StatByName(s.Stats(), "captures_mean")
	if st.Low < 0 || st.Low > st.Value || st.High <= st.Value {
		t.Errorf("captures_mean %+v, want 0 ≤ low ≤ value < high", st.Interval)
	}
}

// Near a perfect score the normal interval of A's score reaches past 1 (0.9950 [0.9881,
// 1.0019]): the score's interval stops at 1, and the first player's at [0, 1] too. In a match
// of two agents, the finding on A against B comes first; in self-play it follows the first
// player's; and the findings round to what the intervals support (plies: half-width 0.197, which
// shows as 0.20, so one decimal).
func TestScoreIntervalsInRange(t *testing.T) {
	s := NewSummary(nil)
	for i := int64(0); i < 200; i++ {
		first := []string{"a", "b"}[i%2]
		w := map[string]string{"a": "first", "b": "second"}[first] // A wins
		if i == 1 {
			w = "draw" // one pair of 1½: the score below 1, an interval
		}
		s.Add(&gamefile.Record{Game: i, Pair: i / 2, GameName: "baran", FirstIs: first, Winner: w, Reason: engine.Throne, Plies: 7 + int(i%5), Moves: fmt.Sprint(i)})
	}
	rows := s.Stats()
	for _, name := range []string{"a_score", "first_score"} {
		st, _ := StatByName(rows, name)
		if st.Low < 0 || st.High > 1 || st.Value < st.Low || st.Value > st.High {
			t.Errorf("%s %v [%v, %v] leaves [0, 1]", name, st.Value, st.Low, st.High)
		}
	}
	if sc, _ := StatByName(rows, "a_score"); sc.High != 1 || sc.Value != 0.9975 {
		t.Errorf("a_score %+v, want 0.9975 up to 1", sc.Interval)
	}
	f, _ := PlayFindings(s, true)
	if !strings.HasPrefix(f[0], "Agent A's Elo over agent B") {
		t.Errorf("A against B: first finding %q", f[0])
	}
	if f, _ := PlayFindings(s, false); strings.HasPrefix(f[0], "Agent A") || !strings.Contains(f[len(f)-3], "Agent A") {
		t.Errorf("self-play: findings %q", f)
	}
	if !strings.Contains(strings.Join(f, "\n"), "Games last 9.0 [8.8, 9.2] plies") {
		t.Errorf("findings not rounded to their intervals:\n%s", strings.Join(f, "\n"))
	}
}
