package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fairplay-lab/fairplay/runner"

	"github.com/fairplay-lab/fairplay/stats"

	"github.com/fairplay-lab/fairplay/engine/games"
)

// bench -play: how fast `fairplay play` runs random games against the engine alone, measured
// so that a machine whose speed drifts (shared hosts swing 1.5× within seconds) still gives a
// stable answer. Every round runs short slices back to back, each of about -slice seconds (the
// games of a slice at 1 and at W workers come from a calibration of bench at 1 and at W
// workers, so that the W-worker slices are not W times shorter) —
// bench at 1 and at W workers, play at 1 and at W workers, in the orders of a Williams square
// (every kind follows every other kind equally often over 4 rounds, so what a slice leaves
// behind — dirty pages, a warm or cold cache — weighs on each kind alike) — so the ratios within
// a round compare runs made under the same conditions; the
// report gives each ratio's median over the rounds with a distribution-free 95% interval
// (stats.MedianCI). play's slices are real runs (runner.RunMatch: summary, games file in
// csv on disk, the workers' queued writes), their games/s timed over the games only, as
// manifest.json's games_per_second; their reports are written after the timing and removed.
// Every slice is shorter than 2^18 games, the games a run hashes for distinct_games, and writes
// a file that fits in the machine's caches: a longer run skips the hashing beyond its first 2^18
// games but pays more for the kernel's copy of a file that has outgrown the caches
// (docs/performance.md, "Long runs"). So the figures are those of runs of a few hundred
// thousand games, not a bound on longer ones.

// benchPlayOpts are bench -play's settings.
type benchPlayOpts struct {
	rounds    int
	slice     float64
	workers   int
	dir       string
	branching bool
	seed      uint64
	json      bool
	// rate, when set (tests), replaces the calibration: bench's games per second at w workers.
	rate func(w int) float64
}

// BenchPlayRatio is one ratio of bench -play: its median over the rounds and the interval.
type BenchPlayRatio struct {
	Name     string    `json:"name"`
	Median   float64   `json:"median"`
	Lo       float64   `json:"ci95_lo"`
	Hi       float64   `json:"ci95_hi"`
	Coverage float64   `json:"coverage"`
	Rounds   []float64 `json:"rounds"`
}

// BenchPlayResult is bench -play's JSON output.
type BenchPlayResult struct {
	Game          string             `json:"game"`
	Rules         string             `json:"rules"`
	Layout        string             `json:"layout,omitempty"`
	Branching     bool               `json:"branching"`
	Workers       int                `json:"workers"`
	GamesPerSlice int64              `json:"games_per_slice"` // at one worker
	SliceGames    map[string]int64   `json:"games_per_slice_by_kind"`
	Rounds        int                `json:"rounds"`
	GOMAXPROCS    int                `json:"gomaxprocs"`
	Method        string             `json:"method"`
	GamesPerSec   map[string]float64 `json:"median_games_per_sec"`
	Ratios        []BenchPlayRatio   `json:"ratios"`
}

