package gamefile

import (
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/parquet-go/parquet-go"
)

// Parquet games files have the columns of games.csv in the same order, typed: integers as
// INT64 (seed as unsigned), text as UTF-8 strings. Repetitive text (names, rules, agents,
// outcomes) is dictionary-encoded, game and pair numbers delta-encoded, and every column
// compressed with the writer's Codec (Snappy unless asked for Zstandard: compressing a game's
// ~1 kB of move text costs more than playing a random game, see codec.go). Until Close a
// writer keeps only each row group's footer entry and page index (parquet-go's form of them:
// ~18 kB a row group of 20-odd columns, 2.2 kB in the file).
//
// A row group holds the games of one block of game indices, [k·GroupGames, (k+1)·GroupGames):
// its rows end where the indices say, never where a run's workers or interruptions happened to
// cut it, so a run's file has the same bytes at any worker count, resumed or merged. A row
// group of 2,048 random Katarenga games is ~1 MB (~2.5 MB of records while a worker encodes
// it); each adds ~10 kB (dictionary pages, page headers, metadata): 1% more bytes than row
// groups of 16,384.
const GroupGames = 2048

// Bounds (minimum and maximum values) are written for every column but the moves and the start
// position: long text nobody filters by range. parquet-go keeps the bounds of every page of the
// file until it writes the footer, whole values however short the footer's copies, so the
// moves' bounds (two games' move lists a page, kilobytes) made the memory of a Parquet run
// grow with its games; they also took 4.5% of a file of random games (page headers and the
// footer repeat them).
// The page index itself stays (DuckDB and other readers use it to skip pages).
//
// pageBuffers holds each column's compressed pages until its row group is written, in chunks
// of 4 kB: parquet-go's default pool allocates 32 kB chunks, ~0.7 MB of them for a row group's
// 20-odd short columns, which a run at W workers keeps for every row group in flight.
var pageBuffers = parquet.NewChunkBufferPool(4 << 10)

// parquetBatch is the number of rows handed to the Parquet writer at once.
const parquetBatch = 256

type parquetCol struct {
	name string
	kind reflect.Kind // reflect.Int64, reflect.Uint64 or reflect.String
	tag  string       // encoding options
}

// parquetColumns lists the columns of a games file for a game's counter names. With
// uncounted, legal_actions_total is optional (NULL for NotCounted), else required.
func parquetColumns(counters []string, uncounted bool) []parquetCol {
	legal := "delta"
	if uncounted {
		legal = "optional,delta"
	}
	cols := []parquetCol{{"game", reflect.Int64, "delta"}, {"pair", reflect.Int64, "delta"},
		{"seed", reflect.Uint64, "plain"}}
	for _, n := range baseColumns[3:12] {
		cols = append(cols, parquetCol{n, reflect.String, "dict"})
	}
	cols = append(cols, parquetCol{"reason", reflect.String, "dict"}, parquetCol{"plies", reflect.Int64, "delta"},
		parquetCol{"legal_actions_total", reflect.Int64, legal}, parquetCol{forfeitColumn, reflect.String, "dict"})
	for _, n := range counters {
		cols = append(cols, parquetCol{n, reflect.Int64, "delta"})
	}
	return append(cols, parquetCol{"start_position", reflect.String, "dict"}, parquetCol{"moves", reflect.String, "plain"})
}

// parquetSchema builds the schema from a struct type made at run time, which keeps the columns
// in games.csv order (a parquet.Group would sort them by name).
func parquetSchema(cols []parquetCol) *parquet.Schema {
	fields := make([]reflect.StructField, len(cols))
	for i, c := range cols {
		var t reflect.Type
		switch c.kind {
		case reflect.Int64:
			t = reflect.TypeFor[int64]()
		case reflect.Uint64:
			t = reflect.TypeFor[uint64]()
		default:
			t = reflect.TypeFor[string]()
		}
		fields[i] = reflect.StructField{Name: fmt.Sprintf("C%d", i), Type: t,
			Tag: reflect.StructTag(fmt.Sprintf(`parquet:"%s,%s"`, c.name, c.tag))}
	}
	return parquet.SchemaOf(reflect.New(reflect.StructOf(fields)).Interface())
}

// parquetWriter writes a games file in Parquet. Its schema is fixed by the first record:
// legal_actions_total is optional (a NULL for every NotCounted) when that record's legal
// actions were not counted, required (as in every file of counted games) otherwise. Row groups
// come from Write (one per block of GroupGames game indices) or, encoded by other goroutines,
// from WriteGroup (see GroupWriter). Both encode a group the same way (encoder), so a row
// group holds the same bytes whichever wrote it.
type parquetWriter struct {
	dst       io.Writer
	counters  []string
	codec     Codec
	w         *parquet.GenericWriter[any] // nil until the first record (or Close) fixes the schema
	uncounted bool
	// cur is the row group that Write fills, of the games of block (nil: none under way);
	// rows[:n] are its rows not yet handed to it.
	cur   *parquet.ConcurrentRowGroupWriter
	block int64
	rows  []parquet.Row
	n     int
	// moves holds copies of the moves of the rows not yet handed to w (see Write).
	moves []byte
	// mu guards the start of w, which EncodeGroup may do from another goroutine; started says
	// it is done (w and uncounted are then only read).
	mu      sync.Mutex
	started atomic.Bool
	// batches recycles EncodeGroup's row buffers (*[]parquet.Row): held only while a group is
	// encoded, not with every encoded group waiting for WriteGroup.
	batches sync.Pool
	// groupWriters recycles row group writers once committed (Commit resets them as the
	// writer's own): a new one allocated its column buffers (~1.5 MB for a group of 2,048
	// random games) every row group, and the collector's work grew with the garbage.
	groupWriters sync.Pool
}

