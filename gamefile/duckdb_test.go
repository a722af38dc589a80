package gamefile

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestDuckDBReadsEveryFormat reads the same games written as csv, csv.gz and parquet through a
// real reader, DuckDB (npm @duckdb/node-api), and checks that each file gives back exactly
// the games written — legal_actions_total included, every third game's not counted (NULL;
// the first game's, so Parquet's column is optional). Skipped where node or the package is absent; install the package with
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
	// The formats, and csv.gz and Parquet once more as a run with several workers writes them:
	// gzip members compressed apart (MemberWriter), mixed with rows of the writer's own stream;
	// row groups encoded apart (GroupWriter), mixed with records written one by one.
	for k, f := range append(slices.Clone(Formats), CSVGzip, Parquet) {
		members := k == len(Formats)
		groups := k == len(Formats)+1
		path := filepath.Join(tmp, f.FileName())
		if members {
			path = filepath.Join(tmp, "members-"+f.FileName())
		}
		if groups {
			path = filepath.Join(tmp, "groups-"+f.FileName())
		}
		file, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w, _ := NewGamesWriter(file, f, counters)
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
		// CSV: every column as text (the hex seed converted); Parquet: typed columns cast.
		src, seed := "read_csv('"+path+"', all_varchar=true)", "CAST(('0x' || seed)::UBIGINT AS VARCHAR)"
		if f == Parquet {
			src, seed = "'"+path+"'", "CAST(seed AS VARCHAR)"
		}
		sql := "SELECT CAST(game AS VARCHAR), " + seed + ", first_agent, winner, reason, CAST(plies AS VARCHAR), " +
			"CAST(captures_black AS VARCHAR), coalesce(start_position, ''), coalesce(moves, ''), " +
			"coalesce(CAST(legal_actions_total AS VARCHAR), 'null') FROM " + src +
			" ORDER BY CAST(game AS BIGINT)"
		out, err := exec.Command(node, filepath.Join(dir, "query.mjs"), sql).Output()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				t.Fatalf("%s: duckdb: %v\n%s", f, err, ee.Stderr)
			}
			t.Fatal(err)
		}
		var got [][]string
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%s: %v in %.200s", f, err, out)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: DuckDB found %d games, want %d", f, len(got), len(want))
		}
		for i := range want {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("%s: DuckDB row %d is %q, want %q", f, i, got[i], want[i])
			}
		}
	}
}
