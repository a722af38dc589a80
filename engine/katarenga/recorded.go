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
func (s *State) PlayRecorded(g *engine.RecordedGame) bool {
	moves, legal := g.Moves, g.Legal
	m0 := len(moves) // every action is appended with a space before it; the first's goes at the end
	for ply := 0; ; ply++ {
		if ply&63 == 0 && g.Stop != nil && g.Stop() {
			g.Moves, g.Legal = moves[:m0], legal
			return false
		}
		r := g.Rand[s.side&1]
		if int(s.ply) < g.OpeningPlies {
			r = g.Opening
		}
		var a engine.Action
		var n int
		var ok bool
		if g.Sample {
			a, ok = s.RandomAction(r)
		} else {
			a, n, ok = s.PickLegal(r)
		}
		if !ok {
			break
		}
		legal += int64(n)
		if a == Pass {
			moves = append(moves, " pass"...)
		} else {
			f, t := &squareNames[a&63], &squareNames[a>>6&127]
			moves = append(moves, ' ', f[0], f[1], '-', t[0], t[1])
		}
		s.apply(a)
	}
	if len(moves) > m0 {
		moves = append(moves[:m0], moves[m0+1:]...)
	}
	g.Moves, g.Legal = moves, legal
	return true
}
