package tournament

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/runner"
)

// openWatch notes, when the line opening pairing 2 is written, whether pairing 1 (dir) had
// finished: with shared workers pairing 2 opens as soon as pairing 1 has started its last
// game, before pairing 1 ends.
type openWatch struct {
	mu       sync.Mutex
	dir      string
	seen     bool
	finished bool
}

func (w *openWatch) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte("pairing 2/")) {
		man, err := gamefile.ReadManifest(filepath.Join(w.dir, "manifest.json"))
		w.mu.Lock()
		w.seen, w.finished = true, err == nil && man.Status == "complete"
		w.mu.Unlock()
	}
	return len(p), nil
}

// The pairings of a tournament share its workers, and that changes no byte: one worker,
// several, the pairings played one after another (the order before they shared workers), and
// a run interrupted with several pairings partial then resumed write the same files.
func TestPairingsShareWorkersSameBytes(t *testing.T) {
	cfg, err := NewTournamentConfig(TournamentConfig{Game: "katarenga", Agents: []string{"greedy", "alphabeta:depth=1", "mcts:playouts=10"},
		Games: 4, Seed: 9, RandomLayouts: true, Prior: 1, Bootstrap: 20})
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	run := func(name string, workers int, sequential bool, ctx context.Context, s runner.Session) (*TournamentOutcome, string) {
		t.Helper()
		defer func(old bool) { sequentialPairings = old }(sequentialPairings)
		sequentialPairings = sequential
		if s.Dir == "" {
			s.Dir = filepath.Join(base, name)
		}
		s.Workers, s.Shard = workers, runner.Shard{Index: 0, Count: 1}
		return runT(t, ctx, cfg, s), s.Dir
	}
	_, want := run("sequential", 1, true, context.Background(), runner.Session{})
	watch := &openWatch{dir: filepath.Join(base, "w3", pairingDir("", cfg.Pairings()[0]))}
	for _, c := range []struct {
		name       string
		workers    int
		sequential bool
		stderr     *openWatch
	}{{"w1", 1, false, nil}, {"w3", 3, false, watch}} {
		s := runner.Session{}
		if c.stderr != nil {
			s.Stderr = c.stderr
		}
		_, dir := run(c.name, c.workers, c.sequential, context.Background(), s)
		sameFiles(t, want, dir)
	}
	if !watch.seen || watch.finished {
		t.Errorf("pairing 2 opened (line written: %v) after pairing 1 had finished (%v): the pairings did not share the workers", watch.seen, watch.finished)
	}
	// Interrupted once the third pairing opens (the first two have started their last games,
	// which may be in flight), then resumed at another worker count.
	ctx, cancel := context.WithCancel(context.Background())
	o, dir := run("resumed", 3, false, ctx, runner.Session{Stderr: cancelOn{"pairing 3/3", cancel}})
	cancel()
	if !o.Interrupted || len(o.Summaries) > 2 {
		t.Fatalf("interrupted run: %d pairings complete, interrupted %v", len(o.Summaries), o.Interrupted)
	}
	run("resumed", 2, false, context.Background(), runner.Session{Dir: dir, Resume: true})
	sameFiles(t, want, dir)
}

// sameFiles compares every file under want and got but manifests (which hold times) and
// lock files.
func sameFiles(t *testing.T, want, got string) {
	t.Helper()
	files := func(dir string) map[string][]byte {
		m := map[string][]byte{}
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || d.Name() == "manifest.json" || strings.HasPrefix(d.Name(), ".fairplay") {
				return err
			}
			b, err := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			m[rel] = b
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	w, g := files(want), files(got)
	if len(w) < 20 {
		t.Fatalf("%s: %d files", want, len(w))
	}
	for f, b := range w {
		if gb, ok := g[f]; !ok {
			t.Errorf("%s: no %s", got, f)
		} else if !bytes.Equal(b, gb) {
			t.Errorf("%s: %s differs from %s's", got, f, filepath.Base(want))
		}
	}
	for f := range g {
		if _, ok := w[f]; !ok {
			t.Errorf("%s: %s is not in %s", got, f, filepath.Base(want))
		}
	}
}

// startCount records, when the tournament's display starts, the games it counts as done, and
// keeps the count to read at the end.
type startCount struct {
	atStart int64
	done    func() int64
}

func (c *startCount) Start(_ int64, _ string, done func() int64) func() {
	c.atStart, c.done = done(), done
	return func() {}
}

func (c *startCount) PrintAbove(print func()) { print() }

// A resumed tournament's progress counts, from its start, the games of every pairing already
// played, also of those that open only after earlier pairings have handed out their games: with
// the first pairing to replay and the two others complete, it starts at their 8 games.
func TestResumedProgressCountsPlayedPairings(t *testing.T) {
	cfg, err := NewTournamentConfig(TournamentConfig{Game: "katarenga", Agents: []string{"random", "greedy", "alphabeta:depth=1"},
		Games: 4, Seed: 3, RandomLayouts: true, Prior: 1, Bootstrap: 20})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	one := runner.Shard{Index: 0, Count: 1}
	runT(t, context.Background(), cfg, runner.Session{Dir: dir, Workers: 1, Shard: one})
	if err := os.RemoveAll(pairingDir(dir, cfg.Pairings()[0])); err != nil {
		t.Fatal(err)
	}
	c := &startCount{}
	runT(t, context.Background(), cfg, runner.Session{Dir: dir, Workers: 1, Shard: one, Resume: true, Progress: c})
	if c.done == nil {
		t.Fatal("no progress shown")
	}
	if end := c.done(); c.atStart != 8 || end != 12 {
		t.Errorf("progress at the start %d games, at the end %d; want 8 (two pairings kept) and 12", c.atStart, end)
	}
}
