package runner

import (
	"hash/crc32"
	"runtime"
	"unsafe"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/internal/durable"
	"github.com/fairplay-lab/fairplay/tally"
)

// Batching between the workers and the collector. The collector is the one goroutine that sees
// every game in order (the summary and the games file need that order), so whatever does not
// depend on the order is done by the worker that played the game, a chunk at a time: the
// games-file row (gamefile.AppendCSVRow), the distinct-game hash (tally.DistinctHash), in
// csv.gz at two or more workers the rows' compression (a gzip member), and in csv the rows'
// CRC-32C for the checkpoints and the write itself (asyncwrite.go: the collector reserves the
// rows' place in the file, joins their CRC to the file's and queues the write, which the
// workers do between chunks). The collector adds the games to the summary
// (about 0.15 µs a random Katarenga game while the distinct-games set fills, 0.09 after) and
// orders the output; no lock, channel operation or allocation per game
// (the prepared buffers are recycled). So a run of W workers uses W cores' worth of play, and the
// one collector keeps up with dozens of workers of random games. Before, a one-worker run also
// moved the rows, hashes and (Baran) notation to the collector's core: faster at one worker on
// two cores, but then two workers could not be twice one (docs/performance.md).

// prepared is what a worker computes for a chunk's items besides the records.
type prepared struct {
	rows   []byte   // the items' games-file rows, in order (empty when the sink wants none)
	ends   []int    // ends[k]: where item k's row ends in rows
	hashes []uint64 // hashes[k]: item k's tally.DistinctHash, for a prefix of the chunk
	// gz is the rows compressed as one gzip member, when the sink takes members (csv.gz at
	// several workers) and the chunk is a whole block of them (wholeBlock); zc is the
	// compressor, kept with the buffers.
	gz []byte
	zc gamefile.GzipMember
	// pg is the games encoded as a Parquet row group, when the sink takes row groups (Parquet
	// at several workers) and the chunk is a whole block of them.
	pg gamefile.RowGroup
	// memo remembers the rows' short text fields (they repeat from game to game).
	memo gamefile.RowMemo
	// crc is the CRC-32C of rows[:crcN] (crcN −1: none), for the games file's checkpoints
	// when the rows are queued (gamesSink.queue): computed by the worker while the rows are in
	// its caches, not read again by the collector.
	crc  uint32
	crcN int
}

// row returns the rows of items lo to hi−1.
func (p *prepared) rowsOf(lo, hi int) []byte {
	start := 0
	if lo > 0 {
		start = p.ends[lo-1]
	}
	return p.rows[start:p.ends[hi-1]]
}

// prepPool recycles prepared buffers between the collector and the workers (a chunk's rows are
// ~70 kB for random Katarenga games: allocating them per chunk kept the GC busy). It never
// blocks: an empty pool allocates, a full one drops.
type prepPool chan *prepared

func newPrepPool(workers int) prepPool { return make(prepPool, prepPerWorker*workers) }

// prepPerWorker is the prepared buffers a prepPool keeps a worker: at least the chunks a
// worker can have in flight (runBatched's tokens, at most 8 a worker), so that none is dropped.
const prepPerWorker = 8

func (p prepPool) get() *prepared {
	select {
	case b := <-p:
		b.rows, b.ends, b.hashes = b.rows[:0], b.ends[:0], b.hashes[:0]
		return b
	default:
		return &prepared{}
	}
}

func (p prepPool) put(b *prepared) {
	if b == nil {
		return
	}
	select {
	case p <- b:
	default:
	}
}

// arena holds the bytes and counters a chunk's records point into (Record.Moves and
// Record.Counters) when the sink lets the run reuse them: a chunk's moves are ~70 kB for random
// Katarenga games, and copying them into a new string per chunk was most of the runner's
// garbage.
type Arena struct {
	moves []byte
	cnts  []int64
}

// chunkPool recycles whole chunks (records, arena) between the collector and the workers when
// the sink keeps no reference to an item once it has taken it (batchSink.recycle). A nil pool
// allocates every chunk and recycles none; like prepPool it never blocks.
type chunkPool[R any] chan *chunk[R]

// get returns an empty chunk with room for size items (and an arena, from a non-nil pool).
func (p chunkPool[R]) get(size int64) *chunk[R] {
	if p == nil {
		return &chunk[R]{recs: make([]R, 0, size)}
	}
	select {
	case c := <-p:
		c.recs = c.recs[:0]
		return c
	default:
		return &chunk[R]{recs: make([]R, 0, size), arena: &Arena{}}
	}
}

