package runner

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fairplay-lab/fairplay/internal/durable"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/tally"
	"github.com/parquet-go/parquet-go"
)

// plainWriter hides a file's WriteAt: the games file is then written in order by the collector.
type plainWriter struct{ w io.Writer }

func (p plainWriter) Write(b []byte) (int, error) { return p.w.Write(b) }

// A games file written by the workers' queued writes holds exactly the bytes of one written in
// order by the collector: for both games, 1 to 3 workers, a stop rule that cuts a chunk, and a
// resumed run.
func TestQueuedWritesMatchSequential(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		n := queuedGames(game)
		workerCounts := []int{1, 2, 3}
		if testing.Short() { // each run costs ~0.1 s of files and syncs whatever its size
			workerCounts = []int{1, 3}
		}
		for _, workers := range workerCounts {
			for _, mode := range []string{"whole", "stop", "resume"} {
				t.Run(fmt.Sprintf("%s/workers=%d/%s", game, workers, mode), func(t *testing.T) {
					var files [2][]byte
					for k, queued := range []bool{false, true} {
						var done atomic.Int64
						opts := durable.Options{QueuedWrites: &done}
						if !queued {
							opts.Wrap = func(_ string, w io.Writer) io.Writer { return plainWriter{w} }
						}
						dir := t.TempDir()
						runMode(t, newMatch(t, game, "", "", n), Session{Dir: dir, Workers: workers, Shard: Shard{0, 1}, Durable: opts}, mode)
						if q := done.Load(); (q > 0) != queued {
							t.Fatalf("queued=%v: %d queued writes", queued, q)
						}
						files[k] = mustRead(t, filepath.Join(dir, "games.csv"))
					}
					if !bytes.Equal(files[0], files[1]) {
						t.Errorf("games.csv differs: %d bytes written in order, %d by queued writes", len(files[0]), len(files[1]))
					}
				})
			}
		}
	}
}

// queuedGames is the games of a run of TestQueuedWritesMatchSequential and
// TestGzipMembersMatchOneStream: under -short fewer, still tens of chunks per worker at three
// workers (random games come in chunks of games/(workers·64)), so that chunks are written out of
// order and a stop rule and an interruption still cut them.
func queuedGames(game string) int64 {
	switch {
	case game == "baran" && testing.Short():
		return 100
	case game == "baran":
		return 300
	case testing.Short():
		return 800
	}
	return 3000
}

// runMode runs m in s to the end: "whole" in one go, "stop" with a stop rule that ends it a
// third of the way (mid-chunk), "resume" interrupted halfway (its context cancelled) and then
// resumed.
func runMode(t *testing.T, m *Match, s Session, mode string) {
	t.Helper()
	n := m.Cfg.Games
	switch mode {
	case "stop":
		s.Stop = func(sum *tally.Summary) bool { return sum.N >= n/3+7 }
	case "resume":
		ctx, cancel := context.WithCancel(context.Background())
		var seen atomic.Int64
		s.Stop = func(*tally.Summary) bool {
			if seen.Add(1) == n/2 {
				cancel()
			}
			return false
		}
		if _, err := RunMatch(ctx, m, s); err != nil {
			t.Fatal(err)
		}
		s.Stop, s.Resume = nil, true
	}
	if _, err := RunMatch(context.Background(), m, s); err != nil {
		t.Fatal(err)
	}
}

// The queue's writes land at their offsets whoever does them, each job's release runs once, and
// the first failure is kept.
// exclusiveWriter counts the writes that began while another was under way.
type exclusiveWriter struct {
	at       io.WriterAt
	busy     atomic.Int32
	overlaps atomic.Int32
}

func (w *exclusiveWriter) WriteAt(p []byte, off int64) (int, error) {
	if w.busy.Add(1) > 1 {
		w.overlaps.Add(1)
	}
	defer w.busy.Add(-1)
	runtime.Gosched() // give another writer the chance to overlap
	return w.at.WriteAt(p, off)
}

