package stats

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// PairingResult is what one pairing of a tournament produced: agent A (index A) against agent
// B (index B) in colour-swapped pairs, counted by A's score over each pair (see Penta).
type PairingResult struct {
	A, B  int
	Penta Penta
}

// points returns A's points (draws ½) and the number of games of a pairing.
func (p PairingResult) Points() (score, games float64) {
	for k, c := range p.Penta {
		score += float64(c) * float64(k) / 2
		games += 2 * float64(c)
	}
	return score, games
}

// RatingOptions configure FitRatings and Ratings.
type RatingOptions struct {
	// Prior adds this many virtual draws to every pairing that was played (BayesElo's device,
	// whose default is 2), which keeps ratings finite when an agent won or lost every game.
	// 0 gives the plain maximum-likelihood ratings, which exist only when every split of the
	// agents into two groups has each group scoring against the other.
	Prior float64
	// Bootstrap is the number of bootstrap resamples for the intervals (0: no intervals).
	Bootstrap int
	// Seed seeds the bootstrap's random source.
	Seed uint64
}

// eloPerNat converts the natural logistic scale to Elo: E = 1/(1+10^(-d/400)).
const eloPerNat = 400 / math.Ln10

// ErrNoFiniteRatings is returned by FitRatings when the maximum-likelihood ratings are infinite
// or undetermined (an agent or group of agents won or lost every game against the rest, or the
// pairings do not connect all agents).
var ErrNoFiniteRatings = errors.New("no finite maximum-likelihood ratings")

// FitRatings returns the joint maximum-likelihood Elo ratings of n agents from the results of
// their pairings, anchored at agent 0 = 0. The model is Bradley–Terry on the logistic Elo
// scale with a draw counted as half a win and half a loss (Ordo's model; no colour term, as
// every pairing is played in colour-swapped pairs): agent i scores against agent j with
// expectation 1/(1+10^((r_j−r_i)/400)), and the log-likelihood is
// Σ S_ij·ln E_ij + (N_ij−S_ij)·ln(1−E_ij) over pairings with S_ij points of N_ij games.
// It is maximised by Newton's method with step halving (the log-likelihood is concave).
func FitRatings(n int, res []PairingResult, prior float64) ([]float64, error) {
	if n < 1 {
		return nil, fmt.Errorf("ratings: %d agents", n)
	}
	if prior < 0 || math.IsNaN(prior) || math.IsInf(prior, 0) {
		return nil, fmt.Errorf("ratings: prior %v: want 0 or more virtual draws", prior)
	}
	S, N := make([]float64, n*n), make([]float64, n*n) // S[i*n+j]: i's points against j
	for _, p := range res {
		if p.A < 0 || p.A >= n || p.B < 0 || p.B >= n || p.A == p.B {
			return nil, fmt.Errorf("ratings: pairing %d-%d with %d agents", p.A, p.B, n)
		}
		s, g := p.Points()
		if g == 0 {
			continue
		}
		s, g = s+prior/2, g+prior
		S[p.A*n+p.B] += s
		S[p.B*n+p.A] += g - s
		N[p.A*n+p.B] += g
		N[p.B*n+p.A] += g
	}
	if err := checkIdentified(n, S); err != nil {
		return nil, err
	}
	r := make([]float64, n) // natural units; r[0] stays 0
	ll := logLik(n, S, N, r)
	m := n - 1
	for iter := 0; iter < 200 && m > 0; iter++ {
		g := mat.NewVecDense(m, nil)
		h := mat.NewSymDense(m, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if i == j || N[i*n+j] == 0 {
					continue
				}
				p := 1 / (1 + math.Exp(r[j]-r[i]))
				w := N[i*n+j] * p * (1 - p)
				if i > 0 {
					g.SetVec(i-1, g.AtVec(i-1)+S[i*n+j]-N[i*n+j]*p)
					h.SetSym(i-1, i-1, h.At(i-1, i-1)+w)
					if j > 0 && j > i {
						h.SetSym(i-1, j-1, -w)
					}
				}
			}
		}
		var step mat.VecDense
		if err := step.SolveVec(h, g); err != nil {
			return nil, fmt.Errorf("%w: the pairings do not determine the ratings (%v)", ErrNoFiniteRatings, err)
		}
		t, next := 1.0, make([]float64, n)
		for {
			for i := 1; i < n; i++ {
				next[i] = r[i] + t*step.AtVec(i-1)
			}
			if l := logLik(n, S, N, next); l >= ll-1e-12 || t < 1e-9 {
				ll = l
				break
			}
			t /= 2
		}
		delta := 0.0
		for i := 1; i < n; i++ {
			delta = math.Max(delta, math.Abs(next[i]-r[i]))
		}
		copy(r, next)
		if delta < 1e-12 {
			break
		}
	}
	for i := range r {
		r[i] *= eloPerNat
	}
	return r, nil
}

