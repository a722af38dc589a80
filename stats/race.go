package stats

import (
	"fmt"
	"math"
)

// MixtureP is the anytime-valid p-value of the hypothesis "the mean is mu0" that goes with
// MixtureCS: the smallest alpha at which MixtureCS(sum, n, alpha, rho) excludes mu0,
//
//	p = min(1, √((V + ρ)/ρ) · exp(−(sum − n·mu0)² / (2(V + ρ)))),   V = n/4,
//
// the reciprocal of the normal-mixture e-process (Howard et al. 2021, §3; Ramdas, Grünwald,
// Vovk & Shafer 2023, "Game-theoretic statistics and safe anytime-valid inference", Statist.
// Sci. 38(4)): under the hypothesis, P(p ≤ alpha at any n) ≤ alpha, so it stays valid where
// the number of observations was chosen by looking at them. 1 with no observations.
func MixtureP(sum float64, n int64, mu0, rho float64) float64 {
	if n <= 0 {
		return 1
	}
	v := float64(n) / 4
	d := sum - float64(n)*mu0
	return math.Min(1, math.Sqrt((v+rho)/rho)*math.Exp(-d*d/(2*(v+rho))))
}

// Race questions.
const (
	RaceFair    = "fair"    // which candidates' means lie inside the band [Low, High]
	RaceFairest = "fairest" // which candidate's mean is closest to ½
)

// MethodRace names the racing procedure.
const MethodRace = "successive-elimination-mixture-cs-bonferroni"

// ArmState is where a candidate of a race stands.
type ArmState int

// The states of a candidate. A candidate still Racing at the end of a race reached its cap
// unsettled.
const (
	Racing     ArmState = iota
	Inside              // fair: the mean lies inside the band
	Below               // fair: the mean lies below the band
	Above               // fair: the mean lies above the band
	Eliminated          // fairest: another candidate is surely fairer
	Fairest             // fairest: the answer (within Epsilon of the fairest)
)

func (s ArmState) String() string {
	return [...]string{"undecided", "inside", "below", "above", "eliminated", "fairest"}[s]
}

// Arm is one candidate of a race: its observations (each in [0, 1]) and its state.
type Arm struct {
	Sum       float64
	N         int64
	State     ArmState
	SettledAt int64 // observations when its answer was settled (0: never)
	// Stopped: a fair race's candidate that could no longer be settled before the cap
	// (BandLooks.Futile) stopped early; it stays Racing (undecided), as it would have at the cap.
	Stopped bool
}

// Race answers "which of these K candidates are fair" (RaceFair: mean inside the band [Low,
// High]) or "which is fairest" (RaceFairest: mean closest to ½) by successive elimination on
// confidence sequences (Even-Dar, Mannor & Mansour 2006, "Action elimination and stopping
// conditions for the multi-armed bandit", JMLR 7; Jamieson & Nowak 2014 for confidence-sequence
// arms): every candidate has the anytime-valid MixtureCS at level Alpha/K, so by Bonferroni
// and Ville's inequality all K sequences hold at every time at once with probability at least
// 1 − Alpha, and every answer below is read off them:
//
//   - fair: a candidate is settled when its sequence lies inside the band, or below or above
//     it; with probability at least 1 − Alpha every settled answer is right (a family-wise
//     guarantee over all K).
//   - fairest: with d = |mean − ½| bounded by [dLow, dHigh] from each sequence, a candidate is
//     eliminated once another's dHigh is below its dLow; the race ends when one candidate is
//     left or the leader's dHigh is within Epsilon of every other's dLow. With probability at
//     least 1 − Alpha the fairest is never eliminated and the answer is within Epsilon of it.
//
// Each candidate stops being sampled as soon as its answer is settled (Active). A candidate
// whose cap is reached unsettled stays Racing; a fairest race so ended reports every candidate
// not eliminated (the fairest is among them, with the same guarantee).
type Race struct {
	Question  string
	Low, High float64 // the band (fair)
	Alpha     float64 // family-wise error
	Epsilon   float64 // fairest: the tolerance on |mean − ½|
	Rho       float64 // MixtureCS's tuning (OptimalRho)
	Arms      []Arm
	Done      bool // fairest: the answer is settled
}

// NewRace starts a race of k candidates.
func NewRace(question string, k int, low, high, alpha, epsilon, rho float64) (*Race, error) {
	switch {
	case question != RaceFair && question != RaceFairest:
		return nil, fmt.Errorf("race %q: want %s or %s", question, RaceFair, RaceFairest)
	case k < 1:
		return nil, fmt.Errorf("race of %d candidates: want at least 1", k)
	case !(alpha > 0 && alpha < 1):
		return nil, fmt.Errorf("alpha %g: want a number in (0, 1)", alpha)
	case !(epsilon >= 0 && epsilon < 0.5):
		return nil, fmt.Errorf("tolerance %g: want a number in [0, 0.5)", epsilon)
	case !(rho > 0):
		return nil, fmt.Errorf("rho %g: want a positive number", rho)
	case question == RaceFair && !(0 <= low && low < high && high <= 1):
		return nil, fmt.Errorf("band %g-%g: want 0 <= low < high <= 1", low, high)
	}
	return &Race{Question: question, Low: low, High: high, Alpha: alpha, Epsilon: epsilon, Rho: rho, Arms: make([]Arm, k)}, nil
}

