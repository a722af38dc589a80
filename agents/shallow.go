package agents

// The shallow table (shallow=N): the nodes of depth 1 and 2 keep their results in a table of
// their own, N MB, small enough to stay in the core's cache, and the table of hash= keeps
// only the deeper ones. Most probes are at those depths (in Katarenga about 85% of them, at
// depth 1 two thirds, and there fewer than 1 in 20 finds an entry), so with one table nearly
// every node of the tree waits for a main-memory load that hardly ever pays, and its stores
// evict the deeper results that do. A node of depth 3 that finds no entry of its own in the
// main table takes the shallow table's move, if any (the previous iteration searched it at
// depth 2), for its move ordering. A node of depth 1 or 2 does not look in the main table, so
// a result stored there by a deeper search of the same position is not seen from those
// depths. docs/search.md, "The table's layout and size", measures it.

const shallowDoc = "a table of this many MB (1..64, 0 none) for the nodes of depth 1 and 2, which then no longer use the main table (hash); a small one stays in the core's cache: auto = 1 in Katarenga under movetime with the network, else none (docs/search.md)"

// shallowDepth is the greatest depth of a node that uses the shallow table.
const shallowDepth = 2

// iirDepth is the least depth internal iterative reduction (iir=1) reduces, by one ply. A
// node's table is chosen by its depth before the reduction, and it stores its result with the
// reduced depth, so that depth must be above shallowDepth: else the result would go to the main
// table under a depth whose nodes probe only the shallow one (a compile-time check: a negative
// constant does not convert to uint).
const iirDepth = 4

const _ = uint(iirDepth - 1 - (shallowDepth + 1))

// autoNetShallow is shallow=auto's size in MB by game under movetime with a network
// evaluating: in Katarenga 1 (an equal-time SPRT at 100 ms, docs/search.md, "The table's
// layout and size"); a game not listed (Baran, not measured) keeps none, as do node and depth
// budgets, whose play records pin.
var autoNetShallow = map[string]int{"katarenga": 1}

// parseShallow reads shallow: 0..64 or "auto" (Auto).
func parseShallow(p Params) (int, error) { return p.IntOrAuto("shallow", 0, 64) }

// resolveShallow is the shallow table's size in MB for game (0: none): as given, or at auto
// autoNetShallow under movetime with a network (net says whether one evaluates), else none.
func (a *AlphaBeta) resolveShallow(game string, net bool) int {
	if a.Shallow != Auto {
		return a.Shallow
	}
	if a.Movetime > 0 && net {
		return autoNetShallow[game]
	}
	return 0
}

// probe looks key up for a node of depth, with a shallow table (p.tt1 not nil): in the
// shallow table when depth is at most shallowDepth, else in the main table. It returns the
// table the node stores its result in, and the entry found. A node one ply deeper than the shallow table's that finds no
// entry in the main table gets the shallow table's entry's move (e.move only: its depth is too
// small to bound the node, and ok stays false).
func (p *abPlayer) probe(key uint64, depth int) (tt *table, e ttEntry, ok bool) {
	if depth <= shallowDepth {
		e, ok = p.tt1.probe(key)
		return p.tt1, e, ok
	}
	if e, ok = p.tt.probe(key); !ok && depth == shallowDepth+1 {
		if e1, ok1 := p.tt1.probe(key); ok1 {
			e = ttEntry{move: e1.move, flag: e1.flag}
		}
	}
	return p.tt, e, ok
}
