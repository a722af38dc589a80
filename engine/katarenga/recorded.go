package katarenga

import "github.com/fairplay-lab/fairplay/engine"

// squareNames are the two-letter names of the squares and camps (SquareName), indexed by an
// action's from or to part.
var squareNames = func() (t [128][2]byte) {
	for sq := 0; sq < 68; sq++ {
		copy(t[sq][:], SquareName(sq))
	}
	return t
}()

// PlayRecorded plays uniformly random legal actions to the end of the game as the runner's
// loop of PickLegal, AppendAction and Apply would, without an undo history
// (engine.RecordedPlayer). With g.Sample it draws with RandomAction instead (no legal count).
//
// The actions of up to 64 plies are kept in an array and written out as notation between
// blocks (where the stop request is polled): a loop without calls, where the per-ply append
// between the pick and apply calls kept the move list's registers spilling.
func (s *State) PlayRecorded(g *engine.RecordedGame) bool {
	var block [64]engine.Action
	moves, legal := g.Moves, g.Legal
	m0 := len(moves) // every action is appended with a space before it; the first's goes at the end
	for {
		if g.Stop != nil && g.Stop() {
			g.Moves, g.Legal = moves[:m0], legal
			return false
		}
		n, ended := s.playBlock(g, &block, &legal)
		moves = appendBlock(moves, block[:n])
		if ended {
			break
		}
	}
	if len(moves) > m0 {
		moves = append(moves[:m0], moves[m0+1:]...)
	}
	g.Moves, g.Legal = moves, legal
	return true
}

// playBlock plays up to len(block) plies, storing their actions in block; it returns how many
// it played and whether the game ended.
func (s *State) playBlock(g *engine.RecordedGame, block *[64]engine.Action, legal *int64) (int, bool) {
	if g.Sample {
		for i := range block {
			r := g.Rand[s.side&1]
			if int(s.ply) < g.OpeningPlies {
				r = g.Opening
			}
			a, ok := s.RandomAction(r)
			if !ok {
				return i, true
			}
			block[i] = a
			s.apply(a)
		}
		return len(block), false
	}
	for i := range block {
		r := g.Rand[s.side&1]
		if int(s.ply) < g.OpeningPlies {
			r = g.Opening
		}
		a, n, ok := s.PickLegal(r)
		if !ok {
			return i, true
		}
		*legal += int64(n)
		block[i] = a
		s.apply(a)
	}
	return len(block), false
}

// appendBlock appends the notation of acts, each with a space before it.
func appendBlock(moves []byte, acts []engine.Action) []byte {
	for _, a := range acts {
		if a == Pass {
			moves = append(moves, " pass"...)
			continue
		}
		f, t := &squareNames[a&63], &squareNames[a>>6&127]
		moves = append(moves, ' ', f[0], f[1], '-', t[0], t[1])
	}
	return moves
}
