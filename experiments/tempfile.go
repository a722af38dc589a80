package experiments

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/fairplay-lab/fairplay/results"
)

// tempFile writes a result file under path+".tmp" through a buffer; Commit puts it in place.
// Results are never half-written under their real name. Besides buffered writes in order it
// takes queued writes (writeAsync), done later by other goroutines at reserved offsets.
type tempFile struct {
	*bufio.Writer
	path string
	f    *os.File
	fw   *fileWriter
	q    *writeQueue // nil when the file takes no positional writes
	db   *dropBehind // nil where not supported
	done bool
}

// wrapTemp, when set (by tests), wraps the file under every temporary output, and under the run
// files of the reports' external sorts made while it is set: a writer that fails simulates a
// full disk. Queued writes need the wrapper to implement io.WriterAt.
var wrapTemp func(path string, w io.Writer) io.Writer

func createTemp(path string) (*tempFile, error) {
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return nil, err
	}
	var w io.Writer = f
	if wrapTemp != nil {
		w = wrapTemp(path, f)
	}
	fw := &fileWriter{w: w}
	t := &tempFile{path: path, f: f, fw: fw}
	if at, ok := w.(io.WriterAt); ok {
		fw.at = at
		t.q = &writeQueue{at: at}
	}
	fw.reserved = func(end int64) { t.db.reserved(end) }
	t.db = newDropBehind(f)
	t.Writer = bufio.NewWriterSize(fw, 1<<16)
	return t, nil
}

// writeAsync queues rows to be written after everything written so far (buffered or queued)
// and calls release once they are; false (nothing queued) when the file takes no queued
// writes. The caller must not touch rows until release.
func (t *tempFile) writeAsync(rows []byte, release func()) (bool, error) {
	if t.q == nil {
		return false, nil
	}
	if err := t.Flush(); err != nil { // buffered bytes go before these rows
		return true, err
	}
	t.q.push(writeJob{rows: rows, off: t.fw.off, release: release})
	t.fw.off += int64(len(rows))
	t.db.reserved(t.fw.off)
	if n := t.q.n.Load(); n > 4*maxQueued {
		t.q.runWaiting()
	} else if n > maxQueued {
		t.q.run()
	}
	return true, t.q.failed()
}

// sync flushes the buffer, waits for the queued writes and returns the file's length: every
// byte up to it is in the file (in the operating system's cache: it survives the process being
// killed).
func (t *tempFile) sync() (int64, error) {
	if err := t.Flush(); err != nil {
		return 0, err
	}
	if t.q != nil {
		if err := t.q.wait(); err != nil {
			return 0, err
		}
	}
	return t.fw.off, nil
}

// Commit flushes and closes the file and renames it over path.
func (t *tempFile) Commit() error {
	t.done = true
	_, err := t.sync()
	t.db.stop()
	t.db = nil
	if err != nil {
		t.f.Close()
		return err
	}
	if err := t.f.Close(); err != nil {
		return err
	}
	return os.Rename(t.path+".tmp", t.path)
}

// Abort closes an uncommitted file (its temporary name stays: it holds the checkpointed
// items a resumed run recovers); after Commit it does nothing.
func (t *tempFile) Abort() {
	if !t.done {
		if t.q != nil {
			t.q.wait() // the queued writes may still read rows their owners will recycle
		}
		t.db.stop()
		t.db = nil
		t.f.Close()
	}
}

// CheckpointEvery is how often a running session records a checkpoint at most.
var CheckpointEvery = 2 * time.Second

// checkpointer records, every CheckpointEvery, how far a run's temporary output file is
// complete: it flushes the output (flush, then the temporary file) and rewrites manifest.json
// with status "running" and a Checkpoint naming the file, its complete length and the items in
// it. See the design note at the top of session.go.
type checkpointer struct {
	tf      *tempFile
	flush   func() error // flushes the format's writer into tf
	man     *results.Manifest
	manPath string
	items   int64 // items written so far
	saved   int64 // items in the last checkpoint
	last    time.Time
}