// put hands back a chunk the sink is done with.
func (p chunkPool[R]) put(c *chunk[R]) {
	if p == nil {
		return
	}
	select {
	case p <- c:
	default:
	}
}

// batchSink takes a run's finished items in increasing index order.
type batchSink[R any] struct {
	// prepare, when set, runs in the worker after each chunk and fills p for the chunk's
	// finished items (in chunk order). It returns whether items will need no more of the
	// items than their numbers (a Parquet row group holds their text): a recycling run's
	// worker then takes its chunk buffers back at once (a reclaimer), so a chunk waiting for
	// the collector holds no copy of its games' moves.
	prepare func(recs []R, p *prepared) (spent bool)
	// items takes recs[lo:hi], consecutive finished items of one chunk (no old item falls
	// between them), with the chunk's prepared data (nil without prepare).
	items func(recs []R, p *prepared, lo, hi int) error
	// old takes one already finished item of plan.Old, merged in by index.
	old func(r *R) error
	// recycle says that neither items nor anything it feeds keeps a reference into an item
	// (its strings, its slices) once it returns: the run may then reuse a written chunk's
	// records and buffers for a later chunk.
	recycle bool
	// help, when set, is called by every worker after it hands over a chunk: it does work the
	// collector queued (the games file's writes).
	help func()
	// block, when positive, makes the chunks of cheap items (a chunkCapper's cap above
	// defaultChunkCap) the blocks of block indices, [k·block, (k+1)·block) within the plan:
	// the blocks that the games file's gzip members or row groups hold, which the workers
	// then encode whole. blockTokens, when positive, caps the chunks per worker in flight
	// (played, encoded, or waiting to be written) when they are such blocks.
	block       int64
	blockTokens int
}

// perItem is the batchSink that hands every item to sink, one at a time.
func perItem[R any](sink func(*R) error) batchSink[R] {
	return batchSink[R]{
		items: func(recs []R, _ *prepared, lo, hi int) error {
			for k := lo; k < hi; k++ {
				if err := sink(&recs[k]); err != nil {
					return err
				}
			}
			return nil
		},
		old: sink,
	}
}

// prepareGames returns a batchSink.prepare for games of a run of [start, end): the
// distinct-game hash of every game among the first tally.DistinctExamined of [start, …) (the
// summary looks at no others), and, with rows set, each game's CSV row. A chunk that holds a
// whole block of the games file (wholeBlock) is also encoded as the file holds it: with gz
// set, its rows compressed as a gzip member; with gw set, its games as a Parquet row group.
// With crc set, the rows' CRC-32C too. The moves are spent once the chunk is a row group that
// the collector will write whole: a run without a stop rule (stops, set, says there is one)
// and the hashes made.
func prepareGames(start, end int64, rows, crc, gz, stops bool, gw gamefile.GroupWriter) func(recs []gamefile.Record, p *prepared) bool {
	return func(recs []gamefile.Record, p *prepared) (spent bool) {
		p.gz, p.crcN = p.gz[:0], -1
		p.pg.Discard() // one not written (a failed run) is not this chunk's
		if gw != nil && wholeBlock(recs, gamefile.GroupGames, start, end) {
			// An error leaves pg empty: the collector then writes the records one by one and
			// meets the same error in game order.
			gw.EncodeGroup(&p.pg, recs)
			defer func() {
				n := len(recs)
				spent = p.pg.Encoded() && !stops &&
					(len(p.hashes) == n || recs[len(p.hashes)].Game-start >= tally.DistinctExamined)
			}()
		}
		if gz && wholeBlock(recs, gamefile.MemberGames, start, end) {
			defer func() { p.gz = p.zc.Compress(p.gz[:0], p.rows) }()
		}
		for k := range recs {
			r := &recs[k]
			if rows {
				p.rows = p.memo.AppendCSVRowNotation(p.rows, r) // Match.play records: engine notation
				p.ends = append(p.ends, len(p.rows))
			}
			if r.Game-start < tally.DistinctExamined && len(p.hashes) == k {
				p.hashes = append(p.hashes, tally.DistinctHash(r))
			}
		}
		if crc {
			p.crc, p.crcN = crc32.Checksum(p.rows, gamefile.Castagnoli), len(p.rows)
		}
		return false
	}
}

