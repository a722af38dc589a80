package tune

import (
	"context"
	"fmt"
	"math"

	"github.com/fairplay-lab/fairplay/runner"

	"github.com/fairplay-lab/fairplay/stats"
	"github.com/fairplay-lab/fairplay/tally"
)

// SPRTStatus is the state of a sequential test after some pairs.
type SPRTStatus struct {
	Test    stats.SPRT
	Summary *tally.Summary
	LLR     float64
	Verdict stats.Verdict
	// Trajectory is the LLR after every pair, in pair order (set by RunSPRT).
	Trajectory []float64
}

// NewSPRTStatus evaluates the test on a summary's pairs.
func NewSPRTStatus(test stats.SPRT, sum *tally.Summary) SPRTStatus {
	llr := test.LLR(sum.Penta)
	return SPRTStatus{Test: test, Summary: sum, LLR: llr, Verdict: test.Decide(llr)}
}

// Line prints the status as one line: pairs, A's wins/draws/losses, the pentanomial counts,
// Elo and nElo with 95% intervals (a perfect score's Elo as the one-sided bound it is), LOS and
// the LLR against its bounds.
func (st SPRTStatus) Line() string {
	s := st.Summary
	p := s.Penta
	lo, hi := st.Test.Bounds()
	return fmt.Sprintf("pairs %d  W-D-L %d-%d-%d  penta %d-%d-%d-%d-%d  Elo %s  nElo %s  LOS %.1f%%  LLR %.2f (%.2f, %.2f)",
		p.Pairs(), s.AWins, s.N-s.AWins-s.BWins, s.BWins, p[0], p[1], p[2], p[3], p[4],
		eloText(p.Elo()), eloText(p.NElo()), 100*p.LOS(), st.LLR, lo, hi)
}

// eloText prints an Elo with its interval (stats.FormatElo: a one-sided bound as a bound), or
// "-" when there is neither estimate nor bound (no pairs; nElo when every pair scored the same).
func eloText(iv stats.Interval) string {
	if math.IsNaN(iv.Value) && !stats.IsBound(iv) {
		return "-"
	}
	return stats.FormatElo(iv)
}

// RunSPRT plays m's colour-swapped pairs in s.Dir until the test accepts H0 or H1 or the
// match's planned games run out. The decision is taken in pair order, so it does not depend on
// the worker count; games finished beyond the deciding pair are discarded. report (optional)
// gets the status every `every` pairs. The returned status is the test's final state: a
// Continue verdict with a complete run means inconclusive.
func RunSPRT(ctx context.Context, m *runner.Match, test stats.SPRT, s runner.Session, every int64, report func(SPRTStatus)) (*runner.Outcome, SPRTStatus, error) {
	if err := test.Check(); err != nil {
		return nil, SPRTStatus{}, err
	}
	var traj []float64
	s.Stop = func(sum *tally.Summary) bool {
		if sum.N%2 != 0 {
			return false
		}
		st := NewSPRTStatus(test, sum)
		traj = append(traj, st.LLR)
		if report != nil && every > 0 && sum.Penta.Pairs()%every == 0 && st.Verdict == stats.Continue {
			s.PrintAbove(func() { report(st) })
		}
		return st.Verdict != stats.Continue
	}
	if s.Chunk == 0 {
		s.Chunk = 2 // a pair at a time per worker: little waste at the stop
	}
	out, err := runner.RunMatch(ctx, m, s)
	if err != nil {
		return nil, SPRTStatus{}, err
	}
	st := NewSPRTStatus(test, out.Summary)
	st.Trajectory = traj
	return out, st, nil
}
