package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// pentaOf builds pair counts: twos pairs won twice, ones pairs split (1 point), zeros lost twice.
func pentaOf(twos, ones, zeros int64) Penta { return Penta{zeros, 0, ones, 0, twos} }

// TestFitRatingsHandComputed: A scores 15/20 against B, B 15/20 against C, A 18/20 against C.
// The odds 3:1, 3:1 and 9:1 multiply consistently, so the score equations hold exactly at
// r_B = −400·log10(3) = −190.8485 and r_C = −800·log10(3) = −381.6970 (computed by hand:
// E(190.8485) = 1/(1+10^(−log10 3)) = 3/4, E(381.6970) = 9/10), which is then the unique MLE.
func TestFitRatingsHandComputed(t *testing.T) {
	res := []PairingResult{
		{A: 0, B: 1, Penta: pentaOf(5, 5, 0)}, // 15 of 20
		{A: 1, B: 2, Penta: pentaOf(5, 5, 0)}, // 15 of 20
		{A: 0, B: 2, Penta: pentaOf(8, 2, 0)}, // 18 of 20
	}
	r, err := FitRatings(3, res, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0, -400 * math.Log10(3), -800 * math.Log10(3)}
	for i := range want {
		near(t, "elo", r[i], want[i], 1e-7)
	}
	// Two agents: the rating difference is EloFromScore of the score, 0.75 -> +190.85.
	r, err = FitRatings(2, res[:1], 0)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "two agents", r[1], -EloFromScore(0.75), 1e-7)
}

// zermelo fits the same model by an independent algorithm: Zermelo's fixed-point iteration
// (the MM algorithm of Hunter 2004, eq. 3) on strengths π_i, π_i ← W_i / Σ_j N_ij/(π_i+π_j),
// with fractional wins W_i (draws ½).
func zermelo(n int, res []PairingResult) []float64 {
	W, N := make([]float64, n), make([][]float64, n)
	for i := range N {
		N[i] = make([]float64, n)
	}
	for _, p := range res {
		s, g := p.Points()
		W[p.A] += s
		W[p.B] += g - s
		N[p.A][p.B] += g
		N[p.B][p.A] += g
	}
	pi := make([]float64, n)
	for i := range pi {
		pi[i] = 1
	}
	for it := 0; it < 100000; it++ {
		for i := 0; i < n; i++ {
			d := 0.0
			for j := 0; j < n; j++ {
				if N[i][j] > 0 {
					d += N[i][j] / (pi[i] + pi[j])
				}
			}
			pi[i] = W[i] / d
		}
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = 400 * math.Log10(pi[i]/pi[0])
	}
	return out
}

