package tally

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/stats"
)

func TestWriteRatingsAndPairingsCSV(t *testing.T) {
	res := []stats.PairingResult{{A: 0, B: 1, Penta: pentaCSV(5, 5, 0)}}
	names := []string{"alphabeta:depth=2,weights=x", "random"}
	tab, err := stats.Ratings(names, res, stats.RatingOptions{Bootstrap: 50, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteRatingsCSV(&b, tab, []int64{20, 19}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if lines[0] != "agent,elo,ci_low,ci_high,games,score,distinct_games" || !strings.HasPrefix(lines[1], `"alphabeta:depth=2,weights=x",0,0,0,20,0.75,20`) ||
		!strings.HasPrefix(lines[2], "random,-190.848") {
		t.Errorf("ratings.csv:\n%s", b.String())
	}
	b.Reset()
	if err := WritePairingsCSV(&b, names, res, [][3]int64{{10, 5, 5}}, tab); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"alphabeta:depth=2,weights=x",random,20,10,5,5,0.75,0,0,5,0,5,`) || !strings.HasSuffix(b.String(), ",0.75\n") {
		t.Errorf("pairings.csv:\n%s", b.String())
	}
}

// pentaCSV builds pair counts: twos pairs won twice, ones pairs split, zeros lost twice.
func pentaCSV(twos, ones, zeros int64) stats.Penta { return stats.Penta{zeros, 0, ones, 0, twos} }
