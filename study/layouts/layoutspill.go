package layouts

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/fairplay-lab/fairplay/runner"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/internal/extsort"
)

// The layout reports are derived in passes over the boards kept on disk, so that memory does
// not grow with the number of boards: the boards are read once (from boards.csv) into a file of
// fixed-size records in a spill directory beside the outputs, read again in order or by board
// index through a small block cache, and sorted with extsort.ExternalSorter where an order is
// needed (Holm and Benjamini–Hochberg adjustments, the first layout of each choice of Black).
// The spill directory is removed when the reports are written.

// defaultReportRunLen is the number of records each external sort of the reports holds in
// memory (tests make it tiny, Sweep.reportRunLen, so that the sorts merge many runs).
const defaultReportRunLen = 1 << 16

// maxReportWorkers caps the goroutines of the reports' parallel passes: each keeps sums of
// 257×257 numbers (0.5 MB) for the colour-effect fit.
const maxReportWorkers = 16

// reportWorkers is the number of goroutines of the reports' parallel passes (Sweep.Workers).
func (sw *Sweep) reportWorkers() int {
	w := sw.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	return min(w, maxReportWorkers)
}

// runLen is the number of records each external sort of sw's reports holds in memory.
func (sw *Sweep) runLen() int {
	if sw.reportRunLen > 0 {
		return sw.reportRunLen
	}
	return defaultReportRunLen
}

// recordFile is an on-disk array of fixed-size records: appended in order, then read in any
// order through a direct-mapped cache of blocks (a few MiB whatever the number of records).
type recordFile struct {
	f      *os.File
	size   int
	n      int64
	w      *bufio.Writer
	blocks [16]struct {
		at   int64 // block number + 1 (0: empty)
		data []byte
	}
}

const recordsPerBlock = 512

func createRecordFile(path string, size int) (*recordFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &recordFile{f: f, size: size, w: bufio.NewWriterSize(f, 64<<10)}, nil
}

// append adds the next record (len(rec) == size).
func (r *recordFile) append(rec []byte) error {
	r.n++
	_, err := r.w.Write(rec)
	return err
}

// finish ends the appending.
func (r *recordFile) finish() error { return r.w.Flush() }

// read returns record i (valid until the next read).
func (r *recordFile) read(i int64) ([]byte, error) {
	if i < 0 || i >= r.n {
		return nil, fmt.Errorf("record %d of %d", i, r.n)
	}
	blk := i / recordsPerBlock
	c := &r.blocks[blk%int64(len(r.blocks))]
	if c.at != blk+1 {
		if c.data == nil {
			c.data = make([]byte, recordsPerBlock*r.size)
		}
		nrec := min(recordsPerBlock, r.n-blk*recordsPerBlock)
		if _, err := r.f.ReadAt(c.data[:nrec*int64(r.size)], blk*recordsPerBlock*int64(r.size)); err != nil {
			return nil, err
		}
		c.at = blk + 1
	}
	off := (i % recordsPerBlock) * int64(r.size)
	return c.data[off : off+int64(r.size)], nil
}

func (r *recordFile) close() error { return r.f.Close() }

// view returns a reader of the finished file with a cache of its own: views read the same
// file from several goroutines.
func (r *recordFile) view() *recordFile { return &recordFile{f: r.f, size: r.size, n: r.n} }

// readRange reads records [i, i+n) into buf (grown as needed) without the cache: safe to call
// from several goroutines.
func (r *recordFile) readRange(i, n int64, buf []byte) ([]byte, error) {
	if i < 0 || n < 0 || i+n > r.n {
		return buf, fmt.Errorf("records %d–%d of %d", i, i+n, r.n)
	}
	buf = slices.Grow(buf[:0], int(n)*r.size)[:int(n)*r.size]
	_, err := r.f.ReadAt(buf, i*int64(r.size))
	return buf, err
}

// boardRec is one board in the spill: its tallies (the columns the reports read), its exact
// p-value and, once adjusted, its Holm and BH p-values; its key and grid when they are not
// the sweep's own (else strOff is -1).
type boardRec struct {
	n, white, black, draws, caps, plies, nsel, wsel, distinct int64
	p, holm, bh                                               float64
	strOff                                                    int64
	keyLen, gridLen                                           uint32
}

const boardRecSize = 13*8 + 2*4

func (b *boardRec) encode(dst []byte) {
	le := binary.LittleEndian
	for k, v := range []int64{b.n, b.white, b.black, b.draws, b.caps, b.plies, b.nsel, b.wsel, b.distinct} {
		le.PutUint64(dst[8*k:], uint64(v))
	}
	le.PutUint64(dst[72:], math.Float64bits(b.p))
	le.PutUint64(dst[80:], math.Float64bits(b.holm))
	le.PutUint64(dst[88:], math.Float64bits(b.bh))
	le.PutUint64(dst[96:], uint64(b.strOff))
	le.PutUint32(dst[104:], b.keyLen)
	le.PutUint32(dst[108:], b.gridLen)
}

