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
	kat := katStates(6)
	nodes := func(spec string) int64 { return nodesOver(t, "katarenga", spec, kat) }
	off, on := nodes("alphabeta:depth=7,"+selective), nodes("alphabeta:depth=7,iir=1,"+selective)
	t.Logf("depth 7, six positions: %d nodes without iir, %d with", off, on)
	if on == off {
		t.Errorf("iir=1 and iir=0 both searched %d nodes: the option does nothing", on)
	}
	if _, err := Parse("alphabeta:iir=2"); err == nil {
		t.Error("iir=2 accepted")
	}
}

// katStates is katPositions(n) as engine.States.
func katStates(n int) []engine.State {
	var out []engine.State
	for _, s := range katPositions(n) {
		out = append(out, s)
	}
	return out
}

// nodesOver returns the nodes spec's players search choosing a move in each position of game
// (searchNodes, a fresh player for each).
func nodesOver(t *testing.T, game, spec string, pos []engine.State) int64 {
	t.Helper()
	var n int64
	for _, s := range pos {
		n += searchNodes(t, game, spec, s, s.Legal(nil))
	}
	return n
}
