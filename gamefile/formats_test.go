package gamefile

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
)

// testRecords makes n varied records: every reason and winner, seeds above 2^63, text with
// commas, quotes and newlines, empty strings.
func testRecords(n int, counters int) []*Record {
	rng := engine.NewRand(5)
	reasons := []engine.Reason{engine.Throne, engine.Camps, engine.Material, engine.NoMove, engine.Cap, engine.Forfeit}
	winners := []string{"first", "second", "draw"}
	var rs []*Record
	for i := 0; i < n; i++ {
		r := &Record{Game: int64(i), Pair: int64(i / 2), Seed: rng.Uint64(), GameName: "katarenga",
			Layout: []string{"0", "", "wrbg-1234"}[i%3], Rules: "first-move-capture=allowed,no-move=loss,ply-cap=400",
			FirstAgent: `ext:cmd="./bot, x"`, SecondAgent: "random", FirstIs: []string{"a", "b"}[i%2],
			FirstColour: "white", Winner: winners[rng.IntN(3)], Reason: reasons[rng.IntN(len(reasons))],
			Plies: rng.IntN(400), LegalTotal: int64(rng.IntN(100000))}
		for k := 0; k < counters; k++ {
			r.Counters = append(r.Counters, int64(rng.IntN(20))-2)
		}
		if r.Reason == engine.Forfeit {
			r.Forfeit = []string{"timeout", "illegal"}[i%2]
		}
		if i%7 == 3 {
			r.Start = "line one\nline \"two\""
		}
		var mv []string
		for k := rng.IntN(30); k > 0; k-- {
			mv = append(mv, string(rune('a'+rng.IntN(8)))+"1-b2")
		}
		r.Moves = strings.Join(mv, " ")
		rs = append(rs, r)
	}
	return rs
}

// Every format gives the records back equal: with counted legal actions, and with
// NotCounted ones (-branching=false: an empty CSV field, a NULL in Parquet), the first game
// uncounted and every fifth counted.
func TestGamesFormatsRoundTrip(t *testing.T) {
	for _, uncounted := range []bool{false, true} {
		want := testRecords(1000, 3)
		if uncounted {
			for i, r := range want {
				if i%5 != 4 {
					r.LegalTotal = NotCounted
				}
			}
		}
		checkRoundTrip(t, want)
	}
}

