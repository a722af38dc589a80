package runner

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/fairplay-lab/fairplay/internal/durable"

	"github.com/fairplay-lab/fairplay/gamefile"

	"github.com/fairplay-lab/fairplay/engine/games"
)

// fullDisk fails every write after limit bytes with ENOSPC. It takes positional writes too (the
// games file's queued writes, from several goroutines) when its file does.
type fullDisk struct {
	w     io.Writer
	limit int
	mu    sync.Mutex
}

func (d *fullDisk) Write(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(p) > d.limit {
		n, _ := d.w.Write(p[:d.limit])
		d.limit = 0
		return n, syscall.ENOSPC
	}
	d.limit -= len(p)
	return d.w.Write(p)
}

func (d *fullDisk) WriteAt(p []byte, off int64) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	at := d.w.(io.WriterAt)
	if len(p) > d.limit {
		n, _ := at.WriteAt(p[:d.limit], off)
		d.limit = 0
		return n, syscall.ENOSPC
	}
	d.limit -= len(p)
	return at.WriteAt(p, off)
}

// seqDisk is fullDisk without positional writes: the games file is then written in order by
// the collector alone.
type seqDisk struct{ d *fullDisk }

func (s seqDisk) Write(p []byte) (int, error) { return s.d.Write(p) }

func session(dir string, resume bool) Session {
	return Session{Dir: dir, Resume: resume, Workers: 2, Shard: Shard{0, 1}}
}

// A full disk stops the run with a clear error, leaves no temporary file under a final name,
// keeps the checkpointed games, and -resume then completes the run to the same bytes.
func TestFullDiskResumes(t *testing.T) {
	t.Parallel()
	for _, queued := range []bool{true, false} {
		name := "queued writes"
		if !queued {
			name = "sequential writes"
		}
		t.Run(name, func(t *testing.T) { testFullDiskResumes(t, queued) })
	}
}

func testFullDiskResumes(t *testing.T, queued bool) {
	m := newMatch(t, "katarenga", "", "", 200)
	ref := t.TempDir()
	if _, err := RunMatch(context.Background(), m, session(ref, false)); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var done atomic.Int64
	s := session(dir, false)
	s.Durable = durable.Options{
		CheckpointEvery: -1, // a checkpoint after every game
		QueuedWrites:    &done,
		Wrap: func(path string, w io.Writer) io.Writer {
			if strings.HasSuffix(path, "games.csv") {
				if !queued {
					return seqDisk{&fullDisk{w: w, limit: 6000}}
				}
				return &fullDisk{w: w, limit: 6000}
			}
			return w
		},
	}
	_, err := RunMatch(context.Background(), m, s)
	if q := done.Load(); (q > 0) != queued {
		t.Errorf("%d queued writes; want them only with a file that takes positional writes", q)
	}
	if err == nil || !strings.Contains(err.Error(), "no space left") || !strings.Contains(err.Error(), "Resume") {
		t.Fatalf("full disk: %v, want an error saying so and how to resume", err)
	}
	man, err := gamefile.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil || man.Checkpoint == nil || man.Checkpoint.Items == 0 || man.Status != "running" {
		t.Fatalf("after a full disk: manifest %+v, %v; want a checkpoint with games", man, err)
	}
	for _, f := range []string{"games.csv", "summary.csv", "outcomes.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s written by a failed run", f)
		}
	}
	if err := recoverGames(dir, m.Counters()); err != nil {
		t.Fatal(err)
	}
	if got := bytes.Count(mustRead(t, filepath.Join(dir, "games.csv")), []byte("\n")) - 1; int64(got) != man.Checkpoint.Items {
		t.Errorf("recovered %d games, the checkpoint holds %d", got, man.Checkpoint.Items)
	}
	out, err := RunMatch(context.Background(), m, session(dir, true))
	if err != nil || out.Manifest.Status != "complete" || out.Manifest.Checkpoint != nil {
		t.Fatalf("resume after a full disk: %v", err)
	}
	if !bytes.Equal(mustRead(t, filepath.Join(dir, "games.csv")), mustRead(t, filepath.Join(ref, "games.csv"))) {
		t.Error("the resumed run's games.csv differs from an uninterrupted run's")
	}
	if _, err := os.Stat(filepath.Join(dir, "games.csv.tmp")); err == nil {
		t.Error("games.csv.tmp left behind")
	}
}