// wholeBlock says whether recs are all the games of a run of [start, end) in one block of size
// game indices, [k·size, (k+1)·size): consecutive, from the block's first game in the run to
// its last. The games file holds exactly those games in that block (a resume's old games
// would fall between them), so their member or row group is the file's.
func wholeBlock(recs []gamefile.Record, size, start, end int64) bool {
	n := len(recs)
	if n == 0 {
		return false
	}
	first, last := recs[0].Game, recs[n-1].Game
	b := first / size
	return last-first == int64(n-1) && first == max(start, b*size) && last == min(end, (b+1)*size)-1
}

// gamesSink feeds a match's finished games, in game order, to a summary and a games file: the
// collector's work in RunMatch. New games come a chunk at a time with their rows and hashes
// prepared (batch); old games of a resume come one by one and are encoded here.
type gamesSink struct {
	sum *tally.Summary
	w   gamefile.GamesWriter
	rw  gamefile.RowWriter // w when it takes prepared rows, else nil
	// stop, when set, is a sequential test's rule, asked after every game: once it says so,
	// that game is the last one counted and written, and onStop is called.
	stop   func(*tally.Summary) bool
	onStop func()
	// failed, when set, explains a failed write; written, when set, learns that n more games
	// are in the games file (checkpoints). Both are called in the collector.
	failed  func(error) error
	written func(n int) error
	plies   int64 // plies of the games counted
	stopped bool
	recycle bool // w keeps no reference into a record it took (batchSink.recycle)
	// queue, when set, queues a chunk's prepared rows for a write by the workers (see
	// asyncwrite.go): durable.TempFile.WriteAsync behind the games writer, whose own buffer flushRows
	// empties first. rowBufs recycles the rows' buffers once written.
	// mw is w in csv.gz: it takes rows with their games' block, and members compressed by the
	// workers (the compression, several times a random game's cost, is then parallel). gw is w
	// in Parquet: it takes row groups encoded by the workers. The workers encode them at
	// several workers (encode), for their chunks that are whole blocks (see batchSink.block).
	mw        gamefile.MemberWriter
	gw        gamefile.GroupWriter
	encode    bool
	queue     func(rows []byte, crc uint32, release func()) (bool, error)
	flushRows func() error
	help      func()
	rowBufs   chan []byte
}

// writeRows writes prepared rows lo to hi−1: queued for the workers when the sink has a queue
// and the call took the whole chunk (whole: items' lo and hi were 0 and len(recs); a stop rule
// may have cut hi since), else through the games writer. A queued buffer leaves p: p gets
// another (recycled) one, so the run may reuse p at once.
func (g *gamesSink) writeRows(p *prepared, lo, hi int, whole bool) error {
	rows := p.rowsOf(lo, hi)
	if g.queue == nil || !whole {
		return g.rw.WriteRows(rows)
	}
	if err := g.flushRows(); err != nil {
		return err
	}
	buf, crc := p.rows, p.crc
	if p.crcN != len(rows) { // a stop rule cut the chunk
		crc = crc32.Checksum(rows, gamefile.Castagnoli)
	}
	queued, err := g.queue(rows, crc, func() {
		select {
		case g.rowBufs <- buf[:0]:
		default: // not with newRowBufs's room
		}
	})
	if !queued {
		return g.rw.WriteRows(rows)
	}
	// p gets a written buffer (possibly buf itself, when the write was done at once), or a new
	// one of buf's size: one allocation, not a chunk's rows grown from nothing.
	select {
	case p.rows = <-g.rowBufs:
	default:
		p.rows = make([]byte, 0, cap(buf))
	}
	return err
}

// newRowBufs returns the channel that recycles a run's written rows buffers (gamesSink.rowBufs)
// at workers workers, with room for every buffer the run can hold at once: one in each
// prepared buffer (prepPerWorker a worker) and one in each queued write (at most
// 4·durable.MaxQueued+1). A written buffer is then never dropped, and a run allocates rows
// buffers only while its most in use grows. With room for 16, the buffers that came back after
// a burst of queued writes were dropped and later chunks grew new ones: at two workers about
// 20 MB of allocation and a garbage collection every 100,000 random Katarenga games.
func newRowBufs(workers int) chan []byte {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	return make(chan []byte, prepPerWorker*workers+4*durable.MaxQueued+1)
}

