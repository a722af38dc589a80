package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bench -play runs its slices and reports every ratio with an interval, as a table and as
// JSON, and leaves nothing behind in -dir.
func TestBenchPlay(t *testing.T) {
	dir := t.TempDir()
	out, errOut, err := runCmd(t, "bench", "-game", "baran", "-play", "-rounds", "2", "-slice", "0.02", "-workers", "2", "-dir", dir)
	if err != nil {
		t.Fatal(err, errOut)
	}
	for _, want := range []string{"play_1 / bench_1", "play_2 / bench_2", "bench_2 / bench_1", "play_2 / play_1",
		"(play_2 / play_1) / (bench_2 / bench_1)", "order-statistics-median", "use -rounds 6 or more"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "round 2/2:") {
		t.Errorf("no progress lines on stderr:\n%s", errOut)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("-dir holds %d entries afterwards", len(left))
	}
	out, _, err = runCmd(t, "bench", "-game", "katarenga", "-play", "-rounds", "6", "-slice", "0.01", "-workers", "1", "-branching=false", "-json", "-dir", dir)
	if err != nil {
		t.Fatal(err)
	}
	var res BenchPlayResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if res.Rounds != 6 || len(res.Ratios) != 1 || len(res.Ratios[0].Rounds) != 6 || res.Branching ||
		!(res.Ratios[0].Median > 0) || res.Ratios[0].Lo > res.Ratios[0].Median || res.Ratios[0].Hi < res.Ratios[0].Median ||
		res.GamesPerSlice < 2 || res.GamesPerSlice%2 != 0 {
		t.Errorf("JSON %+v", res)
	}
	wantUsageError(t, "-rounds 0", "bench", "-play", "-rounds", "0")
	wantUsageError(t, "-slice -1", "bench", "-play", "-slice", "-1")
	wantUsageError(t, "missing", "bench", "-play", "-slice", "0.01", "-rounds", "1", "-dir", filepath.Join(dir, "missing", "deeper"))
	wantUsageError(t, "-rounds goes with -play", "bench", "-rounds", "5")
	wantUsageError(t, "-branching goes with -play", "bench", "-branching=false")
	wantUsageError(t, "-agent does not go with -play", "bench", "-play", "-agent", "greedy")
	wantUsageError(t, "-seconds does not go with -play", "bench", "-play", "-seconds", "2")
}

// The slice orders are Williams squares: over len rounds every kind comes first once and
// follows every other kind exactly once.
func TestBenchPlayOrders(t *testing.T) {
	for _, sq := range williams {
		n := len(sq)
		first := map[int]int{}
		follows := map[[2]int]int{}
		for _, row := range sq {
			if len(row) != n {
				t.Fatalf("row %v of a %d-square", row, n)
			}
			seen := map[int]bool{}
			for j, k := range row {
				seen[k] = true
				if j > 0 {
					follows[[2]int{row[j-1], k}]++
				}
			}
			if len(seen) != n {
				t.Errorf("row %v is not a permutation", row)
			}
			first[row[0]]++
		}
		if len(first) != n {
			t.Errorf("%d-square: first kinds %v", n, first)
		}
		if len(follows) != n*(n-1) {
			t.Errorf("%d-square: %d ordered neighbour pairs, want each of %d once: %v", n, len(follows), n*(n-1), follows)
		}
		for p, c := range follows {
			if c != 1 {
				t.Errorf("%d-square: %v appears %d times", n, p, c)
			}
		}
	}
}

// Each slice's games come from bench's speed at its own number of workers, so that a W-worker
// slice lasts about -slice seconds too (with one worker's count it lasted 1/W as long).
func TestBenchPlaySliceGamesScale(t *testing.T) {
	gf := gameFlags{game: "katarenga"}
	gm, _, err := gf.build()
	if err != nil {
		t.Fatal(err)
	}
	rates := map[int]float64{1: 3000, 3: 8300} // games/s: the calibration, fixed
	var out bytes.Buffer
	err = benchPlay(context.Background(), gm, gf, benchPlayOpts{rounds: 1, slice: 0.01, workers: 3, dir: t.TempDir(), seed: 1, json: true,
		rate: func(w int) float64 { return rates[w] }}, &out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var res BenchPlayResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v:\n%s", err, out.String())
	}
	want := map[string]int64{"bench_1": 30, "play_1": 30, "bench_3": 84, "play_3": 84} // rate × slice, even
	for k, n := range want {
		if res.SliceGames[k] != n {
			t.Errorf("%s: %d games a slice, want %d (all: %v)", k, res.SliceGames[k], n, res.SliceGames)
		}
	}
	if res.GamesPerSlice != 30 || len(res.SliceGames) != 4 {
		t.Errorf("games_per_slice %d, by kind %v", res.GamesPerSlice, res.SliceGames)
	}
}

// bench -h shows -play as the switch it is: the flag package takes a backquoted name in a
// flag's usage for its argument ("-play fairplay play"), and -play takes none.
func TestBenchPlayHelp(t *testing.T) {
	_, help, _ := runCmd(t, "bench", "-h")
	if !strings.Contains(help, "\n  -play\n") {
		t.Errorf("bench -h shows -play with an argument:\n%s", help)
	}
}
