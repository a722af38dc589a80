package results

import (
	"io"
	"math"
	"strings"
	"testing"
)

// games.csv written before the start_position and moves columns still reads (fields empty);
// the new columns must come last.
func TestCSVReaderOldAndNewHeaders(t *testing.T) {
	old := "game,pair,seed,game_name,layout,rules,first_agent,second_agent,first_is,first_colour,winner,winner_agent,reason,plies,legal_actions_total,c1\n" +
		"0,0,00000000000000ff,baran,,x=y,random,random,a,red,first,a,throne,12,99,3\n"
	r, err := NewCSVReader(strings.NewReader(old))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := r.Read()
	if err != nil || rec.Moves != "" || rec.Start != "" || len(rec.Counters) != 1 || rec.Counters[0] != 3 {
		t.Fatalf("old file: %+v, %v", rec, err)
	}
	if _, err := r.Read(); err != io.EOF {
		t.Errorf("want EOF, got %v", err)
	}
	bad := strings.Replace(old, "legal_actions_total,c1", "legal_actions_total,moves,c1", 1)
	if _, err := NewCSVReader(strings.NewReader(bad)); err == nil {
		t.Error("moves before a counter column accepted")
	}
}

// Empirical-Bayes shrinkage: boards of one true rate shrink almost to the pooled rate; boards
// of very different true rates barely shrink; intervals contain their estimates.
func TestShrinkRates(t *testing.T) {
	same := make([]BoardResult, 50)
	spread := make([]BoardResult, 50)
	for i := range same {
		same[i] = BoardResult{N: 100, WhiteWins: int64(45 + i%11)} // 0.45–0.55: binomial noise only
		spread[i] = BoardResult{N: 100, WhiteWins: int64(5 + 90*(i%2))}
	}
	for i, iv := range ShrinkRates(same) {
		if math.Abs(iv.Value-0.4982) > 0.02 || iv.Low > iv.Value || iv.High < iv.Value || iv.Method != MethodEB {
			t.Errorf("same rates, board %d: %+v", i, iv)
		}
	}
	for i, iv := range ShrinkRates(spread) {
		raw := float64(spread[i].WhiteWins) / 100
		if math.Abs(iv.Value-raw) > 0.02 {
			t.Errorf("spread rates, board %d: shrunk %g from %g", i, iv.Value, raw)
		}
	}
}
