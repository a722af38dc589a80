package engine

// Playout plays uniformly random legal actions from s until the game ends and returns the
// final status and the number of plies played. buf is scratch space for action lists (used
// only when s has no Fast path). It allocates nothing once s's history has grown.
func Playout(s State, r *Rand, buf []Action) (Status, int) {
	start := s.Ply()
	if rp, ok := s.(RandomPlayer); ok {
		n := rp.PlayRandom(r)
		return s.Status(), n
	}
	if rc, ok := s.(Fast); ok {
		for {
			a, ok := rc.RandomAction(r)
			if !ok {
				break
			}
			s.Apply(a)
		}
	} else {
		for {
			buf = s.Legal(buf[:0])
			if len(buf) == 0 {
				break
			}
			s.Apply(buf[r.IntN(len(buf))])
		}
	}
	return s.Status(), s.Ply() - start
}

// RandomPlayer is an optional fast path for Playout: a State that plays uniformly random legal
// actions to the end of the game itself, drawing from r exactly as repeated RandomAction and
// Apply calls would (so the game is the same either way), keeping the undo history, and
// returning the number of plies played.
type RandomPlayer interface {
	PlayRandom(r *Rand) (plies int)
}
