package agents

import (
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// MCTS's incremental child evaluation equals Evaluate on every child (captures, camp entries
// and first-move positions included) of positions on 80 layouts, children evaluated in a
// random order and parents interleaved, with and without the cache; the hints equal
// evalTactics's.
func TestMCTSChildEval(t *testing.T) {
	w, _ := DefaultWeights("katarenga")
	for _, cached := range []bool{false, true} {
		for i, s0 := range katPositions(80) {
			s := s0.Clone().(*katarenga.State)
			pl, _ := mustAgent(t, "mcts:playouts=10").NewPlayer("katarenga")
			p := pl.(*mctsPlayer)
			ref := &abPlayer{w: w}
			r := engine.NewRand(uint64(i))
			for ply := 0; ply < 16; ply++ {
				legal := s.Legal(nil)
				if len(legal) == 0 {
					break
				}
				for k := range legal {
					j := k + r.IntN(len(legal)-k)
					legal[k], legal[j] = legal[j], legal[k]
				}
				for _, a := range legal {
					s.Apply(a)
					if !cached {
						p.qs.ec = make(evalCache, evalCacheSize) // empty: computed, not read
					}
					got := p.childEval(s, a)
					want := Evaluate(s, w)
					if got != want {
						t.Fatalf("position %d+%d, child %s: %v, want %v", i, ply, s.FormatAction(a), got, want)
					}
					if f, wf := p.qs.kc.features(s, a, new([2]uint64), new([2]int)), katarengaFeatures(s); a != katarenga.Pass &&
						(f[0] != wf[0] || f[2] != wf[2] || f[10] != wf[10] || f[11] != wf[11]) {
						t.Fatalf("position %d+%d, child %s: features %v, want %v", i, ply, s.FormatAction(a), f, wf)
					}
					_, tac := p.qs.rawEval(s)
					if _, want := ref.rawEval(s); tac != want {
						t.Fatalf("position %d+%d, child %s: hints %b, want %b", i, ply, s.FormatAction(a), tac, want)
					}
					s.Undo()
				}
				s.Apply(legal[r.IntN(len(legal))])
			}
		}
	}
}
