package agents

import (
	"strconv"
	"testing"
	"unsafe"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// refTable is the wide table as first written, before the slim layout and the shared rank:
// the reference both layouts are held to (TestSlimTableMatchesWide).
type refTable struct {
	b   []ttBucket
	gen uint8
}

func (t *refTable) probe(key uint64) *ttEntry {
	bk := &t.b[key&uint64(len(t.b)-1)]
	for i := range bk {
		if bk[i].key == key && bk[i].flag != 0 {
			return &bk[i]
		}
	}
	return nil
}

func (t *refTable) store(key uint64, move engine.Action, score int32, depth int, flag uint8, ply int) {
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

// TestSlimTableMatchesWide drives a wide and a slim table of the smallest size and the
// reference (refTable) with one random sequence of stores, probes, new searches and clears,
// on keys crowded into few buckets so that every replacement rule is exercised, and requires
// the same answer from all three at every probe: the slim layout is the wide one packed, and
// both replace as the reference does. A hash=1 table's index has 13 bits, and the keys come in
// pairs that differ only at bit 13, so a slim tag that dropped a bit above the index would
// confuse them (and the same for a 16 MiB table, 2^17 buckets, on huge pages on Linux); scores span the win and loss scores, and depths wrap past int8 as the wide
// entry's do.
func TestSlimTableMatchesWide(t *testing.T) {
	for _, c := range []struct{ mb, bits int }{{1, 13}, {16, 17}} { // 16 MiB: on huge pages on Linux
		t.Run(strconv.Itoa(c.mb), func(t *testing.T) { slimMatchesWide(t, c.mb, c.bits) })
	}
}

// slimMatchesWide is TestSlimTableMatchesWide for tables of mb MiB, whose index has bits bits.
func slimMatchesWide(t *testing.T, mb, bits int) {
	wide, slim := newTable(mb, false), newTable(mb, true)
	ref := &refTable{b: make([]ttBucket, len(wide.wide))}
	if len(wide.wide) != len(slim.slim) || len(slim.slim) < minBuckets || len(slim.slim) != 1<<bits {
		t.Fatalf("buckets: wide %d, slim %d (want equal, 2^%d)", len(wide.wide), len(slim.slim), bits)
	}
	t.Logf("%d MiB: slim buckets at %#x (2 MiB aligned, as on huge pages: %v)", mb,
		uintptr(unsafe.Pointer(&slim.slim[0])), uintptr(unsafe.Pointer(&slim.slim[0]))%(2<<20) == 0)
	r := engine.NewRand(7)
	moves := []engine.Action{0, 1, 63 | 67<<6, katarenga.Pass, 1<<32 - 1}
	scores := []int32{0, 1, -1, evalBound, -evalBound, Win - 3, -Win + 5, -Win - 1, Win + 1}
	pool := make([]uint64, 48) // 48 keys in 3 buckets of 4 slots, in pairs differing only at the first bit above the index
	for i := 0; i < len(pool); i += 2 {
		pool[i] = r.Uint64()&^(1<<bits-1) | uint64(i/2%3)<<(bits-2) // three buckets far apart
		pool[i+1] = pool[i] ^ 1<<bits
	}
	key := func() uint64 { return pool[r.IntN(len(pool))] }
	probes, hits := 0, 0
	for i := 0; i < 200000; i++ {
		k := key()
		switch r.IntN(10) {
		case 0:
			wide.gen++
			slim.gen++
			ref.gen++
			if r.IntN(50) == 0 {
				wide.clear()
				slim.clear()
				clear(ref.b)
			}
		case 1, 2, 3, 4:
			m, sc := moves[r.IntN(len(moves))], scores[r.IntN(len(scores))]
			d, f, ply := r.IntN(200)-2, uint8(1+r.IntN(3)), r.IntN(maxPly)
			wide.store(k, m, sc, d, f, ply)
			slim.store(k, m, sc, d, f, ply)
			ref.store(k, m, sc, d, f, ply)
		default:
			ew, okw := wide.probe(k)
			es, oks := slim.probe(k)
			var er ttEntry
			e := ref.probe(k)
			if e != nil {
				er = *e
			}
			probes++
			if okw {
				hits++
			}
			if okw != oks || ew != es || okw != (e != nil) || ew != er {
				t.Fatalf("step %d, key %x: wide %+v %v, slim %+v %v, reference %+v %v", i, k, ew, okw, es, oks, er, e != nil)
			}
		}
	}
	if hits < probes/10 {
		t.Fatalf("only %d hits in %d probes: the keys do not collide enough to test replacement", hits, probes)
	}
}

// TestKatarengaActionsFitSlim checks that every Katarenga action (moves, camp entries, the
// pass) is below 2^32, which the slim table's entries need (NewPlayer gives Katarenga one).
func TestKatarengaActionsFitSlim(t *testing.T) {
	if katarenga.Pass >= 1<<32 {
		t.Fatalf("Pass = %d does not fit 32 bits", katarenga.Pass)
	}
	for _, s := range katPositions(40) {
		for _, a := range s.Legal(nil) {
			if a >= 1<<32 {
				t.Fatalf("action %d (%s) does not fit 32 bits", a, s.FormatAction(a))
			}
		}
	}
}
