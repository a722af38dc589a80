package agents

import (
	"runtime"
	"unsafe"

	"github.com/fairplay-lab/fairplay/engine"
)

// ttEntry is one transposition-table entry as probe returns it, and a wide table's slot (24
// bytes: any game's actions).
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

// ttBucket holds four wide entries sharing one index.
type ttBucket [4]ttEntry

// ttEntryBytes is the size of a wide entry. The number of entries of a table of hash MB is
// reckoned in wide entries whatever its layout, so a game's searches do not depend on it.
const ttEntryBytes = 24

// slimEntry is a compact slot (16 bytes) for actions below 2^32 (Katarenga's): four make a
// 64-byte bucket, one cache line, where wide buckets span two. tag is the key with its low 12
// bits, which the bucket's index implies (a table has at least 2^12 buckets), replaced by the
// flag (bits 8..9) and the generation (bits 0..7); sd is the score times 256 plus the depth's
// low byte (read back as an int8), so the score keeps 24 bits with its sign, more than the
// ±(Win+maxPly) it holds.
type slimEntry struct {
	tag  uint64
	move uint32
	sd   int32
}

// slimBucket holds four compact entries sharing one index.
type slimBucket [4]slimEntry

// slimLow masks the bits of a key that a slim bucket's index implies.
const slimLow = 1<<12 - 1

// minBuckets is the fewest buckets of a table (hash=1 gives 2^13), which slim tags rely on:
// the index implies the bits slimLow masks.
const minBuckets = 1 << 12

// The index must imply every bit of slimLow (a compile-time check: a negative constant does
// not convert to uint).
const _ = uint(minBuckets - 1 - slimLow)

func (e *slimEntry) flag() uint8 { return uint8(e.tag>>8) & 3 }
func (e *slimEntry) gen() uint8  { return uint8(e.tag) }

// holds reports whether e is key's entry.
func (e *slimEntry) holds(key uint64) bool {
	return e.tag&^slimLow == key&^slimLow && e.tag>>8&3 != 0
}

// entry unpacks e for a probe of key.
func (e *slimEntry) entry(key uint64) ttEntry {
	return ttEntry{key: key, move: engine.Action(e.move), score: e.sd >> 8, depth: int8(e.sd),
		flag: e.flag(), gen: e.gen()}
}

// table is a bucketed transposition table with depth-preferred replacement, kept for a whole
// game (the generation counter ages the entries of earlier moves). Exactly one of wide and slim
// holds its buckets: slim for a game whose actions are all below 2^32, which plays exactly as
// wide with the same number of buckets but reads one cache line a probe, not two.
type table struct {
	wide []ttBucket
	slim []slimBucket
	gen  uint8
}

