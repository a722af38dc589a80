package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"
)

// RateDist is a distribution of boards' true rates to plan a sequential design for.
type RateDist struct {
	Name string // as given: normal:MEAN,SD, beta:A,B, uniform:LOW,HIGH, or a pilot's fitted beta
	Draw func(src rand.Source) float64
}

// ParseRateDist reads normal:MEAN,SD (cut to [0, 1]), beta:A,B or uniform:LOW,HIGH.
func ParseRateDist(s string) (RateDist, error) {
	kind, args, _ := strings.Cut(s, ":")
	parts := strings.Split(args, ",")
	var v [2]float64
	ok := len(parts) == 2
	for i := 0; ok && i < 2; i++ {
		var err error
		v[i], err = strconv.ParseFloat(strings.TrimSpace(parts[i]), 64)
		ok = err == nil && !math.IsNaN(v[i]) && !math.IsInf(v[i], 0)
	}
	switch {
	case !ok:
	case kind == "normal" && v[0] >= 0 && v[0] <= 1 && v[1] >= 0:
		return RateDist{s, func(src rand.Source) float64 {
			return math.Min(1, math.Max(0, distuv.Normal{Mu: v[0], Sigma: v[1], Src: src}.Rand()))
		}}, nil
	case kind == "beta" && v[0] > 0 && v[1] > 0:
		return BetaRates(s, v[0], v[1]), nil
	case kind == "uniform" && 0 <= v[0] && v[0] <= v[1] && v[1] <= 1:
		return RateDist{s, func(src rand.Source) float64 { return v[0] + (v[1]-v[0])*rand.New(src).Float64() }}, nil
	}
	return RateDist{}, fmt.Errorf("rates %q: want normal:MEAN,SD (mean in [0, 1], sd ≥ 0), beta:A,B (both > 0) or uniform:LOW,HIGH (0 ≤ low ≤ high ≤ 1)", s)
}

// BetaRates is the Beta(a, b) distribution of rates, named name.
func BetaRates(name string, a, b float64) RateDist {
	return RateDist{name, func(src rand.Source) float64 { return distuv.Beta{Alpha: a, Beta: b, Src: src}.Rand() }}
}

// SeqDesign is how one design fares on the simulated boards.
type SeqDesign struct {
	Name    string  `json:"name"`
	Method  string  `json:"method"`
	Mean    float64 `json:"games_mean"` // games per board
	P90     int64   `json:"games_p90"`  // 90th percentile of games per board
	Decided float64 `json:"decided"`    // share of boards settled inside or outside the band
	Wrong   float64 `json:"wrong"`      // share of boards settled on the wrong side
}

// SeqPlan compares the adaptive band decision with fixed-n designs by simulation.
type SeqPlan struct {
	Low    float64 `json:"band_low"`
	High   float64 `json:"band_high"`
	Alpha  float64 `json:"alpha"`
	Batch  int64   `json:"batch"`
	Cap    int64   `json:"cap"`
	Rates  string  `json:"rates"`
	Boards int     `json:"boards"`
	Seed   uint64  `json:"seed"`
	// Pairs: the design of a sweep of two different agents, whose boards are decided by
	// colour-swapped pair (false: self-play, by game).
	Pairs bool `json:"pairs"`
	// Designs: sequential, fixed n at the cap, fixed n deciding as many, sequential without the
	// futility stop.
	Designs       []SeqDesign `json:"designs"`
	SavedCap      float64     `json:"saved_cap"`      // 1 − sequential/fixed-at-cap mean games
	SavedMatch    float64     `json:"saved_match"`    // 1 − sequential/matched fixed-n mean games
	SavedFutility float64     `json:"saved_futility"` // 1 − sequential/sequential-without-futility mean games
}

// MethodSeqPlan names PlanSequential's method.
const MethodSeqPlan = "simulation-fixed-seed"

