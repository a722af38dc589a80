package katarenga

import (
	"encoding/binary"
	"slices"

	"github.com/fairplay-lab/fairplay/engine"
)

// blockLen is how many plies PlayRecorded plays between two polls of the stop request.
const blockLen = 64

// blockBytes is the notation room a block needs: 6 bytes a ply, and the last 8-byte store's 2
// bytes beyond.
const blockBytes = 6*blockLen + 2

// Notation words: an action's " from-to" as the low 6 bytes of a little-endian word, the
// OR of fromWords[from] (" ff-") and toWords[to] ("tt" in bytes 4 and 5).
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

// passWord is " pass" as the low 5 bytes of a little-endian word.
const passWord = ' ' | 'p'<<8 | 'a'<<16 | 's'<<24 | 's'<<32

// notationWord returns a's notation with a space before it as the low k bytes of w.
func notationWord(a engine.Action) (w uint64, k int) {
	if a == Pass {
		return passWord, 5
	}
	return fromWords[a&63] | toWords[a>>6&127], 6
}

// PlayRecorded plays uniformly random legal actions to the end of the game as the runner's
// loop of PickLegal, AppendAction and Apply would, without an undo history
// (engine.Fast). With g.Sample it draws with RandomAction instead (no legal count).
//
// It plays blocks of blockLen plies, polling the stop request before each. Room for a block's
// notation is reserved before it, so a ply writes its notation with one 8-byte store (no
// append, no capacity check).
func (s *State) PlayRecorded(g *engine.RecordedGame) bool {
	moves, legal := g.Moves, g.Legal
	m0 := len(moves)
	for {
		if g.Stop != nil && g.Stop() {
			g.Moves, g.Legal = moves[:m0], legal
			return false
		}
		moves = slices.Grow(moves, blockBytes)
		n := len(moves)
		k, l, ended := s.playBlock(g, (*[blockBytes]byte)(moves[n:n+blockBytes]), n == m0)
		moves, legal = moves[:n+k], legal+l
		if ended {
			break
		}
	}
	g.Moves, g.Legal = moves, legal
	return true
}

// playBlock plays up to blockLen plies, writing their notation to dst, each with a space
// before it but the game's first (first is set when the block starts the game). It returns
// how many bytes it wrote, the sum of the plies' legal counts (0 with g.Sample) and whether
// the game ended.
//
// The plies that need a choice — the game's first (no space), those before g.OpeningPlies
// (the opening generator) and one more if that leaves an odd number of plies in the block —
// are played first, in their own loop. After them the mover alternates every ply (apply
// always passes the turn, a pass included): the rest of the block is played two plies per
// iteration, the first with the mover's generator, the second with the other's, with nothing
// looked up.
func (s *State) playBlock(g *engine.RecordedGame, dst *[blockBytes]byte, first bool) (j int, legal int64, ended bool) {
	i := 0
	for ; i < blockLen && (first || i&1 != 0 || int(s.ply) < g.OpeningPlies); i++ {
		r := g.Rand[s.side&1]
		if int(s.ply) < g.OpeningPlies {
			r = g.Opening
		}
		var a engine.Action
		var c int
		var ok bool
		if g.Sample {
			a, ok = s.RandomAction(r)
		} else {
			a, c, ok = s.PickLegal(r)
		}
		if !ok {
			return j, legal, true
		}
		legal += int64(c)
		w, k := notationWord(a)
		if first { // no space before the game's first action
			w, k, first = w>>8, k-1, false
		}
		binary.LittleEndian.PutUint64(dst[j:j+8:j+8], w)
		j += k
		s.apply(a)
	}
	// i is even here: the pairs fill the block exactly.
	r0, r1 := g.Rand[s.side&1], g.Rand[s.side&1^1]
	if g.Sample {
		for ; i < blockLen; i += 2 {
			a, ok := s.RandomAction(r0)
			if !ok {
				return j, legal, true
			}
			j = putAction(dst, j, a)
			s.apply(a)
			if a, ok = s.RandomAction(r1); !ok {
				return j, legal, true
			}
			j = putAction(dst, j, a)
			s.apply(a)
		}
		return j, legal, false
	}
	for ; i < blockLen; i += 2 {
		a, c, ok := s.PickLegal(r0)
		if !ok {
			return j, legal, true
		}
		legal += int64(c)
		j = putAction(dst, j, a)
		s.apply(a)
		if a, c, ok = s.PickLegal(r1); !ok {
			return j, legal, true
		}
		legal += int64(c)
		j = putAction(dst, j, a)
		s.apply(a)
	}
	return j, legal, false
}

// putAction writes a's notation with a space before it at dst[j:] and returns the end.
func putAction(dst *[blockBytes]byte, j int, a engine.Action) int {
	if a == Pass {
		binary.LittleEndian.PutUint64(dst[j:j+8:j+8], passWord)
		return j + 5
	}
	binary.LittleEndian.PutUint64(dst[j:j+8:j+8], fromWords[a&63]|toWords[a>>6&127])
	return j + 6
}