func TestFitRatingsAgreesWithZermelo(t *testing.T) {
	// Unbalanced, incomplete design with draws (split pairs) and a cycle.
	res := []PairingResult{
		{A: 0, B: 1, Penta: Penta{3, 4, 10, 6, 7}},
		{A: 1, B: 2, Penta: Penta{1, 2, 5, 9, 3}},
		{A: 2, B: 0, Penta: Penta{6, 3, 8, 2, 1}},
		{A: 3, B: 0, Penta: Penta{2, 1, 3, 5, 9}},
		{A: 3, B: 2, Penta: Penta{0, 3, 4, 2, 1}},
	}
	got, err := FitRatings(4, res, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := zermelo(4, res)
	for i := range want {
		near(t, "elo vs Zermelo", got[i], want[i], 1e-6)
	}
}

func TestFitRatingsPerfectScore(t *testing.T) {
	res := []PairingResult{{A: 0, B: 1, Penta: pentaOf(10, 0, 0)}, {A: 1, B: 2, Penta: pentaOf(3, 4, 3)}}
	if _, err := FitRatings(3, res, 0); !errors.Is(err, ErrNoFiniteRatings) {
		t.Fatalf("perfect score without prior: err %v, want ErrNoFiniteRatings", err)
	}
	r, err := FitRatings(3, res, 2)
	if err != nil {
		t.Fatal(err)
	}
	// With 2 virtual draws agent 0 scores 21 of 22 against agent 1, and agents 1 and 2 are
	// level (10 of 20 + 1 of 2): r1 = −EloFromScore(21/22) exactly, r2 = r1.
	near(t, "r1", r[1], -EloFromScore(21.0/22), 1e-7)
	near(t, "r2", r[2], r[1], 1e-7)
	// Agents 2 and 3 never meet anyone of the rest: not connected.
	if _, err := FitRatings(4, []PairingResult{{A: 0, B: 1, Penta: pentaOf(3, 4, 3)}, {A: 2, B: 3, Penta: pentaOf(3, 4, 3)}}, 1); !errors.Is(err, ErrNoFiniteRatings) {
		t.Fatalf("disconnected pairings: err %v", err)
	}
	for _, bad := range [][]PairingResult{{{A: 0, B: 0}}, {{A: 0, B: 5}}} {
		if _, err := FitRatings(2, bad, 1); err == nil {
			t.Errorf("pairing %+v: no error", bad[0])
		}
	}
	if _, err := FitRatings(2, res[:1], -1); err == nil {
		t.Error("negative prior: no error")
	}
}

// simulate plays a tournament between agents of known Elo: every pairing (or the first agent
// against the rest) in pairs colour-swapped pairs; a game is a draw with probability
// 0.4·min(E, 1−E) and otherwise won so that the expected score is E (the model's).
func simulate(elo []float64, pairs int, gauntlet bool, rng *rand.Rand) []PairingResult {
	var res []PairingResult
	for i := range elo {
		for j := i + 1; j < len(elo); j++ {
			if gauntlet && i > 0 {
				continue
			}
			e := Expected(elo[i], elo[j])
			d := 0.4 * math.Min(e, 1-e)
			var p Penta
			for range pairs {
				k := 0
				for range 2 {
					u := rng.Float64()
					switch {
					case u < e-d/2:
						k += 2
					case u < e+d/2:
						k++
					}
				}
				p[k]++
			}
			res = append(res, PairingResult{A: i, B: j, Penta: p})
		}
	}
	return res
}

// TestRatingsRecoverKnownStrengths simulates a round robin of six agents of known Elo (200
// pairs = 400 games per pairing, seed 1) and asks the joint fit to recover every rating within
// 40 Elo: the asymptotic standard error of a difference to the anchor is about 15 Elo here, so
// 40 is over 2.5 standard errors. The 95% bootstrap intervals (B = 300) must each contain the
// truth and be 20 to 120 Elo wide.
func TestRatingsRecoverKnownStrengths(t *testing.T) {
	truth := []float64{0, -150, 100, 250, -400, 50}
	names := []string{"a", "b", "c", "d", "e", "f"}
	res := simulate(truth, 200, false, rand.New(rand.NewPCG(1, 2)))
	tab, err := Ratings(names, res, RatingOptions{Bootstrap: 300, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range tab.Ratings {
		if math.Abs(r.Elo-truth[i]) > 40 {
			t.Errorf("%s: elo %.1f, true %.0f", r.Agent, r.Elo, truth[i])
		}
		if r.Games != 2000 {
			t.Errorf("%s: %d games, want 2000", r.Agent, r.Games)
		}
		if i == 0 {
			if r.Low != 0 || r.High != 0 {
				t.Errorf("anchor interval [%v, %v], want [0, 0]", r.Low, r.High)
			}
			continue
		}
		if truth[i] < r.Low || truth[i] > r.High || r.High-r.Low < 20 || r.High-r.Low > 120 {
			t.Errorf("%s: interval [%.1f, %.1f] for true %.0f", r.Agent, r.Low, r.High, truth[i])
		}
	}
	if o := tab.Order(); o[0] != 3 || o[5] != 4 {
		t.Errorf("order %v: want d first, e last", o)
	}
}

// TestRatingsGauntletCoverage: over 40 simulated gauntlets (the first agent against four others,
// 50 pairs per pairing), the 95% bootstrap intervals (B = 200) should contain the true rating
// about 95% of the time; we accept 85–100% per agent (binomial sd of a 95% rate over 40 runs is
// 3.4 points).
func TestRatingsGauntletCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("coverage study")
	}
	truth := []float64{0, -200, -50, 80, 300}
	names := []string{"a", "b", "c", "d", "e"}
	rng := rand.New(rand.NewPCG(3, 4))
	cover := make([]int, len(truth))
	const runs = 40
	for run := 0; run < runs; run++ {
		res := simulate(truth, 50, true, rng)
		tab, err := Ratings(names, res, RatingOptions{Prior: 1, Bootstrap: 200, Seed: uint64(run)})
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range tab.Ratings {
			if r.Low <= truth[i] && truth[i] <= r.High {
				cover[i]++
			}
		}
	}
	for i := 1; i < len(truth); i++ {
		if c := float64(cover[i]) / runs; c < 0.85 {
			t.Errorf("agent %d: coverage %.2f", i, c)
		}
	}
}

func TestResamplePentaKeepsPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	p := Penta{0, 3, 0, 7, 2}
	for range 100 {
		q := resamplePenta(p, rng)
		if q.Pairs() != p.Pairs() || q[0] != 0 || q[2] != 0 {
			t.Fatalf("resample %v of %v", q, p)
		}
	}
}

