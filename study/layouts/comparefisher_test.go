package layouts

import (
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/stats"
)

// compare.csv's Fisher-z interval takes the common boards as independent (docs/statistics.md).
// In the ladder's model of two levels over 50 layouts (seatingSample, ρ 0.6 between the levels'
// latent advantages), its 95% interval covers the population rank correlation in 93.4% of 2,000
// studies when a layout's seatings are uncorrelated, and less when they correlate negatively,
// as they do at searching levels: 87.8% and 86.1% at seating correlations −0.72 and −0.89 (the
// ladder's bootstrap over layouts: about 94%, TestLayoutBootstrapCoverage). The test holds the
// documented assumption to its effect: near its level with independent seatings, below it with
// correlated ones.
func TestCompareFisherZAssumesIndependentBoards(t *testing.T) {
	if testing.Short() {
		t.Skip("3 × 2,000 simulated studies (about 2 s)")
	}
	const layouts, studies = 50, 2000
	cover := func(kappa, sigma float64) float64 {
		r := engine.NewRand(2031)
		x, y := seatingSample(r, 100_000, 0.6, kappa, sigma)
		truth := spearmanValue(x, y)
		hits := 0
		for range studies {
			x, y := seatingSample(r, layouts, 0.6, kappa, sigma)
			if iv := stats.Spearman(x, y); iv.Low <= truth && truth <= iv.High {
				hits++
			}
		}
		return float64(hits) / studies
	}
	none, strong := cover(0, 0.5), cover(1, 0.35)
	t.Logf("Fisher-z coverage: seatings uncorrelated %.3f, correlated −0.72 %.3f, −0.89 %.3f", none, cover(0.9, 0.5), strong)
	if none < 0.92 {
		t.Errorf("independent seatings: Fisher-z covers %.3f, want about 0.95", none)
	}
	if strong >= none-0.03 {
		t.Errorf("seatings correlated −0.89: Fisher-z covers %.3f, not less than with independent seatings (%.3f)", strong, none)
	}
}