// newTable makes a table of at most mb megabytes of wide entries (a power-of-two number of
// buckets, at least minBuckets), in the slim layout when slim is true.
func newTable(mb int, slim bool) *table {
	n := minBuckets
	for n*2*4*ttEntryBytes <= mb<<20 {
		n *= 2
	}
	if slim {
		t := &table{}
		if !hugeSlim(t, n) { // on huge pages where the system gives them (hugemem_linux.go)
			t.slim = make([]slimBucket, n)
		}
		return t
	}
	return &table{wide: make([]ttBucket, n)}
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

// probe returns the entry for key, if any.
func (t *table) probe(key uint64) (ttEntry, bool) {
	if t.slim != nil {
		bk := &t.slim[key&uint64(len(t.slim)-1)]
		e, ok := ttEntry{}, false
		for i := range bk {
			if bk[i].holds(key) {
				e, ok = bk[i].entry(key), true
				break
			}
		}
		runtime.KeepAlive(t) // bk points outside the heap where t is on huge pages (hugeSlim)
		return e, ok
	}
	bk := &t.wide[key&uint64(len(t.wide)-1)]
	for i := range bk {
		if bk[i].key == key && bk[i].flag != 0 {
			return bk[i], true
		}
	}
	return ttEntry{}, false
}

// The ranks of a slot for store (rank): the key's own entry, kept or taken, and an empty slot;
// an entry of another key ranks by its depth, 256 lower when an older search stored it.
const (
	rankKeep  = -3 << 30 // the key's own entry, deeper and of this search: the result is not stored
	rankOwn   = -2 << 30 // the key's own entry, replaced
	rankEmpty = -1 << 30 // an empty slot
)

// rank ranks a slot of a bucket for storing a result of depth and flag.
func (t *table) rank(own, used bool, eDepth int8, eGen uint8, depth int, flag uint8) int {
	switch {
	case own && int(eDepth) > depth && eGen == t.gen && flag != ttExact:
		return rankKeep
	case own:
		return rankOwn
	case !used:
		return rankEmpty
	}
	v := int(eDepth)
	if eGen != t.gen {
		v -= 256
	}
	return v
}

// store records a result. The slot is the key's own entry if present, else the last empty one,
// else the shallowest entry of an older search, else the shallowest entry (the first of equals);
// the key's own entry is kept when it is deeper and from this search and the result not exact.
func (t *table) store(key uint64, move engine.Action, score int32, depth int, flag uint8, ply int) {
	score = toTT(score, ply)
	var r [4]int
	if t.slim != nil {
		bk := &t.slim[key&uint64(len(t.slim)-1)]
		for i := range bk {
			e := &bk[i]
			r[i] = t.rank(e.holds(key), e.flag() != 0, int8(e.sd), e.gen(), depth, flag)
		}
		if slot, ok := pick(&r); ok {
			bk[slot] = slimEntry{tag: key&^slimLow | uint64(flag)<<8 | uint64(t.gen), move: uint32(move),
				sd: score<<8 | int32(uint8(int8(depth)))}
		}
		runtime.KeepAlive(t) // bk points outside the heap where t is on huge pages (hugeSlim)
		return
	}
	bk := &t.wide[key&uint64(len(t.wide)-1)]
	for i := range bk {
		e := &bk[i]
		r[i] = t.rank(e.key == key && e.flag != 0, e.flag != 0, e.depth, e.gen, depth, flag)
	}
	if slot, ok := pick(&r); ok {
		bk[slot] = ttEntry{key: key, move: move, score: score, depth: int8(depth), flag: flag, gen: t.gen}
	}
}

// pick is the slot store takes, given the ranks of a bucket's slots in order: the key's own
// entry (or none, false, when it is kept), else the last empty slot, else the first of the
// lowest ranks. A key has at most one entry in its bucket.
func pick(r *[4]int) (int, bool) {
	slot, worst := 0, 1<<30
	for i, v := range r {
		switch {
		case v == rankKeep:
			return 0, false
		case v == rankOwn:
			return i, true
		case v == rankEmpty || v < worst:
			slot, worst = i, v
		}
	}
	return slot, true
}

// clear empties the table.
func (t *table) clear() {
	clear(t.wide)
	clear(t.slim)
	runtime.KeepAlive(t)
}

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

// prefetchChild starts loading the bucket that the child of the node after a, to be searched
// at depth, probes first (childBucket), so that the load overlaps the work before the probe.
func (p *abPlayer) prefetchChild(a engine.Action, depth int) {
	if b := p.childBucket(a, depth); b != nil {
		prefetch(unsafe.Pointer(b))
	}
}

// childBucket is the bucket that the child after a probes first when searched at depth: in
// Katarenga with slim tables the shallow table's up to shallowDepth, else the main one's; nil
// where there is none to fetch (a leaf, the other game). A child searched deeper or shallower
// than depth (an extension, a reduction) may probe another.
func (p *abPlayer) childBucket(a engine.Action, depth int) *slimBucket {
	kat := p.tx.kat
	if kat == nil || depth <= 0 {
		return nil
	}
	t := p.tt
	if p.tt1 != nil && depth <= shallowDepth {
		t = p.tt1
	}
	if t.slim == nil {
		return nil
	}
	return &t.slim[kat.HashAfter(a)&uint64(len(t.slim)-1)]
}
