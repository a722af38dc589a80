package stats

import (
	"math"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

// LLR values computed independently by testdata/sprt_reference.py: for each hypothesis the
// constrained maximum-likelihood pentanomial distribution is found by scipy's general SLSQP
// optimiser (no closed forms), then LLR = N·Σ p̂ log(q1/q0). Tolerance 1e-3 absolute (the
// optimiser's precision); the values span both models, negative and positive LLRs, and pair
// outcomes never seen: an empty cell counts 0.001 pairs (fishtest's LLRcalc.regularize,
// fastchess's regularize), so it is in the support, and the root of the secular equation is
// bracketed by the smallest and largest φ over all five outcomes, seen or not (fishtest's
// LLRcalc.secular). A bracket from the seen outcomes alone can leave the support (an unseen
// outcome's q negative or infinite) and finds no root at all when every seen outcome lies on one
// side of the hypothesis: (0, 0, 0, 5, 10) at 0 Elo then gave LLR 0 instead of 0.4255.
func TestSPRTLLRReference(t *testing.T) {
	cases := []struct {
		p          Penta
		elo0, elo1 float64
		model      string
		want       float64
	}{
		{Penta{10, 50, 100, 60, 20}, 0, 5, "normalized", 0.576758},
		{Penta{10, 50, 100, 60, 20}, 0, 5, "logistic", 0.805131},
		{Penta{0, 3, 10, 8, 2}, -5, 10, "logistic", 0.982990},
		{Penta{0, 3, 10, 8, 2}, 0, 20, "normalized", 0.768904},
		{Penta{120, 300, 510, 320, 110}, 0, 2, "normalized", -0.045061},
		{Penta{40, 80, 60, 30, 10}, 0, 10, "logistic", -4.473341},
		{Penta{1500, 4000, 6100, 4100, 1450}, 0, 2, "logistic", -0.979581},
		{Penta{0, 0, 10, 8, 2}, 0, 5, "logistic", 0.285700},
		{Penta{0, 0, 10, 8, 2}, 0, 20, "normalized", 0.832441},
		{Penta{5, 20, 30, 0, 0}, -10, 10, "logistic", -3.165822},
		{Penta{0, 4, 0, 6, 0}, 0, 5, "normalized", 0.038618},
		{Penta{0, 0, 0, 5, 10}, 0, 10, "logistic", 0.425542},
		{Penta{3, 0, 0, 0, 9}, -20, 20, "logistic", 0.690925},
	}
	for _, c := range cases {
		tt := SPRT{Elo0: c.elo0, Elo1: c.elo1, Alpha: 0.05, Beta: 0.05, Model: c.model}
		got := tt.LLR(c.p)
		if math.Abs(got-c.want) > 1e-3 {
			t.Errorf("%s LLR(%v, %g, %g) = %.6f, want %.6f", c.model, c.p, c.elo0, c.elo1, got, c.want)
		}
	}
}

// For close hypotheses the GSPRT LLR approaches the normal approximation
// N·(s1−s0)(2ŝ−s0−s1)/(2σ̂²) (fishtest's LLR_alt2; Van den Bergh, "GSPRT approximation"),
// with σ̂² the per-pair variance of the pair score. Tolerance: 1% relative.
func TestSPRTLLRApproximation(t *testing.T) {
	p := Penta{2000, 8000, 15000, 9000, 2500}
	s, v := p.ScoreVar()
	n := float64(p.Pairs())
	tt := SPRT{Elo0: 0, Elo1: 1, Alpha: 0.05, Beta: 0.05, Model: "logistic"}
	s0, s1 := ScoreFromElo(0), ScoreFromElo(1)
	want := n * (s1 - s0) * (2*s - s0 - s1) / (2 * v)
	if got := tt.LLR(p); math.Abs(got-want) > 0.01*math.Abs(want) {
		t.Errorf("logistic LLR %.5f, normal approximation %.5f", got, want)
	}
	// Normalized: the hypotheses are scores ½ + t·σ per pair with t = √2·nElo/(800/ln 10).
	tn := SPRT{Elo0: 0, Elo1: 1, Alpha: 0.05, Beta: 0.05, Model: "normalized"}
	sd := math.Sqrt(v)
	s0, s1 = 0.5, 0.5+math.Sqrt2*1/nEloPerT*sd
	want = n * (s1 - s0) * (2*s - s0 - s1) / (2 * v)
	if got := tn.LLR(p); math.Abs(got-want) > 0.01*math.Abs(want) {
		t.Errorf("normalized LLR %.5f, normal approximation %.5f", got, want)
	}
}

func TestSPRTBoundsAndChecks(t *testing.T) {
	tt := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: "normalized"}
	lo, hi := tt.Bounds()
	// ln(0.05/0.95) = −2.944438979 (Wald 1945).
	if math.Abs(lo+2.944438979) > 1e-9 || math.Abs(hi-2.944438979) > 1e-9 {
		t.Errorf("bounds %v %v, want ∓2.944439", lo, hi)
	}
	if tt.Decide(3) != AcceptH1 || tt.Decide(-3) != AcceptH0 || tt.Decide(0) != Continue {
		t.Error("Decide maps the bounds wrongly")
	}
	if tt.LLR(Penta{}) != 0 {
		t.Error("LLR of no pairs must be 0")
	}
	for _, bad := range []SPRT{
		{Elo0: 5, Elo1: 0, Alpha: .05, Beta: .05, Model: "normalized"},
		{Elo0: 0, Elo1: 5, Alpha: 0, Beta: .05, Model: "normalized"},
		{Elo0: 0, Elo1: 5, Alpha: .6, Beta: .5, Model: "normalized"},
		{Elo0: 0, Elo1: 5, Alpha: .05, Beta: .05, Model: "bayes"},
	} {
		if bad.Check() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	if tt.Check() != nil {
		t.Error(tt.Check())
	}
}

// drawPenta samples a pair outcome from the distribution q.
func drawPenta(r *engine.Rand, q [5]float64) int {
	u := r.Float64()
	for i := 0; i < 4; i++ {
		if u < q[i] {
			return i
		}
		u -= q[i]
	}
	return 4
}

// simulateSPRT runs runs sequential tests on pairs drawn from q and returns the share that
// accepted H1 and the mean number of pairs.
func simulateSPRT(tt SPRT, q [5]float64, runs int, seed uint64) (h1 float64, meanPairs float64) {
	r := engine.NewRand(seed)
	accepted, pairs := 0, 0
	for k := 0; k < runs; k++ {
		var p Penta
		for {
			p[drawPenta(r, q)]++
			v := tt.Decide(tt.LLR(p))
			if v == Continue && p.Pairs() < 100000 {
				continue
			}
			if v == AcceptH1 {
				accepted++
			}
			pairs += int(p.Pairs())
			break
		}
	}
	return float64(accepted) / float64(runs), float64(pairs) / float64(runs)
}

// The error rates of the test are near its nominal α and β on synthetic matches whose true
// strength is exactly Elo0 or Elo1: pairs are drawn from a pentanomial distribution with the
// required expected score (logistic) or t-value (normalized). Fixed seeds; 600 tests per
// hypothesis (400 under -short), tolerance: the rate lies in [α/3, 1.6α] — the GSPRT's
// overshoot makes real error rates somewhat below nominal, and 1.6α is more than 3 binomial
// standard errors above it.
func TestSPRTErrorRates(t *testing.T) {
	runs := 600
	if testing.Short() {
		runs = 400
	}
	base := [5]float64{0.06, 0.22, 0.42, 0.22, 0.08}
	for _, model := range []string{"logistic", "normalized"} {
		tt := SPRT{Elo0: 0, Elo1: 25, Alpha: 0.05, Beta: 0.05, Model: model}
		for _, h := range []struct {
			name string
			elo  float64
		}{{"H0", tt.Elo0}, {"H1", tt.Elo1}} {
			var q [5]float64
			if model == "logistic" {
				q = mleMean(base, ScoreFromElo(h.elo))
			} else {
				q = mleT(base, math.Sqrt2*h.elo/nEloPerT)
			}
			checkDistribution(t, q, model, h.elo)
			rate, mean := simulateSPRT(tt, q, runs, 7)
			wrong, nominal := rate, tt.Alpha
			if h.name == "H1" {
				wrong, nominal = 1-rate, tt.Beta
			}
			t.Logf("%s, true Elo = %s: wrong decisions %.3f (nominal %.2f), mean %.0f pairs", model, h.name, wrong, nominal, mean)
			if wrong < nominal/3 || wrong > 1.6*nominal {
				t.Errorf("%s under %s: error rate %.3f, want near %.2f", model, h.name, wrong, nominal)
			}
		}
	}
}

// checkDistribution confirms a synthetic distribution has the strength it is meant to have.
func checkDistribution(t *testing.T, q [5]float64, model string, elo float64) {
	t.Helper()
	mu, v, sum := 0.0, 0.0, 0.0
	for i, a := range pentaScores {
		mu += q[i] * a
		sum += q[i]
	}
	for i, a := range pentaScores {
		v += q[i] * (a - mu) * (a - mu)
	}
	got := EloFromScore(mu)
	if model == "normalized" {
		got = (mu - 0.5) / math.Sqrt(v) / math.Sqrt2 * nEloPerT
	}
	if math.Abs(sum-1) > 1e-9 || math.Abs(got-elo) > 1e-6 {
		t.Fatalf("synthetic %s distribution %v: sum %v, Elo %v, want %v", model, q, sum, got, elo)
	}
}
