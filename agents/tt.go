package agents

import "github.com/fairplay-lab/fairplay/engine"

// ttEntry is one transposition-table slot (24 bytes).
type ttEntry struct {
	key   uint64
	move  engine.Action
	score int32
	depth int8
	flag  uint8
	gen   uint8 // the search (move of the game) that stored it, for aging
}

const (
	ttExact = iota + 1
	ttLower
	ttUpper
)

// ttBucket holds four entries sharing one index.
type ttBucket [4]ttEntry

// ttEntryBytes is the size of a bucket entry, for sizing the table in MB.
const ttEntryBytes = 24

// table is a bucketed transposition table with depth-preferred replacement, kept for a whole
// game (the generation counter ages the entries of earlier moves).
type table struct {
	b   []ttBucket
	gen uint8
}

// newTable makes a table of at most mb megabytes (a power-of-two number of buckets, at least 1).
func newTable(mb int) *table {
	n := 1
	for n*2*4*ttEntryBytes <= mb<<20 {
		n *= 2
	}
	return &table{b: make([]ttBucket, n)}
}

// toTT converts a score for storage: win/loss scores become distances from this node.
func toTT(v int32, ply int) int32 {
	switch {
	case v >= Win-maxPly:
		return v + int32(ply)
	case v <= -Win+maxPly:
		return v - int32(ply)
	}
	return v
}

// fromTT is the inverse of toTT at the probing node's ply.
func fromTT(v int32, ply int) int32 {
	switch {
	case v >= Win-maxPly:
		return v - int32(ply)
	case v <= -Win+maxPly:
		return v + int32(ply)
	}
	return v
}

// probe returns the entry for key, or nil.
func (t *table) probe(key uint64) *ttEntry {
	bk := &t.b[key&uint64(len(t.b)-1)]
	for i := range bk {
		if bk[i].key == key && bk[i].flag != 0 {
			return &bk[i]
		}
	}
	return nil
}

// store records a result. The slot is the key's own entry if present, else an empty one, else
// the shallowest entry of an older search, else the shallowest entry; the key's own entry is
// kept when it is deeper and from this search (its move is refreshed when the new one has one).
func (t *table) store(key uint64, move engine.Action, score int32, depth int, flag uint8, ply int) {
	bk := &t.b[key&uint64(len(t.b)-1)]
	var slot *ttEntry
	worst := 1 << 30
	for i := range bk {
		e := &bk[i]
		if e.key == key && e.flag != 0 {
			if int(e.depth) > depth && e.gen == t.gen && flag != ttExact {
				return
			}
			slot = e
			break
		}
		if e.flag == 0 {
			slot, worst = e, -1<<30
			continue
		}
		v := int(e.depth)
		if e.gen != t.gen {
			v -= 256
		}
		if v < worst {
			slot, worst = e, v
		}
	}
	*slot = ttEntry{key: key, move: move, score: toTT(score, ply), depth: int8(depth), flag: flag, gen: t.gen}
}

// clear empties the table.
func (t *table) clear() { clear(t.b) }

// evalEntry caches one position's evaluation: the heuristic's value, before the tempo credit
// and the clamp (so that a player reading it with another tempo gets the same values as
// Evaluate), and the tactical-move hints. tag is the position's hash with its low 12 bits, which
// the entry's slot implies (caches have at least 2^12 entries), replaced by the hints (bits
// 1..3, qsUnknown included) and a set bit 0: the entry stays 16 bytes.
type evalEntry struct {
	tag uint64
	raw float64
}

// evalTagLow masks the bits of a hash that an evalEntry's slot implies.
const evalTagLow = 1<<12 - 1

// evalCacheSize is the number of entries of a Katarenga player's evaluation cache (64 KB: it
// stays in the core's cache; 1 MB, 65,536 entries, hit 39% of the lookups against 28%, but cost
// more CPU time under load).
const evalCacheSize = 1 << 12

// evalCache is a direct-mapped cache of evaluations by position hash, kept for a whole game
// (the evaluation is a function of the position and the game's board and weights, which do
// not change during a game). Iterative deepening and transpositions evaluate the same leaves
// again and again. Its length is a power of two, at least evalCacheSize.
type evalCache []evalEntry

// slot returns the entry for key.
func (c evalCache) slot(key uint64) *evalEntry { return &c[key&uint64(len(c)-1)] }

// holds reports whether the entry is the position of hash key's.
func (e *evalEntry) holds(key uint64) bool {
	return e.tag&^evalTagLow == key&^evalTagLow && e.tag&1 != 0
}

// get returns the cached value and hints of the position of hash key, if any.
func (e *evalEntry) get(key uint64) (raw float64, tac uint8, ok bool) {
	if !e.holds(key) {
		return 0, 0, false
	}
	return e.raw, uint8(e.tag>>1) & (qsCapture | qsBaseline | qsUnknown), true
}

// put stores the value and hints of the position of hash key.
func (e *evalEntry) put(key uint64, raw float64, tac uint8) {
	e.tag, e.raw = key&^evalTagLow|uint64(tac)<<1|1, raw
}
