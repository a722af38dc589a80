package tally

import (
	"hash/maphash"
	"math"
	"slices"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/internal/config"
	"github.com/fairplay-lab/fairplay/stats"

	"github.com/fairplay-lab/fairplay/engine"
)

// The per-game 0/1 outcomes a Summary clusters by pair, by index.
const (
	indFirst    = iota // the first player won
	indSecond          // the second player won
	indDraw            // a draw (any reason)
	indComplete        // a winner (Ludii's Completion)
	indDrawish         // a draw other than by the ply cap (Ludii's Drawishness)
	indCap             // the ply cap ended the game (Ludii's Timeouts)
	indForfeit         // an agent forfeited
	indReason0         // reason_<r>_rate for r = Throne … Forfeit follow
	nInd        = indReason0 + int(engine.Forfeit-engine.Throne) + 1
)

// MethodDistinct names the distinct_games count: distinct (layout, start, moves) records.
const MethodDistinct = "distinct-move-sequences"

// distinctCap bounds the games whose move lists are hashed for distinct_games (fixed memory:
// the row's n says how many games were examined).
const distinctCap = 1 << 18

// DistinctExamined is how many games, the first ones a Summary is given, distinct_games
// examines.
const DistinctExamined = distinctCap

// clustered holds a Summary's pair-clustered accumulators: one cluster per pair (consecutive
// records with the same Pair).
type clustered struct {
	gameName  string
	has       bool
	cur       pairTotals
	rates     [nInd]stats.ClusterRatio
	share     stats.ClusterRatio // first wins among decisive games
	score     stats.ClusterRatio // first player's score (draw ½)
	diff      stats.ClusterRatio // first wins − second wins
	plies     stats.ClusterRatio
	branching stats.ClusterRatio // legal actions over plies
	counters  []stats.ClusterRatio
	totals    []stats.ClusterRatio
	sd        stats.ClusterSD
	totalsBuf []float64
	hashes    hashSet
	examined  int64
}

// pairTotals adds up one pair's games.
type pairTotals struct {
	pair                               int64
	games                              float64
	ind                                [nInd]float64
	score, diff, plies, pliesSq, legal float64
	counters, totals                   []float64
}

func newClustered(counters, totals int) clustered {
	return clustered{counters: make([]stats.ClusterRatio, counters), totals: make([]stats.ClusterRatio, totals),
		cur: pairTotals{counters: make([]float64, counters), totals: make([]float64, totals)}}
}

// add adds one game (totals: its side totals, in Summary.totals order; h its DistinctHash
// when hashed is set).
func (c *clustered) add(r *gamefile.Record, totals []float64, h uint64, hashed bool) {
	if c.gameName == "" {
		c.gameName = r.GameName
	}
	if c.has && r.Pair != c.cur.pair {
		c.flush()
	}
	if !c.has {
		c.has, c.cur.pair = true, r.Pair
	}
	t := &c.cur
	t.games++
	ind := &t.ind
	switch r.Winner {
	case "first":
		ind[indFirst]++
		t.score++
		t.diff++
	case "second":
		ind[indSecond]++
		t.diff--
	default:
		ind[indDraw]++
		t.score += 0.5
		if r.Reason != engine.Cap {
			ind[indDrawish]++
		}
	}
	if r.Winner != "draw" {
		ind[indComplete]++
	}
	switch r.Reason {
	case engine.Cap:
		ind[indCap]++
	case engine.Forfeit:
		ind[indForfeit]++
	}
	if r.Reason >= engine.Throne && r.Reason <= engine.Forfeit {
		ind[indReason0+int(r.Reason-engine.Throne)]++
	}
	p := float64(r.Plies)
	t.plies += p
	t.pliesSq += p * p
	t.legal += float64(max(r.LegalTotal, 0))
	for i, v := range r.Counters {
		if i < len(t.counters) {
			t.counters[i] += float64(v)
		}
	}
	for i, v := range totals {
		t.totals[i] += v
	}
	if c.examined < distinctCap {
		c.examined++
		if !hashed {
			h = DistinctHash(r)
		}
		c.hashes.add(h)
	}
}

// distinctSeed seeds the distinct-games hash (one per process: only equality of hashes is
// used, and a 64-bit collision among the 2^18 examined games has probability below 2^-27).
var distinctSeed = maphash.MakeSeed()

