package baran

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/fairplay-lab/fairplay/engine"
)

// capsLines reports what is wrong, if anything, with where s's capture scratch lies: it is
// written on every scan that finds a capture, so it must fill whole 64-byte cache lines of its
// own, or a neighbour in the allocator's span (another worker's, in one process) shares its end
// lines and the two cores pass them back and forth.
func capsLines(s *State) string {
	c := s.moves.caps
	if cap(c) == 0 {
		return "no array: scan grows one by append, in whatever small size class a game needs"
	}
	a := uintptr(unsafe.Pointer(unsafe.SliceData(c)))
	if n := uintptr(cap(c)) * unsafe.Sizeof(capture{}); a%64 != 0 || n%64 != 0 {
		return fmt.Sprintf("array of %d bytes, %d bytes into a cache line", n, a%64)
	}
	return ""
}

// TestCapsOwnLines checks that the capture scratch of every state, new, parsed or cloned,
// starts on a cache line and fills whole lines, and still does after random games (it does
// not grow into a smaller size class), without allocating during them.
func TestCapsOwnLines(t *testing.T) {
	for _, rules := range []string{"", "capture=huff", "chain-capture=per-jump"} {
		r, err := ParseRules(rules)
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := ParsePosition(New(r, 1).String(), r)
		if err != nil {
			t.Fatal(err)
		}
		for name, s := range map[string]*State{"New": New(r, 0), "ParsePosition": parsed, "Clone": New(r, 0).Clone().(*State)} {
			if msg := capsLines(s); msg != "" {
				t.Fatalf("%q: %s: capture scratch: %s", rules, name, msg)
			}
			rng := engine.NewRand(3)
			plies := 0
			allocs := testing.AllocsPerRun(20, func() {
				s.Reset()
				plies += s.PlayRandom(rng)
			})
			if msg := capsLines(s); msg != "" {
				t.Errorf("%q: %s: capture scratch after %d plies: %s", rules, name, plies, msg)
			}
			if allocs != 0 {
				t.Errorf("%q: %s: %v allocations a random game, want 0", rules, name, allocs)
			}
		}
	}
}
