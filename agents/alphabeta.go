package agents

import (
	"fmt"
	"sync"
	"time"

	"github.com/fairplay-lab/fairplay/agents/nnue"
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// Win is the score of a won position (minus the plies to reach it, so faster wins score higher).
const Win = 1_000_000

// maxPly bounds the search's ply from the root (extensions included).
const maxPly = 128

// evalBound keeps evaluations clear of the win/loss scores.
const evalBound = Win / 2

// terminal scores a finished game for the player to move.
func terminal(s engine.State, ply int) int32 {
	st := s.Status()
	switch st.Winner {
	case engine.NoPlayer:
		return 0
	case s.ToMove():
		return Win - int32(ply)
	}
	return -Win + int32(ply)
}

// AlphaBeta is a principal-variation searcher: iterative deepening with aspiration windows,
// PVS, late-move reductions, threat extensions, null-move pruning (Katarenga only, when
// enabled), a quiescence search over the game's tactical moves, win/loss scores by distance,
// and a bucketed, depth-preferred transposition table of hash MB kept for the whole game. Its
// budget is a depth, a node count (deterministic) or a time per move (not reproducible).
// Root moves of equal score are chosen among with the game's random source.
type AlphaBeta struct {
	spec string
	heuristicAgent
	netAgent
	Depth                                         int
	Nodes                                         int64
	Movetime                                      time.Duration
	HashMB                                        int
	Quiescence, PVS, Null, Aspiration, Extensions bool
	// QSBase: Katarenga quiescence also searches moves onto the enemy baseline (not only
	// captures and camp entries).
	QSBase bool
	// MaxExt bounds the threat extensions on one path from the root (0: no bound but twice
	// the nominal depth).
	MaxExt int
	// ExtAuto (ext=auto, the default) turns threat extensions off in Katarenga and on in Baran.
	ExtAuto bool
	// Sel is the selective search as given: lmr (0 off, 1 the standard reductions, 2 stronger
	// ones, 3 logarithmic ones) and the greatest depths of reverse futility pruning, futility
	// pruning and late-move pruning (0: off); Auto (-1) is the game's default (autoSelective).
	Sel Selective
	// Margin is the futility margin per ply of rfp and fut, in evaluation units; Auto (-1):
	// autoNetMargin under movetime with a network, else defaultMargin (parseMargin).
	Margin int32
	// Tempo is added to every evaluation for the side to move (evaluation units): with it the
	// evaluations of odd and even plies compare. Auto (-1) is the game's default: autoTempo
	// under a budget, autoNetTempo under movetime with a network (NewPlayer).
	Tempo int32
	// Partial: a search cut off by its budget plays what its unfinished last iteration proved
	// (a root move searched completely at the new depth that beat the previous best), and
	// under movetime iterations start until the time is out. Off, the unfinished iteration is
	// dropped and under movetime no iteration starts after half the time.
	Partial bool
	// Hist and CM are the history options (hist, cm; history.go); Auto (-1): hist as
	// autoNetHist under movetime with the network (1 in Katarenga), else 0; cm off.
	Hist, CM int
	// Imp is the improving flag's option (imp; improving.go): 1 on, 0 off, Auto (-1) the
	// game's default (autoNetImp under movetime with the network, else 0).
	Imp int
	// IIR: internal iterative reduction (iir=1).
	IIR  bool
	W    Weights
	pool sync.Pool
}

func init() {
	register(Kind{Name: "alphabeta", Doc: "PVS alpha-beta: aspiration, LMR, threat extensions, tactical quiescence, bucketed TT; depth, nodes or movetime budget",
		Params: []Param{
			{"depth", "4", "maximum depth in plies (1..64); 64 when only nodes or movetime is given"},
			{"nodes", "0", "node budget per move, 0 for none (deterministic)"},
			{"movetime", "0", "time per move such as 100ms, 0 for none (not reproducible)"},
			{"hash", "16", "transposition table size in MB (1..4096), kept for the whole game"},
			{"qs", "1", "quiescence over tactical moves: 1 on, 0 off"},
			{"pvs", "1", "principal-variation search: 1 on, 0 plain alpha-beta"},
			{"lmr", "auto", "late-move reductions: 1 on, 2 stronger (more and deeper reductions of late quiet moves), 3 logarithmic (0.75 + ln depth · ln move / 2), 0 off; auto = under a nodes or movetime budget 3 in Katarenga, 1 in Baran, with depth alone 1"},
			{"rfp", "auto", "reverse futility pruning at non-PV nodes up to this depth (0..8, 0 off): return the evaluation minus margin·depth when it is still at least beta; auto = under a nodes or movetime budget 3 in Katarenga, 0 in Baran, with depth alone 0"},
			{"fut", "auto", "futility pruning up to this depth (0..8, 0 off): skip the quiet moves of a non-PV node whose evaluation plus margin·depth is at most alpha; auto = under a nodes or movetime budget 2 in Katarenga, 0 in Baran, with depth alone 0"},
			{"lmp", "auto", "late-move pruning up to this depth (0..8, 0 off): at a non-PV node search only the first 3+2·depth² moves and the tactical ones; auto = under a nodes or movetime budget 3 in Katarenga, 0 in Baran, with depth alone 0"},
			{"margin", "150", "futility margin per ply for rfp and fut, in evaluation units (a pawn is about 200 in Katarenga, a warrior about 120 in Baran): 1..2000, or auto = 75 in Katarenga under movetime with the network, else 150; a movetime spec without it has auto (docs/search.md)"},
			{"tempo", "auto", "credit for the side to move, added to every evaluation, in evaluation units (0..300); auto = under a nodes or movetime budget 50 in Katarenga (0 under movetime with the network), 0 in Baran, with depth alone 0"},
			{"null", "0", "null-move pruning (Katarenga only; see docs/search.md): 1 on, 0 off"},
			{"asp", "1", "aspiration windows from depth 3: 1 on, 0 off"},
			{"ext", "auto", "extend moves that threaten an immediate win: 1 on, 0 off, auto = off in Katarenga, on in Baran"},
			{"exts", "0", "at most this many threat extensions on one path, 0 for no bound (0..16)"},
			{"qsbase", "1", "Katarenga quiescence also searches moves onto the enemy baseline: 1 on, 0 off (captures and camp entries only)"},
			{"weights", "", "JSON file of heuristic weights"},
			{"net", "auto", netParamDoc},
			{"hist", "auto", "history of quiet moves: 0 one table, a depth² bonus to the move of a cutoff; 1 history gravity, one table per side, the bonus to the cutoff move and as much off the quiet moves searched before it, bounded by h += b − h·|b|/16384; 2 as 1, and a quiet move with a negative history is reduced one ply more, one above 1024 one less; auto = 1 in Katarenga under movetime with the network, else 0 (docs/search.md)"},
			{"cm", "auto", "countermove heuristic: the quiet move that last refuted the opponent's previous move is searched right after the killers: 1 on, 0 off; auto = 0 (docs/search.md)"},
			{"partial", "auto", "an iteration cut off by the budget counts: a root move it searched to the end that proved better than the previous best is played, and under movetime iterations start until the time is out: 1 on, 0 off (an unfinished iteration is dropped; under movetime none starts after half the time); auto = on under movetime, off under nodes or depth alone (docs/search.md, Partial iterations)"},
			{"imp", "auto", impDoc},
			{"iir", "0", "internal iterative reduction: a node of depth 4 or more that the table knows no move for is searched one ply shallower: 1 on, 0 off (docs/search.md)"},
		},
		Late:  []string{"net", "partial", "hist", "cm", "imp", "iir"},
		Quiet: []string{"partial", "hist", "cm", "imp", "iir"},
		build: buildAlphaBeta})
}

func buildAlphaBeta(p Params) (Agent, error) {
	a := &AlphaBeta{heuristicAgent: heuristicAgent{weightsFile: p.String("weights")}}
	if err := a.parseNet(p); err != nil {
		return nil, err
	}
	var err error
	if a.Depth, err = p.Int("depth", 1, 64); err != nil {
		return nil, err
	}
	n, err := p.Int("nodes", 0, 1<<40)
	if err != nil {
		return nil, err
	}
	a.Nodes = int64(n)
	if a.Movetime, err = parseMovetime(p); err != nil {
		return nil, err
	}
	if a.HashMB, err = p.Int("hash", 1, 4096); err != nil {
		return nil, err
	}
	if err := p.switches([]string{"qs", "pvs", "null", "asp"},
		&a.Quiescence, &a.PVS, &a.Null, &a.Aspiration); err != nil {
		return nil, err
	}
	if a.ExtAuto = p.String("ext") == "auto"; !a.ExtAuto {
		if err := p.switches([]string{"ext"}, &a.Extensions); err != nil {
			return nil, err
		}
	}
	if a.Sel, err = parseSelective(p); err != nil {
		return nil, err
	}
	if a.Margin, err = parseMargin(p, a.Movetime > 0); err != nil {
		return nil, err
	}
	a.Tempo = Auto
	if p.String("tempo") != "auto" {
		t, err := p.Int("tempo", 0, 300)
		if err != nil {
			return nil, fmt.Errorf("%w, or auto", err)
		}
		a.Tempo = int32(t)
	}
	if a.MaxExt, err = p.Int("exts", 0, 16); err != nil {
		return nil, err
	}
	qb, err := p.Int("qsbase", 0, 1)
	if err != nil {
		return nil, err
	}
	a.QSBase = qb == 1
	a.Partial = a.Movetime > 0
	if p.String("partial") != "auto" {
		if err := p.switches([]string{"partial"}, &a.Partial); err != nil {
			return nil, fmt.Errorf("%w, or auto", err)
		}
	}
	if a.Hist, a.CM, err = parseHistory(p); err != nil {
		return nil, err
	}
	if a.Imp, err = parseImproving(p); err != nil {
		return nil, err
	}
	if err := p.switches([]string{"iir"}, &a.IIR); err != nil {
		return nil, err
	}
	if (a.Nodes > 0 || a.Movetime > 0) && p.vals["depth"] == "4" {
		a.Depth = 64 // a node or time budget alone: deepen until it runs out
		p.vals["depth"] = "64"
	}
	if a.Movetime > 0 {
		p.vals["movetime"] = a.Movetime.String()
	}
	a.spec = p.canonical(kinds["alphabeta"])
	return a, nil
}

// Spec returns the canonical spec.
func (a *AlphaBeta) Spec() string { return a.spec }

// Reproducible is false with a time budget, else true.
func (a *AlphaBeta) Reproducible() bool { return a.Movetime == 0 }

// NewPlayer makes a searcher for one game, with a cleared transposition table.
func (a *AlphaBeta) NewPlayer(game string) (Player, error) {
	w, err := a.weights(game, a.W)
	if err != nil {
		return nil, err
	}
	budgeted := a.Nodes > 0 || a.Movetime > 0
	p := &abPlayer{cfg: a, w: w, ext: a.Extensions, sel: a.Sel.resolve(game, budgeted), tempo: a.Tempo}
	if p.nn, err = a.evaluator(game, a.Movetime > 0); err != nil {
		return nil, err
	}
	if a.Tempo == Auto {
		p.tempo = 0
		if budgeted {
			p.tempo = autoTempo[game]
		}
		if t, ok := autoNetTempo[game]; ok && a.Movetime > 0 && p.nn != nil {
			p.tempo = t
		}
	}
	if a.ExtAuto {
		p.ext = game != "katarenga"
	}
	p.hist, p.cm = a.Hist, a.CM == 1
	if a.Hist == Auto {
		p.hist = 0
		if a.Movetime > 0 && p.nn != nil {
			p.hist = autoNetHist[game]
		}
	}
	p.imp = a.resolveImp(game, p.nn != nil)
	p.margin = a.resolveMargin(game, p.nn != nil)
	slim := game == "katarenga" // its actions are below 2^32
	if t, ok := a.pool.Get().(*table); ok && (t.slim != nil) == slim {
		t.clear()
		t.gen = 0
		p.tt = t
	} else {
		p.tt = newTable(a.HashMB, slim)
	}
	if game == "katarenga" {
		p.ec = make(evalCache, evalCacheSize)
	}
	p.bufs = make([][]engine.Action, maxPly+1)
	p.keys = make([][]int64, maxPly+1)
	p.b = budget{nodes: a.Nodes, movetime: a.Movetime}
	return p, nil
}

type abPlayer struct {
	cfg       *AlphaBeta
	w         Weights
	tt        *table // from the agent's pool (a pointer: putting it back does not allocate)
	b         budget
	tx        tactics
	bufs      [][]engine.Action
	keys      [][]int64 // ordering keys by ply (order)
	root      []engine.Action
	ties      []engine.Action
	best      []engine.Action // ties of the last completed iteration
	found     []engine.Action // partial: what the current iteration proved so far (see rootSearch)
	killers   [maxPly][2]engine.Action
	history   [4096]int32
	hist1     [2][4096]int32         // hist=1: the gravity history, by side (ply parity)
	cmTab     [2][4096]engine.Action // cm=1: countermoves, by side and the previous move's slot
	path      [maxPly]engine.Action  // the move played at each ply of the current path
	hist      int                    // the history option, resolved
	margin    int32                  // the futility margin, resolved
	cm        bool                   // the countermove option, resolved
	imp       bool                   // the improving flag's option, resolved
	stat      [maxPly]int32          // imp: the static evaluation of each ply's node on the current path
	rootDepth int
	exts      int       // threat extensions on the current path
	ext       bool      // whether threat extensions are on (ext, resolved for the game)
	sel       Selective // the selective search, resolved for the game
	tempo     int32     // the tempo credit, resolved for the game
	qsBaseTo  int       // without cfg.QSBase, quiescence still tries baseline moves at qd < qsBaseTo (MCTS's qsbase=N)
	ec        evalCache // Katarenga: evaluations by position hash, for the whole game
	layBoard  *katarenga.Board
	lay       *katLayout      // layBoard's layout features (Katarenga)
	kc        *katChildren    // MCTS's quiescence searcher: the children of the node expanded
	nn        *nnue.Evaluator // the learned evaluation (net=...); nil: the heuristic
	// Nodes counts every node searched by this player (for benchmarks).
	Nodes int64
	// Depth is the last completed iteration's depth (for tests and benchmarks).
	Depth int
	// Score is the last completed iteration's score for the player to move.
	Score int32
	// Partial counts the moves on which an unfinished iteration proved a root move better
	// than the previous iteration's best (partial=1; for tests and measurements).
	Partial int64
}

// SetStop implements Stopper.
func (p *abPlayer) SetStop(stop func() bool) { p.b.stop = stop }

// Close returns the transposition table to the agent's pool.
func (p *abPlayer) Close() error {
	if p.tt != nil {
		p.cfg.pool.Put(p.tt)
		p.tt = nil
	}
	return nil
}

func (p *abPlayer) Choose(s engine.State, legal []engine.Action, r *engine.Rand) (engine.Action, error) {
	if p.tt == nil {
		return 0, fmt.Errorf("alphabeta: player used after Close")
	}
	p.tx = newTactics(s)
	p.tt.gen++
	p.b.begin()
	p.root = append(p.root[:0], legal...)
	p.best = append(p.best[:0], legal[0])
	p.killers = [maxPly][2]engine.Action{}
	p.ageHistory()
	if p.imp {
		p.stat[0] = p.eval(s)
	}
	p.Depth, p.Score, p.exts = 0, 0, 0
	prev := int32(0)
	for depth := 1; depth <= p.cfg.Depth; depth++ {
		p.rootDepth = depth
		p.found = p.found[:0]
		p.b.armed = depth > 1 // the first iteration always completes: never worse than one ply
		lo, hi := int32(-Win-1), int32(Win+1)
		delta := int32(40)
		if p.cfg.Aspiration && depth >= 3 && prev > -evalBound && prev < evalBound {
			lo, hi = prev-delta, prev+delta
		}
		var v int32
		for {
			v = p.rootSearch(s, depth, lo, hi)
			if p.b.out {
				break
			}
			switch {
			case v <= lo && lo > -Win-1:
				lo, delta = max(lo-delta*4, -Win-1), delta*4
			case v >= hi && hi < Win+1:
				hi, delta = min(hi+delta*4, Win+1), delta*4
			default:
				delta = 0
			}
			if delta == 0 {
				break
			}
		}
		if p.b.out {
			if p.cfg.Partial && len(p.found) > 0 && !p.b.stopped {
				if p.found[0] != p.best[0] {
					p.Partial++
				}
				p.best = append(p.best[:0], p.found...)
			}
			break
		}
		prev = v
		p.best = append(p.best[:0], p.ties...)
		p.Depth, p.Score = depth, v
		if v >= Win-maxPly || v <= -Win+maxPly {
			break // a forced result is known
		}
		if p.cfg.Movetime > 0 && !p.cfg.Partial && p.b.elapsed() > p.cfg.Movetime/2 {
			break // the next iteration would not finish, and an unfinished one is dropped
		}
	}
	p.Nodes += p.b.count
	if p.b.stopped {
		return 0, ErrStopped
	}
	if len(p.best) == 1 {
		return p.best[0], nil
	}
	return p.best[r.IntN(len(p.best))], nil
}

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
	var ttMove engine.Action
	hasTT := false
	if e, ok := p.tt.probe(key); ok {
		ttMove, hasTT = e.move, e.flag == ttExact || e.flag == ttLower
		if int(e.depth) >= depth {
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
	}
	if p.cfg.IIR && ttMove == 0 && depth >= 4 {
		depth-- // internal iterative reduction: no move known here, so a shallower search first
	}
	pv := beta-alpha > 1
	static, haveStatic := int32(0), false
	imp := 0 // 1 when improving (imp=1): the static evaluation beats the one two plies up
	if p.imp {
		static, haveStatic = p.eval(s), true
		imp = p.improving(static, ply)
	}
	// Reverse futility: a non-PV node whose evaluation beats beta by the margin of its depth
	// (one ply less of margin when improving).
	if !pv && depth <= p.sel.RFP && inEval(beta) {
		if !haveStatic {
			static, haveStatic = p.eval(s), true
		}
		if v := static - p.margin*int32(depth-imp); v >= beta {
			return v
		}
	}
	// Null move (Katarenga): if passing still fails high at reduced depth, so would a move.
	if p.cfg.Null && nullOK && !pv && depth >= 3 && p.tx.kat != nil && inEval(beta) {
		if !haveStatic {
			static, haveStatic = p.eval(s), true
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
	if moves == nil {
		moves = s.Legal(p.bufs[ply][:0])
		p.bufs[ply] = moves
	}
	p.order(moves, ply, ttMove, hasTT)
	alpha0 := alpha
	best := int32(-Win - 1)
	var bestMove engine.Action
	for i := range moves {
		sc := p.pickNext(moves, ply, i)
		a := moves[i]
		ext := 0
		if ply < 2*p.rootDepth {
			ext = p.extension(a)
		}
		quiet := sc < orderKiller-1
		if i > 0 && quiet && ext == 0 && !pv && best > -Win+maxPly {
			// The moves left are all quiet (they are ordered): prune them all, or none.
			if depth <= p.sel.LMP && i >= p.lmpLimit(depth, imp) {
				break
			}
			if depth <= p.sel.Fut && inEval(alpha) {
				if !haveStatic {
					static, haveStatic = p.eval(s), true
				}
				if v := static + p.margin*int32(depth); v <= alpha {
					best = max(best, v)
					break
				}
			}
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
	p.tt.store(key, bestMove, best, depth, flag, ply)
	return best
}