// Unbounded on hand-made tournaments, and against the fit itself on random small ones: every
// rating is finite (all 0) exactly when the fit without a prior converges (Ford's condition).
func TestUnbounded(t *testing.T) {
	// 0 lost every game to 1 and to 2; 1 lost every game to 2: both sit infinitely above 0.
	res := []PairingResult{{A: 0, B: 1, Penta: pentaOf(0, 0, 5)}, {A: 0, B: 2, Penta: pentaOf(0, 0, 5)}, {A: 1, B: 2, Penta: pentaOf(0, 0, 5)}}
	if got := Unbounded(3, res); !slices.Equal(got, []int{0, 1, 1}) {
		t.Errorf("a ladder of perfect scores: %v, want [0 1 1]", got)
	}
	// 0 won every game against 1; 1 and 2 are level: both are infinitely below 0.
	res = []PairingResult{{A: 0, B: 1, Penta: pentaOf(10, 0, 0)}, {A: 1, B: 2, Penta: pentaOf(3, 4, 3)}}
	if got := Unbounded(3, res); !slices.Equal(got, []int{0, -1, -1}) {
		t.Errorf("below a perfect score: %v, want [0 -1 -1]", got)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 300 {
		n := 3 + trial%2
		res := randomRoundRobin(rng, n, 3, true)
		finite := !slices.ContainsFunc(Unbounded(n, res), func(u int) bool { return u != 0 })
		_, err := FitRatings(n, res, 0)
		if finite != (err == nil) {
			t.Fatalf("%v: Unbounded says finite %v, the fit: %v", res, finite, err)
		}
	}
}

// Quantile is the type-7 quantile (R's quantile default): for x = (1, 2, 3, 4, 10), Python's
// statistics.quantiles(x, n=10 or 20, method="inclusive"), the same definition, gives 1.4 at
// 0.1, 2.2 at 0.3, 3.0 at 0.5 and 8.8 at 0.95; the ends are the extremes.
func TestQuantileType7(t *testing.T) {
	x := []float64{1, 2, 3, 4, 10}
	for _, c := range []struct{ q, want float64 }{{0, 1}, {0.1, 1.4}, {0.3, 2.2}, {0.5, 3}, {0.95, 8.8}, {1, 10}} {
		if got := Quantile(x, c.q); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Quantile(%v, %v) = %v, want %v", x, c.q, got, c.want)
		}
	}
}

