package extsort

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/fairplay-lab/fairplay/stats"
)

// IndexedValue is a value and the index of its item: the record of the external sorts behind
// ranks, adjusted p-values and joins.
type IndexedValue struct {
	V float64
	I int64
}

// IndexedValueCodec encodes IndexedValue records in 16 bytes.
var IndexedValueCodec = Codec[IndexedValue]{
	Append: func(dst []byte, v IndexedValue) []byte {
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(v.V))
		return binary.LittleEndian.AppendUint64(dst, uint64(v.I))
	},
	Decode: func(src []byte) (IndexedValue, error) {
		if len(src) != 16 {
			return IndexedValue{}, fmt.Errorf("an indexed-value record of %d bytes", len(src))
		}
		return IndexedValue{math.Float64frombits(binary.LittleEndian.Uint64(src)), int64(binary.LittleEndian.Uint64(src[8:]))}, nil
	},
}

// ByValue orders IndexedValues by value (as <), then index: the order of a stable sort by value
// of items added in index order.
func ByValue(a, b IndexedValue) int {
	switch {
	case a.V < b.V:
		return -1
	case a.V > b.V:
		return 1
	}
	return cmp.Compare(a.I, b.I)
}

// ByIndex orders IndexedValues by index.
func ByIndex(a, b IndexedValue) int { return cmp.Compare(a.I, b.I) }

// ExternalSpearman computes Spearman's rank correlation (Spearman, value for value) over more
// pairs than should be held in memory: the ranks come from external sorts (ExternalSorter) in
// Dir. Add the pairs in order, then call Result once; Close removes the files.
type ExternalSpearman struct {
	Dir    string // where the temporary files go ("": os.TempDir())
	RunLen int    // records each sort holds in memory (0: its default)
	x, y   *ExternalSorter[IndexedValue]
	n      int64
}

func (s *ExternalSpearman) sorter(c func(a, b IndexedValue) int) *ExternalSorter[IndexedValue] {
	return &ExternalSorter[IndexedValue]{Dir: s.Dir, RunLen: s.RunLen, Cmp: c, Codec: IndexedValueCodec}
}

// Add adds the next pair.
func (s *ExternalSpearman) Add(x, y float64) error {
	if s.x == nil {
		s.x, s.y = s.sorter(ByValue), s.sorter(ByValue)
	}
	if err := s.x.Add(IndexedValue{x, s.n}); err != nil {
		return err
	}
	s.n++
	return s.y.Add(IndexedValue{y, s.n - 1})
}

// Len is the number of pairs added.
func (s *ExternalSpearman) Len() int64 { return s.n }

// Result returns the correlation and its interval, as Spearman.
func (s *ExternalSpearman) Result() (stats.Interval, error) {
	if s.n < 4 {
		return stats.SpearmanInterval(math.NaN(), int(s.n)), nil
	}
	rx, err := s.ranks(s.x)
	if err != nil {
		return stats.Interval{}, err
	}
	defer rx.Close()
	ry, err := s.ranks(s.y)
	if err != nil {
		return stats.Interval{}, err
	}
	defer ry.Close()
	ix, err := rx.Sort()
	if err != nil {
		return stats.Interval{}, err
	}
	iy, err := ry.Sort()
	if err != nil {
		return stats.Interval{}, err
	}
	var ps stats.PearsonSums
	for i := int64(0); i < s.n; i++ {
		a, err1 := ix.Next()
		b, err2 := iy.Next()
		if err1 != nil || err2 != nil || a.I != i || b.I != i {
			return stats.Interval{}, fmt.Errorf("spearman: rank %d missing (%v, %v)", i, err1, err2)
		}
		ps.Add(a.V, b.V)
	}
	return stats.SpearmanInterval(ps.Value(), int(s.n)), nil
}

// ranks sorts one variable and returns a sorter (by index) of its ranks, ties averaged. The
// sorted values go to a file first, read twice: once to find where a run of ties ends, once
// to give its members their average rank.
func (s *ExternalSpearman) ranks(byValue *ExternalSorter[IndexedValue]) (*ExternalSorter[IndexedValue], error) {
	defer byValue.Close()
	it, err := byValue.Sort()
	if err != nil {
		return nil, err
	}
	dir := s.Dir
	if dir == "" {
		dir = os.TempDir()
	}
	f, err := os.CreateTemp(dir, ".ranks-")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	w := &runWriter[IndexedValue]{s: byValue, f: f, bw: bufio.NewWriterSize(f, 64<<10)}
	for v, err := range it.All() {
		if err == nil {
			err = w.write(v)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := w.bw.Flush(); err != nil {
		return nil, err
	}
	out := s.sorter(ByIndex)
	lead, err := openRun(f.Name(), IndexedValueCodec.Decode)
	if err != nil {
		out.Close()
		return nil, err
	}
	defer lead.Close()
	trail, err := openRun(f.Name(), IndexedValueCodec.Decode)
	if err != nil {
		out.Close()
		return nil, err
	}
	defer trail.Close()
	head, err := lead.next()
	for a := 0; err == nil; {
		b := a
		var nx IndexedValue
		for nx, err = lead.next(); err == nil && nx.V == head.V; nx, err = lead.next() {
			b++
		}
		if err != nil && err != io.EOF {
			break
		}
		avg := stats.TieRank(a, b)
		for k := a; k <= b; k++ {
			v, terr := trail.next()
			if terr != nil {
				out.Close()
				return nil, terr
			}
			if aerr := out.Add(IndexedValue{avg, v.I}); aerr != nil {
				out.Close()
				return nil, aerr
			}
		}
		a, head = b+1, nx
	}
	if err != io.EOF {
		out.Close()
		return nil, err
	}
	return out, nil
}

// Close removes the files.
func (s *ExternalSpearman) Close() error {
	for _, so := range []*ExternalSorter[IndexedValue]{s.x, s.y} {
		if so != nil {
			so.Close()
		}
	}
	return nil
}
