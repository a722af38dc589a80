package runner

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/tally"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/baran"
	"github.com/fairplay-lab/fairplay/engine/games"
)

// play's batched collector (workers encode rows and hashes, gamesSink takes chunks) gives the
// bytes and the summary of the per-game path (Summary.Add and GamesWriter.Write per record),
// at 1, 2 and 3 workers, with small chunks, with old games of a resume merged in between and
// inside chunks, in every format, and with a stop rule that ends the run mid-chunk. Chunks of
// 7 wake the collector at every chunk; chunks of 100 (above defaultChunkCap) every few (handoff).
func TestBatchedSinkMatchesPerRecord(t *testing.T) {
	n := int64(400)
	// Each (stop at, chunk size): under -short two of the four, which still stop a run
	// mid-chunk, run one whole, and take chunks of both sizes.
	stopsAndChunks := [][2]int64{{0, 7}, {75, 7}, {0, 100}, {75, 100}}
	if testing.Short() {
		n, stopsAndChunks = 120, [][2]int64{{75, 7}, {0, 100}}
	}
	for _, mc := range batchMatches(t, n) {
		m := mc.m
		// Old games: every third game and a block, as a resume finds them.
		var oldCSV bytes.Buffer
		ow, _ := gamefile.NewCSVWriter(&oldCSV, m.Counters())
		done := NewBitset(n)
		if _, err := Run(context.Background(), m, Plan{Start: 0, End: n}, 1, nil, func(r *gamefile.Record) error {
			if r.Game%3 == 1 || (r.Game >= 40 && r.Game < 60) {
				done.Set(r.Game)
				return ow.Write(r)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		ow.Flush()
		for _, f := range gamefile.Formats {
			for _, resume := range []bool{false, true} {
				for _, sc := range stopsAndChunks {
					stopAt, size := sc[0], sc[1]
					plan := func() Plan {
						p := Plan{Start: 0, End: n, chunk: size}
						if resume {
							p.Done = done
							p.Old, _ = gamefile.NewCSVReader(bytes.NewReader(oldCSV.Bytes()))
						}
						return p
					}
					stop := func(s *tally.Summary) bool { return stopAt > 0 && s.N == stopAt }
					// The per-game path.
					var want bytes.Buffer
					ww, _ := gamefile.NewGamesWriter(&want, f, m.Counters())
					ws := tally.NewSummary(m.Counters())
					stopped := false
					if _, err := Run(context.Background(), m, plan(), 1, nil, func(r *gamefile.Record) error {
						if stopped {
							return nil
						}
						ws.Add(r)
						stopped = stop(ws)
						return ww.Write(r)
					}); err != nil {
						t.Fatal(err)
					}
					ww.Close()
					for _, workers := range []int{1, 2, 3} {
						var got bytes.Buffer
						gw, _ := gamefile.NewGamesWriter(&got, f, m.Counters())
						gs := newGamesSink(tally.NewSummary(m.Counters()), gw)
						gp := m
						gs.stop = stop
						ctx, cancel := context.WithCancel(context.Background())
						gs.onStop = cancel
						written := int64(0)
						gs.written = func(k int) error { written += int64(k); return nil }
						if _, err := runBatched(ctx, gp, plan(), workers, nil, gs.batch(0, n), func(r *gamefile.Record) int64 { return r.Game }); err != nil {
							t.Fatal(err)
						}
						cancel()
						gw.Close()
						what := func() string {
							return mc.name + " " + string(f) + map[bool]string{true: " resumed", false: ""}[resume] +
								map[bool]string{true: " stopped", false: ""}[stopAt > 0] + fmt.Sprintf(", chunks of %d", size)
						}
						if !bytes.Equal(got.Bytes(), want.Bytes()) {
							t.Errorf("%s, %d workers: games file differs from the per-game path", what(), workers)
						}
						if written != ws.N || gs.sum.N != ws.N || (stopAt > 0) != gs.stopped {
							t.Errorf("%s, %d workers: %d games written, %d counted, stopped %v; want %d", what(), workers, written, gs.sum.N, gs.stopped, ws.N)
						}
						a, b := ws.Stats(), gs.sum.Stats()
						for i := range a {
							if a[i].Name != b[i].Name || !sameFloat(a[i].Value, b[i].Value) || !sameFloat(a[i].Low, b[i].Low) || !sameFloat(a[i].High, b[i].High) || a[i].N != b[i].N {
								t.Errorf("%s, %d workers: %+v, want %+v", what(), workers, b[i], a[i])
							}
						}
					}
				}
			}
		}
	}
}

// batchMatches are TestBatchedSinkMatchesPerRecord's random-vs-random matches of n games: both
// games with their defaults, and Baran with rule switches, random opening plies,
// -branching=false and openings (start positions of either colour, one with a removal pending).
func batchMatches(t *testing.T, n int64) []struct {
	name string
	m    *Match
} {
	t.Helper()
	var out []struct {
		name string
		m    *Match
	}
	add := func(name string, cfg MatchConfig) {
		gm, err := games.New(cfg.Game, cfg.Rules, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		cfg.A, cfg.B, cfg.Games, cfg.Seed = "random", "random", n, 42
		m, err := NewMatch(cfg, gm)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, struct {
			name string
			m    *Match
		}{name, m})
	}
	add("katarenga", MatchConfig{Game: "katarenga"})
	add("baran", MatchConfig{Game: "baran"})
	add("baran strict/pass, random opening 5", MatchConfig{Game: "baran", Rules: "capture=strict,no-move=pass", RandomOpening: 5})
	add("baran per-jump/fast-row 4, no branching", MatchConfig{Game: "baran", Rules: "chain-capture=per-jump,fast-row=4", NoBranching: true})
	// Openings: positions reached by random play from each colour's start.
	var openings []string
	removal := false
	for seed := uint64(1); len(openings) < 3 || !removal; seed++ {
		if seed > 500 {
			t.Fatal("no opening with a pending removal in 500 tries")
		}
		s := baran.New(baran.DefaultRules, engine.Player(seed%2))
		var r engine.Rand
		r.Seed(seed)
		for k := 0; k < 9+int(seed%4) && !s.Status().Over; k++ {
			a, _ := s.RandomAction(&r)
			s.Apply(a)
		}
		if s.Status().Over {
			continue
		}
		pending := strings.Fields(s.String())[2] != "-" // the position notation's removal list
		if len(openings) < 3 || (pending && !removal) {
			openings = append(openings, s.String())
			removal = removal || pending
		}
	}
	add("baran openings", MatchConfig{Game: "baran", Openings: openings})
	return out
}

func sameFloat(x, y float64) bool { return x == y || (math.IsNaN(x) && math.IsNaN(y)) }

// A recycling run (batchSink.recycle: written chunks' records, moves and counters are reused)
// hands its sink the games an allocating run gives, at 1, 2 and 3 workers with small chunks
// (many more chunks than the pool holds), and reuses its arenas.
func TestRecycledChunksMatchRun(t *testing.T) {
	n := int64(600)
	if testing.Short() {
		n = 200
	}
	type game struct {
		moves string
		cnts  []int64
	}
	for _, name := range []string{"katarenga", "baran"} {
		m := newMatch(t, name, "", "", n)
		var want []game
		if _, err := Run(context.Background(), m, Plan{Start: 0, End: n}, 1, nil, func(r *gamefile.Record) error {
			want = append(want, game{r.Moves, slices.Clone(r.Counters)})
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 2, 3} {
			var got []game
			arenas := map[*byte]bool{} // the distinct move buffers the sink was shown
			sink := batchSink[gamefile.Record]{recycle: true, items: func(recs []gamefile.Record, _ *prepared, lo, hi int) error {
				for k := lo; k < hi; k++ {
					r := &recs[k]
					if r.Game != int64(len(got)) {
						t.Fatalf("%s workers=%d: game %d came after %d games", name, workers, r.Game, len(got))
					}
					got = append(got, game{strings.Clone(r.Moves), slices.Clone(r.Counters)})
				}
				if lo < hi && recs[lo].Moves != "" {
					arenas[unsafe.StringData(recs[lo].Moves)] = true
				}
				return nil
			}}
			if _, err := runBatched(context.Background(), m, Plan{Start: 0, End: n, chunk: 3}, workers, nil, sink, func(r *gamefile.Record) int64 { return r.Game }); err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%s workers=%d: %d games, want %d", name, workers, len(got), len(want))
			}
			for i := range want {
				if got[i].moves != want[i].moves || !slices.Equal(got[i].cnts, want[i].cnts) {
					t.Fatalf("%s workers=%d: game %d differs:\n%v\nwant\n%v", name, workers, i, got[i], want[i])
				}
			}
			// Chunks are recycled: far fewer buffers than the n/3 chunks (a pool holds
			// 8·workers chunks; more are in flight only while the collector lags).
			if chunks := int(n / 3); len(arenas) > chunks/2 {
				t.Errorf("%s workers=%d: %d move buffers for %d chunks: not recycled", name, workers, len(arenas), chunks)
			}
		}
	}
}

// A run whose workers encode Parquet row groups keeps at most groupTokens chunks per worker in
// flight (each holds megabytes: records, moves, encoded pages): with the collector held up at
// the first chunk until every worker waits for a token (tokenWait), exactly that many chunks
// are done. Every chunk is a block of the file and is encoded as its row group, its moves spent.
func TestParquetChunksInFlight(t *testing.T) {
	const n = 8 * gamefile.GroupGames
	m := newMatch(t, "katarenga", "", "", n)
	defer func() { tokenWait = nil }()
	for _, workers := range []int{2, 3} {
		w := must(gamefile.NewGamesWriter(io.Discard, gamefile.Parquet, m.Counters()))
		gs := newGamesSink(tally.NewSummary(m.Counters()), w)
		gs.parallelEncode(workers)
		b := gs.batch(0, n)
		var done atomic.Int64 // chunks prepared
		prep, items := b.prepare, b.items
		b.prepare = func(recs []gamefile.Record, p *prepared) bool {
			spent := prep(recs, p)
			if !p.pg.Encoded() || !spent {
				t.Error("a chunk not encoded as a row group, or its moves not spent")
			}
			done.Add(1)
			return spent
		}
		// While the collector is held no token comes back, so each worker waits at most once:
		// the workers-th wait is the moment every worker is stopped and no chunk can be added.
		var waits atomic.Int64
		allWait := make(chan struct{})
		tokenWait = func() {
			if waits.Add(1) == int64(workers) {
				close(allWait)
			}
		}
		limit := int64(groupTokens * workers)
		release := make(chan struct{})
		held := false
		b.items = func(recs []gamefile.Record, p *prepared, lo, hi int) error {
			if !held {
				held = true
				<-release
			}
			return items(recs, p, lo, hi)
		}
		var most int64
		go func() {
			defer close(release)
			select {
			case <-allWait:
				most = done.Load()
			case <-time.After(10 * time.Second):
				t.Errorf("%d workers: %d chunks done and %d workers waiting for a token after 10 s", workers, done.Load(), waits.Load())
				most = limit
			}
		}()
		if _, err := runBatched(context.Background(), m, Plan{Start: 0, End: n}, workers, nil, b, func(r *gamefile.Record) int64 { return r.Game }); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if most != limit {
			t.Errorf("%d workers: %d chunks done while the collector held the first and every worker waited, want %d", workers, most, limit)
		}
	}
}
