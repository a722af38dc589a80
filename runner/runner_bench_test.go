package runner

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/tally"

	"github.com/fairplay-lab/fairplay/engine/games"
)

// BenchmarkRunner measures the runner's throughput on random self-play with move records, the
// records handed to a sink that drops them; one op is one game. Compare games/s with
// `fairplay bench` (engine only) for the runner's overhead, and workers=2 with workers=1 for
// its scaling.
func BenchmarkRunner(b *testing.B) {
	for _, game := range []string{"katarenga", "baran"} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", game, workers), func(b *testing.B) {
				benchRun(b, game, workers, func(*gamefile.Record) error { return nil })
			})
		}
	}
}

// BenchmarkRunnerCSV is BenchmarkRunner with the records written as CSV (to io.Discard) by
// the single writer goroutine, as `fairplay play` does.
func BenchmarkRunnerCSV(b *testing.B) {
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("katarenga/workers=%d", workers), func(b *testing.B) {
			gm, _ := games.New("katarenga", "", "", nil)
			w, _ := gamefile.NewGamesWriter(io.Discard, gamefile.CSV, gm.Start(0).(interface{ CounterNames() []string }).CounterNames())
			benchRun(b, "katarenga", workers, w.Write)
			w.Close()
		})
	}
}

// BenchmarkRunnerPlay is `fairplay play`'s collector (gamesSink): workers encode each game's
// CSV row and distinct-game hash, the collector adds every game to a Summary and writes the
// rows (to io.Discard: no queued writes, which need a file), in game order. The -nobranching
// runs are play -branching=false (MatchConfig.NoBranching: RandomAction's draws, no legal
// counts).
func BenchmarkRunnerPlay(b *testing.B) {
	for _, game := range []string{"katarenga", "baran"} {
		for _, workers := range []int{1, 2} {
			for _, nb := range []bool{false, true} {
				name := fmt.Sprintf("%s/workers=%d", game, workers)
				if nb {
					name = fmt.Sprintf("%s-nobranching/workers=%d", game, workers)
				}
				b.Run(name, func(b *testing.B) {
					gm, _ := games.New(game, "", "", nil)
					names := gm.Start(0).(interface{ CounterNames() []string }).CounterNames()
					w, _ := gamefile.NewGamesWriter(io.Discard, gamefile.CSV, names)
					g := newGamesSink(tally.NewSummary(names), w)
					benchRunConfig(b, MatchConfig{Game: game, NoBranching: nb}, workers, func(m *Match) (ItemPlayer[*Worker, gamefile.Record], batchSink[gamefile.Record]) {
						return m, g.batch(0, m.Cfg.Games) // as RunMatch does
					})
					w.Close()
				})
			}
		}
	}
}

// BenchmarkRunnerFormats is BenchmarkRunnerPlay (random Katarenga, play's sink) with the
// games written in each format (Parquet in each codec) to io.Discard, set up as a Session sets
// them up: at one worker csv.gz and Parquet encode in the collector, at two in the workers
// (gzip members, row groups).
func BenchmarkRunnerFormats(b *testing.B) {
	for _, o := range benchOutputs() {
		for _, workers := range slices.Compact([]int{1, 2, max(2, runtime.GOMAXPROCS(0))}) {
			b.Run(fmt.Sprintf("%s/workers=%d", o.name, workers), func(b *testing.B) {
				gm, _ := games.New("katarenga", "", "", nil)
				names := gm.Start(0).(interface{ CounterNames() []string }).CounterNames()
				w, err := gamefile.NewGamesWriterCodec(io.Discard, o.format, o.codec, names)
				if err != nil {
					b.Fatal(err)
				}
				g := newGamesSink(tally.NewSummary(names), w)
				g.parallelEncode(workers) // as a Session: csv.gz and Parquet encoded by the workers at 2
				benchRunConfig(b, MatchConfig{Game: "katarenga"}, workers, func(m *Match) (ItemPlayer[*Worker, gamefile.Record], batchSink[gamefile.Record]) {
					return m, g.batch(0, m.Cfg.Games)
				})
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			})
		}
	}
}

// benchOutput is a games file format, and Parquet's codec.
type benchOutput struct {
	name   string
	format gamefile.Format
	codec  gamefile.Codec
}

