package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Plan answers "how many games?" for a two-sided test at level Alpha: the games needed to reach
// Power against an effect, or, given the games, the power against an effect and the smallest
// effect detectable with the target power. Every field is filled; Method names the formula.
type Plan struct {
	Design string  `json:"design"` // "proportion", "two-proportions" or "elo"
	Method string  `json:"method"`
	Alpha  float64 `json:"alpha"`
	// TargetPower is the power asked for; Power is the power the Games reach against Effect.
	TargetPower float64 `json:"target_power"`
	Power       float64 `json:"power"`
	// Rate is the null first-player rate (proportion) or the first variant's rate.
	Rate float64 `json:"rate,omitempty"`
	// Effect is the difference to detect: a rate difference, or an Elo difference.
	Effect float64 `json:"effect"`
	// Detectable is the smallest effect, in the direction of Effect, that Games detect with
	// TargetPower (the largest possible one when none reaches it).
	Detectable float64 `json:"detectable_effect"`
	// Games is the total number of games (as given, or needed); PerVariant the games of each
	// variant (two proportions), Pairs the colour-swapped pairs (Elo); given an odd number of
	// games, the odd one out counts for neither.
	Games      int64 `json:"games"`
	PerVariant int64 `json:"games_per_variant,omitempty"`
	Pairs      int64 `json:"pairs,omitempty"`
	// PairSD is the per-pair standard deviation of A's score at the target Elo, modelled from the
	// pilot (PlanElo), PilotPairs the pilot's size.
	PairSD     float64 `json:"pair_sd,omitempty"`
	PilotPairs int64   `json:"pilot_pairs,omitempty"`
}

// The planners' methods.
const (
	PlanProportionMethod = "normal approximation, one-sample two-sided z-test, no continuity correction"
	PlanTwoPropMethod    = "Fleiss (1981) normal approximation, two-sample two-sided z-test, no continuity correction (as R's power.prop.test)"
	PlanTwoPropCCMethod  = "Fleiss (1981) normal approximation with the Fleiss-Tytun-Ury (1980) continuity correction, two-sample two-sided test (as R's prop.test)"
	PlanEloMethod        = "normal approximation on the pentanomial pair score, variance at the target from the pilot's maximum-likelihood projection"
)

func checkAlphaPower(alpha, power float64) error {
	switch {
	case !(alpha > 0 && alpha < 1):
		return fmt.Errorf("alpha %g: want a number in (0, 1)", alpha)
	case !(power > 0 && power < 1):
		return fmt.Errorf("power %g: want a number in (0, 1)", power)
	case power <= alpha/2:
		return fmt.Errorf("power %g: want more than alpha/2 = %g", power, alpha/2)
	}
	return nil
}

func checkRates(rate, effect float64) error {
	switch {
	case !(rate > 0 && rate < 1):
		return fmt.Errorf("rate %g: want a number in (0, 1)", rate)
	case math.IsNaN(effect) || effect == 0:
		return fmt.Errorf("effect %g: want a nonzero difference", effect)
	case !(rate+effect > 0 && rate+effect < 1):
		return fmt.Errorf("rate %g + effect %g = %g: want a rate in (0, 1)", rate, effect, rate+effect)
	}
	return nil
}

func checkGames(games int64) error {
	if games < 2 {
		return fmt.Errorf("games %d: want at least 2", games)
	}
	return nil
}

// zq returns the standard normal quantile.
func zq(p float64) float64 { return distuv.UnitNormal.Quantile(p) }

// twoSidedPower is the power of a two-sided z-test whose statistic has standard deviation sd1
// under the alternative, sd0 under the null, per unit of √n, for a difference d: the far tail
// is ignored, as R's power.prop.test does by default (strict = FALSE).
func twoSidedPower(d, sd0, sd1, n, alpha float64) float64 {
	return Phi((math.Abs(d)*math.Sqrt(n) - zq(1-alpha/2)*sd0) / sd1)
}

// nFor solves twoSidedPower = power for n.
func nFor(d, sd0, sd1, alpha, power float64) float64 {
	x := (zq(1-alpha/2)*sd0 + zq(power)*sd1) / math.Abs(d)
	return x * x
}