func checkRoundTrip(t *testing.T, want []*Record) {
	counters := []string{"captures_white", "captures_black", "camps_white"}
	dir := t.TempDir()
	for _, o := range testOutputs() {
		f := o.f
		path := filepath.Join(dir, o.name+"-"+f.FileName())
		file, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w, err := NewGamesWriterCodec(file, f, o.codec, counters)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range want {
			if err := w.Write(r); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		file.Close()
		if f == Parquet {
			if c, err := ParquetCodec(path); err != nil || c != cmp.Or(o.codec, Snappy) {
				t.Errorf("%s: the file's codec is %q (%v), want %s", o.name, c, err, cmp.Or(o.codec, Snappy))
			}
		}
		g, err := OpenGames(path)
		if err != nil {
			t.Fatalf("%s: %v", o.name, err)
		}
		if !reflect.DeepEqual(g.Counters(), counters) {
			t.Errorf("%s: counters %v, want %v", o.name, g.Counters(), counters)
		}
		i := 0
		for r, err := range All(g.Read) {
			if err != nil {
				t.Fatalf("%s: record %d: %v", o.name, i, err)
			}
			if i >= len(want) {
				t.Fatalf("%s: more than the %d records written read back", o.name, len(want))
			}
			if !reflect.DeepEqual(r, want[i]) {
				t.Fatalf("%s: record %d read back as\n%+v\nwant\n%+v", o.name, i, r, want[i])
			}
			i++
		}
		if i != len(want) {
			t.Fatalf("%s: %d records read back, want %d", o.name, i, len(want))
		}
		g.Close()
	}
}

// testOutput is a format and, for Parquet, a codec ("": the default).
type testOutput struct {
	name  string
	f     Format
	codec Codec
}

// testOutputs lists every format, Parquet with the default codec and with each codec named.
func testOutputs() []testOutput {
	outs := []testOutput{{"csv", CSV, ""}, {"csv.gz", CSVGzip, ""}, {"parquet", Parquet, ""}}
	for _, c := range Codecs {
		outs = append(outs, testOutput{"parquet-" + string(c), Parquet, c})
	}
	return outs
}

// The codecs: names parsed and refused, the default Snappy, a codec refused with a format
// that has none, a Parquet file of no games has none, and garbage is not a Parquet file.
func TestParquetCodecs(t *testing.T) {
	for s, want := range map[string]Codec{"": Snappy, "snappy": Snappy, "zstd": Zstd} {
		if c, err := ParseCodec(s); err != nil || c != want {
			t.Errorf("ParseCodec(%q) = %q, %v; want %s", s, c, err, want)
		}
	}
	for _, s := range []string{"gzip", "ZSTD", "lz4"} {
		if _, err := ParseCodec(s); err == nil || !strings.Contains(err.Error(), strconv.Quote(s)) {
			t.Errorf("ParseCodec(%q): error %v, want one naming the value", s, err)
		}
	}
	for _, f := range []Format{CSV, CSVGzip} {
		if _, err := NewGamesWriterCodec(io.Discard, f, Zstd, nil); err == nil {
			t.Errorf("a %s writer took a Parquet codec", f)
		}
	}
	if _, err := NewGamesWriterCodec(io.Discard, Parquet, "brotli", nil); err == nil {
		t.Error("a Parquet writer took codec brotli")
	}
	dir := t.TempDir()
	empty := filepath.Join(dir, "games.parquet")
	f, _ := os.Create(empty)
	w := must(NewGamesWriterCodec(f, Parquet, Zstd, nil))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if c, err := ParquetCodec(empty); err != nil || c != "" {
		t.Errorf("a Parquet file of no games: codec %q, %v; want none", c, err)
	}
	junk := filepath.Join(dir, "junk.parquet")
	os.WriteFile(junk, []byte("not a Parquet file"), 0o644)
	if _, err := ParquetCodec(junk); err == nil {
		t.Error("ParquetCodec of garbage: no error")
	}
}

// A Parquet file of counted games (its first record counted) has a required
// legal_actions_total and refuses an uncounted game, naming it.
func TestParquetRefusesUncountedInCounted(t *testing.T) {
	recs := testRecords(2, 0)
	recs[1].LegalTotal = NotCounted
	w, err := NewGamesWriter(io.Discard, Parquet, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(recs[0]); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(recs[1]); err == nil || !strings.Contains(err.Error(), "game 1") {
		t.Fatalf("uncounted game in a counted file: error %v, want one naming game 1", err)
	}
}

// The same games, written in each format: the csv.gz file decompresses to the csv file byte
// for byte, and a run directory's games file is found whatever its format.
func TestGamesFormatsAgree(t *testing.T) {
	recs := testRecords(300, 2)
	var plain bytes.Buffer
	w, _ := NewGamesWriter(&plain, CSV, []string{"x", "y"})
	for _, r := range recs {
		w.Write(r)
	}
	w.Close()
	dir := t.TempDir()
	f, _ := os.Create(filepath.Join(dir, "games.csv.gz"))
	w, _ = NewGamesWriter(f, CSVGzip, []string{"x", "y"})
	for _, r := range recs {
		w.Write(r)
	}
	w.Close()
	f.Close()
	path, format, err := FindGames(dir)
	if err != nil || format != CSVGzip {
		t.Fatalf("FindGames: %s %s %v", path, format, err)
	}
	g, err := OpenRunGames(dir)
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	w, _ = NewGamesWriter(&again, CSV, g.Counters())
	if n, err := CopyGames(w, g); err != nil || n != int64(len(recs)) {
		t.Fatalf("CopyGames: %d records, %v", n, err)
	}
	w.Close()
	g.Close()
	if !bytes.Equal(plain.Bytes(), again.Bytes()) {
		t.Fatal("csv.gz read back and rewritten as csv differs from the csv written directly")
	}
	os.WriteFile(filepath.Join(dir, "games.parquet"), nil, 0o644)
	if _, _, err := FindGames(dir); err == nil {
		t.Fatal("FindGames accepted a directory with two games files")
	}
}

func TestGamesFormatErrors(t *testing.T) {
	if _, err := ParseFormat("xlsx"); err == nil || !strings.Contains(err.Error(), `"xlsx"`) {
		t.Fatalf("ParseFormat(xlsx) = %v, want an error naming the value", err)
	}
	if f, err := ParseFormat(""); err != nil || f != CSV {
		t.Fatalf(`ParseFormat("") = %q, %v`, f, err)
	}
	dir := t.TempDir()
	for _, name := range []string{"games.parquet", "games.csv.gz", "games.txt"} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte("not a games file"), 0o644)
		if g, err := OpenGames(p); err == nil {
			g.Close()
			t.Errorf("OpenGames(%s) of garbage: no error", name)
		}
	}
	if _, _, err := FindGames(t.TempDir()); err == nil {
		t.Error("FindGames of an empty directory: no error")
	}
}

