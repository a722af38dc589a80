package agents

import (
	"testing"

	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// TestLayoutCacheBounded plays evaluations on more fresh boards than the layout cache holds
// (runs on random layouts build one board per game): the cache must stay bounded and keep
// giving the same features as a freshly computed layout.
func TestLayoutCacheBounded(t *testing.T) {
	katLayouts.Clear()
	katLayoutCount.Store(0)
	for i := 0; i < maxKatLayouts+500; i++ {
		l, err := katarenga.DefaultTiles.LayoutFromIndex(i % 3000)
		if err != nil {
			t.Fatal(err)
		}
		s := katarenga.New(katarenga.NewBoard(l), katarenga.DefaultRules)
		if got, want := *layoutOf(s), *newKatLayout(s.Board()); got != want {
			t.Fatalf("board %d: cached layout features differ from a fresh computation", i)
		}
	}
	n := 0
	katLayouts.Range(func(any, any) bool { n++; return true })
	if n > maxKatLayouts {
		t.Errorf("layout cache holds %d boards, want at most %d", n, maxKatLayouts)
	}
}