func benchPlay(ctx context.Context, gm *games.Game, gf gameFlags, o benchPlayOpts, stdout, stderr io.Writer) error {
	if o.rounds < 1 || o.rounds > 1000 {
		return usagef("-rounds %d: want 1..1000", o.rounds)
	}
	if o.slice <= 0 || o.slice > 600 {
		return usagef("-slice %v: want more than 0 and at most 600 seconds", o.slice)
	}
	base := o.dir
	if base == "" {
		base = os.TempDir()
	}
	if fi, err := os.Stat(base); err != nil || !fi.IsDir() {
		return usagef("-dir %s: not a directory", base)
	}
	tmp, err := os.MkdirTemp(base, "fairplay-bench-play-")
	if err != nil {
		return fmt.Errorf("-dir %s: %w", base, err)
	}
	defer os.RemoveAll(tmp)
	tiles, err := gf.tilesText()
	if err != nil {
		return err
	}
	cfg := runner.MatchConfig{Game: gm.Name(), Rules: gf.rules, Layout: gm.Layout(), Tiles: tiles, A: "random", B: "random",
		RandomOpening: runner.AutoRandomOpening(false), NoBranching: !o.branching}

	// Calibration: the games of a slice at 1 and at W workers, from bench's speed at each, so
	// that every slice lasts about o.slice seconds (with the 1-worker count at W workers, a
	// 16-worker slice lasted ~30 ms and its ratios measured start-up, not speed).
	kinds := []string{"bench_1", "play_1"}
	if o.workers > 1 {
		kinds = []string{"bench_1", fmt.Sprintf("bench_%d", o.workers), "play_1", fmt.Sprintf("play_%d", o.workers)}
	}
	sliceGames := map[string]int64{}
	for _, w := range []int{1, o.workers} {
		if _, done := sliceGames[fmt.Sprintf("bench_%d", w)]; done {
			continue
		}
		var gps float64
		if o.rate != nil {
			gps = o.rate(w)
		} else {
			gps = benchFor(ctx, gm, o.seed, w, o.slice)
		}
		if ctx.Err() != nil {
			return errInterrupted
		}
		n := max(2, int64(gps*o.slice))
		n += n % 2
		sliceGames[fmt.Sprintf("bench_%d", w)], sliceGames[fmt.Sprintf("play_%d", w)] = n, n
	}
	n := sliceGames["bench_1"]
	rate := make(map[string][]float64)
	fmt.Fprintf(stderr, "fairplay bench -play: %d rounds of %d slices of about %.1f s (%s)\n", o.rounds, len(kinds), o.slice, sliceText(kinds, sliceGames))
	for r := 0; r < o.rounds; r++ {
		for j := range kinds {
			k := williams[len(kinds)/2-1][r%len(kinds)][j]
			w := 1
			if k%2 == 1 && len(kinds) == 4 {
				w = o.workers
			}
			var gps float64
			if k < len(kinds)/2 {
				gps = benchSlice(ctx, gm, o.seed+uint64(r)+1, w, sliceGames[kinds[k]])
			} else {
				c := cfg
				c.Games, c.Seed = sliceGames[kinds[k]], o.seed+uint64(r)+1
				if gps, err = playSlice(ctx, c, tmp, w); err != nil {
					return err
				}
			}
			if ctx.Err() != nil {
				return errInterrupted
			}
			rate[kinds[k]] = append(rate[kinds[k]], gps)
		}
		fmt.Fprintf(stderr, "round %d/%d:", r+1, o.rounds)
		for _, k := range kinds {
			fmt.Fprintf(stderr, " %s %.0f", k, rate[k][r])
		}
		fmt.Fprintln(stderr, " games/s")
	}
	out := BenchPlayResult{Game: gm.Name(), Rules: gm.Rules(), Layout: gm.Layout(), Branching: o.branching, Workers: o.workers,
		GamesPerSlice: n, SliceGames: sliceGames, Rounds: o.rounds, GOMAXPROCS: runtime.GOMAXPROCS(0), Method: stats.MethodMedianCI,
		GamesPerSec: map[string]float64{}}
	for _, k := range kinds {
		out.GamesPerSec[k], _, _, _ = stats.MedianCI(rate[k], 0.95)
	}
	ratio := func(name string, f func(r int) float64) {
		xs := make([]float64, o.rounds)
		for r := range xs {
			xs[r] = f(r)
		}
		br := BenchPlayRatio{Name: name, Rounds: xs}
		br.Median, br.Lo, br.Hi, br.Coverage = stats.MedianCI(xs, 0.95)
		out.Ratios = append(out.Ratios, br)
	}
	ratio("play_1 / bench_1", func(r int) float64 { return rate["play_1"][r] / rate["bench_1"][r] })
	if len(kinds) == 4 {
		bw, pw := kinds[1], kinds[3]
		ratio(pw+" / "+bw, func(r int) float64 { return rate[pw][r] / rate[bw][r] })
		ratio(bw+" / bench_1", func(r int) float64 { return rate[bw][r] / rate["bench_1"][r] })
		ratio(pw+" / play_1", func(r int) float64 { return rate[pw][r] / rate["play_1"][r] })
		ratio("("+pw+" / play_1) / ("+bw+" / bench_1)", func(r int) float64 {
			return rate[pw][r] / rate["play_1"][r] / (rate[bw][r] / rate["bench_1"][r])
		})
	}
	if o.json {
		return json.NewEncoder(stdout).Encode(out)
	}
	printGame(stdout, out.Game, out.Rules, out.Layout)
	fmt.Fprintf(stdout, "\nplay (random games, move records, csv, branching %v) against bench, %d rounds of slices of %s, GOMAXPROCS %d\n",
		o.branching, o.rounds, sliceText(kinds, sliceGames), out.GOMAXPROCS)
	fmt.Fprintf(stdout, "median games/s:")
	for _, k := range kinds {
		fmt.Fprintf(stdout, "  %s %.0f", k, out.GamesPerSec[k])
	}
	fmt.Fprintf(stdout, "\n%-42s %8s  %-19s %s\n", "ratio (per round)", "median", "95% interval", "coverage")
	for _, br := range out.Ratios {
		fmt.Fprintf(stdout, "%-42s %8.3f  [%.3f, %.3f]  %8.3f\n", br.Name, br.Median, br.Lo, br.Hi, br.Coverage)
	}
	fmt.Fprintf(stdout, "interval: %s (distribution-free, over rounds)\n", stats.MethodMedianCI)
	if o.rounds < 6 {
		fmt.Fprintf(stdout, "with %d rounds the interval is the rounds' range and covers the median with probability %.2f only; use -rounds 6 or more\n",
			o.rounds, out.Ratios[0].Coverage)
	}
	return nil
}

