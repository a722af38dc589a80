package extsort

import (
	"bufio"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"slices"

	"github.com/fairplay-lab/fairplay/internal/seq"
)

// Codec encodes the records of an external sort in its run files.
type Codec[T any] struct {
	// Append appends v's encoding to dst.
	Append func(dst []byte, v T) []byte
	// Decode decodes one record from exactly the bytes Append wrote for it.
	Decode func(src []byte) (T, error)
}

// ExternalSorter sorts more records than should be held in memory at once: Add collects up to
// RunLen records, sorts them and writes them to a run file on disk; Sort merges the runs (a
// k-way merge over at most FanIn runs at a time, in as many passes as needed). Memory is
// O(RunLen + FanIn·64 KiB) whatever the number of records. The sort is stable: records that
// Cmp finds equal come out in the order they were added. With RunLen records or fewer nothing
// is written to disk.
//
// Set the fields before the first Add; Close removes the run files (and is safe to call more
// than once).
type ExternalSorter[T any] struct {
	Dir    string           // where the temporary directory of run files is made ("": os.TempDir())
	RunLen int              // records per run (0: 1<<16)
	FanIn  int              // runs merged at once (0: 64; at least 2)
	Cmp    func(a, b T) int // the order: negative when a sorts before b
	Codec  Codec[T]
	// WrapRun, when set (by tests), wraps the file under each run file as it is written: a
	// writer that fails simulates a full disk.
	WrapRun func(path string, w io.Writer) io.Writer

	buf    []T
	runs   []string
	tmp    string
	n      int64
	files  int // run files made (their names)
	sorted bool
	closed []io.Closer // readers and files to close
	scr    []byte
}

// Len is the number of records added.
func (s *ExternalSorter[T]) Len() int64 { return s.n }

// Runs is the number of run files written so far (0 while everything fits in one run).
func (s *ExternalSorter[T]) Runs() int { return len(s.runs) }

func (s *ExternalSorter[T]) runLen() int {
	if s.RunLen > 0 {
		return s.RunLen
	}
	return 1 << 16
}

func (s *ExternalSorter[T]) fanIn() int {
	if s.FanIn >= 2 {
		return s.FanIn
	}
	return 64
}

// Add adds a record.
func (s *ExternalSorter[T]) Add(v T) error {
	if s.sorted {
		return errors.New("external sort: Add after Sort")
	}
	s.n++
	s.buf = append(s.buf, v)
	if len(s.buf) >= s.runLen() {
		return s.spill()
	}
	return nil
}

// spill sorts the buffer and writes it as the next run.
func (s *ExternalSorter[T]) spill() error {
	slices.SortStableFunc(s.buf, s.Cmp)
	w, err := s.newRun()
	if err != nil {
		return err
	}
	for _, v := range s.buf {
		if err := w.write(v); err != nil {
			w.f.Close()
			return err
		}
	}
	s.buf = s.buf[:0]
	return w.close()
}

type runWriter[T any] struct {
	s  *ExternalSorter[T]
	f  *os.File
	bw *bufio.Writer
}

func (s *ExternalSorter[T]) newRun() (*runWriter[T], error) {
	if s.tmp == "" {
		dir := s.Dir
		if dir == "" {
			dir = os.TempDir()
		}
		t, err := os.MkdirTemp(dir, ".sort-")
		if err != nil {
			return nil, fmt.Errorf("external sort: %w", err)
		}
		s.tmp = t
	}
	path := filepath.Join(s.tmp, fmt.Sprintf("run%06d", s.files))
	s.files++
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("external sort: %w", err)
	}
	s.runs = append(s.runs, path)
	var dst io.Writer = f
	if s.WrapRun != nil {
		dst = s.WrapRun(path, f)
	}
	return &runWriter[T]{s: s, f: f, bw: bufio.NewWriterSize(dst, 64<<10)}, nil
}

func (w *runWriter[T]) write(v T) error {
	s := w.s
	s.scr = s.Codec.Append(s.scr[:0], v)
	var hdr [binary.MaxVarintLen64]byte
	if _, err := w.bw.Write(hdr[:binary.PutUvarint(hdr[:], uint64(len(s.scr)))]); err != nil {
		return fmt.Errorf("external sort: %w", err)
	}
	if _, err := w.bw.Write(s.scr); err != nil {
		return fmt.Errorf("external sort: %w", err)
	}
	return nil
}

func (w *runWriter[T]) close() error {
	if err := w.bw.Flush(); err != nil {
		w.f.Close()
		return fmt.Errorf("external sort: %w", err)
	}
	if err := w.f.Close(); err != nil {
		return fmt.Errorf("external sort: %w", err)
	}
	return nil
}

// runReader reads one run file.
type runReader[T any] struct {
	f   *os.File
	br  *bufio.Reader
	dec func([]byte) (T, error)
	buf []byte
}

func openRun[T any](path string, dec func([]byte) (T, error)) (*runReader[T], error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("external sort: %w", err)
	}
	return &runReader[T]{f: f, br: bufio.NewReaderSize(f, 64<<10), dec: dec}, nil
}

func (r *runReader[T]) next() (T, error) {
	var zero T
	n, err := binary.ReadUvarint(r.br)
	if err != nil {
		if err == io.EOF {
			return zero, io.EOF
		}
		return zero, fmt.Errorf("external sort: %s: %w", r.f.Name(), err)
	}
	if n > 1<<30 {
		return zero, fmt.Errorf("external sort: %s: a record of %d bytes", r.f.Name(), n)
	}
	if uint64(cap(r.buf)) < n {
		r.buf = make([]byte, n)
	}
	r.buf = r.buf[:n]
	if _, err := io.ReadFull(r.br, r.buf); err != nil {
		return zero, fmt.Errorf("external sort: %s: %w", r.f.Name(), io.ErrUnexpectedEOF)
	}
	return r.dec(r.buf)
}