// Each worker has at most groupTokens chunks in flight (played, encoded, or waiting to be
// written) when its chunks are Parquet row groups: a block of 2,048 random Katarenga games holds
// ~2.6 MB of records (the Record values, moves, start positions and counters) and ~1.04 MB of
// encoded row group in the default Snappy (507 B a game; 0.74 MB in Zstandard), measured on
// layout 0.
const groupTokens = 2

// parallelEncode lets the workers compress csv.gz members and encode Parquet row groups (at
// two or more workers; at one, the collector's encoding runs beside the worker).
func (g *gamesSink) parallelEncode(workers int) {
	g.encode = workers > 1 || workers < 1 && runtime.GOMAXPROCS(0) > 1
}

func newGamesSink(sum *tally.Summary, w gamefile.GamesWriter) *gamesSink {
	g := &gamesSink{sum: sum, w: w}
	g.rw, _ = w.(gamefile.RowWriter)
	g.mw, _ = gamefile.MemberWriterOf(w)
	g.gw, _ = gamefile.GroupWriterOf(w)
	g.recycle = g.rw != nil || g.gw != nil
	return g
}

// batch returns the batchSink of a run of the games [start, end).
func (g *gamesSink) batch(start, end int64) batchSink[gamefile.Record] {
	// The summary keeps only numbers and hashes, and the games file keeps no reference into a
	// record once it has taken it (prepared rows and row groups are copies; Parquet's Write
	// copies the moves), so chunks can be recycled.
	var gw gamefile.GroupWriter
	if g.encode {
		gw = g.gw
	}
	prep := prepareGames(start, end, g.rw != nil, g.queue != nil, g.encode && g.mw != nil, g.stop != nil, gw)
	b := batchSink[gamefile.Record]{prepare: prep, items: g.items, old: g.old, recycle: g.recycle}
	switch {
	case gw != nil:
		b.block, b.blockTokens = gamefile.GroupGames, groupTokens
	case g.encode && g.mw != nil:
		b.block = gamefile.MemberGames
	}
	if g.queue != nil {
		b.help = g.help
	}
	return b
}

// writeMemberRows writes the prepared csv.gz rows of recs[lo:hi], a run of rows at a time
// within one block of MemberGames games.
func (g *gamesSink) writeMemberRows(recs []gamefile.Record, p *prepared, lo, hi int) error {
	for k := lo; k < hi; {
		b, j := recs[k].Game/gamefile.MemberGames, k+1
		for j < hi && recs[j].Game/gamefile.MemberGames == b {
			j++
		}
		if err := g.mw.WriteRowsAt(recs[k].Game, p.rowsOf(k, j)); err != nil {
			return err
		}
		k = j
	}
	return nil
}

func (g *gamesSink) old(r *gamefile.Record) error { return g.items(unsafe.Slice(r, 1), nil, 0, 1) }

// items counts and writes recs[lo:hi], with their prepared rows and hashes when p is not nil.
func (g *gamesSink) items(recs []gamefile.Record, p *prepared, lo, hi int) error {
	if g.stopped {
		return nil
	}
	whole := lo == 0 && hi == len(recs)
	for k := lo; k < hi; k++ {
		r := &recs[k]
		if p != nil && k < len(p.hashes) {
			g.sum.AddHashed(r, p.hashes[k])
		} else {
			g.sum.Add(r)
		}
		g.plies += int64(r.Plies)
		if g.stop != nil && g.stop(g.sum) {
			g.stopped = true
			if g.onStop != nil {
				g.onStop()
			}
			hi = k + 1
			break
		}
	}
	var err error
	if p != nil && p.pg.Encoded() && !(whole && hi == len(recs)) {
		p.pg.Discard() // part of the chunk: its records are written one by one
	}
	if p != nil && p.pg.Encoded() {
		err = g.gw.WriteGroup(&p.pg)
	} else if p != nil && g.mw != nil && whole && hi == len(recs) && len(p.gz) > 0 {
		err = g.mw.WriteMember(p.gz)
	} else if p != nil && g.mw != nil {
		err = g.writeMemberRows(recs, p, lo, hi)
	} else if p != nil && g.rw != nil {
		err = g.writeRows(p, lo, hi, whole)
	} else {
		for k := lo; k < hi && err == nil; k++ {
			err = g.w.Write(&recs[k])
		}
	}
	if err != nil {
		if g.failed != nil {
			err = g.failed(err)
		}
		return err
	}
	if g.written != nil {
		return g.written(hi - lo)
	}
	return nil
}
