package layouts

import (
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/internal/reporttest"
	"github.com/fairplay-lab/fairplay/stats"
)

// readCSV reads a CSV file into rows of named fields.
func readCSV(t *testing.T, path string) []map[string]string {
	t.Helper()
	rows, err := reporttest.CSVByHeader(path)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return x
}

// An adaptive sweep's reports show the interval each board stopped on — its confidence
// sequence, not a fixed-n Wilson interval — and say so: layouts.csv's ci_low/ci_high are
// MixtureCS at α = 0.05 with ci_method naming it, its p-values the anytime-valid MixtureP,
// choices.csv's held-out rates the halves' sequences, and the findings' held-out intervals too.
// A fixed-n sweep of the same boards keeps Wilson and the exact p-value.
func TestAdaptiveReportsShowSequence(t *testing.T) {
	for _, adaptive := range []bool{true, false} {
		cfg := LayoutsConfig{Layouts: "random:300", Games: 40, Seed: 3, Adaptive: adaptive, Batch: 4}
		sw := sweep(t, cfg)
		boards := syntheticBoards(sw, 11)
		for i := range boards { // halves consistent with the whole: the held-out half's wins fit its games
			b := &boards[i]
			b.WhiteWinsSelect = min(max(b.WhiteWinsSelect, b.WhiteWins-(b.N-b.NSelect)), b.NSelect)
		}
		dir := t.TempDir()
		rep, _, err := WriteLayoutReports(dir, sw, boards)
		if err != nil {
			t.Fatal(err)
		}
		rho := sw.bandRho()
		for _, r := range readCSV(t, filepath.Join(dir, "layouts.csv")) {
			w, n := int64(num(t, r["white_wins"])), int64(num(t, r["n"]))
			b := w + int64(num(t, r["black_wins"]))
			want, wantM, p := stats.Wilson(w, n, stats.Z95), "wilson", stats.BinomTwoSided(w, b, 0.5)
			if adaptive {
				want, wantM, p = stats.MixtureCS(float64(w), n, 0.05, rho), stats.MethodMixtureCS, stats.MixtureP(float64(w), b, 0.5, rho)
			}
			if r["ci_low"] != f64(want.Low) || r["ci_high"] != f64(want.High) || r["ci_method"] != wantM {
				t.Fatalf("adaptive %v: layouts.csv row %v: interval [%s, %s] %s, want [%s, %s] %s", adaptive, r["board_index"], r["ci_low"], r["ci_high"], r["ci_method"], f64(want.Low), f64(want.High), wantM)
			}
			if r["p_value"] != f64(p) {
				t.Fatalf("adaptive %v: p_value %s, want %s (%s)", adaptive, r["p_value"], f64(p), r["p_method"])
			}
		}
		rows := readCSV(t, filepath.Join(dir, "choices.csv"))
		if len(rows) == 0 {
			t.Fatal("no choices")
		}
		wantM := map[bool]string{true: stats.MethodMixtureCS, false: "wilson"}[adaptive]
		for _, r := range rows {
			if r["ci_method"] != wantM {
				t.Fatalf("adaptive %v: choices.csv ci_method %s, want %s", adaptive, r["ci_method"], wantM)
			}
			if adaptive && r["difference_method"] != methodCSDifference {
				t.Fatalf("difference_method %s", r["difference_method"])
			}
		}
		// The findings' held-out intervals are the halves' sequences.
		i := -1
		for k, b := range boards {
			if strings.Contains(strings.Join(rep.Fairest, " "), b.Key+" (") {
				i = k
				break
			}
		}
		if i < 0 {
			t.Fatalf("no fairest board found in %v", rep.Fairest)
		}
		iv, _ := sw.heldOut(&boards[i])
		want := stats.Wilson(boards[i].WhiteWins-boards[i].WhiteWinsSelect, boards[i].N-boards[i].NSelect, stats.Z95)
		if adaptive {
			want = stats.MixtureCS(float64(boards[i].WhiteWins-boards[i].WhiteWinsSelect), boards[i].N-boards[i].NSelect, 0.05, rho)
		}
		if iv.Low != want.Low || iv.High != want.High {
			t.Errorf("adaptive %v: held-out interval %+v, want %+v", adaptive, iv, want)
		}
		if !strings.Contains(strings.Join(rep.Fairest, " "), "White "+stats.FormatCI(iv)) {
			t.Errorf("adaptive %v: the findings do not show the held-out interval %s: %v", adaptive, stats.FormatCI(iv), rep.Fairest)
		}
	}
}

// playAll plays the given boards of sw on two goroutines.
func playAll(t *testing.T, sw *Sweep, boards []int) []gamefile.BoardResult {
	out := make([]gamefile.BoardResult, len(boards))
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := g; j < len(boards); j += 2 {
				r, ok := sw.Play(sw.NewWorker(), int64(boards[j]), func() bool { return false })
				if !ok {
					t.Error("play stopped")
				}
				out[j] = r
			}
		}()
	}
	wg.Wait()
	return out
}