func logLik(n int, S, N, r []float64) float64 {
	var l float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if N[i*n+j] == 0 {
				continue
			}
			d := r[i] - r[j]
			// ln σ(d) = −log1p(e^−d), computed stably for both signs.
			l -= S[i*n+j] * softplus(-d)
		}
	}
	return l
}

func softplus(x float64) float64 {
	if x > 30 {
		return x
	}
	return math.Log1p(math.Exp(x))
}

// checkIdentified reports ErrNoFiniteRatings unless every agent can reach every other along
// "scored at least something against" edges: the condition (Ford 1957; Hunter 2004,
// assumption 1) for the Bradley–Terry likelihood to have a finite maximum.
func checkIdentified(n int, S []float64) error {
	reach := make([]bool, n*n)
	for i := 0; i < n; i++ {
		reach[i*n+i] = true
		for j := 0; j < n; j++ {
			if S[i*n+j] > 0 {
				reach[i*n+j] = true
			}
		}
	}
	for k := 0; k < n; k++ {
		for i := 0; i < n; i++ {
			if !reach[i*n+k] {
				continue
			}
			for j := 0; j < n; j++ {
				if reach[k*n+j] {
					reach[i*n+j] = true
				}
			}
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if !reach[i*n+j] {
				return fmt.Errorf("%w: agent %d never scored against agent %d, directly or through others (add a prior of virtual draws)", ErrNoFiniteRatings, i+1, j+1)
			}
		}
	}
	return nil
}

// Rating is one agent's line of a rating table.
type Rating struct {
	Agent     string
	Elo       float64
	Low, High float64 // bootstrap percentile 95% interval (NaN without a bootstrap, and when Unbounded)
	Games     int64
	Score     float64 // points per game (draws ½) over all its games
	// Unbounded is +1 when the agent's rating above the anchor has no finite
	// maximum-likelihood estimate (perfect scores put it infinitely above: the fitted value
	// is set by the prior alone, and the bootstrap, which cannot vary a perfect score, gives it
	// no honest interval), -1 when it is infinitely below, 0 when it is finite (Unbounded).
	Unbounded int
	// Group is the lowest index of the agents whose gaps to this one are all measured (have
	// finite maximum-likelihood estimates; MeasuredGroups): two agents of one group differ by a
	// measured amount, two of different groups by an amount the prior sets.
	Group int
}

// RatingTable is a fitted tournament: one line per agent, in the agents' order.
type RatingTable struct {
	Ratings []Rating
	Options RatingOptions
	// Failed counts bootstrap resamples without finite ratings (possible only with Prior 0);
	// the intervals are taken over the others.
	Failed int
	// boot holds each agent's ratings over the successful bootstrap resamples, resample by
	// resample (boot[i][b] and boot[j][b] come from one resample), for Gap.
	boot [][]float64
}

