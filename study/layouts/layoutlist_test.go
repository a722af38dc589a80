package layouts

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/runner"

	"github.com/fairplay-lab/fairplay/gamefile"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// The manifest of a 1,000-layout list sweep is small and holds no layout: the list is pinned by
// its checksum and kept in layouts.txt, which LoadList reads back to the same sweep.
func TestListManifestSmall(t *testing.T) {
	r := engine.NewRand(3)
	var texts []string
	for i := 0; i < 1000; i++ {
		var g katarenga.Grid
		for sq := range g {
			g[sq] = katarenga.Colour(r.IntN(4))
		}
		texts = append(texts, g.String())
	}
	sw := sweep(t, LayoutsConfig{Layouts: "list", List: listOf(t, texts...), Games: 2, Seed: 1})
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // nothing played: the manifest of an interrupted run
	if _, err := RunLayouts(ctx, sw, runner.Session{Dir: dir, Workers: 1, Shard: runner.Shard{Index: 0, Count: 1}}); err != nil {
		t.Fatal(err)
	}
	man := read(t, filepath.Join(dir, "manifest.json"))
	if len(man) > 4096 || strings.Contains(string(man), texts[0]) {
		t.Errorf("manifest.json is %d bytes (want at most 4096, no layouts)", len(man))
	}
	m, err := gamefile.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg LayoutsConfig
	if err := json.Unmarshal(m.Config, &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.ListLen != 1000 || cfg.List != nil {
		t.Fatalf("config list_len %d, list loaded %v", cfg.ListLen, cfg.List != nil)
	}
	if err := cfg.LoadList(dir); err != nil {
		t.Fatal(err)
	}
	back := sweep(t, cfg)
	_, h1, _ := gamefile.HashConfig(sw.Cfg)
	_, h2, _ := gamefile.HashConfig(back.Cfg)
	if h1 != h2 || back.NumRows() != sw.NumRows() {
		t.Fatalf("read back: hash %s vs %s, %d rows vs %d", h1, h2, back.NumRows(), sw.NumRows())
	}
	for k := 0; k < sw.NumRows(); k++ {
		if back.Row(k) != sw.Row(k) {
			t.Fatalf("row %d: %+v, want %+v", k, back.Row(k), sw.Row(k))
		}
	}
	// A list sweep without its list, or with another, is refused.
	cfg.List = nil
	if _, err := NewSweep(cfg); err == nil || !strings.Contains(err.Error(), "not loaded") {
		t.Errorf("no list: %v", err)
	}
	cfg.List = listOf(t, texts[1:]...)
	if _, err := NewSweep(cfg); err == nil || !strings.Contains(err.Error(), "999 layouts") {
		t.Errorf("another list: %v", err)
	}
}

// A configuration written before lists left the JSON (a "list" of layout texts) still reads,
// as the same list.
func TestOldListConfig(t *testing.T) {
	old := `{"kind":"layouts","a":"random","b":"random","layouts":"list","list":["0","C13-A02-D10-B01","rrrrrrrr/yyyyyyyy/gggggggg/bbbbbbbb/rrrrrrrr/yyyyyyyy/gggggggg/bbbbbbbb"],"games_per_layout":4,"seed":2}`
	var cfg LayoutsConfig
	if err := json.Unmarshal([]byte(old), &cfg); err != nil {
		t.Fatal(err)
	}
	want := listOf(t, "0", "54603", "rrrrrrrr/yyyyyyyy/gggggggg/bbbbbbbb/rrrrrrrr/yyyyyyyy/gggggggg/bbbbbbbb")
	if cfg.List == nil || cfg.ListLen != 3 || cfg.ListSHA256 != want.SHA256() || cfg.Games != 4 || cfg.Seed != 2 {
		t.Fatalf("old config read as %+v", cfg)
	}
	if err := json.Unmarshal([]byte(`{"layouts":"list","list":["nonsense"]}`), &cfg); err == nil {
		t.Error("a bad layout in an old list was accepted")
	}
}

// ParseLayoutList reads comments, indices, layout strings and grids; a list file's canonical
// text is one index or grid a line.
func TestParseLayoutList(t *testing.T) {
	path := filepath.Join(t.TempDir(), "l.txt")
	os.WriteFile(path, []byte("# c\n\n 7 \nC13-A02-D10-B01 # x\n"), 0o644)
	l, err := ParseLayoutList(path)
	if err != nil || l.Len() != 2 || l.Layout(0).Index != 7 || l.Layout(1).Index != 54603 {
		t.Fatalf("%v %+v", err, l)
	}
	var b strings.Builder
	if sum, err := writeLayouts(&b, l.Len(), l.Layout); err != nil || b.String() != "7\n54603\n" || sum != l.SHA256() {
		t.Errorf("canonical text %q (%v), sum %s vs %s", b.String(), err, sum, l.SHA256())
	}
	os.WriteFile(path, []byte("# nothing\n"), 0o644)
	if _, err := ParseLayoutList(path); err == nil || !strings.Contains(err.Error(), "no layouts") {
		t.Errorf("empty list: %v", err)
	}
	os.WriteFile(path, []byte("7\nZ99\n"), 0o644)
	if _, err := ParseLayoutList(path); err == nil || !strings.Contains(err.Error(), ":2:") {
		t.Errorf("bad line: %v", err)
	}
}

// TestParseLayoutListCap: a list longer than MaxSweepLayouts is refused while it is read, with a
// message naming the file and the limit.
func TestParseLayoutListCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "long.txt")
	var b strings.Builder
	for i := 0; i <= MaxSweepLayouts; i++ {
		b.WriteString(strconv.Itoa(i % 1000))
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ParseLayoutList(path)
	if err == nil || !strings.Contains(err.Error(), "long.txt") || !strings.Contains(err.Error(), strconv.Itoa(MaxSweepLayouts)) {
		t.Fatalf("ParseLayoutList of %d layouts: err %v, want the file and the limit named", MaxSweepLayouts+1, err)
	}
}