func (b *boardRec) decode(src []byte) {
	le := binary.LittleEndian
	for k, v := range []*int64{&b.n, &b.white, &b.black, &b.draws, &b.caps, &b.plies, &b.nsel, &b.wsel, &b.distinct} {
		*v = int64(le.Uint64(src[8*k:]))
	}
	b.p = math.Float64frombits(le.Uint64(src[72:]))
	b.holm = math.Float64frombits(le.Uint64(src[80:]))
	b.bh = math.Float64frombits(le.Uint64(src[88:]))
	b.strOff = int64(le.Uint64(src[96:]))
	b.keyLen, b.gridLen = le.Uint32(src[104:]), le.Uint32(src[108:])
}

// counts returns the board's tallies as a BoardResult without key and grid.
func (b *boardRec) counts(i int) gamefile.BoardResult {
	return gamefile.BoardResult{Board: int64(i), N: b.n, WhiteWins: b.white, BlackWins: b.black, Draws: b.draws,
		Caps: b.caps, PliesSum: b.plies, NSelect: b.nsel, WhiteWinsSelect: b.wsel, Distinct: b.distinct}
}

// boardSpill is a sweep's boards on disk.
type boardSpill struct {
	sw      *Sweep
	dir     string
	recs    *recordFile
	strs    *os.File // keys and grids that are not the sweep's
	strsLen int64
	strsW   *bufio.Writer
	scratch [boardRecSize]byte
}

func newBoardSpill(sw *Sweep, dir string) (*boardSpill, error) {
	recs, err := createRecordFile(filepath.Join(dir, "boards.bin"), boardRecSize)
	if err != nil {
		return nil, err
	}
	strs, err := os.Create(filepath.Join(dir, "strings.bin"))
	if err != nil {
		recs.close()
		return nil, err
	}
	return &boardSpill{sw: sw, dir: dir, recs: recs, strs: strs, strsW: bufio.NewWriter(strs)}, nil
}

// add appends board r (the next board) and returns its record.
func (s *boardSpill) add(r *gamefile.BoardResult) (boardRec, error) {
	i := int(s.recs.n)
	if r.Board != int64(i) {
		return boardRec{}, fmt.Errorf("board %d where board %d was due (missing or repeated)", r.Board, i)
	}
	b := boardRec{n: r.N, white: r.WhiteWins, black: r.BlackWins, draws: r.Draws, caps: r.Caps, plies: r.PliesSum,
		nsel: r.NSelect, wsel: r.WhiteWinsSelect, distinct: r.Distinct, p: s.sw.pValue(r), strOff: -1}
	if i >= s.sw.NumBoards() {
		return boardRec{}, fmt.Errorf("board %d: the sweep has %d boards", i, s.sw.NumBoards())
	}
	if l := s.sw.Board(i); r.Key != boardKey(l) || r.Grid != l.Grid.String() {
		b.strOff, b.keyLen, b.gridLen = s.strsLen, uint32(len(r.Key)), uint32(len(r.Grid))
		s.strsW.WriteString(r.Key)
		s.strsW.WriteString(r.Grid)
		s.strsLen += int64(len(r.Key) + len(r.Grid))
	}
	b.encode(s.scratch[:])
	return b, s.recs.append(s.scratch[:])
}

// finish ends the adding.
func (s *boardSpill) finish() error {
	if err := s.strsW.Flush(); err != nil {
		return err
	}
	return s.recs.finish()
}

// at returns board i's record.
func (s *boardSpill) at(i int) (boardRec, error) {
	var b boardRec
	rec, err := s.recs.read(int64(i))
	if err != nil {
		return b, err
	}
	b.decode(rec)
	return b, nil
}

// keyGrid returns board i's key and grid (those of boards.csv).
func (s *boardSpill) keyGrid(i int, b *boardRec) (string, string, error) {
	if b.strOff < 0 {
		l := s.sw.Board(i)
		return boardKey(l), l.Grid.String(), nil
	}
	buf := make([]byte, b.keyLen+b.gridLen)
	if _, err := s.strs.ReadAt(buf, b.strOff); err != nil {
		return "", "", err
	}
	return string(buf[:b.keyLen]), string(buf[b.keyLen:]), nil
}

// result returns board i whole: the columns the reports read, key and grid.
func (s *boardSpill) result(i int) (gamefile.BoardResult, error) {
	b, err := s.at(i)
	if err != nil {
		return gamefile.BoardResult{}, err
	}
	r := b.counts(i)
	r.Key, r.Grid, err = s.keyGrid(i, &b)
	return r, err
}

// view returns a reader of the finished spill for another goroutine (see recordFile.view).
func (s *boardSpill) view() *boardSpill {
	return &boardSpill{sw: s.sw, dir: s.dir, recs: s.recs.view(), strs: s.strs, strsLen: s.strsLen}
}

func (s *boardSpill) close() {
	s.recs.close()
	s.strs.Close()
}

func newSorter[T any](runLen int, wrap func(path string, w io.Writer) io.Writer, dir string, c func(a, b T) int, codec extsort.Codec[T]) *extsort.ExternalSorter[T] {
	return &extsort.ExternalSorter[T]{Dir: dir, RunLen: runLen, Cmp: c, Codec: codec, WrapRun: wrap}
}

