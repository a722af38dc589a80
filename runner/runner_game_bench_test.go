package runner

import (
	"math"
	"runtime"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"

	"github.com/fairplay-lab/fairplay/engine/games"
)

// BenchmarkWorkerGame is a worker's own share of a run of random games with move records, on
// one goroutine with no collector: Match.PlayInto in chunks of 64 (endChunk with a recycled arena)
// and, for +prepare, play's row and hash (prepareGames). One op is one game; compare with
// `fairplay bench` games (BenchmarkRandomPlayout per ply times the mean plies).
func BenchmarkWorkerGame(b *testing.B) {
	for _, game := range []string{"katarenga", "baran"} {
		for _, prep := range []bool{false, true} {
			name := game + "-nobranching"
			if prep {
				name += "+prepare"
			}
			b.Run(name, func(b *testing.B) {
				gm, err := games.New(game, "", "", nil)
				if err != nil {
					b.Fatal(err)
				}
				n := int64(b.N + b.N%2)
				m, err := NewMatch(MatchConfig{Game: game, A: "random", B: "random", Games: n, Seed: 1, NoBranching: true}, gm)
				if err != nil {
					b.Fatal(err)
				}
				w := m.ChunkWorker()
				recs := make([]gamefile.Record, 0, 64)
				a := &Arena{}
				pr := prepareGames(0, math.MaxInt64, true, true, false, false, nil)
				var p prepared
				stop := func() bool { return false }
				runtime.LockOSThread() // the thread's CPU time, which a loaded machine does not stretch
				defer runtime.UnlockOSThread()
				b.ReportAllocs()
				b.ResetTimer()
				cpu0, cpuOK := threadCPU()
				for i := int64(0); i < n; {
					recs = recs[:0]
					for ; i < n && len(recs) < 64; i++ { // into the chunk's slots, as a run plays them
						recs = recs[:len(recs)+1]
						m.PlayInto(w, i, stop, &recs[len(recs)-1])
					}
					m.EndChunk(w, recs, a)
					if prep {
						p.rows, p.ends, p.hashes = p.rows[:0], p.ends[:0], p.hashes[:0]
						pr(recs, &p)
					}
				}
				if cpu1, _ := threadCPU(); cpuOK {
					b.ReportMetric(float64(cpu1-cpu0)/float64(n), "cpu-ns/op")
				}
			})
		}
	}
}
