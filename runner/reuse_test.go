package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/internal/reporttest"
	"github.com/fairplay-lab/fairplay/tally"
)

// TestReuseCopiesTheSameMatch: under WithReuse a match that another complete run under the
// root already played (the same configuration, seed, agents and files) copies its games instead
// of playing them: the same games file byte for byte, the same summary, nothing played, and a
// manifest naming the source, also when a fresh index walks the root to find it, and after a
// resume. A different seed, another executable, another games format, a changed weights file,
// a sequential stop, a shard, an unfinished source, a directory that already holds games or no
// WithReuse at all play the match.
func TestReuseCopiesTheSameMatch(t *testing.T) {
	t.Parallel()
	m, w := weightsMatch(t, 6)
	root := t.TempDir()
	dir := func(name string) string { return filepath.Join(root, name) }
	run := func(ctx context.Context, m *Match, s Session) *Outcome {
		t.Helper()
		if err := os.MkdirAll(s.Dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if s.Workers == 0 {
			s.Workers, s.Shard = 2, Shard{0, 1}
		}
		out, err := RunMatch(ctx, m, s)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	reuse := WithReuse(context.Background(), root)
	src := run(reuse, m, Session{Dir: dir("a")})
	if src.Manifest.ReusedFrom != "" {
		t.Fatalf("the first run reused %s", src.Manifest.ReusedFrom)
	}
	var stderr bytes.Buffer
	got := run(reuse, m, Session{Dir: dir("b"), Stderr: &stderr})
	if got.Manifest.ReusedFrom != filepath.Join("..", "a") {
		t.Fatalf("reused_from %q, want ../a (stderr %q)", got.Manifest.ReusedFrom, stderr.String())
	}
	if got.Manifest.GamesPerSecond != 0 || got.Summary.N != 6 || got.Summary.AWins != src.Summary.AWins || got.Manifest.Status != "complete" {
		t.Errorf("reused run: %d games, a wins %d (source %d), %.1f games/s, status %s", got.Summary.N, got.Summary.AWins, src.Summary.AWins, got.Manifest.GamesPerSecond, got.Manifest.Status)
	}
	same(t, dir("a"), dir("b"), "games.csv", true)
	same(t, dir("a"), dir("b"), "summary.csv", true)
	if man, err := gamefile.ReadManifest(filepath.Join(dir("b"), "manifest.json")); err != nil || man.ReusedFrom != got.Manifest.ReusedFrom {
		t.Errorf("manifest on disk: %v, reused_from %q", err, man.ReusedFrom)
	}

	gm, err := games.New("katarenga", "", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	other, err := NewMatch(MatchConfig{Game: "katarenga", A: "greedy:weights=" + w, B: "random", Games: 6, Seed: 6}, gm)
	if err != nil {
		t.Fatal(err)
	}
	played := func(name string, out *Outcome) {
		t.Helper()
		if out.Manifest.ReusedFrom != "" || out.Manifest.GamesPerSecond == 0 {
			t.Errorf("%s: reused %q (%.1f games/s), want played", name, out.Manifest.ReusedFrom, out.Manifest.GamesPerSecond)
		}
	}
	played("another seed", run(reuse, other, Session{Dir: dir("c")}))
	played("no WithReuse", run(context.Background(), m, Session{Dir: dir("d")}))
	played("a stop", run(reuse, m, Session{Dir: dir("e"), Workers: 1, Shard: Shard{0, 1}, Stop: func(*tally.Summary) bool { return false }}))
	played("a shard", run(reuse, m, Session{Dir: dir("f"), Workers: 1, Shard: Shard{0, 2}}))

	// A source that is not complete is not reused.
	lone := t.TempDir()
	loneReuse := WithReuse(context.Background(), lone)
	run(loneReuse, m, Session{Dir: filepath.Join(lone, "a")})
	reporttest.EditManifest(t, filepath.Join(lone, "a"), func(m *gamefile.Manifest) { m.Status = "interrupted" })
	played("an interrupted source", run(loneReuse, m, Session{Dir: filepath.Join(lone, "b")}))

	played("another format", run(reuse, m, Session{Dir: dir("h"), Format: gamefile.CSVGzip}))

	// A fresh index (a resumed study) finds the source by walking the root.
	walked := run(WithReuse(context.Background(), root), m, Session{Dir: dir("i")})
	if walked.Manifest.ReusedFrom != filepath.Join("..", "a") {
		t.Errorf("a fresh index: reused_from %q, want ../a", walked.Manifest.ReusedFrom)
	}

	// A directory that already holds games is resumed, not overwritten by a copy.
	data, err := os.ReadFile(filepath.Join(dir("a"), "games.csv"))
	if err != nil {
		t.Fatal(err)
	}
	head := bytes.SplitAfterN(data, []byte("\n"), 4) // the header and 2 games
	if err := os.MkdirAll(dir("j"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir("j"), "games.csv"), bytes.Join(head[:3], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	played("a partly played directory", run(reuse, m, Session{Dir: dir("j"), Resume: true, Workers: 1, Shard: Shard{0, 1}}))
	same(t, dir("a"), dir("j"), "games.csv", true)

	// A reused match resumed (say after a kill before its manifest was complete) keeps its source.
	reporttest.EditManifest(t, dir("b"), func(m *gamefile.Manifest) { m.Status = "interrupted" })
	if got := run(context.Background(), m, Session{Dir: dir("b"), Resume: true, Workers: 1, Shard: Shard{0, 1}}); got.Manifest.ReusedFrom != filepath.Join("..", "a") {
		t.Errorf("resumed reused match: reused_from %q, want ../a", got.Manifest.ReusedFrom)
	}

	// Another executable (or none recorded) may play otherwise: nothing is reused.
	for k, build := range []string{"0123", ""} {
		other := t.TempDir()
		ctx := WithReuse(context.Background(), other)
		run(ctx, m, Session{Dir: filepath.Join(other, "a")})
		reporttest.EditManifest(t, filepath.Join(other, "a"), func(m *gamefile.Manifest) { m.BuildSHA256 = build })
		played([]string{"another executable", "no executable recorded"}[k], run(ctx, m, Session{Dir: filepath.Join(other, "b")}))
	}

	// The agent's weights file changed: it plays otherwise, so nothing is reused.
	changeWeights(t, w)
	played("changed weights", run(reuse, m, Session{Dir: dir("g")}))
}

// same compares file name in two directories.
func same(t *testing.T, a, b, name string, want bool) {
	t.Helper()
	x, err := os.ReadFile(filepath.Join(a, name))
	if err != nil {
		t.Fatal(err)
	}
	y, err := os.ReadFile(filepath.Join(b, name))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(x, y) != want {
		t.Errorf("%s: %s and %s equal: %v, want %v", name, a, b, !want, want)
	}
}