// BenchmarkGamesWriter measures the writer, one op per game, on records shaped like random
// Katarenga games (about 170 plies of move text), in each format (Parquet in each codec) at 1,
// 2 and 8 workers; bytes/game is the file size. At one worker every record goes through Write,
// as a run's collector writes them; at more, the workers encode blocks of games each as a
// run's workers do (csv rows and a csv.gz member of MemberGames games, a Parquet row group of
// GroupGames) and one goroutine writes them in order (WriteRows, WriteMember, WriteGroup).
func BenchmarkGamesWriter(b *testing.B) {
	counters := []string{"captures_white", "captures_black", "camps_white", "camps_black", "first_move_captures"}
	recs := testRecords(1024, len(counters))
	rng := engine.NewRand(2)
	flat := make([]Record, len(recs))
	for i, r := range recs {
		r.Start = ""
		mv := make([]string, 160+rng.IntN(20))
		for k := range mv {
			mv[k] = string([]byte{'a' + byte(rng.IntN(8)), '1' + byte(rng.IntN(8)), '-', 'a' + byte(rng.IntN(8)), '1' + byte(rng.IntN(8))})
		}
		r.Moves = strings.Join(mv, " ")
		flat[i] = *r
	}
	type output struct {
		name  string
		f     Format
		codec Codec
	}
	outs := []output{{"csv", CSV, ""}, {"csv.gz", CSVGzip, ""}}
	for _, c := range Codecs {
		outs = append(outs, output{"parquet-" + string(c), Parquet, c})
	}
	for _, o := range outs {
		for _, workers := range []int{1, 2, 8} {
			b.Run(fmt.Sprintf("%s/workers=%d", o.name, workers), func(b *testing.B) {
				var cw countWriter
				w, err := NewGamesWriterCodec(&cw, o.f, o.codec, counters)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				if workers == 1 {
					for i := 0; i < b.N; i++ {
						r := recs[i%len(recs)]
						r.Game = int64(i)
						if err := w.Write(r); err != nil {
							b.Fatal(err)
						}
					}
				} else {
					writeChunked(b, w, flat, workers, b.N)
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(cw.n)/float64(b.N), "bytes/game")
			})
		}
	}
}

