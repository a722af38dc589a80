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
	// V holds each perspective's H int16 values, four to a word: lane k of word i (bits 16k..
	// 16k+15) is value 4i+k plus 2^15, so in 0..2^16−1 (Net.check bounds every accumulator
	// within int16). A word is the integer Σ lane_k·2^16k, so adding a row of values r_k
	// packed as the integer Σ r_k·2^16k (Net.w1p, wrapping) is one 64-bit addition: the sum
	// is exact modulo 2^64, and with every lane of the result in range no lane borrows from
	// another. V[0] and V[1] are the two halves of both, so that one pass over both updates
	// the two perspectives.
	V     [2][]uint64
	both  []uint64
	valid bool
}

// Value returns perspective p's accumulator entry j.
func (a *Accumulator) Value(p, j int) int16 { return unbias(a.V[p][j/4] >> (16 * (j % 4))) }

// unbias is the value of the accumulator lane in the low 16 bits of u.
func unbias(u uint64) int16 { return int16(uint16(u) ^ 0x8000) }

// Evaluator evaluates positions of one game with one network. It keeps the accumulator of the
// last position it saw and updates it by the difference of planes: inside a search, apply and
// undo change a few bits, so consecutive evaluations (a node, its children, their siblings)
// cost a few row additions each. It is not safe for concurrent use; each player has its own.
type Evaluator struct {
	Net   *Net
	m     *FeatureMap
	own   FeatureMap // Katarenga's map, for board
	board *katarenga.Board
	base  []uint64 // bias plus the constant inputs, both perspectives (packed as Acc.both)
	Acc   Accumulator
	h2    []int32
	pl    Planes
	// cr holds one row for every (plane, square), both perspectives' halves side by side (as
	// Acc.both), packed or in lanes (below): the sum of the rows of that bit's features (Katarenga's
	// pawn-on-coloured-square and its distance input are one addition); live marks the bits
	// that have any in either perspective.
	cr   []uint64
	live Planes
	// lanes: cr holds each row's values lane by lane (value j in lane j%4 of word j/4, modulo
	// 2^16, no borrow between lanes) and the accumulator is updated by the SIMD routines (SSE2,
	// or AVX2 where the processor has it), lane by lane; otherwise cr holds packed rows, added
	// as 64-bit words. Both give the same accumulator: its lanes are in range (Net.check), so
	// the packed sum has no borrow either.
	lanes bool
	np    int // planes the game uses (the others are always empty)
	// Updates and Refreshes count incremental updates and full recomputations (benchmarks).
	Updates, Refreshes int64
}

// NewEvaluator makes an evaluator for a network.
func NewEvaluator(n *Net) *Evaluator {
	w := n.H / 4
	e := &Evaluator{Net: n, h2: make([]int32, n.L2), base: make([]uint64, 2*w), np: NumPlanes, lanes: useLanes}
	e.Acc.both = make([]uint64, 2*w)
	e.Acc.V = [2][]uint64{e.Acc.both[:w:w], e.Acc.both[w:]}
	copy(e.base, n.b1p)
	copy(e.base[w:], n.b1p)
	e.cr = make([]uint64, NumPlanes*64*2*w)
	if n.game == Baran {
		e.m = BaranMap()
		e.buildRows()
	} else {
		e.m = &e.own
		e.np = katPlanes
	}
	return e
}

// katPlanes is the number of planes Katarenga uses (pawns of each player, camps).
const katPlanes = 3

// useLanes: new evaluators update their accumulators lane by lane with the SIMD routines
// (Evaluator.lanes). A variable so that tests can check the packed path too.
var useLanes = haveSIMD

// buildRows fills cr and live from the feature map.
func (e *Evaluator) buildRows() {
	n, m, w := e.Net, e.m, e.Net.H/4
	e.live = Planes{}
	for pl := 0; pl < NumPlanes; pl++ {
		for sq := 0; sq < 64; sq++ {
			r := e.bitRow(pl, sq)
			clear(r)
			for p := 0; p < 2; p++ {
				for _, f := range [2]int16{m.Row[p][pl][sq], m.Row2[p][pl][sq]} {
					if f < 0 {
						continue
					}
					if e.lanes {
						addLaneValues(r[p*w:(p+1)*w], n.W1[int(f)*n.H:(int(f)+1)*n.H])
					} else {
						addRow(r[p*w:(p+1)*w], n.row(int(f)))
					}
					e.live[pl] |= 1 << sq
				}
			}
		}
	}
}

// addLaneValues adds the values v to the lanes of words (value j to lane j%4 of word j/4),
// each lane modulo 2^16.
func addLaneValues(words []uint64, v []int16) {
	for j, x := range v {
		sh := 16 * uint(j%4)
		lane := uint16(words[j/4]>>sh) + uint16(x)
		words[j/4] = words[j/4]&^(0xFFFF<<sh) | uint64(lane)<<sh
	}
}

// add, sub and addSub update acc by cr's rows in cr's layout.
func (e *Evaluator) add(acc, row []uint64) {
	if e.lanes {
		addLanes(acc, row)
	} else {
		addRow(acc, row)
	}
}

func (e *Evaluator) sub(acc, row []uint64) {
	if e.lanes {
		subLanes(acc, row)
	} else {
		subRow(acc, row)
	}
}

func (e *Evaluator) addSub(acc, add, sub []uint64) {
	if e.lanes {
		addSubLanes(acc, add, sub)
	} else {
		addSubRow(acc, add, sub)
	}
}