// PlanSequential simulates boards boards with true rates drawn from rates (seeded by seed)
// under three designs, on the same boards and games (common random numbers):
//
//   - sequential: layouts -adaptive's rule — batches of batch games, stop when the anytime-valid
//     MixtureCS at level alpha (tuned as the sweep tunes it) lies inside or outside [low, high],
//     or when it can no longer do so before the cap whatever the games to come (BandLooks.Futile:
//     such a board stops undecided, as it would have ended at the cap), at most cap games (a cap
//     that is not a multiple of batch ends in a shorter batch, as a sweep's does);
//
//   - fixed n = cap: every board plays cap games and is judged once by the Wilson interval at
//     level alpha;
//
//   - fixed n, matched: the smallest multiple of batch whose Wilson decisions settle at least
//     the share of boards the sequential design settles.
//
//   - sequential without the futility stop, on the same games: every board settled or at the
//     cap (the same boards settle, on the same side).
//
// Each reports games per board (mean and 90th percentile), the share settled and the share
// settled on the wrong side of the band (an error of the design, known here since the true rates
// are). The games saved are those of the sequential design against the fixed ones, and against
// the sequential design without the futility stop.
//
// With pairs the design is that of a sweep of two different agents (layouts -a ≠ -b), whose
// boards count colour-swapped pairs as the units: the sequence on the pairs' means with ρ and
// the looks in pairs (MixtureCSPairs, PairUnits), the fixed designs' Wilson at n/2
// (WilsonPairs); batch must be even and an odd cap is rounded up, as the sweep rounds it. The
// games are still drawn independently, within a pair too (a design effect of 1): the pairs'
// decisions hold at any correlation within a pair, and the games they take depend on it only
// through the spread of a pair's sum.
func PlanSequential(rates RateDist, low, high, alpha float64, batch, cap int64, boards int, seed uint64, pairs bool) (SeqPlan, error) {
	if pairs && batch%2 != 0 {
		return SeqPlan{}, fmt.Errorf("batch %d: want an even number (colour-swapped pairs)", batch)
	}
	if pairs {
		cap += cap % 2
	}
	switch {
	case !(0 <= low && low < high && high <= 1):
		return SeqPlan{}, fmt.Errorf("band %g-%g: want 0 <= low < high <= 1", low, high)
	case !(alpha > 0 && alpha < 1):
		return SeqPlan{}, fmt.Errorf("alpha %g: want a number in (0, 1)", alpha)
	case batch <= 0 || cap < batch:
		return SeqPlan{}, fmt.Errorf("batch %d, cap %d: want 0 < batch <= cap", batch, cap)
	case cap/batch > 100_000:
		return SeqPlan{}, fmt.Errorf("cap %d in batches of %d: want at most 100000 batches", cap, batch)
	case boards < 10 || boards > 1_000_000:
		return SeqPlan{}, fmt.Errorf("%d simulated boards: want 10 to 1000000", boards)
	case int64(boards)*(cap/batch) > 50_000_000:
		return SeqPlan{}, fmt.Errorf("%d boards of %d batches: want at most 50000000 batches in all (fewer boards or larger batches)", boards, cap/batch)
	}
	pl := SeqPlan{Low: low, High: high, Alpha: alpha, Batch: batch, Cap: cap, Rates: rates.Name, Boards: boards, Seed: seed, Pairs: pairs}
	src := rand.NewPCG(seed, 0x5e9)
	truth := make([]float64, boards)
	for i := range truth {
		truth[i] = rates.Draw(src)
	}
	// Each board's wins batch by batch: one stream serves every design (common random numbers).
	// A cap that is not a multiple of the batch ends in a shorter batch, as a sweep's does.
	nb := int((cap + batch - 1) / batch)
	size := func(j int) int64 { return min(batch, cap-int64(j)*batch) } // batch j's games
	wins := make([]int32, boards*nb)
	for i, p := range truth {
		for j := range nb {
			wins[i*nb+j] = int32(distuv.Binomial{N: float64(size(j)), P: p, Src: src}.Rand())
		}
	}
	settle := func(iv Interval) int { // −1 below, 1 above, 2 inside, 0 not settled
		switch {
		case iv.High < low:
			return -1
		case iv.Low > high:
			return 1
		case iv.Low >= low && iv.High <= high:
			return 2
		}
		return 0
	}
	wrong := func(d int, p float64) bool {
		return d == -1 && p >= low || d == 1 && p <= high || d == 2 && (p < low || p > high)
	}
	r, err := newSeqRule(low, high, alpha, batch, cap, pairs)
	if err != nil {
		return SeqPlan{}, err
	}
	games := make([]int64, boards)
	sequential := func(name string, futility bool) SeqDesign {
		seq := SeqDesign{Name: name, Method: r.csMethod}
		for i, p := range truth {
			var w, n int64
			for j := range nb {
				w += int64(wins[i*nb+j])
				n += size(j)
				if d := settle(r.cs(w, n)); d != 0 {
					seq.Decided++
					if wrong(d, p) {
						seq.Wrong++
					}
					break
				}
				if futility && r.futile(w, n) {
					break
				}
			}
			games[i] = n
		}
		summarise(&seq, games, boards)
		return seq
	}
	seq := sequential("sequential", true)
	toCap := sequential("sequential, no futility", false)
	pl.Designs = append(pl.Designs, seq)
	z := zq(1 - alpha/2)
	fixed := func(k int) SeqDesign {
		n := min(int64(k)*batch, cap)
		d := SeqDesign{Name: fmt.Sprintf("fixed n = %d", n), Method: r.fixedMethod}
		for i, p := range truth {
			var w int64
			for j := range k {
				w += int64(wins[i*nb+j])
			}
			if s := settle(r.fixed(w, n, z)); s != 0 {
				d.Decided++
				if wrong(s, p) {
					d.Wrong++
				}
			}
		}
		for i := range games {
			games[i] = n
		}
		summarise(&d, games, boards)
		return d
	}
	atCap := fixed(nb)
	atCap.Name = "fixed n = cap"
	// The decided share grows with n (up to noise): the smallest k that reaches the sequential
	// design's share, by bisection.
	k := int(firstTrue(1, int64(nb), func(k int64) bool { return fixed(int(k)).Decided >= seq.Decided }))
	match := fixed(min(k, nb))
	match.Name = "fixed n, as many settled"
	pl.Designs = append(pl.Designs, atCap, match, toCap)
	pl.SavedCap = 1 - seq.Mean/atCap.Mean
	pl.SavedMatch = 1 - seq.Mean/match.Mean
	pl.SavedFutility = 1 - seq.Mean/toCap.Mean
	return pl, nil
}

