package gamefile

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// heapAlloc returns the bytes of live heap objects after a full collection.
func heapAlloc() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// A Parquet writer keeps each row group's footer entry until Close, and nothing that grows
// with the size of its values: row groups of games with 64 kB move lists leave behind less
// than one game's moves each, encoded in parallel (EncodeGroup, as a run's workers do) or
// written record by record. parquet-go keeps every page's bounds (minimum and maximum) until
// the footer, whole values, so a writer that kept the moves' bounds held four move lists and
// more a row group: a long run's memory grew with its games.
func TestParquetRowGroupsLeaveLittle(t *testing.T) {
	const moveBytes, groups, perGroup = 64 << 10, 320, 8
	recs := testRecords(perGroup*groups, 0)
	flat := make([]Record, len(recs))
	for i, r := range recs {
		// Distinct long move lists: each page's bounds differ.
		r.Moves = strings.Repeat(fmt.Sprintf("a%d-b%d ", i, i%7), moveBytes/4)[:moveBytes]
		flat[i] = *r
	}
	for _, encoded := range []bool{true, false} {
		w := must(NewGamesWriter(io.Discard, Parquet, nil))
		gw, _ := GroupWriterOf(w)
		var g RowGroup
		write := func(k int) {
			batch := flat[k*perGroup : (k+1)*perGroup]
			if encoded {
				if err := gw.EncodeGroup(&g, batch); err != nil {
					t.Fatal(err)
				}
				if err := gw.WriteGroup(&g); err != nil {
					t.Fatal(err)
				}
				return
			}
			for i := range batch {
				if err := w.Write(&batch[i]); err != nil {
					t.Fatal(err)
				}
			}
			// End the row group here (the writer's own are blocks of GroupGames games).
			if err := w.(*parquetWriter).endCur(); err != nil {
				t.Fatal(err)
			}
		}
		const warm = 20
		for k := range warm {
			write(k)
		}
		before := heapAlloc()
		for k := warm; k < groups; k++ {
			write(k)
		}
		grew := int64(heapAlloc()) - int64(before)
		per := grew / (groups - warm)
		t.Logf("encoded %v: %d bytes kept per row group", encoded, per)
		if per >= moveBytes {
			t.Errorf("encoded %v: %d bytes of heap kept per row group, want less than one game's moves (%d)", encoded, per, moveBytes)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		runtime.KeepAlive(flat)
	}
}

// Write keeps no reference into the record it took: a run reuses a written chunk's buffers
// (the moves of its records) for later games while the writer still holds the rows.
func TestParquetWriteCopies(t *testing.T) {
	recs := testRecords(300, 2)
	counters := []string{"captures_white", "captures_black"}
	var buf bytes.Buffer
	w := must(NewGamesWriter(&buf, Parquet, counters))
	var scratch []byte
	for _, r := range recs {
		scratch = append(scratch[:0], r.Moves...)
		rec := *r
		rec.Moves = unsafe.String(unsafe.SliceData(scratch), len(scratch))
		if err := w.Write(&rec); err != nil {
			t.Fatal(err)
		}
		for i := range scratch {
			scratch[i] = '#' // the buffer reused for the next game
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "games.parquet")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := OpenGames(path)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	i := 0
	for r, err := range All(g.Read) {
		if err != nil {
			t.Fatal(err)
		}
		if r.Moves != recs[i].Moves {
			t.Fatalf("game %d: moves %.40q, want %.40q", i, r.Moves, recs[i].Moves)
		}
		i++
	}
	if i != len(recs) {
		t.Fatalf("%d games read back, want %d", i, len(recs))
	}
}

// A row group writer reused once committed (EncodeGroup after WriteGroup) writes the bytes of
// a new one (every group encoded before the first is written): counted and uncounted games,
// groups of different sizes, and a group that failed (uncounted games in a counted file)
// between them.
func TestParquetGroupWritersReused(t *testing.T) {
	for _, uncounted := range []bool{false, true} {
		recs := testRecords(700, 2)
		flat := make([]Record, len(recs))
		for i, r := range recs {
			if uncounted && i%3 != 1 { // the first game uncounted: the column is optional
				r.LegalTotal = NotCounted
			}
			flat[i] = *r
		}
		sizes := []int{100, 37, 250, 13, 300}
		counters := []string{"captures_white", "captures_black"}
		write := func(reuse bool) []byte {
			var buf bytes.Buffer
			w := must(NewGamesWriter(&buf, Parquet, counters))
			gw, _ := GroupWriterOf(w)
			groups := make([]RowGroup, len(sizes))
			lo := 0
			for k, n := range sizes {
				if err := gw.EncodeGroup(&groups[k], flat[lo:lo+n]); err != nil {
					t.Fatal(err)
				}
				if reuse {
					if err := gw.WriteGroup(&groups[k]); err != nil {
						t.Fatal(err)
					}
					if !uncounted { // a failed group between two others
						bad := []Record{flat[0]}
						bad[0].LegalTotal = NotCounted
						var g RowGroup
						if err := gw.EncodeGroup(&g, bad); err == nil {
							t.Fatal("uncounted games encoded in a file of counted ones")
						}
					}
				}
				lo += n
			}
			for k := range groups {
				if groups[k].Encoded() {
					if err := gw.WriteGroup(&groups[k]); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			return buf.Bytes()
		}
		if a, b := write(false), write(true); !bytes.Equal(a, b) {
			t.Errorf("uncounted=%v: row group writers reused wrote other bytes (%d against %d)", uncounted, len(b), len(a))
		}
	}
}

// A games file's bytes depend on its records only: csv.gz's members and Parquet's row groups
// end where blocks of game indices end, so blocks encoded apart (as a run's workers do: a gzip
// member by GzipMember, a row group by EncodeGroup) between blocks written record by record or
// as rows (as a run's collector does, at one worker, on a resume or after a stop) give the
// bytes of Write of every record. The records start inside a block, as a shard's do.
func TestBlocksMatchWrite(t *testing.T) {
	counters := []string{"c1", "c2"}
	all := testRecords(700+5*GroupGames/2, len(counters))
	recs := all[700:]
	for _, c := range []struct {
		f     Format
		codec Codec
	}{{CSVGzip, ""}, {Parquet, Snappy}, {Parquet, Zstd}} {
		var want bytes.Buffer
		w := must(NewGamesWriterCodec(&want, c.f, c.codec, counters))
		for _, r := range recs {
			if err := w.Write(r); err != nil {
				t.Fatal(err)
			}
		}
		must(0, w.Close())
		for _, apart := range []int{0, 1} { // blocks k with k%2 == apart are encoded apart
			var got bytes.Buffer
			w := must(NewGamesWriterCodec(&got, c.f, c.codec, counters))
			mw, gz := MemberWriterOf(w)
			gw, _ := GroupWriterOf(w)
			size := int64(GroupGames)
			if gz {
				size = MemberGames
			}
			var gm GzipMember
			var g RowGroup
			for lo := 0; lo < len(recs); {
				b := recs[lo].Game / size
				hi := lo
				var block []Record
				var rows []byte
				for hi < len(recs) && recs[hi].Game/size == b {
					block = append(block, *recs[hi])
					rows = AppendCSVRow(rows, recs[hi])
					hi++
				}
				var err error
				switch {
				case int(b%2) != apart && gz:
					err = mw.WriteRowsAt(block[0].Game, rows)
				case int(b%2) != apart:
					for i := range block {
						if err == nil {
							err = w.Write(&block[i])
						}
					}
				case gz:
					err = mw.WriteMember(gm.Compress(nil, rows))
				default:
					if err = gw.EncodeGroup(&g, block); err == nil {
						err = gw.WriteGroup(&g)
					}
				}
				if err != nil {
					t.Fatal(err)
				}
				lo = hi
			}
			must(0, w.Close())
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("%s %s, blocks encoded apart from %d: %d bytes differing from Write's %d", c.f, c.codec, apart, got.Len(), want.Len())
			}
		}
	}
}