// Recovery after kill -9, simulated: a checkpointed games.csv.tmp with a torn last row and
// games past the checkpoint, beside an older games.csv, resumes to the uninterrupted bytes.
func TestRecoverCheckpoint(t *testing.T) {
	m := newMatch(t, "baran", "", "", 120)
	ref := t.TempDir()
	if _, err := RunMatch(context.Background(), m, session(ref, false)); err != nil {
		t.Fatal(err)
	}
	all := mustRead(t, filepath.Join(ref, "games.csv"))
	lines := bytes.SplitAfter(all, []byte("\n"))
	dir := t.TempDir()
	// An earlier run finished games 0-9 and 50-59 (games.csv); the killed resume had
	// checkpointed games 0-29 and written part of game 30 and more.
	var old, tmp []byte
	old = append(old, lines[0]...)
	for g := 0; g < 120; g++ {
		if g < 10 || (g >= 50 && g < 60) {
			old = append(old, lines[g+1]...)
		}
	}
	tmp = append(tmp, lines[0]...)
	for g := 0; g < 30; g++ {
		tmp = append(tmp, lines[g+1]...)
	}
	ck := int64(len(tmp))
	tmp = append(tmp, lines[31][:20]...) // torn
	os.WriteFile(filepath.Join(dir, "games.csv"), old, 0o644)
	os.WriteFile(filepath.Join(dir, "games.csv.tmp"), tmp, 0o644)
	man := gamefile.NewManifest(MatchKind, nil)
	cfgJSON, cfgHash, _ := gamefile.HashConfig(m.Cfg)
	man.Config, man.ConfigSHA256, man.Status = cfgJSON, cfgHash, "running"
	man.Checkpoint = &gamefile.Checkpoint{File: "games.csv.tmp", Bytes: ck, Items: 30}
	gamefile.WriteManifest(filepath.Join(dir, "manifest.json"), man)
	if err := recoverGames(dir, m.Counters()); err != nil {
		t.Fatal(err)
	}
	want := append([]byte(nil), lines[0]...)
	for g := 0; g < 60; g++ {
		if g < 30 || g >= 50 {
			want = append(want, lines[g+1]...)
		}
	}
	if got := mustRead(t, filepath.Join(dir, "games.csv")); !bytes.Equal(got, want) {
		t.Errorf("recovered games.csv:\n%s\nwant games 0-29 and 50-59", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "games.csv.tmp")); err == nil {
		t.Error("recovery left games.csv.tmp")
	}
	out, err := RunMatch(context.Background(), m, session(dir, true))
	if err != nil || out.Manifest.Status != "complete" {
		t.Fatalf("resume: %v", err)
	}
	if !bytes.Equal(mustRead(t, filepath.Join(dir, "games.csv")), all) {
		t.Error("recovered and resumed games.csv differs from the uninterrupted run's")
	}
}

// A second process cannot lock a directory in use.
func TestLockDir(t *testing.T) {
	dir := t.TempDir()
	unlock, err := durable.LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := newMatch(t, "baran", "", "", 4)
	if _, err := RunMatch(context.Background(), m, session(dir, false)); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("a locked directory: %v, want an error saying it is in use", err)
	}
	unlock()
	if _, err := RunMatch(context.Background(), m, session(dir, false)); err != nil {
		t.Errorf("after unlock: %v", err)
	}
}

// Shards without pairs complete empty and merge cleanly; a run stopped before its first game
// writes every output (empty plots included), reports interrupted and resumes.
func TestEmptyRuns(t *testing.T) {
	m := newMatch(t, "katarenga", "", "", 4)
	var files []string
	for i := 0; i < 4; i++ {
		dir := t.TempDir()
		s := session(dir, false)
		s.Shard = Shard{i, 4}
		out, err := RunMatch(context.Background(), m, s)
		if err != nil || out.Manifest.Status != "complete" {
			t.Fatalf("shard %d/4: %v", i, err)
		}
		files = append(files, filepath.Join(dir, "games.csv"))
	}
	merged, ref := t.TempDir(), t.TempDir()
	if _, err := MergeRuns(m, files, merged, nil, gamefile.CSV, ""); err != nil {
		t.Fatalf("merge with empty shards: %v", err)
	}
	if _, err := RunMatch(context.Background(), m, session(ref, false)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mustRead(t, filepath.Join(merged, "games.csv")), mustRead(t, filepath.Join(ref, "games.csv"))) {
		t.Error("merged shards differ from one run")
	}

	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, err := RunMatch(ctx, m, session(dir, false))
	if err != nil || !out.Interrupted || out.Manifest.Status != "interrupted" || out.Summary.N != 0 {
		t.Fatalf("stopped before the first game: %v %+v", err, out)
	}
	for _, f := range []string{"games.csv", "summary.csv", "outcomes.png", "running.svg", "lengths.png", "manifest.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if out, err := RunMatch(context.Background(), m, session(dir, true)); err != nil || out.Manifest.Status != "complete" {
		t.Fatalf("resume: %v", err)
	}
}

// Interrupting long searches stops within seconds; the games in flight are not recorded.
func TestInterruptLongSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("plays deep searches")
	}
	gm, _ := games.New("baran", "", "", nil)
	m, err := NewMatch(MatchConfig{Game: "baran", A: "alphabeta:depth=30", B: "mcts:playouts=10000000", Games: 4, Seed: 1}, gm)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	out, err := RunMatch(ctx, m, session(dir, false))
	if d := time.Since(t0); err != nil || d > 3*time.Second || !out.Interrupted || out.Summary.N != 0 {
		t.Fatalf("after %v: %v, interrupted %v, %d games recorded", d, err, out != nil && out.Interrupted, out.Summary.N)
	}
}