// DistinctHash hashes a game's (layout, start, moves) for distinct_games without copying them:
// each string is hashed whole by maphash (several bytes per cycle; FNV-1a took one
// multiplication per byte of the ~1 kB moves, and a streaming maphash.Hash hashes in 128-byte
// calls), and the three hashes are hashed together. Its values are fixed within a process
// (only their equality is used) and it is safe to call from several goroutines.
func DistinctHash(r *gamefile.Record) uint64 {
	t := [3]uint64{
		maphash.String(distinctSeed, r.Layout),
		maphash.String(distinctSeed, r.Start),
		maphash.String(distinctSeed, r.Moves),
	}
	return maphash.Comparable(distinctSeed, t)
}

// flush closes the current pair's cluster.
func (c *clustered) flush() {
	if !c.has {
		return
	}
	t := &c.cur
	for i := range c.rates {
		c.rates[i].Add(t.ind[i], t.games)
	}
	if d := t.ind[indComplete]; d > 0 {
		c.share.Add(t.ind[indFirst], d)
	}
	c.score.Add(t.score, t.games)
	c.diff.Add(t.diff, t.games)
	c.plies.Add(t.plies, t.games)
	if t.plies > 0 {
		c.branching.Add(t.legal, t.plies)
	}
	c.sd.Add(t.games, t.plies, t.pliesSq)
	for i := range c.counters {
		c.counters[i].Add(t.counters[i], t.games)
		t.counters[i] = 0
	}
	for i := range c.totals {
		c.totals[i].Add(t.totals[i], t.games)
		t.totals[i] = 0
	}
	t.games, t.score, t.diff, t.plies, t.pliesSq, t.legal = 0, 0, 0, 0, 0, 0
	t.ind = [nInd]float64{}
	c.has = false
}

// flushed returns a copy with the current (possibly incomplete) pair closed; c counts the same
// (only its hash log gets sorted).
func (c *clustered) flushed() *clustered {
	c.hashes.len() // sorts the hash log once, for every copy
	d := *c
	d.counters, d.totals = slices.Clone(c.counters), slices.Clone(c.totals)
	d.cur.counters, d.cur.totals = slices.Clone(c.cur.counters), slices.Clone(c.cur.totals)
	d.flush()
	return &d
}

// distinct is the number of distinct games among the examined ones.
func (c *clustered) distinct() int64 { return int64(c.hashes.len()) }

// Distinct returns the number of distinct games (distinct layout, start position and move
// list) and the number of games examined (the first 2^18 of a run).
func (s *Summary) Distinct() (distinct, examined int64) {
	return s.clusters.distinct(), s.clusters.examined
}

// shareTest is the two-sided test of the first player's share of decisive games against ½,
// with the larger of the pair-clustered and the binomial standard error (normal reference).
func (c *clustered) shareTest() stats.Interval {
	const method = "cluster-robust-pairs-z-two-sided-vs-0.5-decisive-games"
	if c.share.N == 0 {
		return stats.Interval{Value: math.NaN(), Low: math.NaN(), High: math.NaN(), Method: method}
	}
	se := math.Max(c.share.SE(), 0.5/math.Sqrt(c.share.N))
	if math.IsNaN(se) {
		se = 0.5 / math.Sqrt(c.share.N)
	}
	z := math.Abs(c.share.Ratio()-0.5) / se
	return stats.Interval{Value: math.Erfc(z / math.Sqrt2), Low: math.NaN(), High: math.NaN(), Method: method}
}

func (s *Summary) game() string { return s.clusters.gameName }

// reasonsOf lists the end reasons a game can have (RULES.md: Baran ends by throne, no-move or
// cap; Katarenga by camps, material, no-move or cap), plus forfeit; all of them for an unknown
// game.
func reasonsOf(game string) []engine.Reason {
	switch game {
	case "baran":
		return []engine.Reason{engine.Throne, engine.NoMove, engine.Cap, engine.Forfeit}
	case "katarenga":
		return []engine.Reason{engine.Camps, engine.Material, engine.NoMove, engine.Cap, engine.Forfeit}
	}
	return []engine.Reason{engine.Throne, engine.Camps, engine.Material, engine.NoMove, engine.Cap, engine.Forfeit}
}

// DistinctWarning returns a warning (one line, no newline) when fewer than 90% of the examined
// games are distinct, or the zero Text otherwise. Its advice names the configuration fields
// that vary the games (a front end renders them with its own names).
func (s *Summary) DistinctWarning() config.Text {
	d, n := s.Distinct()
	if n == 0 || float64(d) >= 0.9*float64(n) {
		return config.Text{}
	}
	return config.Textf("warning: only %d of %d games are distinct (%.0f%%): repeated games are not independent samples; "+
		"vary the games with random openings ({RandomOpening N}), random layouts ({RandomLayouts}) or agents that break ties at random", d, n, 100*float64(d)/float64(n))
}
