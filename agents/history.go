package agents

import "github.com/fairplay-lab/fairplay/engine"

// History options of alphabeta beyond the plain history table (hist=0: a 4096-slot table of
// quiet cutoff moves, depth² bonus, no penalty):
//
//   - hist=1, history gravity: one table per side; a quiet move that causes a cutoff gains
//     bonus(depth) and every quiet move searched before it at that node loses as much (the
//     "malus"); each update is h += b − h·|b|/histMax, so values stay within ±histMax and
//     a long-lived value decays towards the recent ones.
//   - hist=2: hist=1, and late-move reductions follow the history: a quiet move with a history
//     below 0 (refuted more than it refuted) is reduced one ply more, one above histMax/16 one ply less.
//   - cm=1, the countermove heuristic: the quiet move that last refuted the opponent's
//     previous move is searched right after the killers.
//
// Both are parameters (cm off at auto, hist see autoNetHist), so that node and depth budgets
// keep their trees.

// autoNetHist is hist=auto by game under movetime with a network evaluating (any: net=auto
// chooses the game's newest there, in Katarenga builtin6): in Katarenga 1, confirmed at
// 100,000 nodes with the first network, net=builtin, together with tempo 25 (autoNetTempo was
// 25 then; docs/search.md); Baran was not measured. Node and depth budgets keep hist=0, whose
// play records pin.
var autoNetHist = map[string]int{"katarenga": 1}

// histMax bounds the gravity history's values.
const histMax = 1 << 14

// orderCounter is the countermove's ordering score: below the killers, above any history.
const orderCounter = orderKiller - 2

// histReduction adjusts the late-move reduction red (> 0) of quiet move a at ply by its
// history (hist=2), keeping at least one ply of depth.
func (p *abPlayer) histReduction(red, depth, ply int, a engine.Action) int {
	switch h := p.hist1[ply&1][histIndex(a)]; {
	case h < 0:
		return min(red+1, depth-2)
	case h > histMax/16:
		return red - 1
	}
	return red
}

// parseHistory reads hist (0..2) and cm (0..1), each a number or "auto" (Auto).
func parseHistory(p Params) (hist, cm int, err error) {
	if hist, err = p.IntOrAuto("hist", 0, 2); err != nil {
		return 0, 0, err
	}
	if cm, err = p.IntOrAuto("cm", 0, 1); err != nil {
		return 0, 0, err
	}
	return hist, cm, nil
}

// histBonus is the gravity history's bonus (and malus) for a cutoff at depth.
func histBonus(depth int) int32 { return int32(min(32*depth*depth, 2048)) }

// gravity moves h by b (b may be negative), keeping |h| ≤ histMax.
func gravity(h *int32, b int32) {
	ab := b
	if ab < 0 {
		ab = -ab
	}
	*h += b - *h*ab/histMax
}

// quietIn reports whether a is neither a capture nor otherwise tactical (the moves the
// history tables score), given the Katarenga masks of katMasks (unused in Baran).
func (p *abPlayer) quietIn(a engine.Action, opp, base uint64) bool {
	if p.tx.kat != nil {
		tac, _ := katTactical(a, opp, base)
		return !tac
	}
	return !p.tx.tactical(a)
}

// counter returns the countermove of the move that led to ply (0 for none).
func (p *abPlayer) counter(ply int) engine.Action {
	if !p.cm || ply == 0 {
		return 0
	}
	return p.cmTab[ply&1][histIndex(p.path[ply-1])]
}

// cutoffGravity records the cutoff of moves[i] at ply (hist=1 or cm=1): the bonus to it when
// quiet, the malus to the quiet moves searched before it, and the countermove.
// ordered is whether its ordering score was a quiet one (not the table move or a killer),
// the moves hist=0 records.
func (p *abPlayer) cutoffGravity(moves []engine.Action, i, ply, depth int, ordered bool) {
	a := moves[i]
	var opp, base uint64 // Katarenga: the masks of every quietIn below
	if p.tx.kat != nil {
		opp, base = katMasks(p.tx.kat)
	}
	if p.capHist != nil {
		p.captureGravity(moves, i, ply, depth, opp, base)
	}
	if !p.quietIn(a, opp, base) {
		return
	}
	if p.cm && ply > 0 {
		p.cmTab[ply&1][histIndex(p.path[ply-1])] = a
	}
	if p.hist == 0 {
		if ordered {
			p.cutoff(a, ply, depth)
		}
		return
	}
	if p.killers[ply][0] != a {
		p.killers[ply][1], p.killers[ply][0] = p.killers[ply][0], a
	}
	t := &p.hist1[ply&1]
	b := histBonus(depth)
	gravity(&t[histIndex(a)], b)
	for _, q := range moves[:i] {
		if p.quietIn(q, opp, base) {
			gravity(&t[histIndex(q)], -b)
		}
	}
}

// captureGravity records the cutoff of moves[i] at ply in the capture history (caph=1,
// Katarenga): the bonus to it when tactical, the malus to the tactical moves searched before
// it, as the quiet history's gravity (Stockfish's captureHistory, search.cpp).
func (p *abPlayer) captureGravity(moves []engine.Action, i, ply, depth int, opp, base uint64) {
	t := &p.capHist[ply&1]
	b := histBonus(depth)
	if !p.quietIn(moves[i], opp, base) {
		gravity(&t[histIndex(moves[i])], b)
	}
	for _, q := range moves[:i] {
		if !p.quietIn(q, opp, base) {
			gravity(&t[histIndex(q)], -b)
		}
	}
}

// ageHistory scales the history tables down at the start of a move's search.
func (p *abPlayer) ageHistory() {
	if p.capHist != nil {
		for s := range p.capHist {
			for i := range p.capHist[s] {
				p.capHist[s][i] /= 2
			}
		}
	}
	if p.hist >= 1 {
		for s := range p.hist1 {
			for i := range p.hist1[s] {
				p.hist1[s][i] /= 2
			}
		}
		return
	}
	for i := range p.history {
		p.history[i] /= 8
	}
}
