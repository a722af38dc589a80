package layouts

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"

	"github.com/fairplay-lab/fairplay/engine"
)

// Held-out selection: on boards that are all fair (every game a fair coin), Black's choice made
// on the selection half and measured on the other half leaves White's mean rate at ½ (within
// 0.025, about 2.7 standard errors of 150 choices × 20 held-out games), while the in-sample
// choice (picked and measured on the same games) shows a spurious benefit (expected ≈ 0.455:
// the mean of the smaller of two Binomial(40, ½)/40 rates).
func TestHeldOutChoice(t *testing.T) {
	sw := sweep(t, LayoutsConfig{Layouts: "sample:150", Games: 40, Seed: 4})
	r := engine.NewRand(99)
	boards := make([]gamefile.BoardResult, sw.NumBoards())
	for i := range boards {
		b := &boards[i]
		b.Board, b.Key, b.Grid = int64(i), boardKey(sw.Board(i)), sw.Board(i).Grid.String()
		for j := 0; j < 40; j++ {
			b.N++
			sel := (j/2)%2 == 0
			if sel {
				b.NSelect++
			}
			if r.IntN(2) == 0 {
				b.WhiteWins++
				if sel {
					b.WhiteWinsSelect++
				}
			} else {
				b.BlackWins++
			}
		}
	}
	dir := t.TempDir()
	rep, _, err := WriteLayoutReports(dir, sw, boards)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "choices.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	sum, inSample := 0.0, 0.0
	for _, row := range rows[1:] {
		v, _ := strconv.ParseFloat(row[10], 64)
		sum += v
		if row[16] != "selection-half" || row[17] != "held-out-half" {
			t.Fatalf("choice %s picked on %s, measured on %s", row[0], row[16], row[17])
		}
	}
	seen := map[string]bool{}
	for k := 0; k+1 < sw.NumRows(); k += 2 {
		if c := sw.Row(k).Choice; !seen[c] {
			seen[c] = true
			inSample += math.Min(boards[sw.Row(k).Board].WhiteRate().Value, boards[sw.Row(k+1).Board].WhiteRate().Value)
		}
	}
	n := float64(len(rows) - 1)
	mean := sum / n
	inSample /= float64(len(seen))
	t.Logf("%d choices: held-out White rate after Black's choice %.4f (in sample %.4f); imbalance held out %.4f, in sample %.4f, as dealt %.4f",
		len(rows)-1, mean, inSample, rep.ImbalanceChosen, rep.InSample, rep.ImbalanceDealt)
	if math.Abs(mean-0.5) > 0.025 {
		t.Errorf("held-out White rate after Black's choice %.4f, want 0.5 ± 0.025", mean)
	}
	if inSample > 0.47 || rep.Choices < 100 {
		t.Errorf("%d choices; in-sample White rate after Black's choice %.4f: want the spurious benefit (< 0.47)", rep.Choices, inSample)
	}
}

// Boards too short for a held-out half (2 games: one pair, all in the selection half) leave
// Black's choice unmeasured instead of breaking the report.
func TestHeldOutShortBoards(t *testing.T) {
	sw := sweep(t, LayoutsConfig{Layouts: "sample:3", Games: 2, Seed: 4})
	boards := make([]gamefile.BoardResult, sw.NumBoards())
	for i := range boards {
		boards[i] = gamefile.BoardResult{Board: int64(i), Key: boardKey(sw.Board(i)), Grid: sw.Board(i).Grid.String(),
			N: 2, WhiteWins: 1, BlackWins: 1, NSelect: 2, WhiteWinsSelect: 1}
	}
	rep, _, err := WriteLayoutReports(t.TempDir(), sw, boards)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Choices != 0 || math.IsNaN(rep.ImbalanceChosen) {
		t.Errorf("%d choices measured, imbalance %v", rep.Choices, rep.ImbalanceChosen)
	}
}

// The most unbalanced and the fairest boards are ranked on the selection half and reported on
// the held-out half: three boards extreme on their selection half (20, 0 and 19 White wins of
// 20) but even on the other half head the unbalanced list with held-out rates of ½, not the
// in-sample 0.75, 0.25 or 0.725.
func TestExtremesHeldOut(t *testing.T) {
	sw := sweep(t, LayoutsConfig{Layouts: "sample:20", Games: 40, Seed: 4})
	boards := make([]gamefile.BoardResult, sw.NumBoards())
	selWins := map[int]int64{0: 20, 1: 0, 2: 19}
	for i := range boards {
		ws, ok := selWins[i]
		if !ok {
			ws = 10 + int64(i%2) // near ½ on the selection half
		}
		boards[i] = gamefile.BoardResult{Board: int64(i), Key: boardKey(sw.Board(i)), Grid: sw.Board(i).Grid.String(),
			N: 40, NSelect: 20, WhiteWinsSelect: ws, WhiteWins: ws + 10, BlackWins: 40 - ws - 10}
	}
	rep, _, err := WriteLayoutReports(t.TempDir(), sw, boards)
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 3; k++ {
		d := rep.Unbalanced[k]
		if !strings.HasPrefix(d, boards[[]int{0, 1, 2}[k]].Key+" (White 0.5 [") || !strings.Contains(d, "held out, n=20)") {
			t.Errorf("unbalanced %d: %s; want board %d at its held-out 0.500", k+1, d, []int{0, 1, 2}[k])
		}
	}
	for _, d := range rep.Fairest {
		if !strings.Contains(d, "held out, n=20)") {
			t.Errorf("fairest: %s; want held-out rates", d)
		}
	}
}