// detectable returns the smallest d in (0, max) whose power, by pw, reaches power (max when
// none does), by bisection: power grows with d on that range.
func detectable(pw func(d float64) float64, max, power float64) float64 {
	lo, hi := 0.0, max
	if pw(hi) < power {
		return max
	}
	for range 200 {
		mid := (lo + hi) / 2
		if pw(mid) >= power {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// towards returns the direction of effect (±1) and the largest difference in that direction
// that keeps rate+difference inside (0, 1).
func towards(rate, effect float64) (dir, max float64) {
	if effect < 0 {
		return -1, rate - 1e-12
	}
	return 1, 1 - rate - 1e-12
}

func ceil(x float64) int64 { return int64(math.Ceil(x - 1e-9)) }

// PlanProportion plans a one-sample two-sided test that a rate (the first player's win rate)
// is rate, against rate+effect: n = ((z₁₋α/₂√(p₀q₀) + z_power√(p₁q₁))/d)² games, the normal
// approximation of e.g. S.-C. Chow, J. Shao, H. Wang, Sample Size Calculations in Clinical
// Research (2008), §4.1. With games > 0 it reports the power of that many games instead, and
// the smallest effect in the same direction that they detect.
func PlanProportion(rate, effect, alpha, power float64, games int64) (Plan, error) {
	if err := checkAlphaPower(alpha, power); err != nil {
		return Plan{}, err
	}
	if err := checkRates(rate, effect); err != nil {
		return Plan{}, err
	}
	sd := func(p float64) float64 { return math.Sqrt(p * (1 - p)) }
	pw := func(d float64, n int64) float64 {
		return twoSidedPower(d, sd(rate), sd(rate+d), float64(n), alpha)
	}
	pl := Plan{Design: "proportion", Method: PlanProportionMethod, Alpha: alpha, TargetPower: power, Rate: rate, Effect: effect}
	if games > 0 {
		if err := checkGames(games); err != nil {
			return Plan{}, err
		}
		pl.Games = games
	} else {
		pl.Games = ceil(nFor(effect, sd(rate), sd(rate+effect), alpha, power))
	}
	pl.Power = pw(effect, pl.Games)
	dir, max := towards(rate, effect)
	pl.Detectable = dir * detectable(func(m float64) float64 { return pw(dir*m, pl.Games) }, max, power)
	return pl, nil
}

// PlanTwoProportions plans a two-sided comparison of two independent rates (two rule variants,
// each played with its own seeds): rate against rate+effect, n per variant =
// ((z₁₋α/₂√(2p̄q̄) + z_power√(p₁q₁+p₂q₂))/d)² with p̄ the mean rate (J. L. Fleiss, Statistical
// Methods for Rates and Proportions, 2nd ed., 1981, §3.2, without the continuity correction;
// the formula of R's power.prop.test). Games is the total over both variants. With games > 0
// (the total) it reports their power and the smallest detectable difference in the direction of
// effect. With cc the test is the continuity-corrected one (|p̂₁−p̂₂| − 1/n in the statistic, as
// R's prop.test): n per variant is n/4·(1 + √(1 + 4/(n|d|)))² of the uncorrected n (J. L.
// Fleiss, A. Tytun, H. K. Ury, Biometrics 36 (1980) 343–346), and the power of n games
// Φ((√n(|d| − 1/n) − z₁₋α/₂√(2p̄q̄))/√(p₁q₁+p₂q₂)).
func PlanTwoProportions(rate, effect, alpha, power float64, games int64, cc bool) (Plan, error) {
	if err := checkAlphaPower(alpha, power); err != nil {
		return Plan{}, err
	}
	if err := checkRates(rate, effect); err != nil {
		return Plan{}, err
	}
	sds := func(d float64) (sd0, sd1 float64) {
		p1, p2 := rate, rate+d
		m := (p1 + p2) / 2
		return math.Sqrt(2 * m * (1 - m)), math.Sqrt(p1*(1-p1) + p2*(1-p2))
	}
	pw := func(d float64, n int64) float64 {
		sd0, sd1 := sds(d)
		if cc {
			d = math.Max(math.Abs(d)-1/float64(n), 0)
		}
		return twoSidedPower(d, sd0, sd1, float64(n), alpha)
	}
	pl := Plan{Design: "two-proportions", Method: PlanTwoPropMethod, Alpha: alpha, TargetPower: power, Rate: rate, Effect: effect}
	if cc {
		pl.Method = PlanTwoPropCCMethod
	}
	if games > 0 {
		if err := checkGames(games); err != nil {
			return Plan{}, err
		}
		pl.PerVariant, pl.Games = games/2, games
	} else {
		sd0, sd1 := sds(effect)
		n := nFor(effect, sd0, sd1, alpha, power)
		if cc {
			r := 1 + math.Sqrt(1+4/(n*math.Abs(effect)))
			n = n / 4 * r * r
		}
		pl.PerVariant = ceil(n)
		pl.Games = 2 * pl.PerVariant
	}
	pl.Power = pw(effect, pl.PerVariant)
	dir, max := towards(rate, effect)
	pl.Detectable = dir * detectable(func(m float64) float64 { return pw(dir*m, pl.PerVariant) }, max, power)
	return pl, nil
}

// PlanElo plans a two-sided test that agent A's logistic Elo advantage over B is 0, against
// elo, from colour-swapped pairs: with δ = ScoreFromElo(elo) − ½ and σ the per-pair standard
// deviation of A's mean score at the target, N = ((z₁₋α/₂ + z_power)σ/δ)² pairs, 2N games (the
// test is the Wald test on the mean pair score, whose standard error is estimated from the
// pairs, so under the alternative both its centre and its scale are the target's). σ is that
// of the distribution on the five pair scores closest in likelihood to the pilot's pentanomial
// frequencies with the target's mean score (the projection of M. Van den Bergh's GSPRT,
// "Comments on the generalized SPRT", 2021, §3; the empirical-likelihood weights of A. Owen
// 2001, Empirical Likelihood, ch. 2): the pilot's spread is moved to the Elo being planned for
// instead of being assumed the same at every Elo (a pilot at +98 Elo planning +20 reached power
// 0.75, not 0.80). A mean the pilot's outcomes cannot reach gets the largest variance any
// score in [0, 1] with that mean can have, s(1 − s) (Bhatia & Davis 2000, Amer. Math.
// Monthly 107(4)). With games > 0 it reports their power and the smallest detectable Elo
// instead. PairSD is σ at the target.
func PlanElo(pilot Penta, elo, alpha, power float64, games int64) (Plan, error) {
	if err := checkAlphaPower(alpha, power); err != nil {
		return Plan{}, err
	}
	switch {
	case math.IsNaN(elo) || elo == 0 || math.IsInf(elo, 0):
		return Plan{}, fmt.Errorf("elo %g: want a nonzero finite difference", elo)
	case math.Abs(elo) > 2000:
		return Plan{}, fmt.Errorf("elo %g: want a difference within ±2000", elo)
	case pilot.Pairs() < 2:
		return Plan{}, fmt.Errorf("pilot has %d colour-swapped pairs: want at least 2", pilot.Pairs())
	}
	_, v := pilot.ScoreVar()
	if !(v > 0) {
		return Plan{}, fmt.Errorf("pilot pairs %v all scored the same: no variance to plan with (play a longer pilot)", [5]int64(pilot))
	}
	var phat [5]float64
	for i, c := range pilot {
		phat[i] = float64(c) / float64(pilot.Pairs())
	}
	pw := func(e float64, pairs int64) float64 {
		s := ScoreFromElo(e)
		sd := pairSDAt(phat, s)
		return twoSidedPower(s-0.5, sd, sd, float64(pairs), alpha)
	}
	sd1 := pairSDAt(phat, ScoreFromElo(elo))
	pl := Plan{Design: "elo", Method: PlanEloMethod, Alpha: alpha, TargetPower: power, Effect: elo, PairSD: sd1, PilotPairs: pilot.Pairs()}
	if games > 0 {
		if err := checkGames(games); err != nil {
			return Plan{}, err
		}
		pl.Pairs, pl.Games = games/2, games // an odd game out is not a pair
	} else {
		pl.Pairs = ceil(nFor(ScoreFromElo(elo)-0.5, sd1, sd1, alpha, power))
		pl.Games = 2 * pl.Pairs
	}
	pl.Power = pw(elo, pl.Pairs)
	dir := math.Copysign(1, elo)
	pl.Detectable = dir * detectable(func(m float64) float64 { return pw(dir*m, pl.Pairs) }, 2000, power)
	return pl, nil
}

// pairSDAt is the standard deviation of a pair's mean score under the distribution closest in
// likelihood to phat with mean s, q_i = p̂_i/(1 + θ(a_i − s)) over the outcomes the pilot saw
// (θ by bisection: Σ p̂_i(a_i − s)/(1 + θ(a_i − s)) decreases in θ), or √(s(1−s)) when those
// outcomes cannot have mean s.
func pairSDAt(phat [5]float64, s float64) float64 {
	lo, hi := math.Inf(-1), math.Inf(1)
	for i, a := range pentaScores {
		if phat[i] == 0 {
			continue
		}
		if x := a - s; x > 0 {
			lo = math.Max(lo, -1/x)
		} else if x < 0 {
			hi = math.Min(hi, -1/x)
		}
	}
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) { // s at or outside the pilot's outcomes
		return math.Sqrt(s * (1 - s))
	}
	f := func(th float64) float64 {
		t := 0.0
		for i, a := range pentaScores {
			t += phat[i] * (a - s) / (1 + th*(a-s))
		}
		return t
	}
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	th := lo + (hi-lo)/2
	var q [5]float64
	tot := 0.0
	for i, a := range pentaScores {
		q[i] = phat[i] / (1 + th*(a-s))
		tot += q[i]
	}
	m, v := 0.0, 0.0
	for i, a := range pentaScores {
		m += q[i] / tot * a
	}
	for i, a := range pentaScores {
		v += q[i] / tot * (a - m) * (a - m)
	}
	if math.Abs(m-s) > 1e-6 || !(v > 0) {
		return math.Sqrt(s * (1 - s))
	}
	return math.Sqrt(v)
}
