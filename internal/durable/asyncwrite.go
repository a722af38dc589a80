package durable

import (
	"hash/crc32"
	"io"
	"sync"
	"sync/atomic"

	"github.com/fairplay-lab/fairplay/gamefile"
)

// Parallel writes. Writing a games file costs the kernel a copy of every byte into the page
// cache: for a random Katarenga game (1.2 kB of CSV) 2% of a run's CPU while the file fits in
// the machine's caches and 12% once it has outgrown them (docs/performance.md). Done by the single
// collector, that write would be the run's serial part (at 16 workers it needs more than a
// core), so the collector only decides where a chunk's rows go: it reserves their
// byte range in the file, in game order, and queues the write; the workers do the queued writes
// (pwrite at the reserved offsets) between chunks. The file's bytes are exactly those of
// sequential writes; a checkpoint first waits for every queued write, so the length it records
// holds only whole, written games. The checkpoint's CRC-32C is kept as the bytes are given to
// the file, in file order (fileWriter.crc): reading the file back for it, as checkpoints did
// before, cost the collector a copy of every byte out of the page cache (about 0.5 s of CPU
// a GB). A queued write comes with its rows' CRC, computed by the worker that encoded them
// while they are in its caches; the collector only joins it to the file's (crc32cCombine, a
// microsecond a chunk) instead of reading every byte again from another core's cache.

// fileWriter is what a TempFile's buffer writes to: positional writes at a running offset when
// the file supports them (the queued writes reserve ranges from the same offset), sequential
// ones otherwise (a test's wrapping writer without WriteAt).
type fileWriter struct {
	w   io.Writer
	at  io.WriterAt // nil: sequential writes only, no queued writes
	off int64       // bytes written or reserved so far
	// reserved, when set, learns off after each write (drop-behind)
	reserved func(off int64)
	// crc is the CRC-32C of the file's first off bytes: those written and those reserved by
	// queued writes, hashed when they are given (in file order), not read back.
	crc uint32
}

// given hashes p, the file's next bytes (written or queued), into crc.
func (w *fileWriter) given(p []byte) { w.crc = crc32.Update(w.crc, gamefile.Castagnoli, p) }

func (w *fileWriter) Write(p []byte) (int, error) {
	var n int
	var err error
	if w.at != nil {
		n, err = w.at.WriteAt(p, w.off)
	} else {
		n, err = w.w.Write(p)
	}
	w.given(p[:n])
	w.off += int64(n)
	if w.reserved != nil {
		w.reserved(w.off)
	}
	return n, err
}

// writeJob is one queued write: rows at off, then release.
type WriteJob struct {
	Rows    []byte
	Off     int64
	Release func()
}

// writeQueue holds a file's queued writes. The collector pushes; anyone (the workers between
// chunks, the collector when the queue is long or before a checkpoint) runs them, one
// goroutine at a time.
type WriteQueue struct {
	At io.WriterAt
	mu sync.Mutex
	q  []WriteJob
	N  atomic.Int32 // len(q), read without the lock
	// AfterDrain, when set (by tests), runs in Run between the writer's last look at the queue
	// and its letting go: the moment a pushed write would be left behind without the second
	// look.
	AfterDrain func(*WriteQueue)
	// count, when set, counts the queued writes done (Options.QueuedWrites).
	count *atomic.Int64
	// writing is held by the one goroutine doing queued writes (workers only try it).
	writing sync.Mutex
	wg      sync.WaitGroup
	err     atomic.Pointer[error] // the first failed write
	once    sync.Once
}

// push queues a write (the collector only).
func (q *WriteQueue) Push(j WriteJob) {
	q.wg.Add(1)
	q.mu.Lock()
	q.q = append(q.q, j)
	q.N.Store(int32(len(q.q)))
	q.mu.Unlock()
}

// run does queued writes until the queue is empty, unless another goroutine is doing them
// (it then returns at once: the kernel takes a file's writes one at a time, and a second
// writer would only spin on the file's lock, 2.3 times the write's CPU at two workers,
// instead of playing). Safe from any goroutine.
func (q *WriteQueue) Run() {
	for q.N.Load() > 0 {
		if !q.writing.TryLock() {
			return // the writer will see this write: it looks again after letting go
		}
		q.drain()
		if q.AfterDrain != nil {
			q.AfterDrain(q)
		}
		q.writing.Unlock()
	}
}

// runWaiting is run for the collector when the queue is too long: it waits for a writer under
// way, then writes until the queue is empty. The workers keep playing meanwhile, but the
// collector takes no more chunks, so the queue (and its rows' memory) stays bounded.
func (q *WriteQueue) runWaiting() {
	for q.N.Load() > 0 {
		q.writing.Lock()
		q.drain()
		q.writing.Unlock()
	}
}

// drain does queued writes until the queue is empty (the writer only).
func (q *WriteQueue) drain() {
	for q.N.Load() > 0 {
		q.mu.Lock()
		if len(q.q) == 0 {
			q.mu.Unlock()
			return
		}
		j := q.q[0]
		q.q[0] = WriteJob{}
		q.q = q.q[1:]
		if len(q.q) == 0 {
			q.q = q.q[:0:0] // let the backing array go once drained, then reuse a fresh one
		}
		q.N.Store(int32(len(q.q)))
		q.mu.Unlock()
		if q.err.Load() == nil {
			if _, err := q.At.WriteAt(j.Rows, j.Off); err != nil {
				q.once.Do(func() { q.err.Store(&err) })
			}
		}
		if j.Release != nil {
			j.Release()
		}
		if q.count != nil {
			q.count.Add(1)
		}
		q.wg.Done()
	}
}

// wait does the remaining writes and waits for those under way; it returns the first error.
func (q *WriteQueue) Wait() error {
	q.Run()
	q.wg.Wait()
	return q.failed()
}

// failed returns the first failed write's error, or nil.
func (q *WriteQueue) failed() error {
	if e := q.err.Load(); e != nil {
		return *e
	}
	return nil
}

// maxQueued is the queue length beyond which the collector writes too (the workers are busy
// playing long chunks, or the run is ending), unless a worker is writing already; beyond
// 4×maxQueued it waits for that worker and then writes (runWaiting), which bounds the queue.
const MaxQueued = 16
