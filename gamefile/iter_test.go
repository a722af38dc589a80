package gamefile

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// reads is a reader of the given items, then err (io.EOF for a clean end); it counts its calls.
type reads struct {
	items []int
	err   error
	calls int
}

func (r *reads) next() (*int, error) {
	r.calls++
	if r.calls > len(r.items) {
		return nil, r.err
	}
	return &r.items[r.calls-1], nil
}

// collect ranges over seq, breaking after stop items (stop < 0: never), and returns the items
// and errors it saw.
func collect(seq func(func(*int, error) bool), stop int) (got []int, errs []error) {
	for v, err := range seq {
		if err != nil {
			if v != nil {
				panic("a value with an error")
			}
			errs = append(errs, err)
			continue // the sequence must end by itself after an error
		}
		got = append(got, *v)
		if len(got) == stop {
			break
		}
	}
	return got, errs
}

// All yields every item until io.EOF and stops cleanly; an error is yielded once, without a
// value, and ends the sequence (the reader is not called again); a break stops reading, and a
// second range goes on where the first stopped.
func TestAll(t *testing.T) {
	t.Parallel()
	r := &reads{items: []int{1, 2, 3}, err: io.EOF}
	if got, errs := collect(All(r.next), -1); !reflect.DeepEqual(got, []int{1, 2, 3}) || errs != nil || r.calls != 4 {
		t.Errorf("to EOF: %v, errors %v, %d reads; want [1 2 3], none, 4", got, errs, r.calls)
	}

	bad := errors.New("bad row")
	r = &reads{items: []int{1, 2}, err: bad}
	if got, errs := collect(All(r.next), -1); !reflect.DeepEqual(got, []int{1, 2}) || len(errs) != 1 || errs[0] != bad || r.calls != 3 {
		t.Errorf("an error: %v, errors %v, %d reads; want [1 2], [bad row] once, 3", got, errs, r.calls)
	}

	r = &reads{items: []int{1, 2, 3, 4}, err: io.EOF}
	if got, _ := collect(All(r.next), 2); !reflect.DeepEqual(got, []int{1, 2}) || r.calls != 2 {
		t.Errorf("break after 2: %v, %d reads; want [1 2], 2", got, r.calls)
	}
	if got, errs := collect(All(r.next), -1); !reflect.DeepEqual(got, []int{3, 4}) || errs != nil {
		t.Errorf("after a break: %v, errors %v; want [3 4], none", got, errs)
	}

	r = &reads{err: io.EOF}
	if got, errs := collect(All(r.next), -1); got != nil || errs != nil || r.calls != 1 {
		t.Errorf("no items: %v, errors %v, %d reads", got, errs, r.calls)
	}

	// An io.EOF wrapped by the reader is an error (the readers return io.EOF itself at the end).
	wrapped := &reads{items: []int{1}, err: errors.Join(io.EOF)}
	if _, errs := collect(All(wrapped.next), -1); len(errs) != 1 {
		t.Errorf("a wrapped io.EOF: errors %v, want it yielded", errs)
	}
}

// CSVReader.All and BoardReader.All read a file's records to its end, and stop at a bad row
// with the reader's error (line and column).
func TestReaderAll(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	cw, err := NewCSVWriter(&buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := testRecords(5, 0)
	for _, r := range want {
		if err := cw.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := cw.Flush(); err != nil {
		t.Fatal(err)
	}
	cr, err := NewCSVReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for r, err := range cr.All() {
		if err != nil {
			t.Fatal(err)
		}
		if r.Game != want[n].Game || r.Moves != want[n].Moves {
			t.Fatalf("record %d read back as %+v, want %+v", n, r, want[n])
		}
		n++
	}
	if n != len(want) {
		t.Fatalf("%d records read, want %d", n, len(want))
	}

	lines := strings.SplitAfter(buf.String(), "\n")
	lines[3] = "x" + lines[3] // game "x2": not a number
	cr, err = NewCSVReader(strings.NewReader(strings.Join(lines, "")))
	if err != nil {
		t.Fatal(err)
	}
	n, errs := 0, 0
	for _, err := range cr.All() {
		if err != nil {
			errs++
			if !strings.Contains(err.Error(), "line 4: column game") {
				t.Errorf("bad row: %v, want its line and column", err)
			}
			continue
		}
		n++
	}
	if n != 2 || errs != 1 {
		t.Errorf("a bad third row: %d records and %d errors, want 2 and 1", n, errs)
	}

	var bb bytes.Buffer
	bw := NewBoardWriter(&bb)
	for i := range 4 {
		if err := bw.Write(&BoardResult{Board: int64(i), Key: "k", Grid: "g", N: int64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	br, err := NewBoardReader(&bb)
	if err != nil {
		t.Fatal(err)
	}
	var boards []int64
	for b, err := range br.All() {
		if err != nil {
			t.Fatal(err)
		}
		boards = append(boards, b.N)
		if len(boards) == 3 {
			break
		}
	}
	if !reflect.DeepEqual(boards, []int64{0, 1, 2}) {
		t.Errorf("boards %v, want [0 1 2] before the break", boards)
	}
}
