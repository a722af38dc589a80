package fingerprint

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
)

var update = flag.Bool("update", false, "write positions-v1.txt from its generator (only when making a new version)")

// generate makes the version 1 position set: in Baran 32 positions, in Katarenga 8 on each of
// four layouts (the published layout 0 and three drawn placements), each reached by 0 to 40
// uniformly random plies from the start, none over, none twice.
func generate() (string, error) {
	var b strings.Builder
	type part struct {
		game, layout string
		n            int
	}
	parts := []part{{"baran", "", 32}, {"katarenga", "0", 8}, {"katarenga", "31337", 8}, {"katarenga", "77777", 8}, {"katarenga", "90001", 8}}
	seen := map[string]bool{}
	buf := make([]engine.Action, 0, engine.MaxActions)
	for k, p := range parts {
		gm, err := games.New(p.game, "", p.layout, nil)
		if err != nil {
			return "", err
		}
		firsts := gm.FirstColours()
		got := 0
		for i := 0; got < p.n; i++ {
			r := engine.NewRand(engine.Derive(0x706f736974696f6e+uint64(k), uint64(i)))
			s := gm.Start(firsts[i%len(firsts)])
			plies := r.IntN(41)
			for s.Ply() < plies && !s.Status().Over {
				buf = s.Legal(buf[:0])
				s.Apply(buf[r.IntN(len(buf))])
			}
			if s.Status().Over || len(s.Legal(buf[:0])) == 0 || seen[s.String()] {
				continue
			}
			seen[s.String()] = true
			fmt.Fprintf(&b, "%s\t%s\n", p.game, s.String())
			got++
		}
	}
	return b.String(), nil
}

// TestPositionsPinned holds the version's position set to its hash: positions-v1.txt is never
// edited (a new set is a new version), and every position parses and has a move to choose.
func TestPositionsPinned(t *testing.T) {
	if *update {
		text, err := generate()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("positions-v1.txt", []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote positions-v1.txt, sha256 %x: set positionsV1SHA256 to it", sha256.Sum256([]byte(text)))
		return
	}
	if got := fmt.Sprintf("%x", sha256.Sum256([]byte(positionsV1))); got != positionsV1SHA256 {
		t.Fatalf("positions-v1.txt hashes to %s, version 1 is %s: the position set of a version never changes (make positions-v2.txt and Version 2, and re-record every fingerprint)", got, positionsV1SHA256)
	}
	for _, game := range games.Names {
		states, err := Positions(game)
		if err != nil {
			t.Fatal(err)
		}
		if len(states) != 32 {
			t.Errorf("%s: %d positions, want 32", game, len(states))
		}
		for i, s := range states {
			if s.Status().Over || len(s.Legal(nil)) == 0 {
				t.Errorf("%s position %d (%s) has no move to choose", game, i+1, s)
			}
		}
	}
}