// Ratings fits the ratings of the named agents and, with opt.Bootstrap > 0, their 95%
// intervals: percentile intervals over opt.Bootstrap resamples that redraw, within every
// pairing, as many colour-swapped pairs as it played, with replacement (so a pair's two games
// stay together, and the anchor's interval is [0, 0]).
func Ratings(names []string, res []PairingResult, opt RatingOptions) (*RatingTable, error) {
	n := len(names)
	elo, err := FitRatings(n, res, opt.Prior)
	if err != nil {
		return nil, err
	}
	t := &RatingTable{Options: opt}
	points, games := make([]float64, n), make([]int64, n)
	for _, p := range res {
		s, g := p.Points()
		points[p.A] += s
		points[p.B] += g - s
		games[p.A] += int64(g)
		games[p.B] += int64(g)
	}
	side, group := Unbounded(n, res), MeasuredGroups(n, res)
	for i, name := range names {
		t.Ratings = append(t.Ratings, Rating{Agent: name, Elo: elo[i], Low: math.NaN(), High: math.NaN(),
			Games: games[i], Score: points[i] / float64(games[i]), Unbounded: side[i], Group: group[i]})
	}
	if opt.Bootstrap <= 0 {
		return t, nil
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x7261746e67)) // stream "ratng"
	samples := make([][]float64, n)
	re := make([]PairingResult, len(res))
	for b := 0; b < opt.Bootstrap; b++ {
		for k, p := range res {
			re[k] = PairingResult{A: p.A, B: p.B, Penta: resamplePenta(p.Penta, rng)}
		}
		e, err := FitRatings(n, re, opt.Prior)
		if err != nil {
			t.Failed++
			continue
		}
		for i := range e {
			samples[i] = append(samples[i], e[i])
		}
	}
	t.boot = samples
	for i := range t.Ratings {
		if len(samples[i]) == 0 || t.Ratings[i].Unbounded != 0 { // no interval for a rating set by the prior
			continue
		}
		sorted := slices.Clone(samples[i])
		slices.Sort(sorted)
		t.Ratings[i].Low, t.Ratings[i].High = Quantile(sorted, 0.025), Quantile(sorted, 0.975)
	}
	return t, nil
}

// MethodBootstrapPercentile names the 95% interval of a rating or rating gap: the 2.5% and
// 97.5% quantiles of its values over the bootstrap resamples (Efron and Tibshirani, "An
// Introduction to the Bootstrap", 1993, §13.3).
const MethodBootstrapPercentile = "bootstrap-percentile"

// Gap returns agent a's rating minus agent b's with its 95% bootstrap percentile interval,
// taken over the differences within each resample (so the two ratings' shared noise, the
// anchor's included, cancels). The interval is NaN without a bootstrap, and when the gap is
// not measured by the games: the two are in different measured groups (MeasuredGroups), so
// the prior sets it. Two agents of one group have a measured gap even when the group's
// ratings are set by the prior (Unbounded: both swept the anchor, say): the resamples keep
// the perfect scores that set them, and vary the games between the two. Gap(i, 0) has agent
// i's own interval.
func (t *RatingTable) Gap(a, b int) Interval {
	ra, rb := t.Ratings[a], t.Ratings[b]
	iv := Interval{Value: ra.Elo - rb.Elo, Low: math.NaN(), High: math.NaN()}
	if len(t.boot) == 0 || len(t.boot[a]) == 0 || ra.Group != rb.Group {
		return iv // no interval, so no method
	}
	iv.Method = MethodBootstrapPercentile
	d := make([]float64, len(t.boot[a]))
	for k := range d {
		d[k] = t.boot[a][k] - t.boot[b][k]
	}
	slices.Sort(d)
	iv.Low, iv.High = Quantile(d, 0.025), Quantile(d, 0.975)
	return iv
}

// Unbounded says, for each of n agents, whether its Bradley–Terry rating relative to agent 0
// (the anchor) has a finite maximum-likelihood estimate (0), or is pushed to +∞ (+1) or −∞ (−1)
// by perfect scores. By Ford's condition (L. R. Ford Jr., "Solution of a ranking problem from
// binary comparisons", American Mathematical Monthly 64(8), 1957) the estimate of a gap is
// finite exactly when each agent can be reached from the other along "scored at least half a
// point against" links (a draw links both ways). An agent that reaches the anchor, but that
// the anchor does not reach, never lost a point to anything at or below the anchor's side: it
// is +∞ above; the reverse is −∞. An agent linked neither way (no games joining them) is
// given +1 when it scored at least half its points, −1 otherwise: its rating is set by the
// prior alone either way.
func Unbounded(n int, res []PairingResult) []int {
	beat, pts, games := scoredAgainst(n, res)
	down := reach(n, 0, func(a, b int) bool { return beat[a][b] }) // the anchor scored its way to them
	up := reach(n, 0, func(a, b int) bool { return beat[b][a] })   // they scored their way to the anchor
	out := make([]int, n)
	for i := range out {
		switch {
		case up[i] && down[i]:
		case up[i]:
			out[i] = 1
		case down[i]:
			out[i] = -1
		case 2*pts[i] >= games[i]:
			out[i] = 1
		default:
			out[i] = -1
		}
	}
	return out
}

