package experiments

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/results"
)

// BenchmarkRunner measures the runner's throughput on random self-play with move records, the
// records handed to a sink that drops them; one op is one game. Compare games/s with
// `fairplay bench` (engine only) for the runner's overhead, and workers=2 with workers=1 for
// its scaling.
func BenchmarkRunner(b *testing.B) {
	for _, game := range []string{"katarenga", "baran"} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", game, workers), func(b *testing.B) {
				benchRun(b, game, workers, func(*results.Record) error { return nil })
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
			w, _ := results.NewGamesWriter(io.Discard, results.CSV, gm.Start(0).(interface{ CounterNames() []string }).CounterNames())
			benchRun(b, "katarenga", workers, w.Write)
			w.Close()
		})
	}
}

// BenchmarkRunnerPlay is the sink of `fairplay play`: every record added to a Summary and
// written as CSV (to io.Discard) in the collector, in game order.
func BenchmarkRunnerPlay(b *testing.B) {
	for _, game := range []string{"katarenga", "baran"} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", game, workers), func(b *testing.B) {
				gm, _ := games.New(game, "", "", nil)
				names := gm.Start(0).(interface{ CounterNames() []string }).CounterNames()
				w, _ := results.NewGamesWriter(io.Discard, results.CSV, names)
				sum := results.NewSummary(names)
				benchRun(b, game, workers, func(r *results.Record) error { sum.Add(r); return w.Write(r) })
				w.Close()
			})
		}
	}
}

func benchRun(b *testing.B, game string, workers int, sink func(*results.Record) error) {
	gm, err := games.New(game, "", "", nil)
	if err != nil {
		b.Fatal(err)
	}
	n := int64(b.N + b.N%2)
	m, err := NewMatch(MatchConfig{Game: game, A: "random", B: "random", Games: n, Seed: 1}, gm)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	if _, err := Run(context.Background(), m, Plan{Start: 0, End: n}, workers, nil, sink); err != nil {
		b.Fatal(err)
	}
}
