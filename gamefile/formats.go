package gamefile

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	kgzip "github.com/klauspost/compress/gzip"
)

// Format is a games file format: "csv" (the default), "csv.gz" (the same CSV through gzip) or
// "parquet" (typed columns compressed with a Codec, streamed row groups). Every format holds
// the same records, and the readers give them back equal.
type Format string

// The games file formats.
const (
	CSV     Format = "csv"
	CSVGzip Format = "csv.gz"
	Parquet Format = "parquet"
)

// Formats lists the formats in the order help texts show them.
var Formats = []Format{CSV, CSVGzip, Parquet}

// ParseFormat checks a format name ("" means csv).
func ParseFormat(s string) (Format, error) {
	if s == "" {
		return CSV, nil
	}
	for _, f := range Formats {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("format %q: want csv, csv.gz or parquet", s)
}

// FileName is the name of a run's games file in this format: games.csv, games.csv.gz or
// games.parquet.
func (f Format) FileName() string { return "games." + string(f) }

// FormatOf returns the format of a games file from its name's ending.
func FormatOf(path string) (Format, error) {
	switch {
	case strings.HasSuffix(path, ".csv.gz"):
		return CSVGzip, nil
	case strings.HasSuffix(path, ".csv"):
		return CSV, nil
	case strings.HasSuffix(path, ".parquet"):
		return Parquet, nil
	}
	return "", fmt.Errorf("%s: not a games file (want a name ending in .csv, .csv.gz or .parquet)", path)
}

// FindGames returns the path of the games file in a run directory, whichever format it has.
// It is an error when there is none or more than one.
func FindGames(dir string) (string, Format, error) {
	var found []Format
	for _, f := range Formats {
		if _, err := os.Stat(filepath.Join(dir, f.FileName())); err == nil {
			found = append(found, f)
		}
	}
	switch len(found) {
	case 0:
		return "", "", fmt.Errorf("%s: no games.csv, games.csv.gz or games.parquet: %w", dir, os.ErrNotExist)
	case 1:
		return filepath.Join(dir, found[0].FileName()), found[0], nil
	}
	return "", "", fmt.Errorf("%s holds games files in %d formats; keep one", dir, len(found))
}

// gzipLevel is the csv.gz compression level of klauspost/compress's deflate: on random
// Katarenga games' rows (chunks of 256) its level 2 writes the bytes of the standard library's
// level 4 at about 4.5 times its speed (160 against 35 MB/s on the project's 2-core machine);
// level 1 is no faster and 2% larger, levels 3–5 slower. The files are ordinary gzip, read by
// every gzip reader.
const gzipLevel = 2

// GamesWriter streams records into a games file.
type GamesWriter interface {
	// Write appends one record. The record may be reused once Write returns.
	Write(r *Record) error
	// Flush writes the buffered records through to the underlying writer (CSV: every record
	// written so far, whole; csv.gz and Parquet: nothing, their members and row groups are
	// written whole when their block of games ends; a Parquet file is readable only once
	// closed).
	Flush() error
	// Close flushes everything buffered and ends the file (the last gzip member, the Parquet
	// footer). It does not close the underlying writer.
	Close() error
}

// NewGamesWriter returns a writer of records in format f onto w, for a game with the given
// counter names; a Parquet file's pages are compressed with Snappy.
func NewGamesWriter(w io.Writer, f Format, counters []string) (GamesWriter, error) {
	return NewGamesWriterCodec(w, f, "", counters)
}

// NewGamesWriterCodec is NewGamesWriter with the Parquet codec c ("" is Snappy); a codec with
// another format is an error (only Parquet has one).
func NewGamesWriterCodec(w io.Writer, f Format, c Codec, counters []string) (GamesWriter, error) {
	if c != "" && f != Parquet {
		return nil, fmt.Errorf("parquet codec %s for a %s file: only Parquet has one", c, f)
	}
	switch f {
	case CSV, "":
		return newBufferedCSV(w, counters, false)
	case CSVGzip:
		return newBufferedCSV(w, counters, true)
	case Parquet:
		return newParquetWriter(w, counters, c)
	}
	return nil, fmt.Errorf("format %q: want csv, csv.gz or parquet", f)
}

// MemberGames is the number of games of a csv.gz member: the file is a gzip member holding the
// header line, then one member for each block of game indices [k·MemberGames,
// (k+1)·MemberGames) holding the rows of that block's games (RFC 1952 §2.2: "a gzip file
// consists of a series of members", read back as one stream by every gzip reader). The
// members end where the game indices say, never where a run's workers or interruptions
// happened to cut it, so a run's csv.gz bytes are the same at any worker count, resumed or
// merged. 256 random Katarenga games are ~300 kB of rows: deflate's 32 kB window makes larger
// members no smaller.
const MemberGames = 256

// csvGames is the GamesWriter of csv and csv.gz.
type csvGames struct {
	cw  *CSVWriter
	out io.Writer
	// csv.gz: cw writes into pend, the rows of the member under way (of the games of block,
	// or the header line for block −1), which ends (compressed by gm into zbuf, then written to
	// out) when a game of another block comes, or at Close.
	gz    bool
	pend  appendWriter
	block int64
	open  bool // pend holds a member under way
	gm    GzipMember
	zbuf  []byte
}

func newBufferedCSV(out io.Writer, counters []string, gz bool) (*csvGames, error) {
	c := &csvGames{out: out, gz: gz, block: -1, open: gz}
	var w io.Writer = out
	if gz {
		w = &c.pend
	}
	cw, err := NewCSVWriter(w, counters)
	if err != nil {
		return nil, err
	}
	c.cw = cw
	return c, nil
}

func (c *csvGames) Write(r *Record) error {
	if err := c.enter(r.Game); err != nil {
		return err
	}
	return c.cw.Write(r)
}

// WriteRows writes rows made by AppendCSVRow (see RowWriter); in csv.gz, into the member under
// way (WriteRowsAt ends members where the games' indices say).
func (c *csvGames) WriteRows(rows []byte) error {
	if c.gz && !c.open {
		c.block, c.open = -2, true // games of no known block: the next Write starts a member
	}
	return c.cw.WriteRows(rows)
}

// enter starts the member of game's block in csv.gz, ending the one under way if it is of
// another block.
func (c *csvGames) enter(game int64) error {
	if !c.gz {
		return nil
	}
	if b := game / MemberGames; b != c.block || !c.open {
		if err := c.endMember(); err != nil {
			return err
		}
		c.block, c.open = b, true
	}
	return nil
}

// endMember compresses the member under way, if any, and writes it.
func (c *csvGames) endMember() error {
	if !c.open {
		return nil
	}
	if err := c.cw.Flush(); err != nil {
		return err
	}
	c.open = false
	c.zbuf = c.gm.Compress(c.zbuf[:0], c.pend.b)
	c.pend.b = c.pend.b[:0]
	_, err := c.out.Write(c.zbuf)
	return err
}

// RowWriter is a GamesWriter that also takes games already encoded as CSV rows by
// AppendCSVRow (the csv and csv.gz writers): WriteRows(rows) writes the same bytes as Write of
// each of their records, in order. A run's workers encode rows so that its single writer only
// copies them.
type RowWriter interface {
	GamesWriter
	WriteRows(rows []byte) error
}

// MemberWriter is the RowWriter of csv.gz, whose file is a series of gzip members (see
// MemberGames). It also takes rows with the index of their games' block (WriteRowsAt), and
// rows compressed elsewhere as a complete member (GzipMember.Compress): a run's workers
// compress the blocks they played in parallel and the single writer only copies them. The
// file is the bytes of Write of every record when each member given to WriteMember holds the
// rows of one block's games, all those the file holds.
type MemberWriter interface {
	RowWriter
	// WriteRowsAt writes rows of games all in the block of game (game / MemberGames), as
	// Write of their records would.
	WriteRowsAt(game int64, rows []byte) error
	WriteMember(member []byte) error
}

// MemberWriterOf returns w as a MemberWriter when it takes gzip members (its format is csv.gz).
func MemberWriterOf(w GamesWriter) (MemberWriter, bool) {
	c, ok := w.(*csvGames)
	if !ok || !c.gz {
		return nil, false
	}
	return c, true
}

func (c *csvGames) WriteRowsAt(game int64, rows []byte) error {
	if err := c.enter(game); err != nil {
		return err
	}
	return c.cw.WriteRows(rows)
}

// WriteMember appends a complete gzip member of whole rows, after everything written so far:
// the member under way, if any, ends first.
func (c *csvGames) WriteMember(member []byte) error {
	if !c.gz {
		return errors.New("gzip members in a plain CSV file")
	}
	if err := c.endMember(); err != nil {
		return err
	}
	_, err := c.out.Write(member)
	return err
}

// Flush writes the buffered rows through; in csv.gz it writes nothing (a member is written
// whole, when its block ends or at Close).
func (c *csvGames) Flush() error {
	if c.gz {
		return nil
	}
	return c.cw.Flush()
}

func (c *csvGames) Close() error {
	if c.gz {
		return c.endMember()
	}
	return c.cw.Flush()
}

// GzipMember compresses CSV rows into complete gzip members at csv.gz's level, for
// MemberWriter.WriteMember. Its compressor is reused (deflate's state is ~0.8 MB): a run keeps
// one with each chunk buffer in circulation, about five per worker (~65 MB at 16 workers; nine
// when fewer workers than cores get 8 tokens each), not one per chunk. The zero value is ready; not safe for concurrent use.
type GzipMember struct {
	zw  *kgzip.Writer
	dst appendWriter
}

// appendWriter appends what is written to a byte slice.
type appendWriter struct{ b []byte }

func (a *appendWriter) Write(p []byte) (int, error) {
	a.b = append(a.b, p...)
	return len(p), nil
}

// Compress appends to dst one gzip member holding rows.
func (g *GzipMember) Compress(dst, rows []byte) []byte {
	g.dst.b = dst
	if g.zw == nil {
		g.zw, _ = kgzip.NewWriterLevel(&g.dst, gzipLevel) // gzipLevel is valid: no error
	} else {
		g.zw.Reset(&g.dst)
	}
	g.zw.Write(rows) // writes to memory: no error
	g.zw.Close()
	out := g.dst.b
	g.dst.b = nil
	return out
}

// GamesReader reads the records of a games file in file order.
type GamesReader interface {
	// Read returns the next record, or io.EOF after the last.
	Read() (*Record, error)
	// Counters names the game-specific counters of the file.
	Counters() []string
	// Close releases the file.
	Close() error
}

// OpenGames opens a games file in any format (chosen by its name: .csv, .csv.gz, .parquet).
func OpenGames(path string) (GamesReader, error) {
	f, err := FormatOf(path)
	if err != nil {
		return nil, err
	}
	return OpenGamesAs(path, f)
}

// OpenGamesAs opens a games file in format f whatever its name (a temporary file, say).
func OpenGamesAs(path string, f Format) (GamesReader, error) {
	f, err := ParseFormat(string(f))
	if err != nil {
		return nil, err
	}
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	var gr GamesReader
	switch f {
	case CSV:
		gr, err = newCSVGames(file, bufio.NewReaderSize(file, 1<<16), nil)
	case CSVGzip:
		var zr *gzip.Reader
		if zr, err = gzip.NewReader(bufio.NewReaderSize(file, 1<<16)); err == nil {
			gr, err = newCSVGames(file, zr, zr)
		}
	case Parquet:
		gr, err = openParquet(file)
	}
	if err != nil {
		file.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return gr, nil
}

// openParquet opens a Parquet games file, a panic of the Parquet library becoming an error:
// parquet-go v0.32 slices the page index with a damaged footer's offsets unchecked
// (File.ReadPageIndex). The reader no longer loads the page index, which removes that panic at
// its source; the recover stays for any other unchecked metadata, since a damaged file is an
// error, not a crash.
func openParquet(f *os.File) (gr GamesReader, err error) {
	defer func() {
		if r := recover(); r != nil {
			gr, err = nil, fmt.Errorf("not a Parquet file: damaged metadata (%v)", r)
		}
	}()
	pr, err := newParquetReader(f)
	if err != nil {
		return nil, err
	}
	return pr, nil
}

// CopyGames writes every remaining record of src to dst (converting between formats) and
// returns how many it copied. It closes neither.
func CopyGames(dst GamesWriter, src GamesReader) (int64, error) {
	var n int64
	for r, err := range All(src.Read) {
		if err != nil {
			return n, err
		}
		if err := dst.Write(r); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// OpenRunGames opens the games file of a run directory, whichever format it has.
func OpenRunGames(dir string) (GamesReader, error) {
	path, _, err := FindGames(dir)
	if err != nil {
		return nil, err
	}
	return OpenGames(path)
}

type csvGamesReader struct {
	f  *os.File
	zr *gzip.Reader
	r  *CSVReader
}

func newCSVGames(f *os.File, r io.Reader, zr *gzip.Reader) (*csvGamesReader, error) {
	cr, err := NewCSVReader(r)
	if err != nil {
		return nil, err
	}
	return &csvGamesReader{f: f, zr: zr, r: cr}, nil
}

// Read returns the next record; a gzip stream's checksum is checked at its end (a corrupt or
// truncated file is an error, not a short read).
func (c *csvGamesReader) Read() (*Record, error) { return c.r.Read() }

func (c *csvGamesReader) Counters() []string { return c.r.Counters }

func (c *csvGamesReader) Close() error {
	var err error
	if c.zr != nil {
		err = c.zr.Close()
	}
	return errors.Join(err, c.f.Close())
}