// benchOutputs lists every format, Parquet once per codec.
func benchOutputs() []benchOutput {
	var outs []benchOutput
	for _, f := range gamefile.Formats {
		if f != gamefile.Parquet {
			outs = append(outs, benchOutput{string(f), f, ""})
			continue
		}
		for _, c := range gamefile.Codecs {
			outs = append(outs, benchOutput{string(f) + "-" + string(c), f, c})
		}
	}
	return outs
}

// BenchmarkParquetEncode is a Parquet row group's share of a game in a run at two or more
// workers, in each codec: one op encodes and compresses one recorded random game as part of a
// row group of 2,048 (GroupWriter.EncodeGroup, as a worker does) and copies it into the file
// (WriteGroup, the collector's part), to io.Discard; bytes/game is the file's size, cpu-ns/op
// the encoding thread's CPU time (Linux), steadier than the wall clock on a loaded machine.
func BenchmarkParquetEncode(b *testing.B) {
	for _, game := range []string{"katarenga", "baran"} {
		for _, codec := range gamefile.Codecs {
			b.Run(game+"/"+string(codec), func(b *testing.B) {
				chunks, names := preparedChunks(b, game, 4, gamefile.GroupGames)
				var size countingWriter
				w := must(gamefile.NewGamesWriterCodec(&size, gamefile.Parquet, codec, names))
				gw, _ := gamefile.GroupWriterOf(w)
				var g gamefile.RowGroup
				runtime.LockOSThread() // EncodeGroup compresses in the calling goroutine: its thread's CPU time
				defer runtime.UnlockOSThread()
				b.ReportAllocs()
				b.ResetTimer()
				cpu0, cpuOK := threadCPU()
				for n, k := 0, 0; n < b.N; k++ {
					c := chunks[k%len(chunks)]
					m := min(len(c.recs), b.N-n)
					if err := gw.EncodeGroup(&g, c.recs[:m]); err != nil {
						b.Fatal(err)
					}
					if err := gw.WriteGroup(&g); err != nil {
						b.Fatal(err)
					}
					n += m
				}
				if cpu1, _ := threadCPU(); cpuOK {
					b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(size)/float64(b.N), "bytes/game")
			})
		}
	}
}

// countingWriter counts the bytes written to it.
type countingWriter int64

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}

// BenchmarkCollector is the collector's share of BenchmarkRunnerPlay alone: one op adds one
// prepared game (recorded random games, their rows and hashes made beforehand as the workers
// make them) to a Summary and writes its row to io.Discard. Every op's hash is new, as in a
// run's first 2^18 games (the distinct set grows). Modes: batched (play's collector), per-game
// (the same work with every row and hash made in the collector, as before), file (batched,
// the rows written to a file). Divide a worker's CPU time per game by this
// for the number of workers one collector keeps up with.
func BenchmarkCollector(b *testing.B) {
	for _, game := range []string{"katarenga", "baran"} {
		for _, mode := range []string{"batched", "per-game", "file"} {
			b.Run(game+"/"+mode, func(b *testing.B) {
				chunks, names := preparedChunks(b, game, 16, 64)
				var out io.Writer = io.Discard
				if mode == "file" { // the rows written to a file (the write system calls)
					f, err := os.Create(filepath.Join(b.TempDir(), "games.csv"))
					if err != nil {
						b.Fatal(err)
					}
					defer f.Close()
					out = f
				}
				w, _ := gamefile.NewGamesWriter(out, gamefile.CSV, names)
				g := newGamesSink(tally.NewSummary(names), w)
				b.ReportAllocs()
				b.ResetTimer()
				for n, k := 0, 0; n < b.N; k++ {
					c := chunks[k%len(chunks)]
					m := min(len(c.recs), b.N-n)
					for j := range m {
						c.recs[j].Game, c.recs[j].Pair = int64(n+j), int64((n+j)/2)
						c.prep.hashes[j] = uint64(n+j) * 0x9e3779b97f4a7c15
					}
					p := c.prep
					if mode == "per-game" {
						// The collector before: hashing and encoding every game itself (its
						// hashes repeat after 1,024 games, so its set stops growing: a lower
						// bound).
						p = nil
					}
					if err := g.items(c.recs, p, 0, m); err != nil {
						b.Fatal(err)
					}
					n += m
				}
				w.Close()
			})
		}
	}
}

