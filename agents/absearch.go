package agents

import (
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// rootSearch searches every root move within (alpha, beta) and returns the best score; p.ties
// gets the moves scoring exactly that (the window is lowered to one below the best so that equal
// scores are exact). The best move goes first for the next iteration.
//
// With partial on, p.found keeps p.ties after every root move searched to the end while the
// best score is above alpha: the moves searched so far were then all compared exactly (a
// later move enters ties only with a score above the best less one, re-searched in the full
// window), so p.ties is what this search would return had the root only those moves. Among
// them must be the previous iteration's best (p.best[0]), so p.found is updated only once it
// was searched in this window: a move in p.found then either is it or proved better than it at
// the new depth. (It is searched first in an iteration's first window, but a window that failed
// low reorders the root by upper bounds, so a re-search may start with another move.) A best at
// or below alpha is only an upper bound: it proves nothing and p.found keeps what an earlier
// window of this depth proved (a fail high's move) or stays empty.
func (p *abPlayer) rootSearch(s engine.State, depth int, alpha, beta int32) int32 {
	best := int32(-Win - 1)
	p.ties = p.ties[:0]
	prevBest, seen := p.best[0], false
	for i, a := range p.root {
		lo := alpha
		if best-1 > lo {
			lo = best - 1
		}
		ext := p.extension(a)
		p.exts += ext
		p.path[0] = a
		s.Apply(a)
		var v int32
		if i == 0 || !p.cfg.PVS {
			v = -p.search(s, depth-1+ext, -beta, -lo, 1, true)
		} else {
			v = -p.search(s, depth-1+ext, -lo-1, -lo, 1, true)
			if v > lo && v < beta && !p.b.out {
				v = -p.search(s, depth-1+ext, -beta, -lo, 1, true)
			}
		}
		s.Undo()
		p.exts -= ext
		if p.b.out {
			return best
		}
		if v > best {
			best = v
			p.ties = append(p.ties[:0], a)
			copy(p.root[1:i+1], p.root[:i])
			p.root[0] = a
		} else if v == best && v > alpha {
			p.ties = append(p.ties, a)
		}
		seen = seen || a == prevBest
		if p.cfg.Partial && best > alpha && seen {
			p.found = append(p.found[:0], p.ties...)
		}
		if best >= beta {
			return best
		}
	}
	return best
}

// extension is 1 for a move that threatens an immediate win, when extensions are on and the
// path has not used its bound (exts).
func (p *abPlayer) extension(a engine.Action) int {
	if p.ext && (p.cfg.MaxExt == 0 || p.exts < p.cfg.MaxExt) && p.tx.threat(a) {
		return 1
	}
	return 0
}

func (p *abPlayer) search(s engine.State, depth int, alpha, beta int32, ply int, nullOK bool) int32 {
	if p.b.tick() {
		return 0
	}
	var moves []engine.Action
	if p.tx.kat != nil {
		// Katarenga generates the moves only when they are needed: at a leaf if quiescence's
		// stand-pat does not cut, else after the table and the pruning had their chance. It is
		// the same tree: Status is over exactly when Legal is empty.
		if s.Status().Over {
			return terminal(s, ply)
		}
	} else if moves = s.Legal(p.bufs[ply][:0]); len(moves) == 0 {
		return terminal(s, ply)
	} else {
		p.bufs[ply] = moves
	}
	// Mate-distance pruning: no result here beats a win at the next ply.
	if lo := -Win + int32(ply); alpha < lo {
		if alpha = lo; alpha >= beta {
			return alpha
		}
	}
	if hi := Win - int32(ply+1); beta > hi {
		if beta = hi; alpha >= beta {
			return beta
		}
	}
	if depth <= 0 || ply >= maxPly-2 {
		// The first iteration runs unarmed (it always completes); under a node or time budget it
		// skips quiescence, which nothing else would bound (Baran's capture trees can reach a
		// million nodes), so a budget is never overrun by more than one ply of search.
		if p.cfg.Quiescence && (p.b.armed || (p.cfg.Nodes == 0 && p.cfg.Movetime == 0)) {
			return p.quiesce(s, alpha, beta, ply, 0, moves)
		}
		return p.eval(s)
	}
	key := s.Hash()
	var tt *table
	var e ttEntry
	var ok bool
	if p.tt1 == nil { // one table: every budget but Katarenga's movetime default (shallow.go)
		tt = p.tt
		e, ok = tt.probe(key)
	} else {
		tt, e, ok = p.probe(key, depth) // e is zero, or holds only a move, when !ok
	}
	ttMove, hasTT := e.move, e.flag == ttExact || e.flag == ttLower
	excl := p.excl[ply] // se=1: the move a singular search leaves out of this node; 0: none
	if ok && int(e.depth) >= depth && excl == 0 {
		v := fromTT(e.score, ply)
		switch {
		case e.flag == ttExact:
			return v
		case e.flag == ttLower && v >= beta:
			return v
		case e.flag == ttUpper && v <= alpha:
			return v
		}
	}
	if p.cfg.IIR && ttMove == 0 && depth >= iirDepth {
		depth-- // internal iterative reduction: no move known here, so a shallower search first
	}
	pv := beta-alpha > 1
	static, haveStatic := int32(0), false
	imp := 0 // 1 when improving (imp=1): the static evaluation beats the one two plies up
	if p.imp {
		static, haveStatic = p.staticEval(s, e, ok, ply), true
		imp = p.improving(static, ply)
	}
	// Reverse futility: a non-PV node whose evaluation beats beta by the margin of its depth
	// (one ply less of margin when improving).
	if !pv && depth <= p.sel.RFP && inEval(beta) && excl == 0 {
		if !haveStatic {
			static, haveStatic = p.staticEval(s, e, ok, ply), true
		}
		if v := static - p.margin*int32(depth-imp); v >= beta {
			return v
		}
	}
	// Null move (Katarenga): if passing still fails high at reduced depth, so would a move.
	if p.cfg.Null && nullOK && !pv && depth >= 3 && p.tx.kat != nil && inEval(beta) && excl == 0 {
		if !haveStatic {
			static, haveStatic = p.staticEval(s, e, ok, ply), true
		}
		if static >= beta {
			p.path[ply] = katarenga.Pass
			s.Apply(katarenga.Pass)
			v := -p.search(s, depth-3, -beta, -beta+1, ply+1, false)
			s.Undo()
			if p.b.out {
				return 0
			}
			if v >= beta && v < Win-maxPly {
				return v
			}
		}
	}
	singular := false
	if p.se && excl == 0 && ok && hasTT && ttMove != 0 && depth >= seDepth && int(e.depth) >= depth-3 && p.tx.kat != nil {
		var sb int32
		if singular, sb = p.singular(s, e, depth, ply); p.b.out {
			return 0
		} else if singular {
			p.Singular++
		} else if sb >= beta {
			p.MultiCut++
			return sb // multi-cut: a move besides the table move reaches beta too
		}
	}
	if moves == nil {
		moves = s.Legal(p.bufs[ply][:0])
		p.bufs[ply] = moves
	}
	p.order(moves, ply, ttMove, hasTT)
	alpha0 := alpha
	best := int32(-Win - 1)
	var bestMove engine.Action
	// In Katarenga each move is picked one step ahead, so that its child's table entry is on its
	// way while the move before it is searched (prefetchChild; the order is the same, as the
	// keys do not change during the loop). Baran has nothing to fetch and picks each in turn.
	ahead := p.tx.kat != nil
	next := p.pickNext(moves, ply, 0) // moves is not empty: a node without one returned above
	if ahead {
		p.prefetchChild(moves[0], depth-1)
	}
	for i := range moves {
		sc := next
		if i > 0 && !ahead {
			sc = p.pickNext(moves, ply, i)
		}
		a := moves[i]
		ext := 0
		if ply < 2*p.rootDepth {
			if ext = p.extension(a); singular && a == ttMove && (p.cfg.MaxExt == 0 || p.exts < p.cfg.MaxExt) {
				ext = 1
			}
		}
		quiet := sc < orderKiller-1
		if i > 0 && quiet && ext == 0 && !pv && best > -Win+maxPly {
			// The moves left are all quiet (they are ordered): prune them all, or none.
			if depth <= p.sel.LMP && i >= p.lmpLimit(depth, imp) {
				break
			}
			if depth <= p.sel.Fut && inEval(alpha) {
				if !haveStatic {
					static, haveStatic = p.staticEval(s, e, ok, ply), true
				}
				if v := static + p.margin*int32(depth); v <= alpha {
					best = max(best, v)
					break
				}
			}
		}
		if ahead && i+1 < len(moves) {
			next = p.pickNext(moves, ply, i+1)
			p.prefetchChild(moves[i+1], depth-1)
		}
		if a == excl {
			continue
		}
		p.exts += ext
		p.path[ply] = a
		s.Apply(a)
		nd := depth - 1 + ext
		var v int32
		if i == 0 {
			v = -p.search(s, nd, -beta, -alpha, ply+1, true)
		} else {
			red := 0
			if p.sel.LMR > 0 && quiet && ext == 0 {
				red = p.reduction(depth, i, pv)
				if red > 0 && p.hist == 2 {
					red = p.histReduction(red, depth, ply, a)
				}
			}
			if p.cfg.PVS {
				v = -p.search(s, nd-red, -alpha-1, -alpha, ply+1, true)
				if v > alpha && red > 0 && !p.b.out {
					v = -p.search(s, nd, -alpha-1, -alpha, ply+1, true)
				}
				if v > alpha && v < beta && !p.b.out {
					v = -p.search(s, nd, -beta, -alpha, ply+1, true)
				}
			} else {
				v = -p.search(s, nd-red, -beta, -alpha, ply+1, true)
				if v > alpha && red > 0 && !p.b.out {
					v = -p.search(s, nd, -beta, -alpha, ply+1, true)
				}
			}
		}
		s.Undo()
		p.exts -= ext
		if p.b.out {
			return 0
		}
		if v > best {
			best, bestMove = v, a
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta {
			if p.hist >= 1 || p.cm {
				p.cutoffGravity(moves, i, ply, depth, quiet)
			} else if quiet {
				p.cutoff(a, ply, depth)
			}
			break
		}
	}
	flag := uint8(ttExact)
	if best <= alpha0 {
		flag = ttUpper
	} else if best >= beta {
		flag = ttLower
	}
	if excl != 0 {
		return best // a singular search's bound of the other moves: not this node's value
	}
	if p.corr != nil {
		if !haveStatic {
			static = p.staticEval(s, e, ok, ply)
		}
		p.corrUpdate(s, static, best, flag, depth, bestMove)
	}
	tt.store(key, bestMove, best, depth, flag, ply)
	return best
}
