package agents

import (
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

// TestIIRActs checks that iir=1 changes the search: at a fixed depth, on Katarenga middle
// games, internal iterative reduction (a node of depth 4 or more without a table move is
// searched a ply shallower) visits another number of nodes (with iterative deepening few nodes
// lack a table move, so the difference is small); and a bad value is refused.
func TestIIRActs(t *testing.T) {
	nodes := func(spec string) int64 {
		var n int64
		ag := mustAgent(t, spec)
		for _, s := range katPositions(6) {
			pl, err := ag.NewPlayer("katarenga")
			if err != nil {
				t.Fatal(err)
			}
			p := pl.(*abPlayer)
			if _, err := p.Choose(s, s.Legal(nil), engine.NewRand(1)); err != nil {
				t.Fatal(err)
			}
			n += p.Nodes
			p.Close()
		}
		return n
	}
	off, on := nodes("alphabeta:depth=7,"+selective), nodes("alphabeta:depth=7,iir=1,"+selective)
	t.Logf("depth 7, six positions: %d nodes without iir, %d with", off, on)
	if on == off {
		t.Errorf("iir=1 and iir=0 both searched %d nodes: the option does nothing", on)
	}
	if _, err := Parse("alphabeta:iir=2"); err == nil {
		t.Error("iir=2 accepted")
	}
}
