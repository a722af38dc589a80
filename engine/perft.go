package engine

// PerftBuffers returns one action buffer per depth 0..depth for Perft.
func PerftBuffers(depth int) [][]Action {
	b := make([][]Action, depth+1)
	for i := range b {
		b[i] = make([]Action, 0, 512)
	}
	return b
}

// Perft counts the distinct action sequences of length depth (>= 1) from s, counting each
// action once (RULES.md Part 3); bufs come from PerftBuffers. s is restored afterwards.
func Perft(s State, depth int, bufs [][]Action) uint64 {
	moves := s.Legal(bufs[depth][:0])
	bufs[depth] = moves
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, a := range moves {
		s.Apply(a)
		n += Perft(s, depth-1, bufs)
		s.Undo()
	}
	return n
}