// writeChunked writes n games of recs (cyclically) to w in blocks (GroupGames or MemberGames)
// encoded by workers goroutines (chunk k by worker k mod workers, up to two chunks each in
// flight) and written in order by the caller.
func writeChunked(b *testing.B, w GamesWriter, recs []Record, workers, n int) {
	type encoded struct { // reused: a chunk's row group, or its rows and their gzip member
		g            RowGroup
		rows, member []byte
	}
	mw, gz := MemberWriterOf(w)
	gw, pq := GroupWriterOf(w)
	rw, _ := w.(RowWriter)
	chunk := GroupGames
	if !pq {
		chunk = MemberGames
	}
	chunks := (n + chunk - 1) / chunk
	ready := make([]chan *encoded, workers)
	free := make([]chan *encoded, workers)
	var wg sync.WaitGroup
	for k := range workers {
		ready[k], free[k] = make(chan *encoded, 2), make(chan *encoded, 2)
		free[k] <- new(encoded)
		free[k] <- new(encoded)
		wg.Add(1)
		go func() {
			defer wg.Done()
			var gm GzipMember
			batch := make([]Record, 0, chunk)
			for c := k; c < chunks; c += workers {
				e := <-free[k]
				batch = batch[:0]
				for i := c * chunk; i < min((c+1)*chunk, n); i++ {
					batch = append(batch, recs[i%len(recs)])
				}
				var err error
				switch {
				case pq:
					err = gw.EncodeGroup(&e.g, batch)
				default:
					e.rows = e.rows[:0]
					for i := range batch {
						e.rows = AppendCSVRow(e.rows, &batch[i])
					}
					if gz {
						e.member = gm.Compress(e.member[:0], e.rows)
					}
				}
				if err != nil {
					b.Error(err)
				}
				ready[k] <- e
			}
		}()
	}
	for c := range chunks {
		e := <-ready[c%workers]
		var err error
		switch {
		case pq:
			err = gw.WriteGroup(&e.g)
		case gz:
			err = mw.WriteMember(e.member)
		default:
			err = rw.WriteRows(e.rows)
		}
		if err != nil {
			b.Fatal(err)
		}
		free[c%workers] <- e
	}
	wg.Wait()
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// Row groups encoded concurrently (GroupWriter.EncodeGroup on several goroutines) and written
// in order, with records written one by one between them, read back as the records in order;
// an encoded group can be discarded; a group of uncounted games in a file of counted ones is
// refused as Write refuses it.
func TestParquetGroups(t *testing.T) {
	for _, uncounted := range []bool{false, true} {
		recs := testRecords(1000, 3)
		if uncounted {
			for i, r := range recs {
				if i%5 != 4 {
					r.LegalTotal = NotCounted
				}
			}
		}
		flat := make([]Record, len(recs))
		for i, r := range recs {
			flat[i] = *r
		}
		counters := []string{"captures_white", "captures_black", "camps_white"}
		var buf bytes.Buffer
		w, err := NewGamesWriter(&buf, Parquet, counters)
		if err != nil {
			t.Fatal(err)
		}
		gw, ok := GroupWriterOf(w)
		if !ok {
			t.Fatal("the Parquet writer takes no row groups")
		}
		// Groups of 90 games; every fourth is written record by record instead, and one
		// encoded group is discarded first.
		const size = 90
		groups := make([]RowGroup, (len(flat)+size-1)/size)
		var wg sync.WaitGroup
		for k := range groups {
			wg.Add(1)
			go func() {
				defer wg.Done()
				lo, hi := k*size, min((k+1)*size, len(flat))
				if err := gw.EncodeGroup(&groups[k], flat[lo:hi]); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		for k := range groups {
			lo, hi := k*size, min((k+1)*size, len(flat))
			if k%4 == 1 {
				groups[k].Discard()
			}
			if !groups[k].Encoded() {
				for i := lo; i < hi; i++ {
					if err := w.Write(&flat[i]); err != nil {
						t.Fatal(err)
					}
				}
				continue
			}
			if err := gw.WriteGroup(&groups[k]); err != nil {
				t.Fatal(err)
			}
			if groups[k].Encoded() {
				t.Fatal("a written group still holds its rows")
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "games.parquet")
		os.WriteFile(path, buf.Bytes(), 0o644)
		g, err := OpenGames(path)
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		for r, err := range All(g.Read) {
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(r, recs[i]) {
				t.Fatalf("uncounted=%v: record %d read back as\n%+v\nwant\n%+v", uncounted, i, r, recs[i])
			}
			i++
		}
		g.Close()
		if i != len(recs) {
			t.Fatalf("uncounted=%v: %d records read back, want %d", uncounted, i, len(recs))
		}
	}
	if _, ok := GroupWriterOf(must(NewGamesWriter(io.Discard, CSVGzip, nil))); ok {
		t.Error("a csv.gz writer claims to take Parquet row groups")
	}
	recs := testRecords(4, 0)
	recs[2].LegalTotal = NotCounted
	w := must(NewGamesWriter(io.Discard, Parquet, nil))
	gw, _ := GroupWriterOf(w)
	var g RowGroup
	if err := gw.EncodeGroup(&g, []Record{*recs[0], *recs[1]}); err != nil || !g.Encoded() {
		t.Fatalf("counted group: %v", err)
	}
	if err := gw.EncodeGroup(&g, []Record{*recs[2], *recs[3]}); err == nil || !strings.Contains(err.Error(), "game 2") || g.Encoded() {
		t.Fatalf("uncounted group in a counted file: error %v (encoded %v), want one naming game 2", err, g.Encoded())
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