func newParquetWriter(w io.Writer, counters []string, codec Codec) (*parquetWriter, error) {
	for _, c := range counters {
		if c == "" || strings.ContainsAny(c, ",\"") {
			return nil, fmt.Errorf("counter name %q: not a valid Parquet column name", c)
		}
	}
	if _, err := ParseCodec(string(codec)); err != nil {
		return nil, err
	}
	if codec == "" {
		codec = Snappy
	}
	return &parquetWriter{dst: w, counters: counters, codec: codec, rows: newParquetRows(len(parquetColumns(counters, false)))}, nil
}

func newParquetRows(ncol int) []parquet.Row {
	rows := make([]parquet.Row, parquetBatch)
	for i := range rows {
		rows[i] = make(parquet.Row, 0, ncol)
	}
	return rows
}

// start creates the Parquet writer with legal_actions_total optional or required, unless it
// exists. The schema is made at run time, so the writer is a GenericWriter[any] given it and
// fed parquet.Rows.
func (p *parquetWriter) start(uncounted bool) {
	if p.started.Load() {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.w != nil {
		return
	}
	p.uncounted = uncounted
	p.w = parquet.NewGenericWriter[any](p.dst, parquetSchema(parquetColumns(p.counters, uncounted)),
		parquet.Compression(p.codec.pages()), parquet.CreatedBy("fairplay", "", ""),
		parquet.SkipPageBounds("moves"), parquet.SkipPageStatistics("moves"),
		parquet.SkipPageBounds("start_position"), parquet.SkipPageStatistics("start_position"),
		parquet.ColumnPageBuffers(pageBuffers))
	p.started.Store(true)
}

// bytesOf views a string's bytes without copying (the Parquet writer copies them into its pages
// and never writes through the slice).
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// appendRow appends r's values to row in the columns of a file whose legal_actions_total is
// optional (uncounted) or required.
func appendRow(row parquet.Row, r *Record, uncounted bool) (parquet.Row, error) {
	if r.LegalTotal == NotCounted && !uncounted {
		return row, fmt.Errorf("game %d: legal actions not counted, in a Parquet file of counted games", r.Game)
	}
	col := 0
	i64 := func(v int64) {
		row = append(row, parquet.Int64Value(v).Level(0, 0, col))
		col++
	}
	str := func(s string) {
		row = append(row, parquet.ByteArrayValue(bytesOf(s)).Level(0, 0, col))
		col++
	}
	i64(r.Game)
	i64(r.Pair)
	i64(int64(r.Seed))
	str(r.GameName)
	str(r.Layout)
	str(r.Rules)
	str(r.FirstAgent)
	str(r.SecondAgent)
	str(r.FirstIs)
	str(r.FirstColour)
	str(r.Winner)
	str(r.WinnerAgent())
	str(r.Reason.String())
	i64(int64(r.Plies))
	switch {
	case !uncounted:
		i64(r.LegalTotal)
	case r.LegalTotal == NotCounted:
		row = append(row, parquet.NullValue().Level(0, 0, col))
		col++
	default:
		row = append(row, parquet.Int64Value(r.LegalTotal).Level(0, 1, col))
		col++
	}
	str(r.Forfeit)
	for _, v := range r.Counters {
		i64(v)
	}
	str(r.Start)
	str(r.Moves)
	return row, nil
}

// newGroup returns a row group writer: one of p's committed ones, or a new one.
func (p *parquetWriter) newGroup() *parquet.ConcurrentRowGroupWriter {
	if rg, _ := p.groupWriters.Get().(*parquet.ConcurrentRowGroupWriter); rg != nil {
		return rg
	}
	return p.w.BeginRowGroup()
}

// commit writes rg, encoded, into the file after everything written so far, and recycles its
// writer.
func (p *parquetWriter) commit(rg *parquet.ConcurrentRowGroupWriter) error {
	if _, err := rg.Commit(); err != nil {
		return err
	}
	p.groupWriters.Put(rg)
	return nil
}

// Write keeps no reference into r once it returns: the rows wait for parquetBatch of them, so
// it keeps a copy of the moves (the only text of a record that a run reuses for later games:
// Match.EndChunk's arenas); the other strings of a record are never overwritten. A record of
// another block than the row group under way ends that group first.
func (p *parquetWriter) Write(r *Record) error {
	p.start(r.LegalTotal == NotCounted)
	if b := r.Game / GroupGames; p.cur == nil || b != p.block {
		if err := p.endCur(); err != nil {
			return err
		}
		p.cur, p.block = p.newGroup(), b
	}
	if p.n == 0 {
		p.moves = p.moves[:0]
	}
	at := len(p.moves)
	p.moves = append(p.moves, r.Moves...)
	own := *r
	own.Moves = unsafe.String(unsafe.SliceData(p.moves[at:]), len(r.Moves))
	row, err := appendRow(p.rows[p.n][:0], &own, p.uncounted)
	if err != nil {
		return err
	}
	p.rows[p.n] = row
	p.n++
	if p.n == len(p.rows) {
		return p.flush()
	}
	return nil
}

// flush hands the waiting rows to the row group under way: batches of parquetBatch rows from
// the group's first, as EncodeGroup's (parquet-go cuts pages only between the rows of a call),
// so that a group of the same records has the same pages whichever of them encoded it.
func (p *parquetWriter) flush() error {
	if p.n == 0 {
		return nil
	}
	_, err := p.cur.WriteRows(p.rows[:p.n])
	p.n = 0
	return err
}

// endCur writes the row group under way, if any.
func (p *parquetWriter) endCur() error {
	if p.cur == nil {
		return nil
	}
	if err := p.flush(); err != nil {
		return err
	}
	rg := p.cur
	p.cur = nil
	if err := rg.Flush(); err != nil { // the last pages are encoded and compressed here
		return err
	}
	return p.commit(rg)
}

// Flush does nothing: rows reach the file a row group at a time, and the file is readable once
// Close has written its footer.
func (p *parquetWriter) Flush() error { return nil }

func (p *parquetWriter) Close() error {
	p.start(false)
	if err := p.endCur(); err != nil {
		return err
	}
	return p.w.Close()
}

// GroupWriter is a GamesWriter (Parquet) that also takes row groups encoded elsewhere: a run's
// workers encode and compress a block of games each as a row group (EncodeGroup, in parallel)
// and the single writer only copies the pages into the file (WriteGroup), in game order. The
// records read back are those of Write of every record, and so are the file's bytes when each
// group given to WriteGroup holds the games of one block (GroupGames), all those the file holds.
type GroupWriter interface {
	GamesWriter
	// EncodeGroup encodes recs as one row group into g. It may be called from several
	// goroutines at once, each with its own g, while the writer is in use; the first call (or
	// Write) fixes the schema from its first record. After an error g holds nothing.
	EncodeGroup(g *RowGroup, recs []Record) error
	// WriteGroup appends g's row group after everything written so far (the row group of the
	// records given to Write before it ends first) and empties g for another EncodeGroup.
	WriteGroup(g *RowGroup) error
}

// RowGroup is a Parquet row group encoded by GroupWriter.EncodeGroup, waiting for WriteGroup;
// the zero value is empty. It belongs to the writer that first encoded it.
type RowGroup struct {
	rg    *parquet.ConcurrentRowGroupWriter
	owner *parquetWriter
	n     int // rows encoded
}

// Encoded says whether g holds an encoded row group.
func (g *RowGroup) Encoded() bool { return g.n > 0 }

// Discard drops what g holds (a row group encoded but not to be written).
func (g *RowGroup) Discard() { g.rg, g.n = nil, 0 }

// GroupWriterOf returns w as a GroupWriter when it takes encoded row groups (its format is
// Parquet).
func GroupWriterOf(w GamesWriter) (GroupWriter, bool) {
	if p, ok := w.(*parquetWriter); ok {
		return p, true
	}
	return nil, false
}

func (p *parquetWriter) EncodeGroup(g *RowGroup, recs []Record) error {
	g.Discard()
	if len(recs) == 0 {
		return nil
	}
	p.start(recs[0].LegalTotal == NotCounted)
	g.owner = p
	rows, _ := p.batches.Get().(*[]parquet.Row)
	if rows == nil {
		b := newParquetRows(len(parquetColumns(p.counters, false)))
		rows = &b
	}
	defer p.batches.Put(rows)
	batch := *rows
	rg := p.newGroup()
	for lo := 0; lo < len(recs); lo += len(batch) { // Write's batches (flush)
		hi := min(lo+len(batch), len(recs))
		for k := lo; k < hi; k++ {
			row, err := appendRow(batch[k-lo][:0], &recs[k], p.uncounted)
			if err != nil {
				return err
			}
			batch[k-lo] = row
		}
		if _, err := rg.WriteRows(batch[:hi-lo]); err != nil {
			return err
		}
	}
	if err := rg.Flush(); err != nil { // the last pages are encoded and compressed here too
		return err
	}
	g.rg, g.n = rg, len(recs)
	return nil
}

func (p *parquetWriter) WriteGroup(g *RowGroup) error {
	if g.owner != p || g.rg == nil {
		return fmt.Errorf("parquet: a row group not encoded for this writer")
	}
	if err := p.endCur(); err != nil {
		return err
	}
	rg := g.rg
	g.rg, g.n = nil, 0
	return p.commit(rg)
}
