package layouts

import (
	"fmt"
	"math"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/internal/config"
	"github.com/fairplay-lab/fairplay/stats"
)

// FamilyAlpha is the error rate of a sequential sweep's answers: each board's for an adaptive
// sweep, all boards' at once for a race.
const FamilyAlpha = 0.05

// checkRace validates the race settings of a configuration.
func (cfg *LayoutsConfig) checkRace() error {
	switch cfg.Race {
	case "":
		if cfg.Tolerance != 0 {
			return config.Errorf("Tolerance", fmt.Sprint(cfg.Tolerance), "only for a fairest race")
		}
		return nil
	case stats.RaceFair, stats.RaceFairest:
	default:
		return config.Errorf("Race", fmt.Sprintf("%q", cfg.Race), "want %s or %s", stats.RaceFair, stats.RaceFairest)
	}
	if !cfg.Adaptive {
		return fmt.Errorf("race %s: a race plays in batches (adaptive)", cfg.Race)
	}
	if !(cfg.Tolerance >= 0 && cfg.Tolerance < 0.5) || (cfg.Tolerance != 0 && cfg.Race != stats.RaceFairest) {
		return config.Errorf("Tolerance", fmt.Sprint(cfg.Tolerance), "want a number in [0, 0.5), for a fairest race")
	}
	return nil
}

// sequential reports whether the boards' games were stopped by looking at them (an adaptive
// sweep or a race): every interval and p-value is then anytime-valid.
func (sw *Sweep) sequential() bool { return sw.Cfg.Adaptive }

// bandAlpha is the level of each board's confidence sequence: 0.05, or in a race 0.05 over the
// boards (Bonferroni: the answers hold for every board at once).
func (sw *Sweep) bandAlpha() float64 {
	if sw.Cfg.Race != "" {
		return FamilyAlpha / float64(max(1, sw.NumBoards()))
	}
	return FamilyAlpha
}

// paired reports whether a board's games are counted by colour-swapped pair: with agent A ≠
// agent B the two games of a pair share the random opening and the agents' seeds, and their
// outcomes can be correlated (White's results within a pair correlate by up to 0.2 between
// alphabeta:depth=2 and alphabeta:depth=1: docs/formats.md), so every interval of a board takes
// the pair as the unit (stats.PairUnits). In self-play the two games of a pair have their own
// seeds and openings: independent games, each its own unit.
func (sw *Sweep) paired() bool { return sw.Cfg.A != sw.Cfg.B }

// units are the units a board's sequence counts in, out of its batch or cap (games): pairs in a
// paired sweep.
func (sw *Sweep) units(games int64) int64 {
	if sw.paired() {
		return games / 2
	}
	return games
}

// ebShrink is the empirical-Bayes prior of a sweep's boards after both passes of fit, with
// the design effect it counts a board's games with (gamefile.ShrinkFitter.FitDeff): 1 in
// self-play (independent games); in a paired sweep the one estimated from the boards' halves
// of whole pairs (stats.PairDeff). Not the bound 2: the shrinkage subtracts the sampling noise
// from the spread of the rates between boards, and noise taken as larger than it is leaves
// too little spread, shrinks every board to the mean and makes the intervals far too narrow
// (simulated, pairs independent, 400 boards of 100 games: coverage 0.40 at the bound, 0.95 at
// the estimate; TestPairedEBCovers). With too few boards to estimate it
// (stats.MinPairDeffBoards) no board is shrunk: each keeps the Wilson interval of its pairs
// (design effect 2, as BandInterval's).
func (sw *Sweep) ebShrink(fit *gamefile.ShrinkFitter, d *stats.PairDeff) (sh gamefile.Shrink, deff float64, estimated bool) {
	if !sw.paired() {
		return fit.Fit(), 1, false
	}
	if deff, estimated = d.Value(); !estimated {
		return gamefile.NoShrink(deff), deff, false
	}
	return fit.FitDeff(deff), deff, true
}

// bandRho tunes the confidence sequence to be tightest at the geometric mean of the batch and
// the cap (in units: pairs in a paired sweep).
func (sw *Sweep) bandRho() float64 {
	return stats.RaceRho(sw.units(sw.Cfg.Batch), sw.units(sw.Cfg.Games), FamilyAlpha)
}

// cs is a board's confidence sequence for White's rate, w of n games, at level alpha: by pair
// in a paired sweep.
func (sw *Sweep) cs(w, n int64, alpha float64) stats.Interval {
	if sw.paired() {
		return stats.MixtureCSPairs(float64(w), n, alpha, sw.bandRho())
	}
	return stats.MixtureCS(float64(w), n, alpha, sw.bandRho())
}

// futile reports whether an adaptive board (w of n games) can no longer be decided before the
// cap (stats.BandLooks.Futile, in units).
func (sw *Sweep) futile(w, n int64) bool {
	if sw.paired() {
		s, m := stats.PairUnits(float64(w), n)
		return sw.looks.Futile(s, m)
	}
	return sw.looks.Futile(float64(w), n)
}