// adjustP computes Holm's and the Benjamini–Hochberg adjusted p-values of the spilled boards
// (as stats.HolmBH, value for value) into their records, and returns how many have BH q
// below 0.05. byP holds every board's (p, board).
func adjustP(s *boardSpill, byP *extsort.ExternalSorter[extsort.IndexedValue]) (int, error) {
	m := int(s.recs.n)
	asc, err := byP.Sort()
	if err != nil {
		return 0, err
	}
	// Holm walks the p-values up, BH down: the descending order is the ascending one reversed,
	// made by a second sort (a run file cannot be read backwards).
	down := newSorter(s.sw.runLen(), s.sw.reportWrap, s.dir, func(a, b extsort.IndexedValue) int { return extsort.ByValue(b, a) }, extsort.IndexedValueCodec)
	defer down.Close()
	holm := newSorter(s.sw.runLen(), s.sw.reportWrap, s.dir, extsort.ByIndex, extsort.IndexedValueCodec)
	defer holm.Close()
	run, r := 0.0, 0
	for v, err := range asc.All() {
		if err != nil {
			return 0, err
		}
		run = math.Max(run, math.Min(1, float64(m-r)*v.V))
		if err := holm.Add(extsort.IndexedValue{V: run, I: v.I}); err != nil {
			return 0, err
		}
		if err := down.Add(v); err != nil {
			return 0, err
		}
		r++
	}
	bh := newSorter(s.sw.runLen(), s.sw.reportWrap, s.dir, extsort.ByIndex, extsort.IndexedValueCodec)
	defer bh.Close()
	desc, err := down.Sort()
	if err != nil {
		return 0, err
	}
	run, sig, r := 1.0, 0, m-1
	for v, err := range desc.All() {
		if err != nil {
			return 0, err
		}
		run = math.Min(run, math.Min(1, v.V*float64(m)/float64(r+1)))
		if run < 0.05 {
			sig++
		}
		if err := bh.Add(extsort.IndexedValue{V: run, I: v.I}); err != nil {
			return 0, err
		}
		r--
	}
	// Rewrite the records in board order with both adjustments.
	hs, err := holm.Sort()
	if err != nil {
		return 0, err
	}
	bs, err := bh.Sort()
	if err != nil {
		return 0, err
	}
	out, err := createRecordFile(filepath.Join(s.dir, "boards-adjusted.bin"), boardRecSize)
	if err != nil {
		return 0, err
	}
	var b boardRec
	var buf [boardRecSize]byte
	for i := 0; i < m; i++ {
		h, err1 := hs.Next()
		q, err2 := bs.Next()
		if err1 != nil || err2 != nil || h.I != int64(i) || q.I != int64(i) {
			out.close()
			return 0, fmt.Errorf("adjusting p-values: board %d missing (%v, %v)", i, err1, err2)
		}
		if b, err = s.at(i); err != nil {
			out.close()
			return 0, err
		}
		b.holm, b.bh = h.V, q.V
		b.encode(buf[:])
		if err := out.append(buf[:]); err != nil {
			out.close()
			return 0, err
		}
	}
	if err := out.finish(); err != nil {
		out.close()
		return 0, err
	}
	s.recs.close()
	os.Remove(s.recs.f.Name())
	s.recs = out
	return sig, nil
}

// choiceRec is a choice of Black and the pair (requested layout) that offers it.
type choiceRec struct {
	choice string
	pair   int64
}

var choiceCodec = extsort.Codec[choiceRec]{
	Append: func(dst []byte, v choiceRec) []byte {
		dst = binary.LittleEndian.AppendUint64(dst, uint64(v.pair))
		return append(dst, v.choice...)
	},
	Decode: func(src []byte) (choiceRec, error) {
		if len(src) < 8 {
			return choiceRec{}, fmt.Errorf("a choice record of %d bytes", len(src))
		}
		return choiceRec{string(src[8:]), int64(binary.LittleEndian.Uint64(src))}, nil
	},
}

// firstOfChoices marks the pairs whose choice of Black no earlier pair offers (a bit a pair).
func firstOfChoices(sw *Sweep, dir string) (runner.Bitset, error) {
	np := int64(sw.NumRows() / 2)
	s := newSorter(sw.runLen(), sw.reportWrap, dir, func(a, b choiceRec) int { return cmp.Compare(a.choice, b.choice) }, choiceCodec)
	defer s.Close()
	for k := int64(0); k < np; k++ {
		if err := s.Add(choiceRec{sw.Row(int(2 * k)).Choice, k}); err != nil {
			return nil, err
		}
	}
	it, err := s.Sort()
	if err != nil {
		return nil, err
	}
	first := runner.NewBitset(np)
	prev, any := "", false
	for v, err := range it.All() {
		if err != nil {
			return nil, err
		}
		if !any || v.choice != prev { // stable: the first of equal choices is the earliest pair
			first.Set(v.pair)
		}
		prev, any = v.choice, true
	}
	return first, nil
}

// errSpill marks a failure to read or write the spill (not a property of the data).
var errSpill = errors.New("layout report spill")