// seqRule is the decision rule PlanSequential simulates: layouts -adaptive's on games, or on
// colour-swapped pairs.
type seqRule struct {
	alpha, rho            float64
	looks                 *BandLooks
	pairs                 bool
	csMethod, fixedMethod string
}

func newSeqRule(low, high, alpha float64, batch, cap int64, pairs bool) (*seqRule, error) {
	r := &seqRule{alpha: alpha, pairs: pairs, csMethod: MethodMixtureCS, fixedMethod: "wilson"}
	if pairs {
		batch, cap = batch/2, cap/2
		r.csMethod, r.fixedMethod = MethodMixtureCSPairs, MethodWilsonPairs
	}
	r.rho = RaceRho(batch, cap, alpha)
	var err error
	r.looks, err = NewBandLooks(low, high, alpha, r.rho, batch, cap)
	return r, err
}

// cs is the sequence after w White wins in n games.
func (r *seqRule) cs(w, n int64) Interval {
	if r.pairs {
		return MixtureCSPairs(float64(w), n, r.alpha, r.rho)
	}
	return MixtureCS(float64(w), n, r.alpha, r.rho)
}

// futile reports whether the board can no longer be settled before the cap.
func (r *seqRule) futile(w, n int64) bool {
	if r.pairs {
		s, m := PairUnits(float64(w), n)
		return r.looks.Futile(s, m)
	}
	return r.looks.Futile(float64(w), n)
}

// fixed is the fixed design's interval after w White wins in n games.
func (r *seqRule) fixed(w, n int64, z float64) Interval {
	if r.pairs {
		return WilsonPairs(w, n, z)
	}
	return Wilson(w, n, z)
}

// summarise fills a design's game counts and turns its counts of boards into shares.
func summarise(d *SeqDesign, games []int64, boards int) {
	sum := 0.0
	for _, g := range games {
		sum += float64(g)
	}
	d.Mean = sum / float64(boards)
	s := slices.Clone(games)
	slices.Sort(s)
	d.P90 = s[int(math.Ceil(0.9*float64(boards)))-1]
	d.Decided /= float64(boards)
	d.Wrong /= float64(boards)
}
