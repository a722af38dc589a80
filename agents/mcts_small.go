package agents

import (
	"math"
)

// settled reports whether the most visited root child can no longer be overtaken (nor tied) by
// another child that is not proven lost when left more playouts remain: the move bestChild
// plays is then decided, unless the rest of the budget would have proven that child lost
// (prune=1; as Leela Chess Zero's "smart pruning" does). The game still changes: the search
// drew fewer random numbers and leaves a smaller tree for the next move to reuse.
func (p *mctsPlayer) settled(left int) bool {
	if p.cfg.PickValue {
		return false
	}
	root := &p.nodes[0]
	first, second := int32(-1), int32(-1)
	for c := root.first; c < root.first+root.n; c++ {
		nd := &p.nodes[c]
		if nd.proven == provenLoss && p.cfg.Solver {
			continue
		}
		switch v := nd.visits; {
		case v > first:
			first, second = v, first
		case v > second:
			second = v
		}
	}
	return first >= 0 && first-max(second, 0) > int32(left)
}

// refreshPrior (refresh=1) re-takes node i's prior from its quiescence value qv instead of its
// static evaluation q0: its softmax logit moves by the difference of the two evaluations (in
// evaluation units, over temp), the other priors unchanged; capped at 1.
func (p *mctsPlayer) refreshPrior(i int32) {
	nd := &p.nodes[i]
	q0 := min(max(float64(nd.q0), 1e-6), 1-1e-6)
	qv := min(max(float64(nd.qv), 1e-6), 1-1e-6)
	d := p.cfg.evalScale * (math.Log(qv/(1-qv)) - math.Log(q0/(1-q0))) / p.cfg.Temp
	nd.prior = float32(min(1, float64(nd.prior)*fastExp(d)))
}
