package katarenga_test

import (
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
)

// AppendAction writes exactly FormatAction, for every legal action along a random game.
func TestAppendAction(t *testing.T) {
	gm, err := games.New("katarenga", "", "0", nil)
	if err != nil {
		t.Fatal(err)
	}
	s := gm.Start(0)
	r := engine.NewRand(3)
	var buf []engine.Action
	for n := 0; n < 300; n++ {
		buf = s.Legal(buf[:0])
		if len(buf) == 0 {
			break
		}
		for _, a := range buf {
			if got, want := string(engine.AppendAction(s, nil, a)), s.FormatAction(a); got != want {
				t.Fatalf("ply %d: AppendAction %q, FormatAction %q", s.Ply(), got, want)
			}
		}
		s.Apply(buf[r.IntN(len(buf))])
	}
}
