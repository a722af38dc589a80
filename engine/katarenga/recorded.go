package katarenga

import (
	"encoding/binary"
	"slices"

	"github.com/fairplay-lab/fairplay/engine"
)

// blockLen is how many plies PlayRecorded plays between two polls of the stop request.
const blockLen = 64

// Notation words: an action's " from-to" as the low 6 bytes of a little-endian word, the
// OR of fromWords[from] (" ff-") and toWords[to] ("tt" in bytes 4 and 5); passWord is " pass".
var fromWords, toWords = func() (f [64]uint64, t [128]uint64) {
	for sq := 0; sq < 68; sq++ {
		name := SquareName(sq)
		if sq < 64 {
			f[sq] = ' ' | uint64(name[0])<<8 | uint64(name[1])<<16 | '-'<<24
		}
		t[sq] = uint64(name[0])<<32 | uint64(name[1])<<40
	}
	return f, t
}()

const passWord = ' ' | 'p'<<8 | 'a'<<16 | 's'<<24 | 's'<<32

// PlayRecorded plays uniformly random legal actions to the end of the game as the runner's
// loop of PickLegal, AppendAction and Apply would, without an undo history
// (engine.RecordedPlayer). With g.Sample it draws with RandomAction instead (no legal count).
//
// The actions of up to blockLen plies are kept in an array and written out as notation
// between blocks (where the stop request is polled): the play loop has no calls but the
// pick and apply, and the notation loop writes one 8-byte word per action.
func (s *State) PlayRecorded(g *engine.RecordedGame) bool {
	var block [blockLen]engine.Action
	moves, legal := g.Moves, g.Legal
	m0 := len(moves)
	for {
		if g.Stop != nil && g.Stop() {
			g.Moves, g.Legal = moves[:m0], legal
			return false
		}
		n, l, ended := s.playBlock(g, &block)
		legal += l
		moves = appendBlock(moves, block[:n], len(moves) == m0)
		if ended {
			break
		}
	}
	g.Moves, g.Legal = moves, legal
	return true
}

// playBlock plays up to blockLen plies, storing their actions in block; it returns how many
// it played, the sum of their legal counts (0 with g.Sample) and whether the game ended.
//
// The plies before g.OpeningPlies are played first, in their own loop; after them the mover
// alternates every ply (Apply always passes the turn, a pass included), so the two colours'
// generators are held in registers and swapped instead of looked up.
func (s *State) playBlock(g *engine.RecordedGame, block *[blockLen]engine.Action) (n int, legal int64, ended bool) {
	i := 0
	for ; i < len(block) && int(s.ply) < g.OpeningPlies; i++ {
		var a engine.Action
		var c int
		var ok bool
		if g.Sample {
			a, ok = s.RandomAction(g.Opening)
		} else {
			a, c, ok = s.PickLegal(g.Opening)
		}
		if !ok {
			return i, legal, true
		}
		legal += int64(c)
		block[i] = a
		s.apply(a)
	}
	r, next := g.Rand[s.side&1], g.Rand[s.side&1^1]
	if g.Sample {
		for ; i < len(block); i++ {
			a, ok := s.RandomAction(r)
			if !ok {
				return i, legal, true
			}
			block[i] = a
			s.apply(a)
			r, next = next, r
		}
		return len(block), legal, false
	}
	for ; i < len(block); i++ {
		a, c, ok := s.PickLegal(r)
		if !ok {
			return i, legal, true
		}
		legal += int64(c)
		block[i] = a
		s.apply(a)
		r, next = next, r
	}
	return len(block), legal, false
}

// appendBlock appends the notation of acts, each with a space before it but the first when
// first is set (the game's first action). Every action is one 8-byte store into capacity
// reserved once for the block; the store's last bytes are overwritten by the next action or
// lie beyond the length.
func appendBlock(moves []byte, acts []engine.Action, first bool) []byte {
	if len(acts) == 0 {
		return moves
	}
	moves = slices.Grow(moves, 6*len(acts)+8)
	n := len(moves)
	buf := moves[:cap(moves)]
	if first { // the first action without its space: the word shifted down one byte
		w, k := notationWord(acts[0])
		binary.LittleEndian.PutUint64(buf[n:], w>>8)
		n += k - 1
		acts = acts[1:]
	}
	for _, a := range acts {
		w, k := notationWord(a)
		binary.LittleEndian.PutUint64(buf[n:], w)
		n += k
	}
	return moves[:n]
}

// notationWord returns a's notation with a space before it as the low k bytes of w.
func notationWord(a engine.Action) (w uint64, k int) {
	if a == Pass {
		return passWord, 5
	}
	return fromWords[a&63] | toWords[a>>6&127], 6
}
