package gamefile

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// editFooter writes a Parquet games file of n records whose footer edit has changed, and
// returns its path.
func editFooter(t *testing.T, n int, edit func(*format.FileMetaData)) string {
	t.Helper()
	b := gamesBytes(t, Parquet, n)
	size := len(b)
	flen := int(binary.LittleEndian.Uint32(b[size-8:]))
	var md format.FileMetaData
	if err := thrift.Unmarshal(&thrift.CompactProtocol{}, b[size-8-flen:size-8], &md); err != nil {
		t.Fatal(err)
	}
	edit(&md)
	meta, err := thrift.Marshal(&thrift.CompactProtocol{}, &md)
	if err != nil {
		t.Fatal(err)
	}
	damaged := append(append([]byte(nil), b[:size-8-flen]...), meta...)
	damaged = binary.LittleEndian.AppendUint32(damaged, uint32(len(meta)))
	damaged = append(damaged, "PAR1"...)
	path := filepath.Join(t.TempDir(), "games.parquet")
	if err := os.WriteFile(path, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A Parquet file whose footer is damaged so that a column chunk's page index lies outside the
// file's page index section (parquet-go slices its buffer with the offset unchecked, and
// panicked in OpenFile) reads back whole: the reader reads rows in order, never loads the page
// index, so the damage cannot reach parquet-go's slicing.
func TestParquetDamagedPageIndex(t *testing.T) {
	path := editFooter(t, 100, func(md *format.FileMetaData) {
		cols := md.RowGroups[0].Columns
		if len(cols) < 2 || cols[0].ColumnIndexOffset <= 0 || cols[1].ColumnIndexOffset <= 0 {
			t.Fatal("no page index to damage")
		}
		cols[1].ColumnIndexOffset += 1 << 20 // past the section, inside the int64
	})
	g, err := OpenGames(path)
	if err != nil {
		t.Fatalf("a damaged page index (which the reader does not use): %v", err)
	}
	defer g.Close()
	want := testRecords(100, 3)
	for i := 0; ; i++ {
		r, err := g.Read()
		if err == io.EOF {
			if i != len(want) {
				t.Fatalf("%d records read, want %d", i, len(want))
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if r.Game != want[i].Game || r.Seed != want[i].Seed || r.Moves != want[i].Moves {
			t.Fatalf("record %d: %+v, want %+v", i, r, want[i])
		}
	}
}

// A footer whose change of one column's type leaves the column readable (seed's INT(64,
// unsigned) become INT(27), a text column's STRING annotation become JSON, a counter become
// unsigned) is refused with an error that names the column, not read as wrong values.
func TestParquetWrongColumnType(t *testing.T) {
	for _, c := range []struct {
		col string
		lt  format.LogicalTypeValue
	}{
		{"seed", &format.IntType{BitWidth: 27, IsSigned: false}},
		{"seed", &format.IntType{BitWidth: 64, IsSigned: true}},
		{"game", &format.IntType{BitWidth: 32, IsSigned: true}},
		{"winner", &format.JsonType{}},
		{"c1", &format.IntType{BitWidth: 64, IsSigned: false}},
	} {
		path := editFooter(t, 10, func(md *format.FileMetaData) {
			for i := range md.Schema {
				if md.Schema[i].Name == c.col {
					md.Schema[i].LogicalType = format.LogicalType{Value: c.lt}
					return
				}
			}
			t.Fatalf("no column %s", c.col)
		})
		g, err := OpenGames(path)
		if err == nil {
			g.Close()
			t.Errorf("%s as %v: opened without an error", c.col, c.lt)
		} else if !strings.Contains(err.Error(), "column "+c.col+" ") {
			t.Errorf("%s as %v: %v, want an error naming the column", c.col, c.lt, err)
		}
	}
}

// A boards.csv cut inside its last row's last field (the distinct games) still parses, with a
// shorter number: the reader refuses a last row that no newline ends, as the games reader does.
func TestBoardReaderRefusesTornLastRow(t *testing.T) {
	var bb bytes.Buffer
	bw := NewBoardWriter(&bb)
	for i := range 3 {
		if err := bw.Write(&BoardResult{Board: int64(i), Key: "k", Grid: "g", N: 100, Distinct: 1234}); err != nil {
			t.Fatal(err)
		}
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	whole := bb.Bytes()
	for _, c := range []struct {
		data []byte
		torn bool
	}{{whole, false}, {whole[:len(whole)-3], true}} { // "…,1234\n" cut to "…,12"
		br, err := NewBoardReader(bytes.NewReader(c.data))
		if err != nil {
			t.Fatal(err)
		}
		var n int
		for _, err = range br.All() {
			if err != nil {
				break
			}
			n++
		}
		switch {
		case c.torn && (err == nil || !strings.Contains(err.Error(), "ends inside")):
			t.Errorf("cut: %d boards read, err %v; want the torn last row refused", n, err)
		case !c.torn && (err != nil || n != 3):
			t.Errorf("whole: %d boards read, err %v; want 3 and no error", n, err)
		}
	}
}
