package experiments

import (
	"fmt"
	"unsafe"

	"github.com/fairplay-lab/fairplay/results"
)

// Deferred notation. With one worker and a spare core the collector encodes the rows and
// hashes (collectorEncodes); in random Baran games the notation is the worker's largest cost
// beyond `bench`'s (the chain search of a jump's path, the slide check, a removal's take-off),
// so the worker appends each action raw (8 bytes: engine.RecordedGame.Raw) and the collector,
// before it encodes a chunk, replays every game from its start to write the notation into the
// record (the game's AppendNotation). The bytes written are the same (TestBatchedSinkMatches
// PerRecord runs both ways); Katarenga's notation is cheap and stays in the worker.

// rawNotator is a game state that writes the notation of raw actions (engine.RecordedGame.Raw)
// played from it: baran.State.
type rawNotator interface {
	AppendNotation(dst, raw []byte) ([]byte, error)
}

// canDefer reports whether every game of m can leave its notation to the collector: random vs
// random through the engine's RecordedPlayer (play's first path, taken by every game then),
// in a game whose states are rawNotators, on fixed boards.
func (m *Match) canDefer() bool {
	if !m.randomBoth || m.loop != 0 || m.Cfg.RandomLayouts {
		return false
	}
	s := m.game.Start(m.game.FirstColours()[0])
	if _, ok := s.(rawNotator); !ok {
		return false
	}
	k := m.kitOf(s)
	return k.pick && k.app != nil && k.rp != nil
}

// deferredMatch is a Match whose run workers record raw actions (worker.raw) for a collector
// that writes their notation (notater).
type deferredMatch struct{ *Match }

func (d deferredMatch) chunkWorker() *worker {
	w := d.Match.chunkWorker()
	w.raw = true
	return w
}

// notater writes the notation of a deferredMatch's records in the collector. Its records'
// Moves then point into buf, which the next chunk overwrites, or with copy set (a writer that
// may hold the strings: Parquet) into one new string per chunk.
type notater struct {
	m    *Match
	w    *worker // the collector's own start states
	buf  []byte
	ends []int
	copy bool
}

// notate replaces the raw actions of recs' Moves by their notation.
func (n *notater) notate(recs []results.Record) error {
	buf, ends := n.buf[:0], n.ends[:0]
	for k := range recs {
		r := &recs[k]
		sk, _ := n.m.startOf(n.w, r.Pair)
		sk.s.Reset()
		var err error
		buf, err = sk.s.(rawNotator).AppendNotation(buf, unsafe.Slice(unsafe.StringData(r.Moves), len(r.Moves)))
		if err != nil {
			return fmt.Errorf("game %d: %w", r.Game, err)
		}
		ends = append(ends, len(buf))
	}
	n.buf, n.ends = buf, ends
	text := unsafe.String(unsafe.SliceData(buf), len(buf))
	if n.copy {
		text = string(buf)
	}
	start := 0
	for k, end := range ends {
		recs[k].Moves = text[start:end]
		start = end
	}
	return nil
}

// player returns the item player of m's run through g: m, or when the collector encodes and
// m's games can defer their notation, m with raw-recording workers, g then writing the
// notation before it encodes.
func (g *gamesSink) player(m *Match) itemPlayer[*worker, results.Record] {
	if !g.collectorEncodes || !m.canDefer() {
		return m
	}
	n := &notater{m: m, w: m.newWorker(), copy: g.rw == nil}
	g.notate = n.notate
	return deferredMatch{m}
}
