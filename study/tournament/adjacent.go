package tournament

import (
	"fmt"
	"math"
	"strings"

	"github.com/fairplay-lab/fairplay/internal/markdown"
	"github.com/fairplay-lab/fairplay/stats"
)

// A rating list measures the gap between two levels next to each other only when they scored
// against each other: a level that wins (nearly) every game against the one below leaves the
// gap to the prior's virtual draws, and a "per 100 Elo" slope over such a list measures the
// prior. These bounds are the scores inside which a step counts as measured.
const (
	SweepLow  = 0.25
	SweepHigh = 0.75
	// PriorShare is how much of an adjacent gap may move, as a fraction of the gap, when the
	// prior is halved before the gap counts as set by the prior; a move of at most PriorFloor
	// Elo never counts (two levels level with each other have a gap near 0, whose fraction
	// means nothing).
	PriorShare = 0.10
	PriorFloor = 5.0
)

// AdjacentStep is one step of a fitted list: two agents next to each other in rating order
// and what their games against each other say.
type AdjacentStep struct {
	Upper, Lower int     // agent indices; Upper is rated above Lower
	Games        int64   // games between them, over every pairing of the two (0: never paired)
	Score        float64 // Upper's score in those games (NaN when never paired)
	Gap          float64 // Upper's Elo minus Lower's
	// GapHalfPrior is the same gap fitted with half the prior (NaN without a prior).
	GapHalfPrior float64
	// Via, for two agents that never played each other, is a common opponent against which
	// both scored inside [SweepLow, SweepHigh] (the one with the most games against them):
	// the gap is then measured through it. −1 when there is none (or they played each other).
	Via      int
	Sweep    bool // paired, and Upper's score is outside [SweepLow, SweepHigh]
	PriorSet bool // the gap moves by more than PriorShare of itself (and PriorFloor) when the prior is halved
}

// Flagged says whether the step is not measured by the games: a sweep, a gap the prior sets,
// or two levels that never met.
func (s AdjacentStep) Flagged() bool { return s.Sweep || s.PriorSet || (s.Games == 0 && s.Via < 0) }

// AdjacentSteps lists the steps of a fitted table from the top down (len(order)−1 of them),
// with the scores of the pairings between each two neighbours and the gap refitted with half
// the prior.
func AdjacentSteps(tab *stats.RatingTable, res []stats.PairingResult) ([]AdjacentStep, error) {
	order := tab.Order()
	var half []float64
	if p := tab.Options.Prior; p > 0 {
		var err error
		if half, err = stats.FitRatings(len(tab.Ratings), res, p/2); err != nil {
			return nil, err
		}
	}
	h2h, err := newHeadToHead(len(tab.Ratings), res)
	if err != nil {
		return nil, err
	}
	var steps []AdjacentStep
	for k := 0; k+1 < len(order); k++ {
		s := AdjacentStep{Upper: order[k], Lower: order[k+1], Score: math.NaN(), GapHalfPrior: math.NaN(), Via: -1}
		s.Gap = tab.Ratings[s.Upper].Elo - tab.Ratings[s.Lower].Elo
		var games float64
		s.Score, games = h2h.score(s.Upper, s.Lower)
		s.Games = int64(games)
		if games > 0 {
			s.Sweep = s.Score < SweepLow || s.Score > SweepHigh
		} else {
			var most float64
			for x := range tab.Ratings {
				su, gu := h2h.score(s.Upper, x)
				sl, gl := h2h.score(s.Lower, x)
				if x == s.Upper || x == s.Lower || gu == 0 || gl == 0 || !inside(su) || !inside(sl) {
					continue
				}
				if g := min(gu, gl); g > most {
					s.Via, most = x, g
				}
			}
		}
		if half != nil {
			s.GapHalfPrior = half[s.Upper] - half[s.Lower]
			d := math.Abs(s.GapHalfPrior - s.Gap)
			s.PriorSet = d > PriorShare*math.Abs(s.Gap) && d > PriorFloor
		}
		steps = append(steps, s)
	}
	return steps, nil
}

// headToHead holds, for every two of n agents, the games between them and the first one's
// points in those games, summed over every pairing of the two: the pairings are read once.
type headToHead struct {
	n             int
	points, games []float64 // index a*n+b
}

