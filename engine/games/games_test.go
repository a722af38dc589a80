package games

import (
	"strings"
	"testing"
)

func TestNew(t *testing.T) {
	g, err := New("katarenga", "first-move-capture=banned", "C13-A02-D10-B01", nil)
	if err != nil {
		t.Fatal(err)
	}
	if g.Layout() != "54603" || !strings.HasPrefix(g.Rules(), "first-move-capture=banned") || len(g.FirstColours()) != 1 {
		t.Errorf("katarenga: layout %s rules %s", g.Layout(), g.Rules())
	}
	s := g.Start(0)
	if s.Game() != "katarenga" || len(s.Legal(nil)) == 0 {
		t.Error("katarenga start position has no moves")
	}
	b, err := New("baran", "", "", nil)
	if err != nil || len(b.FirstColours()) != 2 || b.Start(1).ToMove() != 1 {
		t.Fatalf("baran: %v", err)
	}
	if _, err := b.ParsePosition("nonsense"); err == nil {
		t.Error("a bad position parsed")
	}
	st, err := b.ParsePosition("6k/7/7/7/7/7/K6 b - 3")
	if err != nil || st == nil || st.Ply() != 3 {
		t.Errorf("ParsePosition: %v", err)
	}
	for _, bad := range [][3]string{{"chess", "", ""}, {"baran", "", "0"}, {"katarenga", "", "nope"}, {"baran", "capture=maybe", ""}} {
		if _, err := New(bad[0], bad[1], bad[2], nil); err == nil {
			t.Errorf("New%v: want an error", bad)
		}
	}
}