// MeasuredGroups on hand-made tournaments, and against the fit itself on random small ones:
// the pairings within a group of two or more fit without a prior (every gap in it is finite),
// and those joining two groups do not (Ford's condition).
func TestMeasuredGroups(t *testing.T) {
	// 0 lost every game to 1, 2 and 3; 1, 2 and 3 traded wins: their gaps are measured.
	res := []PairingResult{{A: 0, B: 1, Penta: pentaOf(0, 0, 5)}, {A: 0, B: 2, Penta: pentaOf(0, 0, 5)}, {A: 0, B: 3, Penta: pentaOf(0, 0, 5)},
		{A: 1, B: 2, Penta: pentaOf(1, 3, 1)}, {A: 1, B: 3, Penta: pentaOf(0, 2, 3)}, {A: 2, B: 3, Penta: pentaOf(0, 4, 1)}}
	if got := MeasuredGroups(4, res); !slices.Equal(got, []int{0, 1, 1, 1}) {
		t.Errorf("a weakest level that lost every game: %v, want [0 1 1 1]", got)
	}
	// A ladder of perfect scores: no gap is measured.
	res = []PairingResult{{A: 0, B: 1, Penta: pentaOf(0, 0, 5)}, {A: 0, B: 2, Penta: pentaOf(0, 0, 5)}, {A: 1, B: 2, Penta: pentaOf(0, 0, 5)}}
	if got := MeasuredGroups(3, res); !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("a ladder of perfect scores: %v, want [0 1 2]", got)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	sub := func(res []PairingResult, in func(int) bool) (int, []PairingResult) {
		idx := map[int]int{}
		var out []PairingResult
		for _, p := range res {
			if !in(p.A) || !in(p.B) {
				continue
			}
			for _, a := range []int{p.A, p.B} {
				if _, ok := idx[a]; !ok {
					idx[a] = len(idx)
				}
			}
			out = append(out, PairingResult{A: idx[p.A], B: idx[p.B], Penta: p.Penta})
		}
		return len(idx), out
	}
	split := 0
	for trial := range 300 {
		n := 3 + trial%3
		res := randomRoundRobin(rng, n, 2, false)
		g := MeasuredGroups(n, res)
		for a := range n {
			for b := a + 1; b < n; b++ {
				k, pair := sub(res, func(i int) bool { return g[i] == g[a] || g[i] == g[b] })
				_, err := FitRatings(k, pair, 0)
				if (g[a] == g[b]) != (err == nil) {
					t.Fatalf("%v: groups %v, agents %d and %d: the fit over their groups: %v", res, g, a, b, err)
				}
				if g[a] != g[b] {
					split++
				}
			}
		}
	}
	if split == 0 {
		t.Error("no trial had two groups")
	}
}

// randomRoundRobin is a round robin of n agents, pairs colour-swapped pairs per pairing, each
// pair won 2–0 by one side at random, or with draws a drawn pair a third of the time: mostly
// decisive pairs, so perfect scores are common.
func randomRoundRobin(rng *rand.Rand, n, pairs int, draws bool) []PairingResult {
	var res []PairingResult
	for a := range n {
		for b := a + 1; b < n; b++ {
			var p Penta
			for range pairs {
				if !draws || rng.IntN(3) > 0 {
					p[4*rng.IntN(2)]++
				} else {
					p[2]++
				}
			}
			res = append(res, PairingResult{A: a, B: b, Penta: p})
		}
	}
	return res
}