// The adaptive sweep's decisions confirmed by fresh games: a sweep of random play on 100
// random colour grids (200 boards, White's rate spread ±0.07 across them, so boards fall inside,
// outside and near the edges of the band 0.40-0.60), batches of 100 up to 2,000 games; every
// decided board is then played again with another seed, 2,000 games at a fixed n, and a decision counts as
// contradicted when the fresh 95% Wilson interval lies wholly on the other side of the edge it
// was decided against. At most 1% may be contradicted (with Wilson looked at after every batch,
// the rule before, a sweep of this kind had 3.4% contradicted). About 500,000 games: skipped
// under -short.
func TestAdaptiveDecisionsConfirmed(t *testing.T) {
	if testing.Short() {
		t.Skip("plays some 500,000 random games")
	}
	const lo, hi = 0.40, 0.60
	ad, err := NewSweep(LayoutsConfig{A: "random", B: "random", Layouts: "random:100", Games: 2000, Adaptive: true, Batch: 100,
		BandLow: lo, BandHigh: hi, Seed: 27})
	if err != nil {
		t.Fatal(err)
	}
	all := make([]int, ad.NumBoards())
	for i := range all {
		all[i] = i
	}
	res := playAll(t, ad, all)
	var decided []int
	var games int64
	for i := range res {
		games += res[i].N
		if ad.decided(&res[i]) {
			decided = append(decided, i)
		}
	}
	// The same boards (the grids as a list), fresh seeds, a fixed n.
	list := &LayoutList{}
	for k := 0; k < ad.NumRows()/2; k++ {
		list.add(ad.Row(2 * k).Layout)
	}
	cfg := LayoutsConfig{A: "random", B: "random", Layouts: "list", Games: 2000, BandLow: lo, BandHigh: hi, Seed: 28}
	cfg.SetList(list.seal())
	fresh, err := NewSweep(cfg)
	if err != nil {
		t.Fatal(err)
	}
	byKey := map[string]int{}
	for i := 0; i < fresh.NumBoards(); i++ {
		byKey[boardKey(fresh.Board(i))] = i
	}
	var again []int
	for _, i := range decided {
		again = append(again, byKey[res[i].Key])
	}
	check := playAll(t, fresh, again)
	contradicted := 0
	for j, i := range decided {
		iv := ad.BandInterval(res[i].WhiteWins, res[i].N)
		f := stats.Wilson(check[j].WhiteWins, check[j].N, stats.Z95)
		var bad bool
		switch {
		case iv.High < lo: // decided below
			bad = f.Low > lo
		case iv.Low > hi: // decided above
			bad = f.High < hi
		default: // decided inside
			bad = f.High < lo || f.Low > hi
		}
		if bad {
			contradicted++
			t.Logf("board %s: decided on [%.3f, %.3f] at n = %d, fresh %.3f [%.3f, %.3f]", res[i].Key, iv.Low, iv.High, res[i].N, f.Value, f.Low, f.High)
		}
	}
	share := float64(contradicted) / float64(len(decided))
	t.Logf("%d of %d boards decided in %d games (%.0f%% of the cap's %d); %d contradicted by fresh games (%.2f%%)",
		len(decided), len(res), games, 100*float64(games)/float64(int64(len(res))*2000), int64(len(res))*2000, contradicted, 100*share)
	if len(decided) < 100 {
		t.Errorf("only %d boards decided: too few to check", len(decided))
	}
	if share > 0.01 {
		t.Errorf("%d of %d decisions contradicted (%.2f%%), want at most 1%%", contradicted, len(decided), 100*share)
	}
}

// An adaptive sweep stops a board that can no longer be decided before the cap (futility): on
// the same games every board gets the same answer as when played to the cap, in fewer games.
// Random play on 60 boards, cap 600 (the sequence at 600 games is still wider than the band, so
// no board can be settled inside: boards near ½ stop once they can no longer be settled below
// or above either); a fair race (the sequences at 0.05 over the boards) likewise.
func TestAdaptiveFutility(t *testing.T) {
	for _, race := range []string{"", stats.RaceFair} {
		cfg := LayoutsConfig{Layouts: "random:30", Games: 600, Seed: 5, Adaptive: true, Batch: 100, Race: race}
		var games [2]int64
		var answers [2][]stats.ArmState
		for k, off := range []bool{false, true} {
			sw := sweep(t, cfg)
			sw.noFutility = off
			sk := sw.NewWorker()
			for i := range sw.NumBoards() {
				b, ok := sw.Play(sk, int64(i), func() bool { return false })
				if !ok {
					t.Fatal("stopped")
				}
				games[k] += b.N
				answers[k] = append(answers[k], sw.fairAnswer(&b))
			}
		}
		t.Logf("race %q: %d games with the futility stop, %d without", race, games[0], games[1])
		for i := range answers[0] {
			if answers[0][i] != answers[1][i] {
				t.Errorf("race %q: board %d: %v with the futility stop, %v without", race, i, answers[0][i], answers[1][i])
			}
		}
		if games[0] >= games[1] {
			t.Errorf("race %q: %d games with the futility stop, %d without: none saved", race, games[0], games[1])
		}
	}
}
