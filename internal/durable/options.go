package durable

import (
	"io"
	"sync/atomic"
	"time"
)

// Options adjust how a run's durable files are written, for tests: each run (or test) carries
// its own, so tests that set them can run in parallel. The zero value is production behaviour.
type Options struct {
	// Wrap, when set, wraps the file under every temporary output: a writer that fails
	// simulates a full disk. Queued writes need the wrapper to implement io.WriterAt.
	Wrap func(path string, w io.Writer) io.Writer
	// CheckpointEvery is how often a running session records a checkpoint at most: zero is
	// DefaultCheckpointEvery, a negative duration records one after every item.
	CheckpointEvery time.Duration
	// QueuedWrites, when set, counts the queued writes done in the files (tests check that a
	// run took the queued path).
	QueuedWrites *atomic.Int64
	// DropStart is the file size at which drop-behind begins: zero is DefaultDropStart, and
	// any size up to one window begins with the first window.
	DropStart int64
}

// DefaultCheckpointEvery is how often a running session records a checkpoint at most.
const DefaultCheckpointEvery = 2 * time.Second

// DefaultDropStart is the file size at which drop-behind begins. Below it the kernel's own
// writeback, after the run, is cheaper for the run: starting at once cost 170,000-game
// two-worker runs (200 MB) 6% of their speed, the writeback's CPU competing with the workers.
// Above it the page cache would keep growing into fresh memory.
const DefaultDropStart = 512 << 20

func (o Options) checkpointEvery() time.Duration {
	if o.CheckpointEvery == 0 {
		return DefaultCheckpointEvery
	}
	return o.CheckpointEvery
}

func (o Options) dropStart() int64 {
	if o.DropStart == 0 {
		return DefaultDropStart
	}
	return o.DropStart
}
