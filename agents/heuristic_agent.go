package agents

import "sync"

// heuristicAgent holds the weights=FILE parameter of an agent that evaluates positions; the
// file is read over the game's defaults at the first NewPlayer for a game (the game is known
// only then).
type heuristicAgent struct {
	weightsFile string
	mu          sync.Mutex
	cache       map[string]Weights
}

// weights returns fixed when it is set, else the game's weights from the weights parameter
// (loaded once per game).
func (h *heuristicAgent) weights(game string, fixed Weights) (Weights, error) {
	if fixed != nil {
		return fixed, nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if w, ok := h.cache[game]; ok {
		return w, nil
	}
	var w Weights
	var err error
	if h.weightsFile == "" {
		w, err = DefaultWeights(game)
	} else {
		w, err = LoadWeights(game, h.weightsFile)
	}
	if err != nil {
		return nil, err
	}
	if h.cache == nil {
		h.cache = map[string]Weights{}
	}
	h.cache[game] = w
	return w, nil
}
