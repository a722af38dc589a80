package engine

// Playout plays uniformly random legal actions from s until the game ends and returns the
// final status and the number of plies played. buf is scratch space for action lists (used
// only when s has no RandomChooser fast path). It allocates nothing once s's history has grown.
func Playout(s State, r *Rand, buf []Action) (Status, int) {
	start := s.Ply()
	if rc, ok := s.(RandomChooser); ok {
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
