package stats

import (
	"fmt"
	"math"
)

// BandLooks is a band decision made in batches (layouts -adaptive, a fair race, plan -band):
// the confidence sequence MixtureCS(sum, n, Alpha, Rho) is looked at after every Batch
// observations and at the Cap, and the decision is settled once it lies below [Low, High],
// above it or inside it. Futile tells when it can no longer settle before the cap.
type BandLooks struct {
	Low, High  float64
	Alpha, Rho float64
	Batch, Cap int64
	radius     []float64 // the sequence's boundary on |sum − nμ| at look k (after min((k+1)·Batch, Cap))
}

// maxBandLooks is the most looks whose futility BandLooks works out: a decision of more looks
// (a cap of 10^12 games in batches of 2) gets no futility stop (Futile is false: its boards run
// to the cap, as without it, every answer the same) rather than a table of a radius a look.
const maxBandLooks = 1 << 17

// NewBandLooks prepares the looks of a band decision.
func NewBandLooks(low, high, alpha, rho float64, batch, cap int64) (*BandLooks, error) {
	switch {
	case !(0 <= low && low < high && high <= 1):
		return nil, fmt.Errorf("band %g-%g: want 0 <= low < high <= 1", low, high)
	case !(alpha > 0 && alpha < 1) || !(rho > 0):
		return nil, fmt.Errorf("alpha %g, rho %g: want alpha in (0, 1) and rho > 0", alpha, rho)
	case batch <= 0 || cap <= 0:
		return nil, fmt.Errorf("batch %d, cap %d: want positive numbers", batch, cap)
	}
	b := &BandLooks{Low: low, High: high, Alpha: alpha, Rho: rho, Batch: batch, Cap: cap}
	if (cap-1)/batch >= maxBandLooks {
		return b, nil // no futility stop (maxBandLooks)
	}
	for k := int64(0); k*batch < cap; k++ {
		b.radius = append(b.radius, mixtureRadius(min((k+1)*batch, cap), alpha, rho))
	}
	return b, nil
}

// Futile reports whether a decision not settled after n observations (each in [0, 1]) summing
// to sum can no longer settle at any later look, whatever the observations still to come: at
// look m the sum can be anything in [sum, sum + m − n], and the sequence there (its radius r
// does not depend on the sum) lies below the band iff sum′ < Low·m − r, above it iff sum′ >
// High·m + r, and inside it iff Low·m + r ≤ sum′ ≤ High·m − r (ends at 0 and 1 cut as MixtureCS
// cuts them). Stopping such a decision at n, unsettled, changes no answer — it would have
// reached the cap unsettled — so every guarantee of the sequence stands; it only saves the
// games a board plays to the cap without hope. A small slack counts a look as possible where
// rounding could tell the two computations apart.
//
// The look at the cap, where most room is left, is tried first: a decision that can still
// settle there is told so in one step, and only a futile one (which then stops) looks at every
// look to come.
func (b *BandLooks) Futile(sum float64, n int64) bool {
	last := int64(len(b.radius)) - 1
	if n >= b.Cap || last < 0 {
		return false // at the cap: nothing left to save; or no futility stop (maxBandLooks)
	}
	if b.possible(last, sum, n) {
		return false
	}
	for k := n / b.Batch; k < last; k++ {
		if b.possible(k, sum, n) {
			return false
		}
	}
	return true
}

// possible reports whether look k (after n observations summing to sum) can still settle for
// some sum of the observations to come (Futile).
func (b *BandLooks) possible(k int64, sum float64, n int64) bool {
	m := min((k+1)*b.Batch, b.Cap)
	if m <= n {
		return false
	}
	mf, r := float64(m), b.radius[k]
	slack := 1e-9 * mf
	lo, hi := sum, sum+float64(m-n)
	if lo < b.Low*mf-r+slack || hi > b.High*mf+r-slack {
		return true
	}
	inLo, inHi := math.Inf(-1), math.Inf(1)
	if b.Low > 0 {
		inLo = b.Low*mf + r - slack
	}
	if b.High < 1 {
		inHi = b.High*mf - r + slack
	}
	return math.Max(lo, inLo) <= math.Min(hi, inHi)
}
