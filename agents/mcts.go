package agents

import (
	"math"
	"strconv"
	"time"

	"github.com/fairplay-lab/fairplay/engine"
)

// MCTS is Monte-Carlo tree search with PUCT selection: priors are a softmax of the children's
// evaluations, a new child starts with its evaluation as one virtual playout, and a leaf is
// scored by the one-ply evaluation of its expansion (rollout=eval) or by a rollout cut off after
// cutoff plies and scored by the evaluation. MCTS-Solver backs up proven wins and losses, and
// the subtree of the position reached is kept between moves. The budget is a playout count
// (deterministic) or a time per move (not reproducible).
type MCTS struct {
	spec string
	heuristicAgent
	netAgent
	Playouts  int
	Movetime  time.Duration
	C         float64 // PUCT exploration constant
	Temp      float64 // prior temperature, in evaluation units
	Rollout   string  // eval, random or heuristic
	Epsilon   float64 // random move probability in heuristic rollouts
	Cutoff    int     // rollout plies before the evaluation scores it (0: play to the end)
	Prior     string  // eval (softmax of the children's evaluations) or move (tactical moves first)
	PickValue bool    // play the child of best value (pick=value) instead of the most visited
	Tempo     float64 // evaluation units added for the side to move at a leaf
	TempoAuto bool    // tempo=auto: the game's default (mctsAutoTempo) instead of Tempo
	Halving   int     // sequential halving at the root over this many children (0: PUCT alone)
	Expand    int     // the visit of a node at which its children are added (1 or 2)
	Minimax   float64 // weight of the implicit minimax value in selection (0: the mean alone)
	QSBase    int     // Katarenga: plies of the leaves' quiescence that also search moves onto the enemy baseline
	Prune     bool    // stop a playout budget early once the most visited root child cannot be overtaken
	Refresh   bool    // a child's prior is re-taken from its quiescence value at its first visit
	Win1      bool    // a leaf whose side to move wins at once is proven at its first visit
	Solver    bool
	Reuse     bool
	W         Weights
	evalScale float64
}

func init() {
	register(Kind{Name: "mcts", Doc: "PUCT Monte-Carlo tree search: evaluation priors and leaf values, MCTS-Solver, tree reuse; playouts or movetime budget",
		Params: []Param{
			{"playouts", "1000", "playouts per move (1..10000000); the budget unless movetime is set"},
			{"movetime", "0", "time per move such as 100ms, 0 for none (not reproducible)"},
			{"c", "1.5", "PUCT exploration constant"},
			{"temp", "100", "prior temperature in evaluation units (a pawn or warrior is about 100)"},
			{"rollout", "qs", "qs (children valued by a quiescence search over tactical moves), ply (the better for the opponent of quiescence and the best quiet reply's evaluation), eval (by the evaluation), random or heuristic (epsilon-greedy) rollouts"},
			{"prior", "eval", "eval (softmax of the children's evaluations) or move (cheap: tactical moves e times likelier, no child evaluation)"},
			{"cutoff", "8", "rollout plies after which the evaluation scores a rollout (0: play to the end)"},
			{"eps", "0.2", "random-move probability in heuristic rollouts"},
			{"tempo", "auto", "evaluation units credited to the side to move in every evaluation (leaves at odd and even depths then compare); auto = 50 in Katarenga, 0 in Baran"},
			{"mm", "0", "implicit minimax backups: weight in 0..1 of the minimax of the evaluations in the tree against the mean reward in selection (Lanctot et al. 2014)"},
			{"pick", "visits", "the move played: visits (the most visited child) or value (the best mean, mixed with the minimax value by mm, among visited children)"},
			{"expand", "2", "the visit of a node at which its children are added: 1 (its first visit also values it by quiescence) or 2 (a first visit only values it; the second adds the children, with their evaluations, and values one of them: a close but not identical tree for about half the evaluations); always 1 unless rollout=qs"},
			{"halving", "0", "sequential halving at the root (Karnin et al. 2013, as in Gumbel MuZero): the budget is split in rounds over the k most likely children, the better half by value kept each round (under movetime alone, the rounds share the time); k (2..256), 0 off"},
			{"qsbase", "1", "Katarenga: the first N plies (0..4) of the leaves' quiescence search also try moves onto the enemy baseline (alphabeta's qsbase=1 does so at every ply)"},
			{"prune", "1", "stop early when the most visited root child can no longer be overtaken within the playouts budget (the same move unless a proof the rest of the budget would have found changes it; later searches differ, having a smaller tree to reuse); off with pick=value or halving: 1 on, 0 off"},
			{"refresh", "1", "re-take a child's prior from its quiescence value at its first visit (its softmax logit moves from the static evaluation to the quiescence value); with expand=2 and prior=eval only: 1 on, 0 off"},
			{"win1", "1", "with the solver and expand=2, a leaf whose side to move has a tactical move (capture, removal, camp entry, king step) that wins at once is proven at its first visit: 1 on, 0 off"},
			{"solver", "1", "MCTS-Solver, proven wins and losses back up: 1 on, 0 off"},
			{"reuse", "1", "keep the subtree of the position reached between moves: 1 on, 0 off"},
			{"weights", "", "JSON file of heuristic weights"},
			{"net", "auto", netParamDoc + "; the priors and the leaves' quiescence values use it (rollout=qs or ply)"},
		},
		Late:  []string{"net"},
		build: buildMCTS})
}

