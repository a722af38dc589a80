package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

// writeGridList writes n random colour grids (seed s), one a line, plus a comment, an index
// and a layout string, and returns the file's path and its grid lines.
func writeGridList(t *testing.T, n int, s uint64) (string, []string) {
	t.Helper()
	r := engine.NewRand(s)
	var lines []string
	for i := 0; i < n; i++ {
		var b strings.Builder
		for sq := 0; sq < 64; sq++ {
			if sq > 0 && sq%8 == 0 {
				b.WriteByte('/')
			}
			b.WriteByte("rygb"[r.IntN(4)])
		}
		lines = append(lines, b.String())
	}
	path := filepath.Join(t.TempDir(), "list.txt")
	text := "# a list\n" + strings.Join(lines, "\n") + "\n17\nC13-A02-D10-B01   # a layout string\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, lines
}

func sameFiles(t *testing.T, a, b string, files ...string) {
	t.Helper()
	for _, f := range files {
		x, err1 := os.ReadFile(filepath.Join(a, f))
		y, err2 := os.ReadFile(filepath.Join(b, f))
		if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs between %s and %s (%v, %v)", f, a, b, err1, err2)
		}
	}
}

// A list sweep keeps its layouts in DIR/layouts.txt, not in manifest.json: an interrupted run
// resumes to the bytes of an uninterrupted one, shards merge to them, and a changed or missing
// layouts.txt is refused.
func TestLayoutListSidecar(t *testing.T) {
	list, lines := writeGridList(t, 30, 11)
	tmp := t.TempDir()
	ref, stopped, merged := filepath.Join(tmp, "ref"), filepath.Join(tmp, "stopped"), filepath.Join(tmp, "merged")
	sweepArgs := []string{"layouts", "-layouts", list, "-games-per-board", "4", "-seed", "5", "-workers", "1", "-progress", "never"}
	if _, _, err := runCmd(t, append(sweepArgs, "-out", ref)...); err != nil {
		t.Fatal(err)
	}
	man, err := os.ReadFile(filepath.Join(ref, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(man), lines[0]) || !strings.Contains(string(man), `"list_len": 32`) && !strings.Contains(string(man), `"list_len":32`) {
		t.Errorf("manifest.json holds the layouts or lacks list_len 32:\n%s", man)
	}
	side, err := os.ReadFile(filepath.Join(ref, "layouts.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Join(lines, "\n") + "\n17\n54603\n"; string(side) != want {
		t.Errorf("layouts.txt is not the canonical list:\n%s", side)
	}

	// Interrupted before the first board, then resumed.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = run(ctx, append(sweepArgs, "-out", stopped), &bytes.Buffer{}, &bytes.Buffer{})
	if !errors.Is(err, errInterrupted) {
		t.Fatalf("interrupted run: %v", err)
	}
	if _, _, err := runCmd(t, "layouts", "-resume", stopped); err != nil {
		t.Fatal(err)
	}
	outputs := []string{"boards.csv", "layouts.csv", "choices.csv", "layouts.txt"}
	sameFiles(t, ref, stopped, outputs...)

	// Two shards, merged.
	var parts []string
	for i := 0; i < 2; i++ {
		d := filepath.Join(tmp, fmt.Sprintf("part%d", i))
		if _, _, err := runCmd(t, append(sweepArgs, "-shard", fmt.Sprintf("%d/2", i), "-out", d)...); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, d)
	}
	if _, _, err := runCmd(t, append([]string{"merge", "-out", merged}, parts...)...); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, ref, merged, outputs...)

	// A changed list, then a missing one, is refused by -report, -resume and merge.
	tampered := strings.Replace(string(side), lines[3], lines[4], 1)
	for _, c := range []struct{ text, want string }{{tampered, "the file was changed"}, {"", "missing"}} {
		for _, d := range []string{ref, stopped, parts[0]} {
			p := filepath.Join(d, "layouts.txt")
			if c.text == "" {
				os.Remove(p)
			} else if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		mp := filepath.Join(stopped, "manifest.json")
		m, _ := os.ReadFile(mp)
		os.WriteFile(mp, bytes.Replace(m, []byte(`"complete"`), []byte(`"interrupted"`), 1), 0o644)
		wantUsageError(t, c.want, "layouts", "-report", ref)
		wantUsageError(t, c.want, "layouts", "-resume", stopped)
		wantUsageError(t, c.want, "merge", "-out", filepath.Join(tmp, "m2"), parts[0], parts[1])
	}
}

// A ladder on a list writes the list beside its manifest and in every level directory.
func TestLayoutLadderListSidecar(t *testing.T) {
	list, _ := writeGridList(t, 6, 12)
	dir := filepath.Join(t.TempDir(), "ladder")
	if _, _, err := runCmd(t, "layouts", "-ladder", "random;greedy", "-layouts", list, "-games-per-board", "2", "-rating-games-per-pairing", "0",
		"-workers", "1", "-progress", "never", "-out", dir); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"level-1", "level-2"} {
		sameFiles(t, dir, filepath.Join(dir, d), "layouts.txt")
	}
	if _, _, err := runCmd(t, "layouts", "-report", dir); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "layouts.txt"))
	wantUsageError(t, "missing", "layouts", "-report", dir)
}
