package gamefile

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestDuckDBReadsEveryFormat reads the same games written as csv, csv.gz and parquet (Snappy
// and Zstandard, which DuckDB's parquet_metadata must report) through a real reader, DuckDB
// (npm @duckdb/node-api), and checks that each file gives back exactly the games written —
// legal_actions_total included, every third game's not counted (NULL; the first game's, so
// Parquet's column is optional). Skipped where node or the package is absent; install the package with
// `npm install --prefix gamefile/testdata/duckdb @duckdb/node-api`.
func TestDuckDBReadsEveryFormat(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed")
	}
	dir, _ := filepath.Abs("testdata/duckdb")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@duckdb", "node-api")); err != nil {
		t.Skip("@duckdb/node-api not installed: npm install --prefix gamefile/testdata/duckdb @duckdb/node-api")
	}
	counters := []string{"captures_white", "captures_black"}
	recs := testRecords(500, len(counters))
	var want [][]string
	for i, r := range recs {
		r.Start = strings.ReplaceAll(r.Start, "\n", " ") // positions are one line
		legal := strconv.FormatInt(r.LegalTotal, 10)
		if i%3 == 0 {
			r.LegalTotal, legal = NotCounted, "null"
		}
		want = append(want, []string{strconv.FormatInt(r.Game, 10), strconv.FormatUint(r.Seed, 10), r.FirstAgent,
			r.Winner, r.Reason.String(), strconv.Itoa(r.Plies), strconv.FormatInt(r.Counters[1], 10), r.Start, r.Moves, legal})
	}
	tmp := t.TempDir()
	// The formats (Parquet in each codec), and csv.gz and Parquet once more as a run with
	// several workers writes them: gzip members compressed apart (MemberWriter), mixed with rows
	// of the writer's own stream; row groups encoded apart (GroupWriter), mixed with records
	// written one by one.
	type output struct {
		f               Format
		codec           Codec
		members, groups bool
	}
	outs := []output{{f: CSV}, {f: CSVGzip}, {f: CSVGzip, members: true}}
	for _, c := range Codecs {
		outs = append(outs, output{f: Parquet, codec: c}, output{f: Parquet, codec: c, groups: true})
	}
	codecs := map[string]string{} // Parquet file → its codec, as DuckDB names it
	for _, o := range outs {
		members, groups := o.members, o.groups
		name := string(o.codec) + o.f.FileName()
		if members {
			name = "members-" + name
		}
		if groups {
			name = "groups-" + name
		}
		path := filepath.Join(tmp, name)
		file, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w, _ := NewGamesWriterCodec(file, o.f, o.codec, counters)
		var gm GzipMember
		for i := 0; i < len(recs); i += 37 {
			var rows []byte
			for _, r := range recs[i:min(i+37, len(recs))] {
				rows = AppendCSVRow(rows, r)
			}
			mw, _ := MemberWriterOf(w)
			gw, _ := GroupWriterOf(w)
			switch {
			case groups && i%3 != 1:
				var g RowGroup
				var flat []Record
				for _, r := range recs[i:min(i+37, len(recs))] {
					flat = append(flat, *r)
				}
				if err = gw.EncodeGroup(&g, flat); err == nil {
					err = gw.WriteGroup(&g)
				}
			case !members:
				for _, r := range recs[i:min(i+37, len(recs))] {
					if err = w.Write(r); err != nil {
						break
					}
				}
			case i%3 == 1:
				err = mw.WriteRows(rows)
			default:
				err = mw.WriteMember(gm.Compress(nil, rows))
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		file.Close()
		if o.f == Parquet {
			codecs[path] = strings.ToUpper(string(o.codec))
		}
		// CSV: every column as text (the hex seed converted); Parquet: typed columns cast.
		src, seed := "read_csv('"+path+"', all_varchar=true)", "CAST(('0x' || seed)::UBIGINT AS VARCHAR)"
		if o.f == Parquet {
			src, seed = "'"+path+"'", "CAST(seed AS VARCHAR)"
		}
		sql := "SELECT CAST(game AS VARCHAR), " + seed + ", first_agent, winner, reason, CAST(plies AS VARCHAR), " +
			"CAST(captures_black AS VARCHAR), coalesce(start_position, ''), coalesce(moves, ''), " +
			"coalesce(CAST(legal_actions_total AS VARCHAR), 'null') FROM " + src +
			" ORDER BY CAST(game AS BIGINT)"
		got := duckdbQuery(t, node, dir, sql)
		if len(got) != len(want) {
			t.Fatalf("%s: DuckDB found %d games, want %d", name, len(got), len(want))
		}
		for i := range want {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("%s: DuckDB row %d is %q, want %q", name, i, got[i], want[i])
			}
		}
	}
	// Each Parquet file's codec as DuckDB reads it from the file (one query: each starts node).
	got := map[string]string{}
	for _, row := range duckdbQuery(t, node, dir, "SELECT DISTINCT file_name, compression FROM parquet_metadata('"+tmp+"/*.parquet')") {
		if _, ok := got[row[0]]; ok {
			t.Errorf("%s: DuckDB finds several codecs in it", row[0])
		}
		got[row[0]] = row[1]
	}
	if !reflect.DeepEqual(got, codecs) {
		t.Errorf("DuckDB finds the codecs %v, want %v", got, codecs)
	}
}

// duckdbQuery runs sql through DuckDB (query.mjs in dir) and returns its rows as text.
func duckdbQuery(t *testing.T, node, dir, sql string) [][]string {
	t.Helper()
	out, err := exec.Command(node, filepath.Join(dir, "query.mjs"), sql).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("duckdb: %v\n%s\n%s", err, sql, ee.Stderr)
		}
		t.Fatal(err)
	}
	var rows [][]string
	if err := json.Unmarshal(out, &rows); err != nil {
		t.Fatalf("duckdb: %v in %.200s", err, out)
	}
	return rows
}
