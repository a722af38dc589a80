package agents

import "math"

// Selective search: late-move reductions (lmr), reverse futility pruning (rfp), futility
// pruning (fut) and late-move pruning (lmp). Each is a parameter of alphabeta; docs/search.md
// gives what each measured.

// lmrLog[d][i] is lmr=3's reduction of the i-th move (0-based) at depth d:
// ⌊0.75 + ln d · ln i / 2⌋, the logarithmic form of modern chess engines.
var lmrLog [64][64]int8

func init() {
	for d := 1; d < 64; d++ {
		for i := 1; i < 64; i++ {
			lmrLog[d][i] = int8(0.75 + math.Log(float64(d))*math.Log(float64(i))/2)
		}
	}
}

// reduction is the late-move reduction of the i-th move (0-based) at depth, a quiet move that
// is not extended: none before depth 3 or for the first three moves.
func (p *abPlayer) reduction(depth, i int, pv bool) int {
	if depth < 3 || i < 3 {
		return 0
	}
	red := 0
	switch p.cfg.LMRLevel {
	case 1:
		red = 1
		if depth >= 6 && i >= 10 {
			red = 2
		}
	case 2:
		red = 1
		if depth >= 5 && i >= 6 {
			red = 2
		}
		if depth >= 7 && i >= 15 {
			red = 3
		}
	case 3:
		red = max(1, int(lmrLog[min(depth, 63)][min(i, 63)]))
		if pv && red > 1 {
			red-- // one ply less on the principal variation
		}
	}
	return max(0, min(red, depth-2)) // the reduced search keeps at least one ply
}

// lmpCount is the number of moves late-move pruning searches at depth (lmp ≥ depth): 3 + 2d².
func lmpCount(depth int) int { return 3 + 2*depth*depth }

// inEval reports whether v is an evaluation-range bound (not a win or loss score), where the
// futility margins make sense.
func inEval(v int32) bool { return v > -evalBound && v < evalBound }
