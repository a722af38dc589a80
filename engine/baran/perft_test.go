package baran

import (
	"sort"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

const startFEN = "2wfwwk/3wfww/W3wfw/FW3wf/WFW3w/WWFW3/KWWFW2 r - 0"

// Reference counts from RULES.md §1.10 (start position, Red to move, default rules).
func TestPerftStart(t *testing.T) {
	want := []uint64{18, 324, 10206, 322040}
	depth := 4
	if testing.Short() {
		depth = 3
	}
	s := New(DefaultRules, 0)
	if got := s.String(); got != startFEN {
		t.Fatalf("start position %q, want %q", got, startFEN)
	}
	for d := 1; d <= depth; d++ {
		if got := engine.Perft(s, d, engine.PerftBuffers(d)); got != want[d-1] {
			t.Errorf("perft(%d) = %d, want %d", d, got, want[d-1])
		}
	}
}

func TestFirstActions(t *testing.T) {
	s := New(DefaultRules, 0)
	var names []string
	for _, a := range s.Legal(nil) {
		names = append(names, s.FormatAction(a))
	}
	sort.Strings(names)
	want := "a4:a6 a4:c4 a5-a6 a5-b5 b3:b5 b3:d3 b4-b5 b4-c4 c2:c4 c2:e2 c3-c4 c3-d3 d1:d3 d1:f1 d2-d3 d2-e2 e1-e2 e1-f1"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("first actions\n got %s\nwant %s", got, want)
	}
}
