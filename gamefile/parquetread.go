package gamefile

import (
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// parquetReader reads a games file written by parquetWriter (or any Parquet file with the
// games.csv columns and types: column order does not matter, extra columns are ignored).
type parquetReader struct {
	f        *os.File
	r        *parquet.GenericReader[any]
	counters []string
	col      map[string]int
	cnt      []int // columns of the counters
	rows     []parquet.Row
	n, i     int
}

func newParquetReader(f *os.File) (_ *parquetReader, err error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	// The reader reads every row in order and never seeks, so it needs no page index: not
	// loading it spares the read, and a damaged index can no longer reach parquet-go's
	// unchecked slicing of it (see openParquet, which still turns a panic into an error).
	pf, err := parquet.OpenFile(f, st.Size(), parquet.SkipPageIndex(true))
	if err != nil {
		return nil, fmt.Errorf("not a Parquet file: %w", err)
	}
	pr := &parquetReader{f: f, col: map[string]int{}}
	known := map[string]bool{"start_position": true, "moves": true, forfeitColumn: true}
	for _, n := range baseColumns {
		known[n] = true
	}
	for i, path := range pf.Schema().Columns() {
		name := strings.Join(path, ".")
		pr.col[name] = i
		leaf, _ := pf.Schema().Lookup(path...)
		want, ok := parquetKinds[name]
		if !known[name] && leaf.Node.Type().Kind() == parquet.Int64 {
			pr.counters = append(pr.counters, name)
			pr.cnt = append(pr.cnt, i)
			want, ok = reflect.Int64, true
		}
		if ok {
			if err := checkParquetType(name, leaf.Node, want); err != nil {
				return nil, err
			}
		}
	}
	for _, n := range baseColumns {
		if _, ok := pr.col[n]; !ok && n != "winner_agent" {
			return nil, fmt.Errorf("column %s missing: not a fairplay games file", n)
		}
	}
	pr.r = parquet.NewGenericReader[any](pf, pf.Schema()) // rows as parquet.Rows, in the file's schema
	pr.rows = make([]parquet.Row, parquetBatch)
	return pr, nil
}

// parquetKinds is the Go kind of each column parquetWriter writes but the counters (int64).
var parquetKinds = func() map[string]reflect.Kind {
	m := map[string]reflect.Kind{}
	for _, c := range parquetColumns(nil, false) {
		m[c.name] = c.kind
	}
	return m
}()

// checkParquetType says whether a column is of the physical and logical type that
// parquetWriter writes for kind: INT64 annotated INT(64, signed) for int64 (or not annotated,
// as some writers leave it), INT64 annotated INT(64, unsigned) for uint64, BYTE_ARRAY
// annotated STRING for text. Any other type would read back as wrong values without an error
// (a damaged footer turning seed's INT(64, unsigned) into INT(27), say).
func checkParquetType(name string, n parquet.Node, kind reflect.Kind) error {
	t := n.Type()
	lt := t.LogicalType()
	var v format.LogicalTypeValue
	if lt != nil {
		v = lt.Value
	}
	var ok bool
	switch kind {
	case reflect.Int64, reflect.Uint64:
		signed := kind == reflect.Int64
		it, isInt := v.(*format.IntType)
		ok = t.Kind() == parquet.Int64 && (v == nil && signed || isInt && it.BitWidth == 64 && it.IsSigned == signed)
	default:
		_, isString := v.(*format.StringType)
		ok = t.Kind() == parquet.ByteArray && isString
	}
	if !ok || n.Repeated() {
		want := map[reflect.Kind]string{reflect.Int64: "INT64 INT(64,true)", reflect.Uint64: "INT64 INT(64,false)"}[kind]
		if want == "" {
			want = "BYTE_ARRAY STRING"
		}
		rep := ""
		if n.Repeated() {
			rep = " repeated"
		}
		return fmt.Errorf("column %s is%s %s %v, want %s: not a fairplay games file (or a damaged one)",
			name, rep, t.Kind(), annotation(v), want)
	}
	return nil
}

func (p *parquetReader) Counters() []string { return p.counters }

func (p *parquetReader) Read() (*Record, error) {
	if p.i == p.n {
		n, err := p.r.ReadRows(p.rows)
		if n == 0 {
			if err == nil {
				err = io.EOF
			}
			return nil, err
		}
		p.n, p.i = n, 0
	}
	row := p.rows[p.i]
	p.i++
	get := func(name string) parquet.Value {
		if i, ok := p.col[name]; ok && i < len(row) {
			return row[i]
		}
		return parquet.Value{}
	}
	str := func(name string) string { return string(get(name).ByteArray()) }
	r := &Record{Game: get("game").Int64(), Pair: get("pair").Int64(), Seed: get("seed").Uint64(),
		GameName: str("game_name"), Layout: str("layout"), Rules: str("rules"), FirstAgent: str("first_agent"),
		SecondAgent: str("second_agent"), FirstIs: str("first_is"), FirstColour: str("first_colour"),
		Winner: str("winner"), Plies: int(get("plies").Int64()), LegalTotal: NotCounted,
		Forfeit: str(forfeitColumn), Start: str("start_position"), Moves: str("moves")}
	if v := get("legal_actions_total"); !v.IsNull() {
		r.LegalTotal = v.Int64()
	}
	var err error
	if r.Reason, err = engine.ParseReason(str("reason")); err != nil {
		return nil, fmt.Errorf("game %d: reason: %w", r.Game, err)
	}
	if r.Winner != "first" && r.Winner != "second" && r.Winner != "draw" {
		return nil, fmt.Errorf("game %d: winner %q is not first, second or draw", r.Game, r.Winner)
	}
	if (r.Forfeit != "") != (r.Reason == engine.Forfeit) {
		return nil, fmt.Errorf("game %d: %s %q does not go with reason %s", r.Game, forfeitColumn, r.Forfeit, r.Reason)
	}
	r.Counters = make([]int64, len(p.cnt))
	for k, i := range p.cnt {
		r.Counters[k] = row[i].Int64()
	}
	return r, nil
}

func (p *parquetReader) Close() error {
	err := p.r.Close()
	if e := p.f.Close(); err == nil {
		err = e
	}
	return err
}

func annotation(v format.LogicalTypeValue) string {
	if v == nil {
		return "unannotated"
	}
	return v.String()
}