// decided reports whether White's band interval (BandInterval) lies inside or outside the
// fairness band.
func (sw *Sweep) decided(r *gamefile.BoardResult) bool {
	iv := sw.BandInterval(r.WhiteWins, r.N)
	return iv.High < sw.Cfg.BandLow || iv.Low > sw.Cfg.BandHigh || (iv.Low >= sw.Cfg.BandLow && iv.High <= sw.Cfg.BandHigh)
}

// BandInterval is the interval a board's White rate (w of n games) is held against the
// fairness band with, and reported with in layouts.csv. An adaptive sweep looks at it after
// every batch and stops the board when it leaves the band or enters it: a fixed-n interval
// would then be wrong far more often than its level (a board at the band's edge was declared
// inside 8.9% of the time by the 95% Wilson interval), so it is the anytime-valid confidence
// sequence stats.MixtureCS, valid at whatever batch the board stopped, at level 0.05 (a race:
// 0.05 over the boards). A fixed-n sweep uses the Wilson interval. In a paired sweep both count
// colour-swapped pairs, not games, as the independent units (paired): the sequence of the
// pairs' means, and the Wilson interval at n/2 (stats.WilsonPairs).
func (sw *Sweep) BandInterval(w, n int64) stats.Interval {
	if !sw.sequential() {
		if sw.paired() {
			return stats.WilsonPairs(w, n, stats.Z95)
		}
		return stats.Wilson(w, n, stats.Z95)
	}
	return sw.cs(w, n, sw.bandAlpha())
}

// pValue is the two-sided p-value of White's share of the decisive games against ½: exact
// binomial at a fixed n; in a sequential sweep the anytime-valid stats.MixtureP (the games
// played depended on the results, which a fixed-n p-value does not allow for). In a paired
// sweep both count colour-swapped pairs, as BandInterval does: the binomial test at half the
// decisive games (stats.BinomTwoSidedPairs) and the pairs' mixture (stats.MixturePPairs).
func (sw *Sweep) pValue(r *gamefile.BoardResult) float64 {
	switch {
	case !sw.sequential() && sw.paired():
		return stats.BinomTwoSidedPairs(r.WhiteWins, r.WhiteWins+r.BlackWins)
	case !sw.sequential():
		return r.PValue()
	case sw.paired():
		return stats.MixturePPairs(float64(r.WhiteWins), r.WhiteWins+r.BlackWins, 0.5, sw.bandRho())
	}
	return stats.MixtureP(float64(r.WhiteWins), r.WhiteWins+r.BlackWins, 0.5, sw.bandRho())
}

// pMethod names pValue's method.
func (sw *Sweep) pMethod() string {
	m := "binomial-exact-decisive"
	if sw.sequential() {
		m = "normal-mixture-anytime-p-decisive"
	}
	if sw.paired() {
		m += "-pairs"
	}
	return m
}

// heldOutCounts are White's wins and the games of a board's held-out half, or of all its games
// (inSample) when the board has no held-out games (or no selection half): boards too short to
// split.
func heldOutCounts(b *gamefile.BoardResult) (w, n int64, inSample bool) {
	if b.NSelect == 0 || b.NSelect >= b.N {
		return b.WhiteWins, b.N, true
	}
	return b.WhiteWins - b.WhiteWinsSelect, b.N - b.NSelect, false
}

// heldOut is White's rate on a board's held-out half (heldOutCounts) with its interval: Wilson
// at a fixed n; in a sequential sweep the half's confidence sequence (the board stopped on all
// its games, held-out half included, and a sequence stays valid at any stopping time).
func (sw *Sweep) heldOut(b *gamefile.BoardResult) (iv stats.Interval, inSample bool) {
	w, n, inSample := heldOutCounts(b)
	return sw.BandInterval(w, n), inSample
}

// difference is the interval for the difference of two boards' held-out rates, b's less a's:
// normal at a fixed n (in a paired sweep with n/2 pairs as the units); in a sequential sweep the difference of the two confidence sequences at
// half the level each (Bonferroni: both hold at once with probability 1 − alpha).
func (sw *Sweep) difference(a, b *gamefile.BoardResult) stats.Interval {
	wa, na, _ := heldOutCounts(a)
	wb, nb, _ := heldOutCounts(b)
	ra, rb := sw.BandInterval(wa, na), sw.BandInterval(wb, nb)
	d := rb.Value - ra.Value
	if !sw.sequential() {
		ua, ub := float64(na), float64(nb)
		if sw.paired() {
			ua, ub = ua/2, ub/2 // the design effect 2 that bounds any correlation within a pair
		}
		se := math.Sqrt(ra.Value*(1-ra.Value)/ua + rb.Value*(1-rb.Value)/ub)
		return stats.Interval{Value: d, Low: d - stats.Z95*se, High: d + stats.Z95*se, Method: "normal"}
	}
	ia := sw.cs(wa, na, sw.bandAlpha()/2)
	ib := sw.cs(wb, nb, sw.bandAlpha()/2)
	return stats.Interval{Value: d, Low: ib.Low - ia.High, High: ib.High - ia.Low, Method: methodCSDifference}
}

// methodCSDifference names the sequential sweep's interval for a difference of two rates.
const methodCSDifference = "normal-mixture-confidence-sequences-bonferroni-difference"
