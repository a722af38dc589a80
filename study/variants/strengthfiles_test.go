package variants

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fairplay-lab/fairplay/tally"
)

// A run whose levels give no trend holds no trend files, also where an earlier report of the
// run left some (a resumed run whose ratings changed).
func TestNoTrendRemovesStaleTrendFiles(t *testing.T) {
	dir := t.TempDir()
	stale := []string{"strength_trend.csv", "strength_first_score.png", "strength_first_score.svg"}
	for _, f := range append(stale, "variants.csv") {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Two levels whose gap the prior sets: no trend.
	cells := []tally.VariantCell{
		{Level: 0, Agent: "random", Variant: "v=a", Elo: 0, EloGroup: 0},
		{Level: 1, Agent: "greedy", Variant: "v=a", Elo: 400, EloGroup: 1, EloPrior: true},
	}
	if tally.TrendFitted(tally.CellLevels(cells)) {
		t.Fatal("the fixture fits a trend")
	}
	out, err := writeStrengthTrends(dir, VariantsConfig{Game: "katarenga"}, cells, nil, []string{"first_score"})
	if err != nil || len(out) != 0 {
		t.Fatalf("outputs %v, err %v", out, err)
	}
	for _, f := range stale {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s left in place", f)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "variants.csv")); err != nil {
		t.Errorf("variants.csv removed: %v", err)
	}
}
