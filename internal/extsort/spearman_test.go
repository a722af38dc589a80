package extsort

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/fairplay-lab/fairplay/stats"
)

// ExternalSpearman equals Spearman value for value, with heavy ties and tiny runs.
func TestExternalSpearman(t *testing.T) {
	for _, n := range []int{0, 3, 4, 50, 2000} {
		r := rand.New(rand.NewPCG(uint64(n), 9))
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i] = float64(r.IntN(3)) / 2 // three values: long runs of ties
			y[i] = x[i]*0.3 + r.Float64()
			if i%5 == 0 {
				y[i] = 0.25
			}
		}
		s := &ExternalSpearman{Dir: t.TempDir(), RunLen: 6}
		for i := range x {
			if err := s.Add(x[i], y[i]); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.Result()
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		want := stats.Spearman(x, y)
		if !(got == want || (n < 4 && math.IsNaN(got.Value) && math.IsNaN(want.Value))) {
			t.Errorf("n=%d: %+v, want %+v", n, got, want)
		}
		if ents, _ := os.ReadDir(s.Dir); len(ents) != 0 {
			t.Errorf("n=%d: %d files left", n, len(ents))
		}
	}
}
