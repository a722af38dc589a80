package tally

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/stats"
)

// A list written by WriteRatingListCSV reads back entry for entry, in rating order, an
// empty interval (a prior-set rating) as NaN; the project's published lists read.
func TestReadRatingListRoundTrip(t *testing.T) {
	tab := &stats.RatingTable{Ratings: []stats.Rating{
		{Agent: "random", Elo: 0, Low: 0, High: 0, Games: 40, Score: 0.1},
		{Agent: "alphabeta:depth=2", Elo: 812.25, Low: 700.5, High: 950, Games: 40, Score: 0.9},
		{Agent: "greedy", Elo: 401, Low: math.NaN(), High: math.NaN(), Games: 40, Score: 0.5, Unbounded: 1},
	}}
	list := []ListEntry{
		{Game: "baran", Entry: "random@aaaaaaaaaaaa", Spec: "random", Fingerprint: "v1:aa", Anchor: true, ScoreBelow: math.NaN(), GapBelow: math.NaN(), GapHalf: math.NaN()},
		{Game: "baran", Entry: "alphabeta:depth=2@bbbbbbbbbbbb", Spec: "alphabeta:depth=2,nodes=0", Fingerprint: "v1:bb", ScoreBelow: math.NaN(), GapBelow: math.NaN(), GapHalf: math.NaN()},
		{Game: "baran", Entry: "greedy@cccccccccccc", Spec: "greedy:weights=", Fingerprint: "v1:cc", ScoreBelow: math.NaN(), GapBelow: math.NaN(), GapHalf: math.NaN()},
	}
	var b bytes.Buffer
	if err := WriteRatingListCSV(&b, tab, []int64{40, 40, 40}, list); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRatingList(&b)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d entries, want 3", len(got))
	}
	for k, i := range tab.Order() {
		g, r, e := got[k], tab.Ratings[i], list[i]
		if g.Game != e.Game || g.Entry != e.Entry || g.Spec != e.Spec || g.Fingerprint != e.Fingerprint || g.Elo != r.Elo ||
			!sameFloat(g.Low, r.Low) || !sameFloat(g.High, r.High) {
			t.Errorf("entry %d: %+v, want %s %v [%v, %v] %+v", k, g, r.Agent, r.Elo, r.Low, r.High, e)
		}
	}
	for _, f := range []string{"../docs/ratings/katarenga.csv", "../docs/ratings/baran.csv"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		l, err := ReadRatingList(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if rows := strings.Count(strings.TrimSpace(string(data)), "\n"); len(l) < rows/2 {
			t.Errorf("%s: %d entries from a file of %d rows", f, len(l), rows)
		}
	}
}

func sameFloat(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// A plain tournament's ratings.csv, a bad number and an empty file are refused, saying why.
func TestReadRatingListRefuses(t *testing.T) {
	head := "agent,elo,ci_low,ci_high,games,score,distinct_games,game,entry,spec,fingerprint\n"
	for _, tc := range []struct{ in, want string }{
		{"", "empty file"},
		{"agent,elo,ci_low,ci_high,games,score\nrandom,0,0,0,10,0.5\n", "no game column"},
		{head + "greedy,x,1,2,10,0.5,10,katarenga,greedy@a,greedy,v1:a\n", `row 2: elo "x"`},
		{head + "greedy,1,1,Inf,10,0.5,10,katarenga,greedy@a,greedy,v1:a\n", `row 2: ci_high "Inf"`},
		{head + "greedy,1,1,2,10,0.5,10,katarenga,greedy@a,,v1:a\n", "row 2: empty spec"},
		{head, "no entries"},
		{head + "greedy,1,1,2\n", "wrong number of fields"},
	} {
		_, err := ReadRatingList(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.want)
		}
	}
}

// An entry goes through JSON (a run's configuration) and back, a missing interval as null.
func TestListRatingJSON(t *testing.T) {
	for _, e := range []ListRating{
		{Game: "katarenga", Entry: "x@1", Spec: "x", Fingerprint: "v1:1", Elo: 2358.5, Low: 2200, High: 2500.25},
		{Game: "baran", Entry: "y@2", Spec: "y", Fingerprint: "v1:2", Elo: 12, Low: math.NaN(), High: math.NaN()},
	} {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		if math.IsNaN(e.Low) && !strings.Contains(string(b), `"ci_low":null`) {
			t.Errorf("%s: want ci_low null", b)
		}
		var g ListRating
		if err := json.Unmarshal(b, &g); err != nil {
			t.Fatal(err)
		}
		if g.Game != e.Game || g.Entry != e.Entry || g.Spec != e.Spec || g.Fingerprint != e.Fingerprint || g.Elo != e.Elo || !sameFloat(g.Low, e.Low) || !sameFloat(g.High, e.High) {
			t.Errorf("%s read back as %+v", b, g)
		}
	}
}

// FuzzReadRatingList: any input is read or refused, never a panic.
func FuzzReadRatingList(f *testing.F) {
	f.Add("agent,elo,ci_low,ci_high,games,score,distinct_games,game,entry,spec,fingerprint\ngreedy,1,,,10,0.5,10,katarenga,greedy@a,greedy,v1:a\n")
	f.Add("elo,ci_low,ci_high,game,entry,spec,fingerprint\n1,2,3,a,b,c,d\n")
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ReadRatingList(strings.NewReader(s))
		if err == nil && len(l) == 0 {
			t.Error("no error and no entries")
		}
	})
}
