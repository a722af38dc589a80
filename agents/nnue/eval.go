package nnue

import (
	"math/bits"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// refreshAbove: when more (plane, square) bits than this changed since the accumulator's
// position, recompute it rather than update it (an update costs two rows per changed bit).
const refreshAbove = 24

// Accumulator is the first layer's output for one position, for both perspectives, with the
// planes it was computed for: a later position is reached by adding and subtracting the rows
// of the bits that differ.
type Accumulator struct {
	Planes Planes
	V      [2][]int16
	valid  bool
}

// Evaluator evaluates positions of one game with one network. It keeps the accumulator of the
// last position it saw and updates it by the difference of planes: inside a search, apply and
// undo change a few bits, so consecutive evaluations (a node, its children, their siblings)
// cost a few row additions each. It is not safe for concurrent use; each player has its own.
type Evaluator struct {
	Net   *Net
	m     *FeatureMap
	own   FeatureMap // Katarenga's map, for board
	board *katarenga.Board
	base  [2][]int16 // bias plus the constant inputs, per perspective
	Acc   Accumulator
	h2    []int32
	pl    Planes
	// Updates and Refreshes count incremental updates and full recomputations (benchmarks).
	Updates, Refreshes int64
}

// NewEvaluator makes an evaluator for a network.
func NewEvaluator(n *Net) *Evaluator {
	e := &Evaluator{Net: n, h2: make([]int32, n.L2)}
	for p := 0; p < 2; p++ {
		e.base[p] = make([]int16, n.H)
		e.Acc.V[p] = make([]int16, n.H)
		copy(e.base[p], n.B1)
	}
	if n.game == Baran {
		e.m = BaranMap()
	} else {
		e.m = &e.own
	}
	return e
}

// setBoard rebuilds the Katarenga feature map and constant rows for a new board.
func (e *Evaluator) setBoard(b *katarenga.Board) {
	e.board = b
	c := Colours(b)
	KatarengaMap(&e.own, &c)
	n := e.Net
	for p := 0; p < 2; p++ {
		copy(e.base[p], n.B1)
		for _, f := range e.own.Constant[p] {
			addRow(e.base[p], n.W1[int(f)*n.H:int(f+1)*n.H])
		}
	}
	e.Acc.valid = false
}

func addRow(acc, row []int16) {
	row = row[:len(acc)]
	for j := range acc {
		acc[j] += row[j]
	}
}

func subRow(acc, row []int16) {
	row = row[:len(acc)]
	for j := range acc {
		acc[j] -= row[j]
	}
}

// Evaluate returns the evaluation of s for the side to move, in evaluation units (Net.Scale
// per logit). s must be of the network's game; other States evaluate to 0.
func (e *Evaluator) Evaluate(s engine.State) int32 {
	stm, ok := e.Update(s)
	if !ok {
		return 0
	}
	return e.Forward(stm)
}

// Update brings the accumulator to position s, incrementally when it can, and returns the
// side to move.
func (e *Evaluator) Update(s engine.State) (stm int, ok bool) {
	if k, isK := s.(*katarenga.State); isK {
		if e.Net.game != Katarenga {
			return 0, false
		}
		if b := k.Board(); b != e.board {
			e.setBoard(b)
		}
	} else if e.Net.game != Baran {
		return 0, false
	}
	if stm, ok = Read(s, &e.pl); !ok {
		return 0, false
	}
	e.UpdatePlanes(&e.pl)
	return stm, true
}

// UpdatePlanes brings the accumulator to the position of planes pl (on the evaluator's board).
func (e *Evaluator) UpdatePlanes(pl *Planes) {
	a := &e.Acc
	if a.valid {
		changed := 0
		for i := range pl {
			changed += bits.OnesCount64(pl[i] ^ a.Planes[i])
		}
		if changed <= refreshAbove {
			e.Updates++
			e.apply(pl)
			return
		}
	}
	e.Refresh(pl)
}

// apply adds the rows of the bits set in pl but not in the accumulator's planes and subtracts
// those of the bits cleared.
func (e *Evaluator) apply(pl *Planes) {
	a, n, m := &e.Acc, e.Net, e.m
	for i := range pl {
		old, cur := a.Planes[i], pl[i]
		for b := cur &^ old; b != 0; b &= b - 1 {
			sq := bits.TrailingZeros64(b)
			for p := 0; p < 2; p++ {
				if f := int(m.Row[p][i][sq]); f >= 0 {
					addRow(a.V[p], n.W1[f*n.H:f*n.H+n.H])
				}
			}
		}
		for b := old &^ cur; b != 0; b &= b - 1 {
			sq := bits.TrailingZeros64(b)
			for p := 0; p < 2; p++ {
				if f := int(m.Row[p][i][sq]); f >= 0 {
					subRow(a.V[p], n.W1[f*n.H:f*n.H+n.H])
				}
			}
		}
	}
	a.Planes = *pl
}

// Refresh recomputes the accumulator of planes pl from scratch.
func (e *Evaluator) Refresh(pl *Planes) {
	e.Refreshes++
	a, n, m := &e.Acc, e.Net, e.m
	for p := 0; p < 2; p++ {
		copy(a.V[p], e.base[p])
		for i := range pl {
			for b := pl[i]; b != 0; b &= b - 1 {
				if f := int(m.Row[p][i][bits.TrailingZeros64(b)]); f >= 0 {
					addRow(a.V[p], n.W1[f*n.H:f*n.H+n.H])
				}
			}
		}
	}
	a.Planes = *pl
	a.valid = true
}

// Forward runs the layers after the accumulator for side to move stm.
func (e *Evaluator) Forward(stm int) int32 {
	n := e.Net
	h2 := e.h2
	copy(h2, n.B2)
	l2 := n.L2
	for half, acc := range [2][]int16{e.Acc.V[stm], e.Acc.V[stm^1]} {
		w := n.W2[half*n.H*l2 : (half+1)*n.H*l2]
		for i, x := range acc {
			if x <= 0 {
				continue
			}
			a := int32(min(x, QA))
			row := w[i*l2 : i*l2+l2]
			row = row[:len(h2)]
			for j := range h2 {
				h2[j] += a * int32(row[j])
			}
		}
	}
	out := n.B3
	w3 := n.W3[:len(h2)]
	for j, s := range h2 {
		h := min(max(s/QB, 0), QA)
		out += h * int32(w3[j])
	}
	return int32(int64(out) * int64(n.Scale) / (QA * QB))
}

func trailing(b uint64) int { return bits.TrailingZeros64(b) }
