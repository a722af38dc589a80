package agents

import (
	"fmt"
	"sync"

	"github.com/fairplay-lab/fairplay/agents/nnue"
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// netParamDoc documents the net parameter of the searchers that can use a learned evaluation.
const netParamDoc = "evaluation: none (the hand-written heuristic), builtin (the network shipped for the game, agents/nnue/nets), a network file made by 'fairplay train', or auto = builtin under a movetime budget (where it measured stronger at equal time), else none (docs/agents.md, Learned evaluation)"

// netAgent holds the net=... parameter of an agent: the networks are loaded once per game at
// the first NewPlayer (the game is known only then) and shared, read-only, by its players.
type netAgent struct {
	netSpec string
	mu      sync.Mutex
	nets    map[string]*nnue.Net
}

// parseNet checks a net parameter when the agent is built: a file is read at once, so a
// missing or damaged file is reported before any game.
func (h *netAgent) parseNet(p Params) error {
	h.netSpec = p.String("net")
	switch h.netSpec {
	case "none", "builtin", "auto":
		return nil
	case "":
		return fmt.Errorf("agent %s: net is empty: want none, builtin or a network file", p.kind)
	}
	n, err := nnue.Load(h.netSpec)
	if err != nil {
		return fmt.Errorf("agent %s: net=%s: %w", p.kind, h.netSpec, err)
	}
	h.nets = map[string]*nnue.Net{n.Game: n}
	return nil
}

// evaluator returns a fresh evaluator of the game's network, or nil for the heuristic (net=none,
// or net=auto where it means none; timed: the agent has a movetime budget).
func (h *netAgent) evaluator(game string, timed bool) (*nnue.Evaluator, error) {
	if h.netSpec == "none" || h.netSpec == "" || (h.netSpec == "auto" && !h.auto(timed)) {
		return nil, nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	n, ok := h.nets[game]
	if !ok {
		if h.netSpec != "builtin" && h.netSpec != "auto" {
			for g := range h.nets {
				return nil, fmt.Errorf("net=%s is a %s network, not %s", h.netSpec, g, game)
			}
		}
		var err error
		if n, err = nnue.Builtin(game); err != nil {
			return nil, err
		}
		if h.nets == nil {
			h.nets = map[string]*nnue.Net{}
		}
		h.nets[game] = n
	}
	return nnue.NewEvaluator(n), nil
}

// auto reports whether net=auto means the built-in network (timed: the agent has a movetime
// budget). Under a movetime budget the network measured stronger than the hand-written
// evaluation at equal time in both games and both families (docs/agents.md, "Learned
// evaluation"); depth, node and playout budgets keep the heuristic, so that deterministic runs
// and their recorded results are unchanged.
func (h *netAgent) auto(timed bool) bool {
	return h.netSpec == "auto" && timed
}

// netEval is the network's evaluation of s and the tactical-move hints of the position: both
// set in Baran; in Katarenga qsUnknown, as the network does not compute the side to move's
// reach that katHints needs (the quiescence search computes them only where the stand-pat does
// not cut, katHintsOf: a third of the cost of a network evaluation saved at the others).
func netEval(e *nnue.Evaluator, s engine.State) (float64, uint8) {
	v := float64(e.Evaluate(s))
	if _, ok := s.(*katarenga.State); ok {
		return v, qsUnknown
	}
	return v, qsCapture | qsBaseline
}
