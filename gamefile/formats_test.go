package gamefile

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
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
	for _, f := range Formats {
		path := filepath.Join(dir, f.FileName())
		file, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w, err := NewGamesWriter(file, f, counters)
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
		g, err := OpenGames(path)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !reflect.DeepEqual(g.Counters(), counters) {
			t.Errorf("%s: counters %v, want %v", f, g.Counters(), counters)
		}
		i := 0
		for r, err := range All(g.Read) {
			if err != nil {
				t.Fatalf("%s: record %d: %v", f, i, err)
			}
			if i >= len(want) {
				t.Fatalf("%s: more than the %d records written read back", f, len(want))
			}
			if !reflect.DeepEqual(r, want[i]) {
				t.Fatalf("%s: record %d read back as\n%+v\nwant\n%+v", f, i, r, want[i])
			}
			i++
		}
		if i != len(want) {
			t.Fatalf("%s: %d records read back, want %d", f, i, len(want))
		}
		g.Close()
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

// BenchmarkGamesWriter measures the writer alone, one op per game, on records shaped like
// random Katarenga games (about 170 plies of move text); bytes/game is the file size.
func BenchmarkGamesWriter(b *testing.B) {
	counters := []string{"captures_white", "captures_black", "camps_white", "camps_black", "first_move_captures"}
	recs := testRecords(1024, len(counters))
	rng := engine.NewRand(2)
	for _, r := range recs {
		r.Start = ""
		mv := make([]string, 160+rng.IntN(20))
		for k := range mv {
			mv[k] = string([]byte{'a' + byte(rng.IntN(8)), '1' + byte(rng.IntN(8)), '-', 'a' + byte(rng.IntN(8)), '1' + byte(rng.IntN(8))})
		}
		r.Moves = strings.Join(mv, " ")
	}
	for _, f := range Formats {
		b.Run(string(f), func(b *testing.B) {
			var cw countWriter
			w, err := NewGamesWriter(&cw, f, counters)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r := recs[i%len(recs)]
				r.Game = int64(i)
				if err := w.Write(r); err != nil {
					b.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(cw.n)/float64(b.N), "bytes/game")
		})
	}
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