func newHeadToHead(n int, res []stats.PairingResult) (headToHead, error) {
	h := headToHead{n: n, points: make([]float64, n*n), games: make([]float64, n*n)}
	for i, p := range res {
		if p.A < 0 || p.A >= n || p.B < 0 || p.B >= n {
			return h, fmt.Errorf("pairing %d: agents %d and %d, want indices below %d", i+1, p.A, p.B, n)
		}
		pts, g := p.Points()
		h.points[p.A*n+p.B] += pts
		h.games[p.A*n+p.B] += g
		h.points[p.B*n+p.A] += g - pts
		h.games[p.B*n+p.A] += g
	}
	return h, nil
}

// score is a's score against b over every pairing of the two (NaN when they never played)
// and the number of games.
func (h headToHead) score(a, b int) (score, games float64) {
	games = h.games[a*h.n+b]
	if games == 0 {
		return math.NaN(), 0
	}
	return h.points[a*h.n+b] / games, games
}

// inside says whether a score is inside [SweepLow, SweepHigh].
func inside(score float64) bool { return score >= SweepLow && score <= SweepHigh }

// adjacentWarning is the report's warning about the flagged steps ("" when none is).
func adjacentWarning(labels []string, steps []AdjacentStep) string {
	var sweeps, unpaired []string
	for _, s := range steps {
		name := markdown.Code(labels[s.Upper]) + " over " + markdown.Code(labels[s.Lower])
		switch {
		case s.Games == 0 && s.Via < 0:
			unpaired = append(unpaired, name)
		case s.Games == 0 && s.PriorSet: // measured through a common opponent, and the prior sets it
			sweeps = append(sweeps, fmt.Sprintf("%s (never paired; through %s)", name, markdown.Code(labels[s.Via])))
		case s.Sweep || s.PriorSet:
			sweeps = append(sweeps, fmt.Sprintf("%s (score %.3f in %d games)", name, s.Score, s.Games))
		}
	}
	var b strings.Builder
	if len(sweeps) > 0 {
		fmt.Fprintf(&b, "%d step(s) between levels next to each other in the ratings are not measured by their games: %s. A score outside %g–%g, or a gap that moves by more than %.0f%% (and %g Elo) when the prior is halved, leaves the gap to the prior; insert a level between the two (a node budget or depth between theirs) so that each scores %g–%g against the next.",
			len(sweeps), strings.Join(sweeps, "; "), SweepLow, SweepHigh, 100*PriorShare, PriorFloor, SweepLow, SweepHigh)
	}
	if len(unpaired) > 0 {
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%d step(s) join levels that never played each other and have no common opponent both scored %g–%g against: %s; their gap comes only through longer paths.", len(unpaired), SweepLow, SweepHigh, strings.Join(unpaired, "; "))
	}
	return b.String()
}

// adjacentTable is report.md's table of the steps.
func adjacentTable(labels []string, steps []AdjacentStep) string {
	t := markdown.NewTable("upper", "lower", "games", "upper's score", "gap", "gap at half the prior", "measured").Right(2, 3, 4, 5)
	via := func(s AdjacentStep) string {
		if s.Via < 0 {
			return ""
		}
		return " through " + markdown.Code(labels[s.Via])
	}
	for _, s := range steps {
		score, half := "", ""
		if s.Games > 0 {
			score = fmt.Sprintf("%.3f", s.Score)
		}
		if !math.IsNaN(s.GapHalfPrior) {
			half = fmt.Sprintf("%+.0f", s.GapHalfPrior)
		}
		var verdict []string
		if s.Games == 0 && s.Via < 0 {
			verdict = append(verdict, "never paired, no common opponent")
		}
		if s.Sweep {
			verdict = append(verdict, "sweep")
		}
		if s.PriorSet {
			verdict = append(verdict, "set by the prior")
		}
		v := "yes" + via(s)
		if len(verdict) > 0 {
			v = "no: " + strings.Join(verdict, ", ")
			if s.Games == 0 && s.Via >= 0 { // measured through a common opponent, and the prior sets it
				v += " (never paired;" + via(s) + ")"
			}
		}
		t.Row(markdown.Code(labels[s.Upper]), markdown.Code(labels[s.Lower]), s.Games, score, fmt.Sprintf("%+.0f", s.Gap), half, v)
	}
	return t.String()
}
