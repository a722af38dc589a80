package agents

import (
	"slices"
	"time"

	"github.com/fairplay-lab/fairplay/engine"
)

// halving spends the playout budget by sequential halving at the root (Karnin, Koren and
// Somekh 2013; Danihelka et al. 2022 use it in Gumbel MuZero for small budgets): the k most
// likely children (by prior, proven losses left out) share the budget in ⌈log2 k⌉ rounds, each
// round giving every remaining child an equal number of playouts through it (PUCT below it),
// after which the better half by value stays. It returns the child left, or -1 when the root
// has no candidate. The schedule is planned on the playouts budget; a time budget or the stop
// request may end it in any round, and then the best candidate so far by value is returned.
// Under a time budget alone (movetime without playouts) it is planned on the time instead:
// each round's candidates share the time left equally with the rounds after it.
func (p *mctsPlayer) halving(s engine.State, r *engine.Rand) int32 {
	root := p.nodes[0]
	p.cands = p.cands[:0]
	for c := root.first; c < root.first+root.n; c++ {
		if p.nodes[c].proven == provenWin {
			return c
		}
		if p.nodes[c].proven != provenLoss || !p.cfg.Solver {
			p.cands = append(p.cands, c)
		}
	}
	if len(p.cands) == 0 {
		return -1
	}
	slices.SortStableFunc(p.cands, func(a, b int32) int { return cmpDesc(p.nodes[a].prior, p.nodes[b].prior) })
	p.cands = p.cands[:min(len(p.cands), p.cfg.Halving)]
	rounds := 0
	for k := 1; k < len(p.cands); k *= 2 {
		rounds++
	}
	left, it := p.cfg.Playouts, 0
	timed := p.cfg.timeOnly()
	defer func() { p.force = 0 }()
	for round := 0; round < rounds && len(p.cands) > 1; round++ {
		per := max(1, left/((rounds-round)*len(p.cands)))
		var share time.Duration // timed: each candidate's time this round
		if timed {
			per = left
			share = (p.cfg.Movetime - p.b.elapsed()) / time.Duration((rounds-round)*len(p.cands))
		}
		for _, c := range p.cands {
			p.force = c
			end := p.b.elapsed() + share
			for j := 0; j < per && left > 0; j++ {
				if timed && j > 0 && j&7 == 0 && p.b.elapsed() >= end {
					break
				}
				if !p.more(it) {
					return p.bestCandidate()
				}
				p.playout(s, r)
				it++
				left--
				if p.nodes[c].proven == provenWin {
					return c
				}
			}
		}
		p.rankCandidates()
		p.cands = p.cands[:(len(p.cands)+1)/2]
	}
	return p.bestCandidate()
}

// rankCandidates sorts the halving candidates by value, best first (ties by prior), proven
// losses last.
func (p *mctsPlayer) rankCandidates() {
	slices.SortStableFunc(p.cands, func(a, b int32) int {
		na, nb := &p.nodes[a], &p.nodes[b]
		if la, lb := na.proven == provenLoss, nb.proven == provenLoss; la != lb {
			if la {
				return 1
			}
			return -1
		}
		if c := cmpDesc(p.value(na), p.value(nb)); c != 0 {
			return c
		}
		return cmpDesc(na.prior, nb.prior)
	})
}

// bestCandidate is the best remaining halving candidate by value.
func (p *mctsPlayer) bestCandidate() int32 {
	p.rankCandidates()
	return p.cands[0]
}

// cmpDesc orders larger values first.
func cmpDesc(a, b float32) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}