func TestWriteQueue(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ew := &exclusiveWriter{at: f}
	q := &durable.WriteQueue{At: ew}
	var want []byte
	var released atomic.Int64
	stopHelpers := helpQueue(q, 3) // helpers running the queue while it is filled
	off := int64(0)
	jobs := 2000
	if testing.Short() {
		jobs = 500
	}
	for i := range jobs {
		row := bytes.Repeat([]byte{byte('a' + i%26)}, 1+i%97)
		q.Push(durable.WriteJob{Rows: row, Off: off, Release: func() { released.Add(1) }})
		off += int64(len(row))
		want = append(want, row...)
		if i%5 == 0 {
			q.Run() // as the collector does when the queue is long
		}
	}
	if err := q.Wait(); err != nil {
		t.Fatal(err)
	}
	stopHelpers()
	got, _ := os.ReadFile(f.Name())
	if !bytes.Equal(got, want) || released.Load() != int64(jobs) {
		t.Fatalf("file of %d bytes (want %d, equal %v), %d releases (want %d)", len(got), len(want), bytes.Equal(got, want), released.Load(), jobs)
	}
	if ew.overlaps.Load() > 0 {
		t.Errorf("%d writes overlapped another: queued writes must run one at a time", ew.overlaps.Load())
	}
	f.Close() // writes now fail
	q.Push(durable.WriteJob{Rows: []byte("x"), Off: off})
	if err := q.Wait(); err == nil {
		t.Fatal("a write to a closed file: no error")
	}
}

// A csv.gz file whose chunks the workers compressed (gzip members, at two or more workers)
// decompresses to the bytes of one compressed by the collector alone (one worker), reads back
// through the games reader, and resumes: both games, a stop rule that cuts a chunk, and a run
// interrupted and resumed.
func TestGzipMembersMatchOneStream(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		n := queuedGames(game)
		for _, mode := range []string{"whole", "stop", "resume"} {
			t.Run(game+"/"+mode, func(t *testing.T) {
				var want []byte
				for _, workers := range []int{1, 2, 3} {
					dir := t.TempDir()
					runMode(t, newMatch(t, game, "", "", n), Session{Dir: dir, Workers: workers, Shard: Shard{0, 1}, Format: gamefile.CSVGzip}, mode)
					got := gunzip(t, filepath.Join(dir, "games.csv.gz"))
					if workers == 1 {
						want = got
						continue
					}
					if !bytes.Equal(got, want) {
						t.Errorf("%d workers: csv.gz decompresses to %d bytes differing from one worker's %d", workers, len(got), len(want))
					}
					src, err := gamefile.OpenGames(filepath.Join(dir, "games.csv.gz"))
					if err != nil {
						t.Fatal(err)
					}
					k := 0
					for _, err := range gamefile.All(src.Read) {
						if err != nil {
							t.Fatal(err)
						}
						k++
					}
					src.Close()
					if rows := bytes.Count(want, []byte("\n")) - 1; k != rows {
						t.Errorf("%d workers: read back %d games, the file holds %d", workers, k, rows)
					}
				}
			})
		}
	}
}

