package runner

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
)

// A run's games file is the same bytes at 1, 2 and 5 workers in csv.gz and in Parquet (each
// codec), at a size where the workers compress and encode its blocks (gzip members, row
// groups: a run of random games at two or more workers), and so are a run interrupted and
// resumed (old games and new blocks in one file) and the merge of two shards (the second
// starting inside a block): all the uninterrupted run's bytes. A run stopped by a rule in the
// middle of a block is the same bytes at every worker count too. The file holds the games and
// the summary of a csv run, and a Parquet file one row group per block of GroupGames games.
// Under -short the run is a block of row groups and more (10 gzip members); without, 70,000 games (whole runs
// only), above the size at which the workers encoded row groups of their own chunks before.
func TestGamesFileSameBytesAtAnyWorkers(t *testing.T) {
	n := int64(gamefile.GroupGames + 300)
	// The worker counts of each mode: a resume and shards at one worker encode nothing apart.
	modes := []struct {
		name    string
		workers []int
	}{{"whole", []int{1, 2, 5}}, {"resume", []int{2, 5}}, {"shards", []int{2}}, {"stop", []int{1, 2, 5}}}
	if !testing.Short() {
		n, modes = 70000, modes[:1]
	}
	m := newMatch(t, "katarenga", "", "", n)
	refDir := t.TempDir()
	runMode(t, m, Session{Dir: refDir, Workers: 2, Shard: Shard{0, 1}}, "whole")
	wantCSV, wantSum := mustRead(t, filepath.Join(refDir, "games.csv")), mustRead(t, filepath.Join(refDir, "summary.csv"))
	for _, o := range []struct {
		f     gamefile.Format
		codec gamefile.Codec
	}{{gamefile.CSVGzip, ""}, {gamefile.Parquet, gamefile.Snappy}, {gamefile.Parquet, gamefile.Zstd}} {
		var whole []byte
		for _, md := range modes {
			mode := md.name
			t.Run(fmt.Sprintf("%s%s/%s", o.f, o.codec, mode), func(t *testing.T) {
				var want []byte
				for _, workers := range md.workers {
					dir := t.TempDir()
					s := Session{Dir: dir, Workers: workers, Shard: Shard{0, 1}, Format: o.f, Codec: o.codec}
					if mode == "shards" {
						mergeShards(t, m, s)
					} else {
						runMode(t, m, s, mode)
					}
					path := filepath.Join(dir, o.f.FileName())
					got := mustRead(t, path)
					switch {
					case mode == "whole" && workers == 1:
						whole, want = got, got
						if !bytes.Equal(gamesCSV(t, path), wantCSV) || !bytes.Equal(mustRead(t, filepath.Join(dir, "summary.csv")), wantSum) {
							t.Errorf("one worker: the games or the summary differ from the csv run's")
						}
						if blocks := (n + gamefile.GroupGames - 1) / gamefile.GroupGames; o.f == gamefile.Parquet {
							if groups := parquetRowGroups(t, path); int64(groups) != blocks {
								t.Errorf("one worker: %d row groups, want %d", groups, blocks)
							}
						}
					case mode == "stop":
						if want == nil {
							want = got
						}
					default:
						want = whole
					}
					if !bytes.Equal(got, want) {
						t.Errorf("%d workers: %s's %d bytes differ from the %d of the uninterrupted run at one worker", workers, o.f.FileName(), len(got), len(want))
					}
				}
			})
		}
	}
}

// mergeShards runs s's match as two shards at s.Workers and merges them into s.Dir.
func mergeShards(t *testing.T, m *Match, s Session) {
	t.Helper()
	var files []string
	for i := range 2 {
		sh := s
		sh.Dir, sh.Shard = t.TempDir(), Shard{i, 2}
		runMode(t, m, sh, "whole")
		files = append(files, filepath.Join(sh.Dir, s.Format.FileName()))
	}
	if _, err := MergeRuns(m, files, s.Dir, nil, s.Format, s.Codec); err != nil {
		t.Fatal(err)
	}
}