// BenchmarkPrepare is the workers' share: one op encodes one game's CSV row and hashes it.
func BenchmarkPrepare(b *testing.B) {
	for _, game := range []string{"katarenga", "baran", "katarenga-rows"} {
		b.Run(game, func(b *testing.B) {
			// -rows: the rows only, as for the games after the first tally.DistinctExamined
			// b.Run calls this function more than once (b.N 1, then the timed run): game, the
			// loop's variable, must stay as it is.
			name, start := game, int64(0)
			if g, ok := strings.CutSuffix(game, "-rows"); ok {
				name, start = g, -tally.DistinctExamined
			}
			chunks, _ := preparedChunks(b, name, 64, 16)
			prep := prepareGames(start, math.MaxInt64, true, true, false, false, nil)
			var p prepared
			runtime.LockOSThread() // the thread's CPU time, which a loaded machine does not stretch
			defer runtime.UnlockOSThread()
			b.ReportAllocs()
			b.ResetTimer()
			cpu0, cpuOK := threadCPU()
			for n, k := 0, 0; n < b.N; k++ {
				c := chunks[k%len(chunks)]
				m := min(len(c.recs), b.N-n)
				p.rows, p.ends, p.hashes = p.rows[:0], p.ends[:0], p.hashes[:0]
				prep(c.recs[:m], &p)
				n += m
			}
			if cpu1, _ := threadCPU(); cpuOK {
				b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

// preparedChunks plays chunks×size random games and prepares them as run's workers do.
func preparedChunks(b *testing.B, game string, chunks, size int) ([]*chunk[gamefile.Record], []string) {
	gm, err := games.New(game, "", "", nil)
	if err != nil {
		b.Fatal(err)
	}
	n := int64(chunks * size)
	m, err := NewMatch(MatchConfig{Game: game, A: "random", B: "random", Games: n, Seed: 1}, gm)
	if err != nil {
		b.Fatal(err)
	}
	var out []*chunk[gamefile.Record]
	prep := prepareGames(0, math.MaxInt64, true, false, false, false, nil)
	w := m.ChunkWorker()
	for i := int64(0); i < n; i += int64(size) {
		c := &chunk[gamefile.Record]{prep: &prepared{}}
		for j := i; j < i+int64(size); j++ {
			r, _ := m.Play(w, j, func() bool { return false })
			c.recs = append(c.recs, r)
		}
		m.EndChunk(w, c.recs, nil)
		prep(c.recs, c.prep)
		out = append(out, c)
	}
	return out, m.Counters()
}

// benchRun is benchRunBatched with a sink that takes one record at a time (Run's sink).
func benchRun(b *testing.B, game string, workers int, sink func(*gamefile.Record) error) {
	benchRunBatched(b, game, workers, perItem(sink))
}

// benchRunBatched times a run of b.N random games (rounded up to even) through sink.
func benchRunBatched(b *testing.B, game string, workers int, sink batchSink[gamefile.Record]) {
	benchRunConfig(b, MatchConfig{Game: game}, workers, func(m *Match) (ItemPlayer[*Worker, gamefile.Record], batchSink[gamefile.Record]) {
		return m, sink
	})
}

// benchRunConfig is benchRunBatched for cfg's game and settings (its agents become random vs
// random, its games b.N rounded up to even, its seed 1), with the run's player and sink made
// for the match by run.
func benchRunConfig(b *testing.B, cfg MatchConfig, workers int, run func(*Match) (ItemPlayer[*Worker, gamefile.Record], batchSink[gamefile.Record])) {
	gm, err := games.New(cfg.Game, "", "", nil)
	if err != nil {
		b.Fatal(err)
	}
	n := int64(b.N + b.N%2)
	cfg.A, cfg.B, cfg.Games, cfg.Seed = "random", "random", n, 1
	m, err := NewMatch(cfg, gm)
	if err != nil {
		b.Fatal(err)
	}
	gp, sink := run(m)
	b.ReportAllocs()
	b.ResetTimer()
	if _, err := runBatched(context.Background(), gp, Plan{Start: 0, End: n}, workers, nil, sink, func(r *gamefile.Record) int64 { return r.Game }); err != nil {
		b.Fatal(err)
	}
}
