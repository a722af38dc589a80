package baran

import "github.com/fairplay-lab/fairplay/engine"

// PlayRecorded plays uniformly random legal actions to the end of the game as the runner's
// loop of PickLegal, AppendAction and Apply would, without an undo history
// (engine.RecordedPlayer). Like PlayRandom it hands apply the capturers the pick's scan found;
// with g.Sample it draws as RandomAction and PlayRandom do (their order of removal choices)
// and counts nothing.
func (s *State) PlayRecorded(g *engine.RecordedGame) bool {
	moves, legal := g.Moves, g.Legal
	first := true
	for ply := 0; ; ply++ {
		if ply&63 == 0 && g.Stop != nil && g.Stop() {
			g.Moves, g.Legal = moves, legal
			return false
		}
		r := g.Rand[s.side&1]
		if int(s.ply) < g.OpeningPlies {
			r = g.Opening
		}
		a, n, ok := s.pickUniform(r, !g.Sample)
		if !ok {
			g.Moves, g.Legal = moves, legal
			return true
		}
		if !g.Sample {
			legal += int64(n)
		}
		if !first {
			moves = append(moves, ' ')
		}
		first = false
		// s.moves is the scan of the position the action is played in, after its removal
		// (pickUniform's last scan); AppendAction does not touch it.
		capturers := s.moves.capturers
		moves = s.AppendAction(moves, a)
		s.applyWith(a, capturers)
	}
}
