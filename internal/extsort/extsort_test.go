package extsort

import (
	"cmp"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"syscall"
	"testing"
)

type sortRec struct {
	key string
	seq int64 // insertion order: checks stability
}

var sortRecCodec = Codec[sortRec]{
	Append: func(dst []byte, v sortRec) []byte {
		dst = binary.AppendVarint(dst, v.seq)
		return append(dst, v.key...)
	},
	Decode: func(src []byte) (sortRec, error) {
		seq, n := binary.Varint(src)
		if n <= 0 {
			return sortRec{}, errors.New("bad record")
		}
		return sortRec{key: string(src[n:]), seq: seq}, nil
	},
}

// The external sort equals a stable in-memory sort for every run length and fan-in, with
// many equal keys (stability), empty keys and a single run, and leaves no files behind.
func TestExternalSortMatchesStableSort(t *testing.T) {
	for _, tc := range []struct{ n, runLen, fanIn int }{
		{0, 4, 2}, {1, 4, 2}, {5, 16, 2}, {1000, 7, 2}, {1000, 7, 3}, {5000, 16, 0}, {5000, 100000, 0}, {3000, 1, 5},
	} {
		r := rand.New(rand.NewPCG(uint64(tc.n), uint64(tc.runLen)))
		var in []sortRec
		for i := 0; i < tc.n; i++ {
			k := string(rune('a' + r.IntN(5))) // few distinct keys: long runs of ties
			if r.IntN(10) == 0 {
				k = ""
			}
			if r.IntN(3) == 0 {
				k += string(rune('a' + r.IntN(26)))
			}
			in = append(in, sortRec{k, int64(i)})
		}
		dir := t.TempDir()
		s := &ExternalSorter[sortRec]{Dir: dir, RunLen: tc.runLen, FanIn: tc.fanIn,
			Cmp: func(a, b sortRec) int { return cmp.Compare(a.key, b.key) }, Codec: sortRecCodec}
		for _, v := range in {
			if err := s.Add(v); err != nil {
				t.Fatal(err)
			}
		}
		if wantRuns := tc.n / tc.runLen; s.Runs() != wantRuns {
			t.Errorf("%+v: %d runs before Sort, want %d", tc, s.Runs(), wantRuns)
		}
		it, err := s.Sort()
		if err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(in)
		slices.SortStableFunc(want, func(a, b sortRec) int { return cmp.Compare(a.key, b.key) })
		var got []sortRec
		for v, err := range it.All() {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, v)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%+v: external sort differs from the stable sort", tc)
		}
		if err := s.Add(sortRec{}); err == nil {
			t.Errorf("%+v: Add after Sort accepted", tc)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("%+v: %d entries left in the directory after Close", tc, len(ents))
		}
	}
}

// A damaged run file is an error, not a panic or a silent short stream.
func TestExternalSortDamagedRun(t *testing.T) {
	dir := t.TempDir()
	s := &ExternalSorter[sortRec]{Dir: dir, RunLen: 2, Cmp: func(a, b sortRec) int { return cmp.Compare(a.key, b.key) }, Codec: sortRecCodec}
	defer s.Close()
	for i := 0; i < 6; i++ {
		s.Add(sortRec{"key", int64(i)})
	}
	if err := os.Truncate(s.runs[1], 3); err != nil {
		t.Fatal(err)
	}
	it, err := s.Sort()
	for err == nil {
		_, err = it.Next()
	}
	if err == io.EOF {
		t.Fatal("a truncated run read as a complete stream")
	}
}

// diskFull fails every write, as a full disk does.
type diskFull struct{}

func (diskFull) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// A full disk is returned, as such, by the Add that spills a run, by the Sort that spills the
// last one and by the Sort whose merge pass writes one.
func TestExternalSortFullDisk(t *testing.T) {
	for _, tc := range []struct {
		name string
		fail int // the run file (in the order they are made) that hits the full disk
		n    int
	}{
		{"spill in Add", 2, 20},
		{"last spill in Sort", 5, 21}, // 5 runs of 4 in Add, the 21st record spilled by Sort
		{"merge pass", 6, 24},         // 6 runs of 4, merged 2 at a time: run 6 is the first merge's
	} {
		t.Run(tc.name, func(t *testing.T) {
			made := 0
			s := &ExternalSorter[sortRec]{Dir: t.TempDir(), RunLen: 4, FanIn: 2,
				Cmp: func(a, b sortRec) int { return cmp.Compare(a.key, b.key) }, Codec: sortRecCodec,
				WrapRun: func(_ string, w io.Writer) io.Writer {
					made++
					if made-1 == tc.fail {
						return diskFull{}
					}
					return w
				}}
			defer s.Close()
			var err error
			for i := 0; i < tc.n && err == nil; i++ {
				err = s.Add(sortRec{string(rune('a' + i%7)), int64(i)})
			}
			if err == nil {
				var it *SortedStream[sortRec]
				if it, err = s.Sort(); err == nil {
					for err == nil {
						_, err = it.Next()
					}
				}
			}
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("run %d on a full disk: %v, want the full disk's error", tc.fail, err)
			}
		})
	}
}

// SortedStream.All: a break stops reading (another range goes on from there), and a damaged
// run file ends the sequence with its error, yielded once.
func TestSortedStreamAll(t *testing.T) {
	t.Parallel()
	byKey := func(a, b sortRec) int { return cmp.Compare(a.key, b.key) }
	for _, runLen := range []int{100, 2} { // in memory, then merged from run files
		s := &ExternalSorter[sortRec]{Dir: t.TempDir(), RunLen: runLen, Cmp: byKey, Codec: sortRecCodec}
		for i := range 6 {
			s.Add(sortRec{string(rune('f' - i)), int64(i)})
		}
		it, err := s.Sort()
		if err != nil {
			t.Fatal(err)
		}
		var keys string
		for v, err := range it.All() {
			if err != nil {
				t.Fatal(err)
			}
			if keys += v.key; len(keys) == 2 {
				break
			}
		}
		keys += "|"
		for v, err := range it.All() {
			if err != nil {
				t.Fatal(err)
			}
			keys += v.key
		}
		if keys != "ab|cdef" {
			t.Errorf("run length %d: %q, want ab|cdef", runLen, keys)
		}
		s.Close()
	}

	s := &ExternalSorter[sortRec]{Dir: t.TempDir(), RunLen: 2, Cmp: byKey, Codec: sortRecCodec}
	defer s.Close()
	for i := range 6 {
		s.Add(sortRec{"key", int64(i)})
	}
	st, err := os.Stat(s.runs[1])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(s.runs[1], st.Size()-1); err != nil { // its second record cut short
		t.Fatal(err)
	}
	it, err := s.Sort()
	if err != nil {
		t.Fatal(err)
	}
	n, errs := 0, 0
	for v, err := range it.All() {
		if err != nil {
			if v != (sortRec{}) {
				t.Errorf("a record %+v with the error", v)
			}
			errs++
			continue
		}
		n++
	}
	if errs != 1 || n >= 6 {
		t.Errorf("a truncated run: %d records and %d errors, want fewer than 6 and 1", n, errs)
	}
}
