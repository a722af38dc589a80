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
	// V holds each perspective's H int16 values, four to a word (lane k of word i is value
	// 4i+k): rows are added and subtracted four lanes at a time (SWAR).
	V     [2][]uint64
	valid bool
}

// Value returns perspective p's accumulator entry j.
func (a *Accumulator) Value(p, j int) int16 { return int16(a.V[p][j/4] >> (16 * (j % 4))) }

// Evaluator evaluates positions of one game with one network. It keeps the accumulator of the
// last position it saw and updates it by the difference of planes: inside a search, apply and
// undo change a few bits, so consecutive evaluations (a node, its children, their siblings)
// cost a few row additions each. It is not safe for concurrent use; each player has its own.
type Evaluator struct {
	Net   *Net
	m     *FeatureMap
	own   FeatureMap // Katarenga's map, for board
	board *katarenga.Board
	base  [2][]uint64 // bias plus the constant inputs, per perspective (packed as Acc.V)
	Acc   Accumulator
	h2    []int32
	pl    Planes
	// cr holds, per perspective, one packed row for every (plane, square): the sum of the rows
	// of that bit's features (Katarenga's pawn-on-coloured-square and its distance input are
	// one addition); live marks the bits that have any.
	cr   [2][]uint64
	live [2]Planes
	// Updates and Refreshes count incremental updates and full recomputations (benchmarks).
	Updates, Refreshes int64
}

// NewEvaluator makes an evaluator for a network.
func NewEvaluator(n *Net) *Evaluator {
	e := &Evaluator{Net: n, h2: make([]int32, n.L2)}
	for p := 0; p < 2; p++ {
		e.base[p] = make([]uint64, n.H/4)
		e.Acc.V[p] = make([]uint64, n.H/4)
		copy(e.base[p], n.b1p)
	}
	for p := 0; p < 2; p++ {
		e.cr[p] = make([]uint64, NumPlanes*64*n.H/4)
	}
	if n.game == Baran {
		e.m = BaranMap()
		e.buildRows()
	} else {
		e.m = &e.own
	}
	return e
}

// buildRows fills cr and live from the feature map.
func (e *Evaluator) buildRows() {
	n, m, w := e.Net, e.m, e.Net.H/4
	for p := 0; p < 2; p++ {
		e.live[p] = Planes{}
		for pl := 0; pl < NumPlanes; pl++ {
			for sq := 0; sq < 64; sq++ {
				r := e.cr[p][(pl*64+sq)*w : (pl*64+sq+1)*w]
				clear(r)
				for _, f := range [2]int16{m.Row[p][pl][sq], m.Row2[p][pl][sq]} {
					if f >= 0 {
						addRow(r, n.row(int(f)))
						e.live[p][pl] |= 1 << sq
					}
				}
			}
		}
	}
}

// bitRow returns perspective p's combined row of a plane's square.
func (e *Evaluator) bitRow(p, pl, sq int) []uint64 {
	w := e.Net.H / 4
	return e.cr[p][(pl*64+sq)*w : (pl*64+sq+1)*w]
}

// setBoard rebuilds the Katarenga feature map and constant rows for a new board.
func (e *Evaluator) setBoard(b *katarenga.Board) {
	e.board = b
	c := Colours(b)
	KatarengaMap(&e.own, &c)
	e.buildRows()
	n := e.Net
	for p := 0; p < 2; p++ {
		copy(e.base[p], n.b1p)
		for _, f := range e.own.Constant[p] {
			addRow(e.base[p], n.row(int(f)))
		}
	}
	e.Acc.valid = false
}

// hi16 is the sign bit of every 16-bit lane.
const hi16 = 0x8000800080008000

// addRow adds row to acc lane by lane (16-bit lanes, wrapping as int16 would; no carry
// crosses a lane).
func addRow(acc, row []uint64) {
	row = row[:len(acc)]
	for j, a := range acc {
		b := row[j]
		acc[j] = ((a &^ hi16) + (b &^ hi16)) ^ ((a ^ b) & hi16)
	}
}

// subRow subtracts row from acc lane by lane.
func subRow(acc, row []uint64) {
	row = row[:len(acc)]
	for j, a := range acc {
		b := row[j]
		acc[j] = ((a | hi16) - (b &^ hi16)) ^ ((a ^ ^b) & hi16)
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
	a := &e.Acc
	for i := range pl {
		old, cur := a.Planes[i], pl[i]
		for p := 0; p < 2; p++ {
			live := e.live[p][i]
			for b := (cur &^ old) & live; b != 0; b &= b - 1 {
				addRow(a.V[p], e.bitRow(p, i, bits.TrailingZeros64(b)))
			}
			for b := (old &^ cur) & live; b != 0; b &= b - 1 {
				subRow(a.V[p], e.bitRow(p, i, bits.TrailingZeros64(b)))
			}
		}
	}
	a.Planes = *pl
}

// Refresh recomputes the accumulator of planes pl from scratch.
func (e *Evaluator) Refresh(pl *Planes) {
	e.Refreshes++
	a := &e.Acc
	for p := 0; p < 2; p++ {
		copy(a.V[p], e.base[p])
		for i := range pl {
			for b := pl[i] & e.live[p][i]; b != 0; b &= b - 1 {
				addRow(a.V[p], e.bitRow(p, i, bits.TrailingZeros64(b)))
			}
		}
	}
	a.Planes = *pl
	a.valid = true
}

// Forward runs the layers after the accumulator for side to move stm.
func (e *Evaluator) Forward(stm int) int32 {
	n := e.Net
	if n.L2 == 0 {
		out := n.B3
		for half, acc := range [2][]uint64{e.Acc.V[stm], e.Acc.V[stm^1]} {
			w := n.W2[half*n.H : (half+1)*n.H]
			w = w[:4*len(acc)]
			for i, u := range acc {
				out += clamp(u)*int32(w[4*i]) + clamp(u>>16)*int32(w[4*i+1]) +
					clamp(u>>32)*int32(w[4*i+2]) + clamp(u>>48)*int32(w[4*i+3])
			}
		}
		return int32(int64(out) * int64(n.Scale) / (QA * QB))
	}
	h2 := e.h2
	copy(h2, n.B2)
	l2 := n.L2
	for half, acc := range [2][]uint64{e.Acc.V[stm], e.Acc.V[stm^1]} {
		w := n.W2[half*n.H*l2 : (half+1)*n.H*l2]
		for i := 0; i < n.H; i++ {
			a := clamp(acc[i/4] >> (16 * (i % 4)))
			if a == 0 {
				continue
			}
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

// clamp is the clipped ReLU of the int16 in the low 16 bits of u: 0..QA.
func clamp(u uint64) int32 { return int32(min(max(int16(u), 0), QA)) }

func trailing(b uint64) int { return bits.TrailingZeros64(b) }
