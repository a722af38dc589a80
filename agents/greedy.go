package agents

import (
	"math"

	"github.com/fairplay-lab/fairplay/engine"
)

// Greedy plays the action whose resulting position the heuristic likes best (a win first),
// breaking ties at random.
type Greedy struct {
	spec string
	heuristicAgent
	W Weights // fixed weights (set by tuning); nil: from the weights parameter
}

func init() {
	register(Kind{Name: "greedy", Doc: "one ply with the heuristic evaluation, random tie-break",
		Params: []Param{{"weights", "", "JSON file of heuristic weights (default: the built-in ones)"}},
		build: func(p Params) (Agent, error) {
			g := &Greedy{heuristicAgent: heuristicAgent{weightsFile: p.String("weights")}}
			g.spec = p.canonical(kinds["greedy"])
			return g, nil
		}})
}

// Spec returns the canonical spec.
func (g *Greedy) Spec() string { return g.spec }

// Reproducible is true.
func (g *Greedy) Reproducible() bool { return true }

// NewPlayer makes a player for one game.
func (g *Greedy) NewPlayer(game string) (Player, error) {
	w, err := g.weights(game, g.W)
	if err != nil {
		return nil, err
	}
	return &greedyPlayer{w: w}, nil
}

type greedyPlayer struct {
	w    Weights
	ties []engine.Action
}

func (p *greedyPlayer) Choose(s engine.State, legal []engine.Action, r *engine.Rand) (engine.Action, error) {
	var a engine.Action
	a, p.ties = onePly(s, legal, p.w, p.ties, r)
	return a, nil
}

// onePly returns the action after which the heuristic likes the position best (a win first),
// drawn with r among equals; ties is scratch space, returned for reuse.
func onePly(s engine.State, moves []engine.Action, w Weights, ties []engine.Action, r *engine.Rand) (engine.Action, []engine.Action) {
	best := math.Inf(-1)
	ties = ties[:0]
	for _, a := range moves {
		s.Apply(a)
		var v float64
		if st := s.Status(); st.Over {
			v = float64(-terminal(s, 0))
		} else {
			v = -Evaluate(s, w)
		}
		s.Undo()
		if v > best {
			best, ties = v, append(ties[:0], a)
		} else if v == best {
			ties = append(ties, a)
		}
	}
	return ties[r.IntN(len(ties))], ties
}
