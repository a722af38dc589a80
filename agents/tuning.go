package agents

import (
	"fmt"
	"strings"
)

// HeuristicWeights returns the weights agent a evaluates the named game with: its fixed
// weights, else its weights file over the game's defaults, else the defaults. Agents without
// a heuristic (random, external programs) are an error.
func HeuristicWeights(a Agent, game string) (Weights, error) {
	switch x := a.(type) {
	case *Greedy:
		return x.weights(game, x.W)
	case *AlphaBeta:
		return x.weights(game, x.W)
	case *MCTS:
		return x.weights(game, x.W)
	case *Classic:
		return x.classicWeightsFor(game)
	}
	return nil, errNoHeuristic(a)
}

func hasHeuristic(a Agent) bool {
	switch a.(type) {
	case *Greedy, *AlphaBeta, *MCTS, *Classic:
		return true
	}
	return false
}

func errNoHeuristic(a Agent) error {
	return fmt.Errorf("agent %s has no heuristic weights to tune (use greedy, alphabeta, classic or mcts)", a.Spec())
}

// WithWeights returns a fresh agent configured like a that evaluates with w (used by tuning;
// w is shared read-only by every game of the agent).
func WithWeights(a Agent, w Weights) (Agent, error) {
	b, err := Parse(a.Spec())
	if err != nil {
		return nil, err
	}
	switch x := b.(type) {
	case *Greedy:
		x.W = w
	case *AlphaBeta:
		x.W = w
	case *MCTS:
		x.W = w
	case *Classic:
		x.W = w
	default:
		return nil, errNoHeuristic(a)
	}
	return b, nil
}

// WithWeightsFile returns the canonical spec of agent spec with its weights parameter set to
// path.
func WithWeightsFile(spec, path string) (string, error) {
	if strings.ContainsAny(path, ",:=") {
		return "", fmt.Errorf("weights file %q: the path may not contain ',', ':' or '='", path)
	}
	a, err := Parse(spec)
	if err != nil {
		return "", err
	}
	if !hasHeuristic(a) {
		return "", errNoHeuristic(a)
	}
	// The canonical spec names every parameter once: replace its weights item.
	kind, params, _ := strings.Cut(a.Spec(), ":")
	items := strings.Split(params, ",")
	for i, it := range items {
		if strings.HasPrefix(it, "weights=") {
			items[i] = "weights=" + path
		}
	}
	b, err := Parse(kind + ":" + strings.Join(items, ","))
	if err != nil {
		return "", err
	}
	return b.Spec(), nil
}
