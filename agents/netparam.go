package agents

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/fairplay-lab/fairplay/agents/nnue"
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// netParamDoc documents the net parameter of the searchers that can use a learned evaluation.
const netParamDoc = "evaluation: none (the hand-written heuristic), builtin (the first network shipped for the game, agents/nnue/nets), builtin2 ... (later ones, where the game has them), a network file made by 'fairplay train' (one named like a built-in: ./builtin2), or auto = the game's newest built-in network under a movetime budget, else none (docs/agents.md, Learned evaluation)"

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
	case "none", "auto":
		return nil
	case "":
		return fmt.Errorf("agent %s: net is empty: want none, auto, builtin, builtin2 ... or a network file", p.kind)
	}
	if v, ok := builtinVersion(h.netSpec); ok {
		if v < 1 || !nnue.BuiltinExists(v) {
			return fmt.Errorf("agent %s: net=%s: no such built-in network (builtin is the first, builtin2 ... the later ones)", p.kind, h.netSpec)
		}
		return nil
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
		v := h.builtin(game, timed)
		if v == 0 {
			for g := range h.nets {
				return nil, fmt.Errorf("net=%s is a %s network, not %s", h.netSpec, g, game)
			}
		}
		var err error
		if n, err = nnue.BuiltinVersion(game, v); err != nil {
			return nil, err
		}
		if h.nets == nil {
			h.nets = map[string]*nnue.Net{}
		}
		h.nets[game] = n
	}
	return nnue.NewEvaluator(n), nil
}

// builtin is the version of the game's built-in network the agent plays (timed: it has a
// movetime budget): the one net=builtin<v> names, the newest where net=auto chooses a network,
// 0 where it plays the heuristic or a network file.
func (h *netAgent) builtin(game string, timed bool) int {
	if v, ok := builtinVersion(h.netSpec); ok {
		return v
	}
	if h.auto(timed) {
		return max(1, nnue.LatestBuiltin(game))
	}
	return 0
}

// builtinVersion is the built-in network a net spec names: builtin is version 1, builtin<v>
// version v (a number that names no network is refused by parseNet); ok is false for none,
// auto and file names.
func builtinVersion(spec string) (v int, ok bool) {
	if spec == "builtin" {
		return 1, true
	}
	rest, found := strings.CutPrefix(spec, "builtin")
	if !found || rest == "" || strings.Trim(rest, "0123456789") != "" {
		return 0, false
	}
	v, err := strconv.Atoi(rest)
	if err != nil || v < 2 || rest[0] == '0' {
		return -1, true
	}
	return v, true
}

// auto reports whether net=auto means the game's newest built-in network (timed: the agent has a movetime
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