// TestRatingsGapChain: in a chain (0–1 and 1–2 only, no cycle) the fitted gap r2 − r1 depends on
// the 1–2 pairing alone: with p virtual draws it is exactly EloFromScore((S + p/2)/(N + p)) for
// S points of N games, in the fit and in every resample. So Gap(2, 1) is checked against that
// closed form, and its interval against the delta method's on the pentanomial variance
// (fastchess's: SE of the score = √(var/pairs), dElo/ds = 400/(ln 10 · s(1 − s))), within 15%
// of the width at 400 pairs. The gap's interval must be much narrower than agent 2's own,
// which carries the 0–1 pairing's noise as well, and Gap(i, 0) must be agent i's interval.
// The same holds when agents 1 and 2 both swept the anchor (their ratings set by the prior).
func TestRatingsGapChain(t *testing.T) {
	p12 := Penta{30, 70, 150, 90, 60} // 400 pairs, agent 1 against agent 2
	res := []PairingResult{
		{A: 0, B: 1, Penta: Penta{20, 60, 180, 90, 50}},
		{A: 1, B: 2, Penta: p12},
	}
	const prior = 1.0
	tab, err := Ratings([]string{"a", "b", "c"}, res, RatingOptions{Prior: prior, Bootstrap: 2000, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	g := tab.Gap(1, 2)
	s, games := res[1].Points()
	want := EloFromScore((s + prior/2) / (games + prior))
	if math.Abs(g.Value-want) > 1e-6 {
		t.Errorf("Gap(1, 2) = %.6f, closed form %.6f", g.Value, want)
	}
	score, v := p12.ScoreVar()
	se := math.Sqrt(v/float64(p12.Pairs())) * 400 / (math.Ln10 * score * (1 - score))
	if w, dw := g.High-g.Low, 2*1.959964*se; math.Abs(w-dw) > 0.15*dw {
		t.Errorf("Gap(1, 2) interval [%.1f, %.1f] (width %.1f), delta method width %.1f", g.Low, g.High, w, dw)
	}
	if !(g.Low < g.Value && g.Value < g.High) {
		t.Errorf("Gap(1, 2) = %.1f outside its interval [%.1f, %.1f]", g.Value, g.Low, g.High)
	}
	if r := tab.Ratings[2]; g.High-g.Low > 0.8*(r.High-r.Low) {
		t.Errorf("Gap(1, 2) width %.1f not below agent 2's own %.1f: the shared noise did not cancel", g.High-g.Low, r.High-r.Low)
	}
	if back := tab.Gap(2, 1); math.Abs(back.Value+g.Value) > 1e-9 || math.Abs(back.Low+g.High) > 1e-9 || math.Abs(back.High+g.Low) > 1e-9 {
		t.Errorf("Gap(2, 1) = %+v, not the mirror of Gap(1, 2) = %+v", back, g)
	}
	for i, r := range tab.Ratings {
		if a := tab.Gap(i, 0); a.Value != r.Elo || a.Low != r.Low || a.High != r.High {
			t.Errorf("Gap(%d, 0) = %+v, agent's own rating %v [%v, %v]", i, a, r.Elo, r.Low, r.High)
		}
	}
	if g.Method != MethodBootstrapPercentile {
		t.Errorf("Gap(1, 2) method %q, want %q", g.Method, MethodBootstrapPercentile)
	}
	// Without a bootstrap, and across a gap the prior sets, there is no interval.
	plain, err := Ratings([]string{"a", "b", "c"}, res, RatingOptions{Prior: prior})
	if err != nil {
		t.Fatal(err)
	}
	if iv := plain.Gap(1, 2); !math.IsNaN(iv.Low) || !math.IsNaN(iv.High) || iv.Method != "" {
		t.Errorf("no bootstrap: Gap(1, 2) = %+v, want a NaN interval and no method", iv)
	}
	swept := []PairingResult{{A: 0, B: 1, Penta: Penta{20, 60, 180, 90, 50}}, {A: 1, B: 2, Penta: Penta{0, 0, 0, 0, 40}}}
	st, err := Ratings([]string{"a", "b", "c"}, swept, RatingOptions{Prior: prior, Bootstrap: 200, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if iv := st.Gap(1, 2); !math.IsNaN(iv.Low) {
		t.Errorf("a swept pairing: Gap(1, 2) = %+v, want a NaN interval (the prior sets it)", iv)
	}
	// Agents 1 and 2 both above a swept anchor: their ratings are set by the prior, their gap
	// is measured by their own games, and still has the closed form and the delta method's width.
	above := []PairingResult{{A: 0, B: 1, Penta: Penta{40, 0, 0, 0, 0}}, {A: 1, B: 2, Penta: p12}}
	up, err := Ratings([]string{"a", "b", "c"}, above, RatingOptions{Prior: prior, Bootstrap: 2000, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	if up.Ratings[1].Unbounded != 1 || up.Ratings[2].Unbounded != 1 {
		t.Fatalf("swept anchor: Unbounded %d, %d; want 1, 1", up.Ratings[1].Unbounded, up.Ratings[2].Unbounded)
	}
	ug := up.Gap(1, 2)
	if w := ug.High - ug.Low; math.Abs(ug.Value-want) > 1e-6 || math.IsNaN(w) || math.Abs(w-2*1.959964*se) > 0.15*2*1.959964*se {
		t.Errorf("above a swept anchor: Gap(1, 2) = %+v, want %.1f with the delta method's width %.1f", ug, want, 2*1.959964*se)
	}
	if iv := up.Gap(1, 0); !math.IsNaN(iv.Low) {
		t.Errorf("above a swept anchor: Gap(1, 0) = %+v, want a NaN interval (the prior sets it)", iv)
	}
}
