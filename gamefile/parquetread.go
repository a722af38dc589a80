package gamefile

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/parquet-go/parquet-go"
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
		if !known[name] && leaf.Node.Type().Kind() == parquet.Int64 {
			pr.counters = append(pr.counters, name)
			pr.cnt = append(pr.cnt, i)
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
