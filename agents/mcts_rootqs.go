package agents

import (
	"math"

	"github.com/fairplay-lab/fairplay/engine"
)

// rootQS (rootqs=1) values every root child that has no value of its own yet by its first
// visit, a quiescence search, before the playouts, each counted as a playout of the budget, and
// then takes the root's priors from the children's values: the softmax at temperature temp of
// their quiescence values (static evaluations and proofs for the others) instead of their
// static evaluations. It returns the playouts spent. s is the root position.
func (p *mctsPlayer) rootQS(s engine.State) int {
	root := &p.nodes[0]
	if root.n == 0 || root.proven != unproven {
		return 0
	}
	spent := 0
	for c := root.first; c < root.first+root.n; c++ {
		ch := &p.nodes[c]
		if ch.terminal || ch.proven != unproven || ch.evaluated || ch.n > 0 || spent >= p.cfg.Playouts {
			continue
		}
		if spent&7 == 0 {
			if p.b.poll(); p.b.out || p.qs.b.out {
				break
			}
		}
		s.Apply(ch.action)
		q := p.leafValue(c, s)
		s.Undo()
		p.Playouts++
		spent++
		ch = &p.nodes[c]
		ch.visits++
		ch.value += q
		p.nodes[0].visits++
		p.nodes[0].value += 1 - q
	}
	p.logits = p.logits[:0]
	root = &p.nodes[0]
	m := math.Inf(-1)
	for c := root.first; c < root.first+root.n; c++ {
		ch := &p.nodes[c]
		q := ch.q0
		if ch.evaluated || ch.n > 0 {
			q = ch.qv
		}
		switch ch.proven {
		case provenWin:
			q = 1
		case provenLoss:
			q = 0
		}
		q = min(max(q, 1e-6), 1-1e-6)
		v := p.cfg.evalScale * math.Log(float64(q)/float64(1-q)) / p.cfg.Temp
		p.logits = append(p.logits, v)
		m = max(m, v)
	}
	sum := 0.0
	for k, l := range p.logits {
		p.logits[k] = fastExp(l - m)
		sum += p.logits[k]
	}
	for k := range p.logits {
		p.nodes[root.first+int32(k)].prior = float32(p.logits[k] / sum)
	}
	return spent
}

// settled reports whether the most visited root child can no longer be overtaken (nor tied) by
// another child that is not proven lost when left more playouts remain: the move bestChild
// plays is then decided, barring a proof found later (prune=1; as Leela Chess Zero's "smart
// pruning" does).
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

// winsAtOnce reports whether the side to move in s (not over; moves its legal actions) has a
// threat move (tactics.threat: a Katarenga camp entry, a Baran king step) that wins the game
// on the spot.
func (p *mctsPlayer) winsAtOnce(s engine.State, moves []engine.Action) bool {
	tx := newTactics(s)
	me := s.ToMove()
	for _, a := range moves {
		if !tx.threat(a) {
			continue
		}
		s.Apply(a)
		st := s.Status()
		s.Undo()
		if st.Over && st.Winner == me {
			return true
		}
	}
	return false
}