func newCheckpointer(dir string, tf *tempFile, flush func() error, man *results.Manifest) (*checkpointer, error) {
	c := &checkpointer{tf: tf, flush: flush, man: man, manPath: filepath.Join(dir, "manifest.json")}
	man.Status = "running"
	return c, c.save()
}

// add counts one item written and checkpoints when the last checkpoint is old, or always when
// now is set (the run is stopping: every finished item is made safe at once).
func (c *checkpointer) add(now bool) error {
	c.items++
	if !now && time.Since(c.last) < CheckpointEvery {
		return nil
	}
	return c.save()
}

func (c *checkpointer) save() error {
	if err := c.flush(); err != nil {
		return c.failed(err)
	}
	n, err := c.tf.sync()
	if err != nil {
		return c.failed(err)
	}
	c.man.Checkpoint = &results.Checkpoint{File: filepath.Base(c.tf.path) + ".tmp", Bytes: n, Items: c.items}
	if err := results.WriteManifest(c.manPath, c.man); err != nil {
		return c.failed(err)
	}
	c.saved, c.last = c.items, time.Now()
	return nil
}

// failed explains a failed write: what is kept and how to go on.
func (c *checkpointer) failed(err error) error {
	return fmt.Errorf("writing %s: %w (the %d %s of the last checkpoint are kept: free space, then resume with -resume %s)",
		filepath.Base(c.tf.path), err, c.saved, c.man.Unit, filepath.Dir(c.tf.path))
}

// recoverCheckpoint folds a checkpointed temporary output (left by a killed run, recorded in
// dir's manifest.json) into the output file dir/name before a resume: the temporary file is cut to its checkpointed length,
// its items and those of path (both in index order; an index in both is kept once) are merged
// into path atomically, and the temporary file is removed. Without a checkpoint it does
// nothing (a stale temporary file is overwritten by the resumed run).
func recoverCheckpoint[R any](dir, name string, open func(string) (fileSource[R], error),
	index func(*R) int64, create func(w io.Writer) (write func(*R) error, flush func() error, err error)) error {
	man, err := results.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil // no manifest: nothing was checkpointed
	}
	path := filepath.Join(dir, name)
	ck := man.Checkpoint
	tmp := path + ".tmp"
	if ck == nil || ck.File != filepath.Base(tmp) {
		return nil
	}
	st, err := os.Stat(tmp)
	if err != nil || ck.Bytes <= 0 {
		return nil
	}
	if st.Size() < ck.Bytes {
		return fmt.Errorf("%s: %d bytes, its checkpoint says %d: the file was damaged", tmp, st.Size(), ck.Bytes)
	}
	if err := os.Truncate(tmp, ck.Bytes); err != nil {
		return err
	}
	var srcs []fileSource[R]
	defer func() {
		for _, s := range srcs {
			s.Close()
		}
	}()
	for _, p := range []string{tmp, path} {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		s, err := open(p)
		if err != nil {
			return err
		}
		srcs = append(srcs, s)
	}
	out := path + ".recovered"
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer os.Remove(out)
	bw := bufio.NewWriter(f)
	write, flush, err := create(bw)
	if err != nil {
		f.Close()
		return err
	}
	heads := make([]*R, len(srcs))
	next := func(i int) error {
		r, err := srcs[i].Read()
		if err == io.EOF {
			heads[i] = nil
			return nil
		}
		heads[i] = r
		return err
	}
	for i := range srcs {
		if err := next(i); err != nil {
			f.Close()
			return fmt.Errorf("recovering %s: %w", tmp, err)
		}
	}
	for {
		k := -1
		for i, h := range heads {
			if h != nil && (k < 0 || index(h) < index(heads[k])) {
				k = i
			}
		}
		if k < 0 {
			break
		}
		if err := write(heads[k]); err != nil {
			f.Close()
			return err
		}
		at := index(heads[k])
		for i := range heads { // the same item in both files is written once
			for heads[i] != nil && index(heads[i]) == at {
				if err := next(i); err != nil {
					f.Close()
					return fmt.Errorf("recovering %s: %w", tmp, err)
				}
			}
		}
	}
	if err := flush(); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(out, path); err != nil {
		return err
	}
	return os.Remove(tmp)
}