func buildMCTS(p Params) (Agent, error) {
	m := &MCTS{heuristicAgent: heuristicAgent{weightsFile: p.String("weights")}, evalScale: 150}
	if err := m.parseNet(p); err != nil {
		return nil, err
	}
	var err error
	if m.Playouts, err = p.Int("playouts", 1, maxPlayouts); err != nil {
		return nil, err
	}
	if m.Movetime, err = parseMovetime(p); err != nil {
		return nil, err
	}
	if m.C, err = p.Float("c", 0, 100); err != nil {
		return nil, err
	}
	if m.Temp, err = p.Float("temp", 1, 100000); err != nil {
		return nil, err
	}
	if v := p.String("halving"); v != "0" {
		if m.Halving, err = p.Int("halving", 2, 256); err != nil {
			return nil, err
		}
	}
	if m.Expand, err = p.Int("expand", 1, 2); err != nil {
		return nil, err
	}
	if m.TempoAuto = p.String("tempo") == "auto"; !m.TempoAuto {
		if m.Tempo, err = p.Float("tempo", -1000, 1000); err != nil {
			return nil, err
		}
	}
	if m.QSBase, err = p.Int("qsbase", 0, 4); err != nil {
		return nil, err
	}
	if m.Minimax, err = p.Float("mm", 0, 1); err != nil {
		return nil, err
	}
	switch p.String("pick") {
	case "visits":
	case "value":
		m.PickValue = true
	default:
		return nil, errorf("agent mcts: pick=%q: want visits or value", p.String("pick"))
	}
	if m.Epsilon, err = p.Float("eps", 0, 1); err != nil {
		return nil, err
	}
	if m.Prior = p.String("prior"); m.Prior != "eval" && m.Prior != "move" {
		return nil, errorf("agent mcts: prior=%q: want eval or move", m.Prior)
	}
	if m.Cutoff, err = p.Int("cutoff", 0, 100000); err != nil {
		return nil, err
	}
	if err := p.switches([]string{"solver", "reuse", "prune", "refresh", "win1"}, &m.Solver, &m.Reuse, &m.Prune, &m.Refresh, &m.Win1); err != nil {
		return nil, err
	}
	switch m.Rollout = p.String("rollout"); m.Rollout {
	case "qs", "ply", "eval", "random", "heuristic":
	default:
		return nil, errorf("agent mcts: rollout=%q: want qs, ply, eval, random or heuristic", m.Rollout)
	}
	if m.Prior == "move" && (m.Rollout == "ply" || m.Rollout == "eval" || m.Minimax > 0) {
		// prior=move never evaluates the children, and these read their evaluations.
		return nil, errorf("agent mcts: prior=move gives no child evaluations, which rollout=%s and mm=%g need: use prior=eval", m.Rollout, m.Minimax)
	}
	if m.netSpec != "none" && m.netSpec != "auto" && m.Rollout != "qs" && m.Rollout != "ply" {
		return nil, errorf("agent mcts: net=%s evaluates through the quiescence search: use rollout=qs or ply", m.netSpec)
	}
	if m.Rollout != "qs" { // the other leaf values need the children at the first visit
		m.Expand = 1
		p.vals["expand"] = "1"
	}
	if m.Movetime > 0 {
		p.vals["movetime"] = m.Movetime.String()
		if p.vals["playouts"] == "1000" {
			m.Playouts = maxPlayouts // a time budget alone
			p.vals["playouts"] = strconv.Itoa(maxPlayouts)
		}
	}
	m.spec = p.canonical(kinds["mcts"])
	return m, nil
}

