package nnue

import (
	"math"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

// checkSums fails t unless e's packed accumulator holds, for both perspectives, the plain sums
// of the bias and the rows of the active inputs of its planes.
func checkSums(t *testing.T, e *Evaluator, what string) {
	t.Helper()
	n := e.Net
	fm := BaranMap()
	if n.game == Katarenga {
		var m FeatureMap
		cols := Colours(e.board)
		KatarengaMap(&m, &cols)
		fm = &m
	}
	for p := 0; p < 2; p++ {
		act := fm.Active(&e.Acc.Planes, p, nil)
		for j := 0; j < n.H; j++ {
			want := int(n.B1[j])
			for _, f := range act {
				want += int(n.W1[int(f)*n.H+j])
			}
			if got := int(e.Acc.Value(p, j)); got != want {
				t.Fatalf("%s: perspective %d value %d is %d, the inputs' sum %d", what, p, j, got, want)
			}
		}
	}
}

// TestAccumulatorAtBound: a network at the loader's overflow bound (every first-layer weight of
// a unit ±big, its bias ±(32767 − maxActive·big), the signs alternating by unit) is accepted, one
// unit more of bias is refused, and on random walks the biased 16-bit lanes hold the exact sums,
// values beyond ±2^14 included (near the top and the bottom of int16), incremental updates and
// refreshes alike.
func TestAccumulatorAtBound(t *testing.T) {
	for _, game := range []string{"baran", "katarenga"} {
		n, err := randomFloat(t, game, 16, 0, 3).Quantize("")
		if err != nil {
			t.Fatal(err)
		}
		g := gameIndex(game)
		big := (math.MaxInt16 - 500) / maxActive[g]
		for j := 0; j < n.H; j++ {
			sign := 1 - 2*(j%2)
			for f := 0; f < n.In; f++ {
				n.W1[f*n.H+j] = int16(sign * big)
			}
			n.B1[j] = int16(sign * (math.MaxInt16 - maxActive[g]*big))
		}
		if err := n.check(); err != nil {
			t.Fatalf("%s: the network at the bound is refused: %v", game, err)
		}
		n.B1[0]++
		if err := n.check(); err == nil {
			t.Fatalf("%s: a bias one over the bound is accepted", game)
		}
		n.B1[0]--
		if err := n.check(); err != nil {
			t.Fatal(err)
		}
		e := NewEvaluator(n)
		var hi, lo int16
		s := newGame(t, game, "", 2)
		step := 0
		walk(s, engine.NewRand(9), 1500, func() {
			if step++; step%10 == 0 {
				e.Acc.valid = false // a full refresh, then updates from it
			}
			e.Update(s)
			checkSums(t, e, game)
			hi, lo = max(hi, e.Acc.Value(0, 0), e.Acc.Value(1, 0)), min(lo, e.Acc.Value(0, 1), e.Acc.Value(1, 1))
		})
		if hi < 1<<14 || lo > -1<<14 {
			t.Errorf("%s: values reached only %d..%d: want beyond ±2^14", game, lo, hi)
		}
		if e.Refreshes < 100 || e.Updates < 1000 {
			t.Errorf("%s: %d refreshes, %d updates: want both", game, e.Refreshes, e.Updates)
		}
	}
}