// bitRow returns the combined row of a plane's square (both perspectives, as Acc.both).
func (e *Evaluator) bitRow(pl, sq int) []uint64 {
	w := len(e.base)
	return e.cr[(pl*64+sq)*w : (pl*64+sq+1)*w]
}

// setBoard rebuilds the Katarenga feature map and constant rows for a new board.
func (e *Evaluator) setBoard(b *katarenga.Board) {
	e.board = b
	c := Colours(b)
	KatarengaMap(&e.own, &c)
	e.buildRows()
	n, w := e.Net, e.Net.H/4
	for p := 0; p < 2; p++ {
		b := e.base[p*w : (p+1)*w]
		copy(b, n.b1p)
		for _, f := range e.own.Constant[p] {
			addRow(b, n.row(int(f)))
		}
	}
	e.Acc.valid = false
}

// hi16 is the top bit of every 16-bit lane: the bias of the accumulator's lanes (Accumulator.V).
const hi16 = 0x8000800080008000

// addRow adds row to acc (packed values, Accumulator.V).
func addRow(acc, row []uint64) {
	row = row[:len(acc)]
	for j := range acc {
		acc[j] += row[j]
	}
}

// subRow subtracts row from acc.
func subRow(acc, row []uint64) {
	row = row[:len(acc)]
	for j := range acc {
		acc[j] -= row[j]
	}
}

// addSubRow adds add and subtracts sub in one pass over acc (a piece moving within a plane).
func addSubRow(acc, add, sub []uint64) {
	add, sub = add[:len(acc)], sub[:len(acc)]
	for j := range acc {
		acc[j] += add[j] - sub[j]
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
		for i := range pl[:e.np] {
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
// those of the bits cleared, both perspectives at once; a set and a cleared bit of the same
// plane (a move) share one pass.
func (e *Evaluator) apply(pl *Planes) {
	a := &e.Acc
	acc := a.both
	for i := range pl[:e.np] {
		old, cur := a.Planes[i], pl[i]
		if old == cur {
			continue
		}
		add, sub := (cur&^old)&e.live[i], (old&^cur)&e.live[i]
		for ; add != 0 && sub != 0; add, sub = add&(add-1), sub&(sub-1) {
			e.addSub(acc, e.bitRow(i, bits.TrailingZeros64(add)), e.bitRow(i, bits.TrailingZeros64(sub)))
		}
		for ; add != 0; add &= add - 1 {
			e.add(acc, e.bitRow(i, bits.TrailingZeros64(add)))
		}
		for ; sub != 0; sub &= sub - 1 {
			e.sub(acc, e.bitRow(i, bits.TrailingZeros64(sub)))
		}
	}
	a.Planes = *pl
}

// Refresh recomputes the accumulator of planes pl from scratch.
func (e *Evaluator) Refresh(pl *Planes) {
	e.Refreshes++
	a := &e.Acc
	copy(a.both, e.base)
	for i := range pl[:e.np] {
		for b := pl[i] & e.live[i]; b != 0; b &= b - 1 {
			e.add(a.both, e.bitRow(i, bits.TrailingZeros64(b)))
		}
	}
	a.Planes = *pl
	a.valid = true
}

// Forward runs the layers after the accumulator for side to move stm.
func (e *Evaluator) Forward(stm int) int32 {
	n := e.Net
	if n.w2s != nil {
		out := n.B3 + dotLanes(e.Acc.V[stm], e.Acc.V[stm^1], n.w2s)
		return int32(int64(out) * int64(n.Scale) / (QA * QB))
	}
	if n.L2 == 0 {
		w := n.w2p[:n.H/2]
		s := dot(e.Acc.V[stm], w[:n.H/4]) + dot(e.Acc.V[stm^1], w[n.H/4:])
		// The sum's low half holds the cross terms, |·| < H·2^14 < 2^31: biased by 2^31 it
		// borrows nothing from the high half, which is the dot product, |·| < 2^31 too.
		out := n.B3 + int32((s+1<<31)>>32)
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

// dot returns, in its high 32 bits (modulo 2^64), the sum of clamp(v_j)·w_j over the values
// v_j of an accumulator half, with w its output weights packed by packOut: a word's clamped
// lanes a0..a3 as (a0 + a2·2^32) and (a1 + a3·2^32), times (w2 + w0·2^32) and (w3 + w1·2^32),
// put a0·w0 + a2·w2 and a1·w1 + a3·w3 in the high half, and a0·w2 and a1·w3 in the low half.
func dot(acc []uint64, w [][2]uint64) uint64 {
	const even = 0x0000FFFF0000FFFF
	w = w[:len(acc)]
	var s uint64
	for i, u := range acc {
		u = clamp4(u)
		s += (u&even)*w[i][0] + (u>>16&even)*w[i][1]
	}
	return s
}

// clamp4 is clamp of each of the four accumulator lanes of u at once (each lane 0..QA).
func clamp4(u uint64) uint64 {
	const (
		over = (0x8000 - QA - 1) * 0x0001000100010001 // added to a value 0..2^15−1: top bit iff > QA
		qa   = QA * 0x0001000100010001
	)
	// A lane without its bias bit holds a negative value: to 0; the others to their value
	// (h − h>>15 is 2^15−1 in the lanes whose top bit h has).
	h := u & hi16
	u &= h - h>>15
	// No carry leaves a lane: 2^15−1 + over < 2^16.
	h = (u + over) & hi16
	m := h - h>>15
	return u&^m | m&qa
}

// clamp is the clipped ReLU of the accumulator lane in the low 16 bits of u: 0..QA.
func clamp(u uint64) int32 { return int32(min(max(unbias(u), 0), QA)) }

func trailing(b uint64) int { return bits.TrailingZeros64(b) }