// MeasuredGroups gives, for each of n agents, the lowest index of the agents whose Bradley–Terry
// gaps to it have finite maximum-likelihood estimates: by Ford's condition (see Unbounded) those
// that it reaches, and that reach it, along "scored at least half a point against" links (the
// strongly connected component of the agent in that graph). Gaps within a group are measured;
// a gap between groups is set by the prior. With the anchor's group the only one, every
// rating is finite (Unbounded all 0).
func MeasuredGroups(n int, res []PairingResult) []int {
	beat, _, _ := scoredAgainst(n, res)
	group := make([]int, n)
	for i := range group {
		group[i] = -1
	}
	for i := range n {
		if group[i] >= 0 {
			continue
		}
		down := reach(n, i, func(a, b int) bool { return beat[a][b] })
		up := reach(n, i, func(a, b int) bool { return beat[b][a] })
		for j := range n {
			if down[j] && up[j] {
				group[j] = i
			}
		}
	}
	return group
}

// scoredAgainst tallies a tournament's results: beat[a][b] when a scored at least half a point
// against b, and each agent's points and games.
func scoredAgainst(n int, res []PairingResult) (beat [][]bool, pts, games []float64) {
	beat = make([][]bool, n)
	for i := range beat {
		beat[i] = make([]bool, n)
	}
	pts, games = make([]float64, n), make([]float64, n)
	for _, p := range res {
		s, g := p.Points()
		if s > 0 {
			beat[p.A][p.B] = true
		}
		if s < g {
			beat[p.B][p.A] = true
		}
		pts[p.A], pts[p.B] = pts[p.A]+s, pts[p.B]+g-s
		games[p.A], games[p.B] = games[p.A]+g, games[p.B]+g
	}
	return beat, pts, games
}

// reach marks the agents reached from agent from along edge (from included).
func reach(n, from int, edge func(a, b int) bool) []bool {
	seen := make([]bool, n)
	stack := []int{from}
	seen[from] = true
	for len(stack) > 0 {
		a := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for b := range n {
			if !seen[b] && edge(a, b) {
				seen[b] = true
				stack = append(stack, b)
			}
		}
	}
	return seen
}

// resamplePenta draws Pairs() pairs with replacement from the pairs counted in p.
func resamplePenta(p Penta, rng *rand.Rand) Penta {
	n := p.Pairs()
	var out Penta
	for range n {
		u := rng.Int64N(n)
		k := 0
		for u >= p[k] {
			u -= p[k]
			k++
		}
		out[k]++
	}
	return out
}

// Quantile is the type-7 quantile of sorted values (Hyndman & Fan 1996; R's and NumPy's
// default): linear interpolation between the order statistics around q·(n − 1). The bootstrap
// percentile intervals of the ratings and of the layout studies take their ends from it.
func Quantile(sorted []float64, q float64) float64 {
	h := q * float64(len(sorted)-1)
	lo := math.Floor(h)
	i := int(lo)
	if i+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (h-lo)*(sorted[i+1]-sorted[i])
}

// Expected returns the model's expected score of an agent rated a against one rated b.
func Expected(a, b float64) float64 { return 1 / (1 + math.Pow(10, (b-a)/400)) }

// Order returns the agents' indices from the highest rating down (ties in the agents' order).
func (t *RatingTable) Order() []int {
	idx := make([]int, len(t.Ratings))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case t.Ratings[a].Elo > t.Ratings[b].Elo:
			return -1
		case t.Ratings[a].Elo < t.Ratings[b].Elo:
			return 1
		}
		return 0
	})
	return idx
}