// williams holds Williams squares for 2 and 4 kinds: round r plays the kinds in the order of
// row r mod len; over len rounds every kind comes first once and follows every other kind once.
var williams = [2][][]int{
	{{0, 1}, {1, 0}},
	{{0, 1, 3, 2}, {1, 2, 0, 3}, {2, 3, 1, 0}, {3, 0, 2, 1}},
}

// sliceText describes the games of the slices: "N games at 1 worker, M at W".
func sliceText(kinds []string, games map[string]int64) string {
	t := fmt.Sprintf("%d games at 1 worker", games[kinds[0]])
	if len(kinds) == 4 {
		t += fmt.Sprintf(", %d at %s", games[kinds[1]], strings.TrimPrefix(kinds[1], "bench_"))
	}
	return t
}

// benchSlice plays n random games on w workers as bench does (each worker n/w of them) and
// returns games per second; it stops early when ctx is done.
func benchSlice(ctx context.Context, gm *games.Game, seed uint64, w int, n int64) float64 {
	t, el := benchCounted(gm, seed, w, func(k int, i int64) bool {
		share := n / int64(w)
		if int64(k) < n%int64(w) {
			share++
		}
		return i >= share || i&63 == 0 && ctx.Err() != nil
	}, 0, nil)
	return float64(t.games) / el
}

// benchFor plays random games on w workers as bench does for about seconds and returns games
// per second.
func benchFor(ctx context.Context, gm *games.Game, seed uint64, w int, seconds float64) float64 {
	t, el := benchCounted(gm, seed, w, func(_ int, i int64) bool { return i&63 == 0 && ctx.Err() != nil }, seconds, nil)
	return float64(t.games) / el
}

// benchCounted runs w bench workers, worker k until stop(k, its games so far) or, for seconds
// above 0, until they have passed (looked at every 64 games from the 64th on, as bench does), and returns their
// games and plies together and the seconds they took. A non-nil perWorker (length w) gets each
// worker's plies.
func benchCounted(gm *games.Game, seed uint64, w int, stop func(k int, i int64) bool, seconds float64, perWorker []int64) (benchCount, float64) {
	var wg sync.WaitGroup
	t0 := time.Now()
	deadline := t0.Add(time.Duration(seconds * float64(time.Second)))
	var games, plies atomic.Int64
	for k := 0; k < w; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := playouts(gm, seed, k, func(i int64) bool {
				return stop(k, i) || seconds > 0 && i > 0 && i&63 == 0 && time.Now().After(deadline)
			})
			games.Add(t.games)
			plies.Add(t.plies)
			if perWorker != nil {
				perWorker[k] = t.plies
			}
		}()
	}
	wg.Wait()
	return benchCount{games.Load(), plies.Load()}, math.Max(time.Since(t0).Seconds(), 1e-9)
}

// playSlice runs cfg as `fairplay play` would, at w workers, into a new directory under parent
// (removed afterwards), and returns the run's games per second.
func playSlice(ctx context.Context, cfg runner.MatchConfig, parent string, w int) (float64, error) {
	m, err := matchFor(cfg)
	if err != nil {
		return 0, err
	}
	dir, err := os.MkdirTemp(parent, "play-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	out, err := runner.RunMatch(ctx, m, runner.Session{Dir: dir, Workers: w, Stderr: io.Discard,
		Shard: runner.Shard{Index: 0, Count: 1}})
	if err != nil {
		return 0, err
	}
	return out.Manifest.GamesPerSecond, nil
}
