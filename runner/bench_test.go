package runner

import (
	"io"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"

	"github.com/fairplay-lab/fairplay/engine/games"
)

// BenchmarkRecordGames plays random Katarenga games and writes them as games.csv rows (the
// moves column included): the throughput bar of a run's hot path.
func BenchmarkRecordGames(b *testing.B) {
	gm, _ := games.New("katarenga", "", "0", nil)
	m, err := NewMatch(MatchConfig{Game: "katarenga", Layout: "0", A: "random", B: "random", Games: 2, Seed: 1}, gm)
	if err != nil {
		b.Fatal(err)
	}
	cw, _ := gamefile.NewCSVWriter(io.Discard, m.Counters())
	w := m.NewWorker()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, _ := m.Play(w, int64(i), func() bool { return false })
		if err := cw.Write(&r); err != nil {
			b.Fatal(err)
		}
	}
}
