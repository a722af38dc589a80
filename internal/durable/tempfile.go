package durable

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/fairplay-lab/fairplay/gamefile"
)

// TempFile writes a result file under path+".tmp" through a buffer; Commit puts it in place.
// Results are never half-written under their real name. Besides buffered writes in order it
// takes queued writes (WriteAsync), done later by other goroutines at reserved offsets.
type TempFile struct {
	*bufio.Writer
	path string
	f    *os.File
	fw   *fileWriter
	Q    *WriteQueue // nil when the file takes no positional writes
	db   *dropBehind // nil where not supported
	done bool
	opts Options
}

// CreateTemp creates path+".tmp" to be written as o says (the zero Options in production).
// A file or link already under that name is removed, never followed (gamefile.CreateExcl).
func CreateTemp(path string, o Options) (*TempFile, error) {
	f, err := gamefile.CreateExcl(path + ".tmp")
	if err != nil {
		return nil, err
	}
	var w io.Writer = f
	if o.Wrap != nil {
		w = o.Wrap(path, f)
	}
	fw := &fileWriter{w: w}
	t := &TempFile{path: path, f: f, fw: fw, opts: o}
	if at, ok := w.(io.WriterAt); ok {
		fw.at = at
		t.Q = &WriteQueue{At: at, count: o.QueuedWrites}
	}
	fw.reserved = func(end int64) { t.db.reserved(end) }
	t.db = newDropBehind(f, o.dropStart())
	t.Writer = bufio.NewWriterSize(fw, 1<<16)
	return t, nil
}

// WriteAsync queues rows to be written after everything written so far (buffered or queued)
// and calls release once they are; false (nothing queued) when the file takes no queued
// writes. crc is the rows' CRC-32C (crc32.Checksum with gamefile.Castagnoli), which the file's
// is extended with. The caller must not touch rows until release.
func (t *TempFile) WriteAsync(rows []byte, crc uint32, release func()) (bool, error) {
	if t.Q == nil {
		return false, nil
	}
	if err := t.Flush(); err != nil { // buffered bytes go before these rows
		return true, err
	}
	t.Q.Push(WriteJob{Rows: rows, Off: t.fw.off, Release: release})
	t.fw.crc = crc32cCombine(t.fw.crc, crc, int64(len(rows)))
	t.fw.off += int64(len(rows))
	t.db.reserved(t.fw.off)
	if n := t.Q.N.Load(); n > 4*MaxQueued {
		t.Q.runWaiting()
	} else if n > MaxQueued {
		t.Q.Run()
	}
	return true, t.Q.failed()
}

// sync flushes the buffer, waits for the queued writes and returns the file's length and the
// CRC-32C of its bytes: every byte up to it is in the file (in the operating system's cache:
// it survives the process being killed).
func (t *TempFile) sync() (int64, uint32, error) {
	if err := t.Flush(); err != nil {
		return 0, 0, err
	}
	if t.Q != nil {
		if err := t.Q.Wait(); err != nil {
			return 0, 0, err
		}
	}
	return t.fw.off, t.fw.crc, nil
}

// Commit flushes and closes the file and renames it over path.
func (t *TempFile) Commit() error {
	t.done = true
	_, _, err := t.sync()
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
func (t *TempFile) Abort() {
	if !t.done {
		if t.Q != nil {
			t.Q.Wait() // the queued writes may still read rows their owners will recycle
		}
		t.db.stop()
		t.db = nil
		t.f.Close()
	}
}

// Discard is Abort for a file whose items nothing recovers (a merge, which reruns whole): the
// temporary file is removed too. After Commit it does nothing.
func (t *TempFile) Discard() {
	if !t.done {
		t.Abort()
		t.done = true
		os.Remove(t.path + ".tmp")
	}
}

// Checkpointer records, every Options.CheckpointEvery of its file, how far a run's temporary output file is
// complete: it flushes the output (flush, then the temporary file) and rewrites manifest.json
// with status "running" and a Checkpoint naming the file, its complete length and the items in
// it. See the design note at the top of session.go.
type Checkpointer struct {
	tf      *TempFile
	flush   func() error // flushes the format's writer into tf
	man     *gamefile.Manifest
	manPath string
	items   int64 // items written so far
	saved   int64 // items in the last checkpoint
	last    time.Time
}

func NewCheckpointer(dir string, tf *TempFile, flush func() error, man *gamefile.Manifest) (*Checkpointer, error) {
	c := &Checkpointer{tf: tf, flush: flush, man: man, manPath: filepath.Join(dir, "manifest.json")}
	man.Status = "running"
	return c, c.save()
}

// add counts one item written and checkpoints when the last checkpoint is old, or always when
// now is set (the run is stopping: every finished item is made safe at once).
func (c *Checkpointer) Add(now bool) error {
	c.items++
	if !now && time.Since(c.last) < c.tf.opts.checkpointEvery() {
		return nil
	}
	return c.save()
}

func (c *Checkpointer) save() error {
	if err := c.flush(); err != nil {
		return c.Failed(err)
	}
	// The CRC-32C is the one kept as the bytes were given to the file, in file order (queued
	// writes land out of order, but are hashed when the collector reserves their place).
	n, sum, err := c.tf.sync()
	if err != nil {
		return c.Failed(err)
	}
	c.man.Checkpoint = &gamefile.Checkpoint{File: filepath.Base(c.tf.path) + ".tmp", Bytes: n, Items: c.items,
		CRC32C: gamefile.CRC32CText(sum)}
	if err := gamefile.WriteManifest(c.manPath, c.man); err != nil {
		return c.Failed(err)
	}
	c.saved, c.last = c.items, time.Now()
	return nil
}

// failed explains a failed write: what is kept and how to go on.
func (c *Checkpointer) Failed(err error) error {
	return fmt.Errorf("writing %s: %w (the %d %s of the last checkpoint are kept: free space, then resume with -resume %s)",
		filepath.Base(c.tf.path), err, c.saved, c.man.Unit, filepath.Dir(c.tf.path))
}

// addN counts n items written, as n calls of add would.
func (c *Checkpointer) AddN(n int, now bool) error {
	if n <= 0 {
		return nil
	}
	c.items += int64(n - 1)
	return c.Add(now)
}
