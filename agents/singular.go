package agents

import "github.com/fairplay-lab/fairplay/engine"

// Singular extensions (se) and the capture history (caph), Katarenga's alpha-beta options
// adopted together under movetime with the network (docs/search.md, "What each part is
// worth"); node and depth budgets keep them off, so that their play records stay pinned.

const seDoc = "singular extensions (Katarenga): at a node of depth 6 or more whose table entry (a lower bound or exact, from depth − 3 or more) names a move, the other moves are searched at half depth against the entry's score less 4·depth; if none reaches it the move is searched one ply deeper, and if one does and that bound is at least beta the node returns it (multi-cut): 1 on, 0 off; auto = 1 in Katarenga under movetime with the network, else 0 (docs/search.md)"

const capHistDoc = "capture history (Katarenga, with hist=1 or 2): the tactical moves (captures, then camp entries and baseline moves) are ordered by a history of their cutoffs, kept as the quiet moves' gravity history, in place of generation order: 1 on, 0 off; auto = 1 in Katarenga under movetime with the network, else 0 (docs/search.md)"

// autoNetSE and autoNetCapHist are se=auto and caph=auto by game under movetime with a
// network evaluating: on in Katarenga, where together they passed an equal-time SPRT against
// the default before them; Baran has neither.
var (
	autoNetSE      = map[string]int{"katarenga": 1}
	autoNetCapHist = map[string]int{"katarenga": 1}
)

// parseSingular reads se and caph: 0, 1 or "auto" (Auto).
func parseSingular(p Params) (se, caph int, err error) {
	if se, err = p.IntOrAuto("se", 0, 1); err != nil {
		return 0, 0, err
	}
	if caph, err = p.IntOrAuto("caph", 0, 1); err != nil {
		return 0, 0, err
	}
	return se, caph, nil
}

// Singular extensions (se), as Stockfish's: at a node of depth seDepth or more
// whose table entry holds a move with a lower bound or exact score t from at least depth − 3,
// the other moves are searched at half the depth against sb = t − seMargin·depth with a null
// window. If none reaches sb, the table move is singular and is searched one ply deeper; if
// one does and sb is at least beta, two moves beat beta and the node returns sb (multi-cut).
const (
	seDepth  = 6
	seMargin = 4
)

// singular runs the singular search of the node s at depth and ply with table entry e, whose
// move it leaves out: it reports whether the table move is singular, and the bound sb.
func (p *abPlayer) singular(s engine.State, e ttEntry, depth, ply int) (bool, int32) {
	t := fromTT(e.score, ply)
	if !inEval(t) {
		return false, -Win - 1
	}
	sb := t - seMargin*int32(depth)
	p.excl[ply] = e.move
	v := p.search(s, (depth-1)/2, sb-1, sb, ply, false)
	p.excl[ply] = 0
	return v < sb, sb
}