// Spec returns the canonical spec.
func (m *MCTS) Spec() string { return m.spec }

// Reproducible is false with a time budget, else true.
func (m *MCTS) Reproducible() bool { return m.Movetime == 0 }

// timeOnly reports whether the budget is the time alone: movetime with the playouts at their
// bound (which movetime without playouts sets), so no playout count can plan the search.
func (m *MCTS) timeOnly() bool { return m.Movetime > 0 && m.Playouts == maxPlayouts }

// NewPlayer makes a player for one game.
func (m *MCTS) NewPlayer(game string) (Player, error) {
	w, err := m.weights(game, m.W)
	if err != nil {
		return nil, err
	}
	// The tree's storage starts at about the size of one search (up to 2^16 nodes), so that it
	// is not regrown from nothing in every game.
	capNodes := min(16*m.Playouts+engine.MaxActions, 1<<16)
	p := &mctsPlayer{cfg: m, w: w, buf: make([]engine.Action, 0, engine.MaxActions),
		b: budget{movetime: m.Movetime}, nodes: make([]node, 0, capNodes), tempo: m.Tempo}
	if m.TempoAuto {
		p.tempo = mctsAutoTempo[game]
	}
	if m.Reuse {
		p.spare = make([]node, 0, capNodes)
	}
	if m.Rollout == "qs" || m.Rollout == "ply" {
		// The quiescence search credits the side to move in every evaluation it makes (stand-pat
		// and capture lines alike), so tempo is its own, rounded to whole evaluation units.
		p.qs = &abPlayer{cfg: &AlphaBeta{Quiescence: true}, w: w, tempo: int32(math.Round(p.tempo)), qsBaseTo: 4 + m.QSBase,
			bufs: make([][]engine.Action, maxPly+1)}
		if p.qs.nn, err = m.evaluator(game, m.Movetime > 0); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// mctsAutoTempo is tempo=auto's credit by game: in Katarenga it raised MCTS's score against
// alphabeta:depth=2 (docs/search.md); in Baran a credit of 50 lowered it.
var mctsAutoTempo = map[string]float64{"katarenga": 50}

// maxPlayouts bounds playouts; movetime without playouts sets it (the time is then the budget).
const maxPlayouts = 10_000_000

// Proof states of a node, for the player who made its action.
const (
	unproven int8 = iota
	provenWin
	provenLoss
)

type node struct {
	action   engine.Action
	hash     uint64 // of the position after action
	parent   int32
	first, n int32   // children: nodes[first : first+n]; n == 0 while unexpanded
	visits   int32   // playouts through this node
	value    float32 // their total reward for the player who made action
	q0       float32 // the evaluation's reward estimate, counted as one virtual playout
	mm       float32 // implicit minimax reward (mm > 0): see backupMinimax
	qv       float32 // the reward its quiescence search gave when it was expanded
	prior    float32
	proven   int8
	terminal bool // the game is over after action
	// evaluated: the node's quiescence value is in qv though it has no children yet (expand=2)
	evaluated bool
	tactical  bool // action is a tactical move (set when rollout=ply or mm > 0)
}

type mctsPlayer struct {
	cfg    *MCTS
	w      Weights
	b      budget
	nodes  []node
	spare  []node
	buf    []engine.Action
	logits []float64
	qs     *abPlayer // the quiescence searcher valuing new children (rollout=qs)
	ties   []engine.Action
	chosen int32 // the root child played last move (for tree reuse), -1: none
	force  int32 // the root child every playout goes through (halving), 0: chosen by PUCT
	cands  []int32
	tempo  float64 // the tempo credit, resolved for the game
	// Playouts counts every playout run by this player (for benchmarks).
	Playouts int64
	// Proven is the root's proof state after the last Choose (provenLoss: the player to move
	// wins by force).
	Proven int8
}

// SetStop implements Stopper.
func (p *mctsPlayer) SetStop(stop func() bool) {
	p.b.stop = stop
	if p.qs != nil {
		p.qs.b.stop = stop
	}
}

func (p *mctsPlayer) Choose(s engine.State, legal []engine.Action, r *engine.Rand) (engine.Action, error) {
	p.b.begin()
	if p.qs != nil {
		p.qs.b.out, p.qs.b.stopped = false, false
	}
	if !p.reroot(s) {
		p.nodes = append(p.nodes[:0], node{parent: -1, hash: s.Hash()})
		p.expand(0, s, r)
	}
	best := int32(-1)
	if p.cfg.Halving > 0 {
		best = p.halving(s, r)
	} else {
		for it := 0; it < p.cfg.Playouts && p.more(it); it++ {
			p.playout(s, r)
			if p.cfg.Prune && it&7 == 7 && p.settled(p.cfg.Playouts-it-1) {
				break
			}
		}
	}
	if p.b.stopped || (p.qs != nil && p.qs.b.stopped) {
		p.chosen = -1
		return 0, ErrStopped
	}
	p.Proven = p.nodes[0].proven
	if best < 0 || p.Proven != unproven {
		best = p.bestChild()
	}
	p.chosen = best
	return p.nodes[best].action, nil
}

// more reports whether the search may run playout it (counted from 0): the root is unproven,
// the tree below its cap and, polled every 8 playouts, the time and the stop request allow.
// maxTreeNodes caps the tree (56 bytes a node: 448 MB) so that a long time budget cannot
// exhaust memory or the int32 node indices; the search then stops as at its budget.
func (p *mctsPlayer) more(it int) bool {
	if p.nodes[0].proven != unproven || len(p.nodes) >= maxTreeNodes {
		return false
	}
	if it&7 == 0 {
		if p.b.poll(); p.b.out || (p.qs != nil && p.qs.b.out) {
			return false
		}
	}
	return true
}

// bestChild is a proven win, else the most visited child not proven lost (ties by value).
func (p *mctsPlayer) bestChild() int32 {
	root := p.nodes[0]
	best := int32(-1)
	for c := root.first; c < root.first+root.n; c++ {
		nd := &p.nodes[c]
		if nd.proven == provenWin {
			return c
		}
		if best < 0 {
			best = c
			continue
		}
		b := &p.nodes[best]
		if (b.proven == provenLoss) != (nd.proven == provenLoss) {
			if b.proven == provenLoss {
				best = c
			}
			continue
		}
		if p.cfg.PickValue {
			if nd.visits > 0 && (b.visits == 0 || p.value(nd) > p.value(b)) {
				best = c
			}
			continue
		}
		if nd.visits > b.visits || (nd.visits == b.visits && p.q(nd) > p.q(b)) {
			best = c
		}
	}
	return best
}

// q is a node's mean reward for the player who made its action, its evaluation included.
func (p *mctsPlayer) q(nd *node) float32 { return (nd.value + nd.q0) / float32(nd.visits+1) }

// value is the selection value of a node without exploration: its mean reward, mixed with its
// implicit minimax reward by mm.
func (p *mctsPlayer) value(nd *node) float32 {
	v := p.q(nd)
	if a := float32(p.cfg.Minimax); a > 0 {
		v = (1-a)*v + a*nd.mm
	}
	return v
}

// playout runs one selection, expansion, evaluation and backup from the root.
func (p *mctsPlayer) playout(s engine.State, r *engine.Rand) {
	p.Playouts++
	cur, depth := int32(0), 0
	for p.nodes[cur].n > 0 && p.nodes[cur].proven == unproven {
		if depth == 0 && p.force > 0 {
			cur = p.force
		} else {
			cur = p.selectChild(cur)
		}
		s.Apply(p.nodes[cur].action)
		depth++
	}
	nd := &p.nodes[cur]
	var reward float32 // for the player who made nd's action
	switch {
	case nd.proven == provenWin:
		reward = 1
	case nd.proven == provenLoss:
		reward = 0
	case nd.terminal:
		reward = nd.q0
	case p.cfg.Expand == 2 && !nd.evaluated && cur != 0:
		reward = p.leafValue(cur, s)
	case p.cfg.Expand == 2:
		var down bool
		cur, reward, down = p.expandDescend(cur, s, r)
		if down {
			depth++
		}
	default:
		reward = p.expand(cur, s, r)
		if p.cfg.Minimax > 0 {
			p.backupMinimax(cur)
		}
		if p.cfg.Rollout == "random" || p.cfg.Rollout == "heuristic" {
			reward = p.rollout(s, s.ToMove().Other(), r)
		}
	}
	for ; depth > 0; depth-- {
		s.Undo()
	}
	prove := p.cfg.Solver && p.nodes[cur].proven != unproven
	mm := p.cfg.Minimax > 0
	for c := cur; c >= 0; c = p.nodes[c].parent {
		nd := &p.nodes[c]
		nd.visits++
		nd.value += reward
		reward = 1 - reward
		if prove && c != cur {
			prove = p.prove(c)
		}
		if mm && c != cur {
			p.backupMinimax(c)
		}
	}
}

// backupMinimax sets an expanded node's implicit minimax reward: one minus the opponent's best
// of their quiescence value at the node (its tactical lines), the minimax rewards of the
// children already expanded and the evaluations of the quiet children not yet expanded (a
// tactical child's evaluation is not trusted before its own quiescence search). A proven
// node's is its proof.
func (p *mctsPlayer) backupMinimax(c int32) {
	nd := &p.nodes[c]
	switch nd.proven {
	case provenWin:
		nd.mm = 1
		return
	case provenLoss:
		nd.mm = 0
		return
	}
	best := 1 - nd.qv
	for _, ch := range p.nodes[nd.first : nd.first+nd.n] {
		if ch.n > 0 || ch.evaluated || ch.terminal || ch.proven != unproven || !ch.tactical {
			best = max(best, ch.mm)
		}
	}
	nd.mm = 1 - best
}

// prove updates node c's proof from its children and reports whether it changed to proven.
func (p *mctsPlayer) prove(c int32) bool {
	nd := &p.nodes[c]
	if nd.proven != unproven {
		return false
	}
	all := nd.n > 0
	for k := nd.first; k < nd.first+nd.n; k++ {
		switch p.nodes[k].proven {
		case provenWin: // the player to move at c wins: c's mover loses
			nd.proven = provenLoss
			return true
		case provenLoss:
		default:
			all = false
		}
	}
	if all {
		nd.proven = provenWin
		return true
	}
	return false
}

// selectChild picks by PUCT among the children not proven lost.
func (p *mctsPlayer) selectChild(i int32) int32 {
	nd := &p.nodes[i]
	sq := float32(p.cfg.C * math.Sqrt(float64(nd.visits+1)))
	best, bestV := nd.first, float32(math.Inf(-1))
	for c := nd.first; c < nd.first+nd.n; c++ {
		ch := &p.nodes[c]
		if ch.proven == provenLoss && p.cfg.Solver {
			continue
		}
		v := p.value(ch) + sq*ch.prior/float32(1+ch.visits)
		if v > bestV {
			best, bestV = c, v
		}
	}
	return best
}