func gunzip(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Members: a file of several gzip members, some made by GzipMember and some by the writer's own
// stream, decompresses to the rows in order.
func TestWriteMember(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	w, err := gamefile.NewGamesWriter(&buf, gamefile.CSVGzip, nil)
	if err != nil {
		t.Fatal(err)
	}
	mw, ok := gamefile.MemberWriterOf(w)
	if !ok {
		t.Fatal("csv.gz writer takes no members")
	}
	if _, ok := gamefile.MemberWriterOf(must(gamefile.NewGamesWriter(io.Discard, gamefile.CSV, nil))); ok {
		t.Error("a plain csv writer claims to take gzip members")
	}
	var gm gamefile.GzipMember
	var plain bytes.Buffer
	for i := range 7 {
		rows := []byte(fmt.Sprintf("row %d a\nrow %d b\n", i, i))
		plain.Write(rows)
		if i%3 == 1 {
			err = mw.WriteRows(rows)
		} else {
			err = mw.WriteMember(gm.Compress(nil, rows))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	header := got[:bytes.IndexByte(got, '\n')+1]
	if !bytes.Equal(got[len(header):], plain.Bytes()) {
		t.Errorf("decompressed %q, want the header then %q", got, plain.Bytes())
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// gatedWriter blocks its first write until gate is closed, and records every write.
type gatedWriter struct {
	gate    chan struct{}
	started chan struct{}
	once    sync.Once
	mu      sync.Mutex
	offs    []int64
}

func (w *gatedWriter) WriteAt(p []byte, off int64) (int, error) {
	first := false
	w.once.Do(func() { first = true })
	if first {
		close(w.started)
		<-w.gate
	}
	w.mu.Lock()
	w.offs = append(w.offs, off)
	w.mu.Unlock()
	return len(p), nil
}

// A write pushed while another goroutine is the writer is done by that writer, not left in the
// queue: once while the writer is in a write (its drain sees it), and once in the moment after
// its last look at the queue and before it lets go (afterDrain; only the look again after
// letting go finds it). No helper runs the queue here.
func TestWriteQueueWriterLooksAgain(t *testing.T) {
	t.Parallel()
	w := &gatedWriter{gate: make(chan struct{}), started: make(chan struct{})}
	q := &durable.WriteQueue{At: w}
	q.Push(durable.WriteJob{Rows: []byte("a"), Off: 0})
	finished := make(chan struct{})
	go func() { q.Run(); close(finished) }() // the writer, stuck in its first write
	<-w.started
	q.Push(durable.WriteJob{Rows: []byte("b"), Off: 1})
	returned := make(chan struct{})
	go func() { q.Run(); close(returned) }() // must not wait for the writer
	select {
	case <-returned:
	case <-time.After(5 * time.Second):
		t.Fatal("run waited for the writer")
	}
	pushed := false
	q.AfterDrain = func(q *durable.WriteQueue) {
		if !pushed {
			pushed = true
			q.Push(durable.WriteJob{Rows: []byte("c"), Off: 2})
			q.Run() // another goroutine's attempt: the lock is held, it returns
		}
	}
	close(w.gate)
	<-finished
	if n := q.N.Load(); n != 0 || len(w.offs) != 3 || !pushed {
		t.Fatalf("after the writer returned: %d writes queued, %d done (want 0 and 3; pushed %v)", n, len(w.offs), pushed)
	}
}

// slowWriterAt is a file whose writes take a while.
type slowWriterAt struct{ io.Writer }

func (slowWriterAt) WriteAt(p []byte, off int64) (int, error) {
	time.Sleep(200 * time.Microsecond)
	return len(p), nil
}

// The queue stays bounded when a worker is writing and the collector keeps queueing: beyond
// 4×maxQueued writeAsync waits for the writer and writes itself.
func TestWriteQueueBounded(t *testing.T) {
	slow := durable.Options{Wrap: func(_ string, w io.Writer) io.Writer { return slowWriterAt{w} }}
	tf, err := durable.CreateTemp(filepath.Join(t.TempDir(), "games.csv"), slow)
	if err != nil {
		t.Fatal(err)
	}
	defer tf.Abort()
	stopHelper := helpQueue(tf.Q, 1) // a worker helping between chunks
	maxN := int32(0)
	for i := 0; i < 2000; i++ {
		if _, err := tf.WriteAsync([]byte("row\n"), crc32.Checksum([]byte("row\n"), gamefile.Castagnoli), nil); err != nil {
			t.Fatal(err)
		}
		maxN = max(maxN, tf.Q.N.Load())
	}
	stopHelper()
	if maxN > 4*durable.MaxQueued+1 {
		t.Errorf("the queue reached %d writes (bound %d)", maxN, 4*durable.MaxQueued+1)
	}
}

// helpQueue starts n goroutines running q's writes over and over, as workers between chunks
// do; the function it returns stops them and waits for them.
func helpQueue(q *durable.WriteQueue, n int) func() {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
					q.Run()
				}
			}
		}()
	}
	return func() { close(stop); wg.Wait() }
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// gamesCSV reads a games file in any format and returns it as games.csv bytes.
func gamesCSV(t *testing.T, path string) []byte {
	t.Helper()
	src, err := gamefile.OpenGames(path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var b bytes.Buffer
	w := must(gamefile.NewGamesWriter(&b, gamefile.CSV, src.Counters()))
	if _, err := gamefile.CopyGames(w, src); err != nil {
		t.Fatal(err)
	}
	w.Close()
	return b.Bytes()
}

func parquetRowGroups(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	return len(pf.RowGroups())
}
