package agents

import (
	"cmp"
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
	IIR bool
	// AspDelta is the aspiration window's first half-width (aspd), in evaluation units; 0:
	// defaultAspDelta.
	AspDelta int32
	// LMRDiv is lmr=3's divisor in hundredths (lmrdiv; logReductions); 0: defaultLMRDiv.
	LMRDiv int
	// TTEval: the pruning's static evaluation is refined by the table's score (tteval=1).
	TTEval bool
	// Corr: correction history (corr=1; correction.go), Katarenga only.
	Corr bool
	// SE and CapHist are the singular extensions' and the capture history's options (se,
	// caph; singular.go): 1 on, 0 off, Auto (-1) the game's default (autoNetSE, autoNetCapHist
	// under movetime with the network, else off).
	SE, CapHist int
	// Shallow is the shallow table's size in MB (shallow; shallow.go): 0 none, Auto (-1) the
	// game's default (autoNetShallow under movetime with the network, else none).
	Shallow int
	W       Weights
	pool    sync.Pool
	pool1   sync.Pool // the shallow tables (shallow=N), as pool
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
			{"lmr", "auto", "late-move reductions: 1 on, 2 stronger (more and deeper reductions of late quiet moves), 3 logarithmic (0.75 + ln depth · ln i / 2 for the i-th move, 0-based; lmrdiv sets the divisor), 0 off; auto = under a nodes or movetime budget 3 in Katarenga, 1 in Baran, with depth alone 1"},
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
			{"shallow", "auto", shallowDoc},
			{"tteval", "0", ttEvalDoc},
			{"corr", "0", corrDoc},
			{"se", "auto", seDoc},
			{"caph", "auto", capHistDoc},
			{"lmrdiv", "200", "lmr=3's divisor in hundredths: the i-th move (0-based) is reduced 0.75 + ln depth · ln i / (lmrdiv/100) plies (100..400; smaller: larger reductions) (docs/search.md)"},
			{"aspd", "40", "aspiration windows (asp=1): an iteration first searches the previous score ± this, in evaluation units (5..1000); a bound that fails moves out by 4 times this, then 16 times, and so on (docs/search.md)"},
		},
		Late:  []string{"net", "partial", "hist", "cm", "imp", "iir", "shallow", "tteval", "corr", "caph", "se", "lmrdiv", "aspd"},
		Quiet: []string{"partial", "hist", "cm", "imp", "iir", "shallow", "tteval", "corr", "caph", "se", "lmrdiv", "aspd"},
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
	t, err := p.IntOrAuto("tempo", 0, 300)
	if err != nil {
		return nil, err
	}
	a.Tempo = int32(t)
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
	if a.SE, a.CapHist, err = parseSingular(p); err != nil {
		return nil, err
	}
	if err := p.switches([]string{"iir", "tteval", "corr"}, &a.IIR, &a.TTEval, &a.Corr); err != nil {
		return nil, err
	}
	if a.Shallow, err = parseShallow(p); err != nil {
		return nil, err
	}
	aspd, err := p.Int("aspd", 5, 1000)
	if err != nil {
		return nil, err
	}
	a.AspDelta = int32(aspd)
	div, err := p.Int("lmrdiv", 100, 400)
	if err != nil {
		return nil, err
	}
	a.LMRDiv = div
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
	p.aspDelta = cmp.Or(a.AspDelta, defaultAspDelta)
	p.lmrLog = lmrLog
	if d := cmp.Or(a.LMRDiv, defaultLMRDiv); d != defaultLMRDiv {
		p.lmrLog = logReductions(d)
	}
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
		if a.Corr {
			p.corr = new(corrTables)
		}
		if resolveAuto(a.CapHist, a.Movetime > 0 && p.nn != nil, autoNetCapHist[game]) && p.hist >= 1 {
			p.capHist = new([2][4096]int32)
		}
		p.se = resolveAuto(a.SE, a.Movetime > 0 && p.nn != nil, autoNetSE[game])
	}
	if mb := a.resolveShallow(game, p.nn != nil); mb > 0 {
		if t, ok := a.pool1.Get().(*table); ok && (t.slim != nil) == slim {
			t.clear()
			t.gen = 0
			p.tt1 = t
		} else {
			p.tt1 = newTable(mb, slim)
		}
	}
	p.bufs = make([][]engine.Action, maxPly+1)
	p.keys = make([][]int64, maxPly+1)
	p.b = budget{nodes: a.Nodes, movetime: a.Movetime}
	return p, nil
}

type abPlayer struct {
	cfg       *AlphaBeta
	w         Weights
	tt        *table        // from the agent's pool (a pointer: putting it back does not allocate)
	tt1       *table        // shallow=N: the table of the nodes of depth 1 and 2 (shallow.go); nil: none
	lmrLog    *[64][64]int8 // lmr=3's reductions (lmrdiv)
	aspDelta  int32         // the aspiration window's first half-width (aspd)
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
	lay       *katLayout            // layBoard's layout features (Katarenga)
	kc        *katChildren          // MCTS's quiescence searcher: the children of the node expanded
	nn        *nnue.Evaluator       // the learned evaluation (net=...); nil: the heuristic
	corr      *corrTables           // corr=1 (Katarenga): the correction history; nil: none
	capHist   *[2][4096]int32       // caph=1 (Katarenga, hist ≥ 1): the capture history by side; nil: none
	excl      [maxPly]engine.Action // se: the move the singular search at each ply leaves out; 0: none
	se        bool                  // singular extensions (se, resolved; Katarenga only)
	// Nodes counts every node searched by this player (for benchmarks).
	Nodes int64
	// Depth is the last completed iteration's depth (for tests and benchmarks).
	Depth int
	// Score is the last completed iteration's score for the player to move.
	Score int32
	// Partial counts the moves on which an unfinished iteration proved a root move better
	// than the previous iteration's best (partial=1; for tests and measurements).
	Partial int64
	// Singular and MultiCut count the singular searches (se) that extended the table move and
	// those that returned their bound (for tests and measurements).
	Singular, MultiCut int64
}

// SetStop implements Stopper.
func (p *abPlayer) SetStop(stop func() bool) { p.b.stop = stop }

// Close returns the transposition tables to the agent's pools.
func (p *abPlayer) Close() error {
	if p.tt != nil {
		p.cfg.pool.Put(p.tt)
		p.tt = nil
	}
	if p.tt1 != nil {
		p.cfg.pool1.Put(p.tt1)
		p.tt1 = nil
	}
	return nil
}

func (p *abPlayer) Choose(s engine.State, legal []engine.Action, r *engine.Rand) (engine.Action, error) {
	if p.tt == nil {
		return 0, fmt.Errorf("alphabeta: player used after Close")
	}
	p.tx = newTactics(s)
	p.tt.gen++
	if p.tt1 != nil {
		p.tt1.gen++
	}
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
		delta := p.aspDelta
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