func (r *runReader[T]) Close() error { return r.f.Close() }

// mergeHeap orders the heads of the runs being merged: by Cmp, then by run (the earlier run
// first, which keeps the merge stable).
type mergeHeap[T any] struct {
	cmp   func(a, b T) int
	heads []T
	src   []int // the run of each head
}

func (h *mergeHeap[T]) Len() int { return len(h.heads) }
func (h *mergeHeap[T]) Less(i, j int) bool {
	if c := h.cmp(h.heads[i], h.heads[j]); c != 0 {
		return c < 0
	}
	return h.src[i] < h.src[j]
}
func (h *mergeHeap[T]) Swap(i, j int) {
	h.heads[i], h.heads[j] = h.heads[j], h.heads[i]
	h.src[i], h.src[j] = h.src[j], h.src[i]
}
func (h *mergeHeap[T]) Push(x any) { panic("not used") }
func (h *mergeHeap[T]) Pop() any {
	n := len(h.heads) - 1
	h.heads, h.src = h.heads[:n], h.src[:n]
	return nil
}

// merger merges runs into one sorted stream.
type merger[T any] struct {
	h  mergeHeap[T]
	rs []*runReader[T]
}

func newMerger[T any](paths []string, cmp func(a, b T) int, dec func([]byte) (T, error)) (*merger[T], error) {
	m := &merger[T]{h: mergeHeap[T]{cmp: cmp}}
	for i, p := range paths {
		r, err := openRun(p, dec)
		if err != nil {
			m.Close()
			return nil, err
		}
		m.rs = append(m.rs, r)
		v, err := r.next()
		if err == io.EOF {
			continue
		}
		if err != nil {
			m.Close()
			return nil, err
		}
		m.h.heads, m.h.src = append(m.h.heads, v), append(m.h.src, i)
	}
	heap.Init(&m.h)
	return m, nil
}

func (m *merger[T]) next() (T, error) {
	var zero T
	if len(m.h.heads) == 0 {
		return zero, io.EOF
	}
	v, src := m.h.heads[0], m.h.src[0]
	nv, err := m.rs[src].next()
	switch {
	case err == io.EOF:
		heap.Pop(&m.h)
	case err != nil:
		return zero, err
	default:
		m.h.heads[0] = nv
		heap.Fix(&m.h, 0)
	}
	return v, nil
}

func (m *merger[T]) Close() error {
	var first error
	for _, r := range m.rs {
		if err := r.Close(); err != nil && first == nil {
			first = err
		}
	}
	m.rs = nil
	return first
}

// Sort ends the adding and returns the records in order. Close the sorter when done with it.
func (s *ExternalSorter[T]) Sort() (*SortedStream[T], error) {
	if s.sorted {
		return nil, errors.New("external sort: Sort called twice")
	}
	s.sorted = true
	if len(s.runs) == 0 { // everything fits in memory
		slices.SortStableFunc(s.buf, s.Cmp)
		return &SortedStream[T]{mem: s.buf}, nil
	}
	if len(s.buf) > 0 {
		if err := s.spill(); err != nil {
			return nil, err
		}
	}
	s.buf = nil
	// Merge consecutive groups of runs until one merge can take them all (consecutive groups
	// keep the merge stable).
	for fan := s.fanIn(); len(s.runs) > fan; {
		old := s.runs
		s.runs = nil
		for g := 0; g < len(old); g += fan {
			group := old[g:min(g+fan, len(old))]
			if err := s.mergeInto(group); err != nil {
				return nil, err
			}
			for _, p := range group {
				os.Remove(p)
			}
		}
	}
	m, err := newMerger(s.runs, s.Cmp, s.Codec.Decode)
	if err != nil {
		return nil, err
	}
	s.closed = append(s.closed, m)
	return &SortedStream[T]{m: m}, nil
}

// mergeInto merges the runs of group into a new run.
func (s *ExternalSorter[T]) mergeInto(group []string) error {
	m, err := newMerger(group, s.Cmp, s.Codec.Decode)
	if err != nil {
		return err
	}
	defer m.Close()
	w, err := s.newRun()
	if err != nil {
		return err
	}
	for v, err := range seq.All(m.next) {
		if err == nil {
			err = w.write(v)
		}
		if err != nil {
			w.f.Close()
			return err
		}
	}
	return w.close()
}

// Close removes the run files.
func (s *ExternalSorter[T]) Close() error {
	for _, c := range s.closed {
		c.Close()
	}
	s.closed, s.buf = nil, nil
	if s.tmp == "" {
		return nil
	}
	err := os.RemoveAll(s.tmp)
	s.tmp = ""
	return err
}

// SortedStream is the output of an ExternalSorter.
type SortedStream[T any] struct {
	mem []T
	pos int
	m   *merger[T]
}

// Next returns the next record, or io.EOF after the last.
func (it *SortedStream[T]) Next() (T, error) {
	if it.m != nil {
		return it.m.next()
	}
	if it.pos >= len(it.mem) {
		var zero T
		return zero, io.EOF
	}
	it.pos++
	return it.mem[it.pos-1], nil
}

// All returns the remaining records in order, for a range loop: each with a nil error until
// the last, where the sequence ends. An error reading them (a damaged run file) is yielded
// once, with T's zero value, and ends the sequence. Breaking out of the loop stops reading;
// another range goes on from there.
func (it *SortedStream[T]) All() iter.Seq2[T, error] { return seq.All(it.Next) }