// RaceRho is the MixtureCS tuning of a race played in rounds of batch observations per
// candidate up to cap: tightest at the geometric mean of the two (variance proxy
// √(batch·cap)/4), where a race's answers are mostly settled.
func RaceRho(batch, cap int64, alpha float64) float64 {
	return OptimalRho(math.Sqrt(float64(batch)*float64(cap))/4, alpha)
}

// Run plays the race in rounds. Each round, play is handed the candidates still Active and the
// observations from..to−1 to make of each (to = min(from+batch, cap): the same indices for
// every candidate, so the observations a round makes follow from the round alone), and returns
// their sums in active's order, or false when interrupted; then Update settles what the
// sequences allow. In a fair race a candidate that can no longer be settled before the cap,
// whatever its observations to come, stops there (Arm.Stopped, BandLooks.Futile): no answer
// changes, and its observations to the cap are saved. The race ends when it is Done, no
// candidate is active, or the cap is reached. Run returns the rounds played, and false when
// play was interrupted.
func (r *Race) Run(cap, batch int64, play func(active []int, from, to int64) ([]float64, bool)) (rounds int64, ok bool) {
	if batch <= 0 || cap <= 0 {
		return 0, true // no round to play (a batch of no games would never reach the cap)
	}
	var looks *BandLooks
	if r.Question == RaceFair {
		var err error
		if looks, err = NewBandLooks(r.Low, r.High, r.Alpha/float64(len(r.Arms)), r.Rho, batch, cap); err != nil {
			looks = nil // not reached: NewRace checked the band, alpha and rho, and batch and cap are positive
		}
	}
	for from := int64(0); from < cap && !r.Done; from += batch {
		var active []int
		for k := range r.Arms {
			if r.Active(k) {
				active = append(active, k)
			}
		}
		if len(active) == 0 {
			break
		}
		to := min(from+batch, cap)
		sums, ok := play(active, from, to)
		if !ok {
			return rounds, false
		}
		for j, k := range active {
			r.Add(k, sums[j], to-from)
		}
		r.Update()
		rounds++
		for k := range r.Arms {
			if a := &r.Arms[k]; looks != nil && a.State == Racing && looks.Futile(a.Sum, a.N) {
				a.Stopped = true
			}
		}
	}
	return rounds, true
}

// CS is candidate k's confidence sequence at the race's per-candidate level Alpha/K.
func (r *Race) CS(k int) Interval {
	iv := MixtureCS(r.Arms[k].Sum, r.Arms[k].N, r.Alpha/float64(len(r.Arms)), r.Rho)
	iv.Method = MethodRace
	return iv
}

// Active reports whether candidate k is still to be sampled.
func (r *Race) Active(k int) bool { return !r.Done && r.Arms[k].State == Racing && !r.Arms[k].Stopped }

// Add records n more observations of candidate k summing to sum.
func (r *Race) Add(k int, sum float64, n int64) {
	r.Arms[k].Sum += sum
	r.Arms[k].N += n
}

// Update settles what the sequences now allow: call it after each round of observations.
func (r *Race) Update() {
	if r.Question == RaceFair {
		for k := range r.Arms {
			a := &r.Arms[k]
			if a.State != Racing {
				continue
			}
			iv := r.CS(k)
			switch {
			case iv.High < r.Low:
				a.State = Below
			case iv.Low > r.High:
				a.State = Above
			case iv.Low >= r.Low && iv.High <= r.High:
				a.State = Inside
			}
			if a.State != Racing {
				a.SettledAt = a.N
			}
		}
		return
	}
	if r.Done {
		return
	}
	lo, hi := make([]float64, len(r.Arms)), make([]float64, len(r.Arms))
	best := -1 // the smallest dHigh among the candidates left
	for k := range r.Arms {
		if r.Arms[k].State == Eliminated {
			continue
		}
		lo[k], hi[k] = distanceBounds(r.CS(k))
		if best < 0 || hi[k] < hi[best] {
			best = k
		}
	}
	left := 0
	for k := range r.Arms {
		a := &r.Arms[k]
		if a.State == Eliminated {
			continue
		}
		if k != best && hi[best] < lo[k] {
			a.State, a.SettledAt = Eliminated, a.N
			continue
		}
		left++
	}
	settled := left == 1
	if !settled && r.Epsilon > 0 {
		settled = true
		for k := range r.Arms {
			if k != best && r.Arms[k].State != Eliminated && hi[best] > lo[k]+r.Epsilon {
				settled = false
			}
		}
	}
	if settled {
		r.Done = true
		r.Arms[best].State, r.Arms[best].SettledAt = Fairest, r.Arms[best].N
	}
}

// distanceBounds bounds d = |μ − ½| over the interval iv for μ.
func distanceBounds(iv Interval) (lo, hi float64) {
	a, b := iv.Low-0.5, iv.High-0.5
	hi = math.Max(math.Abs(a), math.Abs(b))
	if a > 0 {
		return a, hi
	}
	if b < 0 {
		return -b, hi
	}
	return 0, hi
}
