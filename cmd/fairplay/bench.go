package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/internal/pin"
)

// BenchResult is what `fairplay bench -json` prints.
type BenchResult struct {
	Game          string    `json:"game"`
	Rules         string    `json:"rules"`
	Layout        string    `json:"layout,omitempty"`
	Workers       int       `json:"workers"`
	Seconds       float64   `json:"seconds"`
	Games         int64     `json:"games"`
	Plies         int64     `json:"plies"`
	PliesPerSec   float64   `json:"plies_per_sec"`
	GamesPerSec   float64   `json:"games_per_sec"`
	PerWorkerPPS  []float64 `json:"per_worker_plies_per_sec"`
	PerWorkerGPS  []float64 `json:"per_worker_games_per_sec"`
	MeanGameLen   float64   `json:"mean_plies_per_game"`
	GoVersion     string    `json:"go_version"`
	GOMAXPROCS    int       `json:"gomaxprocs"`
	AllocsPerGame float64   `json:"allocs_per_game"`
	Pinned        bool      `json:"pinned,omitempty"`
}

// givenOf returns the first of names given on fs's command line, or "".
func givenOf(fs *flag.FlagSet, names ...string) string {
	given := ""
	fs.Visit(func(f *flag.Flag) {
		if given == "" && slices.Contains(names, f.Name) {
			given = f.Name
		}
	})
	return given
}

// printGame prints the head of bench's tables: the game, its rules and its layout (without a
// line end).
func printGame(w io.Writer, game, rules, layout string) {
	fmt.Fprintf(w, "game %s  rules %s", game, rules)
	if layout != "" {
		fmt.Fprintf(w, "  layout %s", layout)
	}
}

// benchCount counts a bench worker's games and plies.
type benchCount struct{ games, plies int64 }

// playouts is one bench worker: uniform random games from the game's start positions (each
// first colour in turn) on generator Derive(seed, w), until stop(games so far) says so.
func playouts(gm *games.Game, seed uint64, w int, stop func(n int64) bool) benchCount {
	firsts := gm.FirstColours()
	states := make([]engine.State, len(firsts))
	for i, f := range firsts {
		states[i] = gm.Start(f)
	}
	r := engine.NewRand(engine.Derive(seed, uint64(w)))
	buf := make([]engine.Action, 0, engine.MaxActions)
	var t benchCount
	for n := int64(0); !stop(n); n++ {
		s := states[n%int64(len(states))]
		s.Reset()
		_, plies := engine.Playout(s, r, buf)
		t.games++
		t.plies += int64(plies)
	}
	return t
}

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench", "-game G [-seconds S] [-workers N | -procs N] [-layout L] [-rules k=v,...] [-json]",
		"fairplay bench -game katarenga -seconds 5 -workers 1",
		"fairplay bench -game baran -json",
		"fairplay bench -game katarenga -agent alphabeta:depth=4 -seconds 5",
		"fairplay bench -game katarenga -play -branching=false -rounds 21   # the runner's overhead and scaling, noise-robust",
		"fairplay bench -game baran -procs 16 -seconds 3 -rounds 5            # 16 workers in one process against 16 processes, one window")
	var gf gameFlags
	gf.register(fs, "0", false)
	seconds := fs.Float64("seconds", 3, "how long to play or search (random games: each worker plays at least 64)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel workers, each playing its own games")
	asJSON := fs.Bool("json", false, "print one JSON object instead of a table")
	seed := fs.Uint64("seed", 1, "master seed")
	agent, positions := fs.String("agent", "", "measure this searching agent instead of random games: its ms/move and nodes/s (or playouts/s) on -positions positions, one core"), fs.Int("positions", 20, "with -agent: positions to search")
	playCmp := fs.Bool("play", false, "measure 'fairplay play' (random games, move records, csv) against bench in interleaved slices: play ÷ bench at 1 and -workers workers, and each one's scaling")
	rounds := fs.Int("rounds", 15, "with -play or -procs: rounds (the medians' intervals need 6 or more; -procs: 3 unless given)")
	slice := fs.Float64("slice", 0.5, "with -play: seconds per slice (the games of the slices at 1 and at -workers workers are fixed from a calibration of bench at each)")
	dir := fs.String("dir", "", "with -play: where play's slices write their games files (default: the system's temporary directory); each is removed after its slice")
	branching := fs.Bool("branching", true, "with -play: play's -branching (false: no legal counts, the engine's random-move sampler)")
	pinned := fs.Bool("pin", false, "pin each worker to its own OS thread and CPU (Linux; a measurement aid for in-process scaling)")
	procs := fs.Int("procs", 0, "measure `N` workers in this process against N processes of bench -workers 1 started together and stopped at one common deadline, -seconds each, in -rounds rounds: how far in-process scaling falls short of separate processes")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if *seconds <= 0 || *seconds > 3600 {
		return usagef("-seconds %v: want more than 0 and at most 3600", *seconds)
	}
	if *workers < 1 || *workers > 1024 {
		return usagef("-workers %d: want 1..1024", *workers)
	}
	gm, _, err := gf.build()
	if err != nil {
		return err
	}
	if f := givenOf(fs, "agent", "seconds", "positions"); *playCmp && f != "" {
		return usagef("-%s does not go with -play (its slices are sized by -slice)", f)
	}
	if f := givenOf(fs, "agent", "play"); *pinned && f != "" {
		return usagef("-pin does not go with -%s (it pins bench's own workers)", f)
	}
	if f := givenOf(fs, "slice", "dir", "branching"); !*playCmp && f != "" {
		return usagef("-%s goes with -play", f)
	}
	procsGiven := givenOf(fs, "procs") != "" // -procs 0 too: refused below, not a plain bench
	if f := givenOf(fs, "rounds"); !*playCmp && !procsGiven && f != "" {
		return usagef("-rounds goes with -play or -procs")
	}
	if win := os.Getenv(benchWindowEnv); win != "" { // a bench -procs child
		w, err := parseBenchWindow(win)
		if err != nil {
			return err
		}
		if f := givenOf(fs, "play", "agent", "procs", "pin"); f != "" {
			return usagef("%s is set (a bench -procs child): -%s does not go with it", benchWindowEnv, f)
		}
		if *workers != 1 {
			return usagef("%s is set (a bench -procs child): -workers %d, want 1", benchWindowEnv, *workers)
		}
		return benchChild(ctx, gm, *seed, w, stdout)
	}
	if procsGiven {
		if *procs < 1 || *procs > 1024 {
			return usagef("-procs %d: want 1..1024", *procs)
		}
		if f := givenOf(fs, "play", "agent", "pin", "workers"); f != "" {
			return usagef("-%s does not go with -procs (-procs N compares N workers with N processes)", f)
		}
		r := 3
		if givenOf(fs, "rounds") != "" {
			r = *rounds
		}
		if r < 1 || r > 1000 {
			return usagef("-rounds %d: want 1..1000", r)
		}
		return benchProcs(ctx, gm, gf, benchProcsOpts{procs: *procs, rounds: r, seconds: *seconds, seed: *seed, json: *asJSON}, stdout, stderr)
	}
	if *agent != "" {
		return benchAgent(ctx, gm, *agent, *seconds, *positions, *seed, *asJSON, stdout)
	}
	if *playCmp {
		return benchPlay(ctx, gm, gf, benchPlayOpts{rounds: *rounds, slice: *slice, workers: *workers,
			dir: *dir, branching: *branching, seed: *seed, json: *asJSON}, stdout, stderr)
	}
	res := make([]benchCount, *workers)
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0) // stops the world: before the window opens, not inside it
	t0 := time.Now()
	deadline := t0.Add(time.Duration(*seconds * float64(time.Second)))
	var wg sync.WaitGroup
	var unpinned atomic.Bool
	for w := 0; w < *workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			if *pinned {
				undo, ok := pin.Worker(w)
				defer undo()
				if !ok {
					unpinned.Store(true)
				}
			}
			// The stop is checked every 64 games, from the 64th on: a worker the OS starts
			// late under load still measures some games instead of none.
			res[w] = playouts(gm, *seed, w, func(n int64) bool {
				return n > 0 && n&63 == 0 && (time.Now().After(deadline) || ctx.Err() != nil)
			})
		}(w)
	}
	wg.Wait()
	el := time.Since(t0).Seconds()
	runtime.ReadMemStats(&ms1)
	if ctx.Err() != nil {
		return errInterrupted
	}
	out := BenchResult{Game: gm.Name(), Rules: gm.Rules(), Layout: gm.Layout(), Workers: *workers, Seconds: el,
		GoVersion: runtime.Version(), GOMAXPROCS: runtime.GOMAXPROCS(0), Pinned: *pinned && !unpinned.Load()}
	if *pinned && !out.Pinned {
		fmt.Fprintln(stderr, "bench: -pin: this system does not let fairplay pin threads to CPUs; the workers ran unpinned")
	}
	for _, t := range res {
		out.Games += t.games
		out.Plies += t.plies
		out.PerWorkerPPS = append(out.PerWorkerPPS, float64(t.plies)/el)
		out.PerWorkerGPS = append(out.PerWorkerGPS, float64(t.games)/el)
	}
	out.PliesPerSec, out.GamesPerSec = float64(out.Plies)/el, float64(out.Games)/el
	if out.Games > 0 {
		out.MeanGameLen = float64(out.Plies) / float64(out.Games)
		out.AllocsPerGame = float64(ms1.Mallocs-ms0.Mallocs) / float64(out.Games)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		return enc.Encode(out)
	}
	printGame(stdout, out.Game, out.Rules, out.Layout)
	pinNote := ""
	if out.Pinned {
		pinNote = ", pinned"
	}
	fmt.Fprintf(stdout, "\nuniform random self-play, %d worker(s)%s, %.1f s, GOMAXPROCS %d\n", out.Workers, pinNote, el, out.GOMAXPROCS)
	fmt.Fprintf(stdout, "%-8s %14s %12s\n", "worker", "plies/s", "games/s")
	for w := range res {
		fmt.Fprintf(stdout, "%-8d %14.0f %12.0f\n", w, out.PerWorkerPPS[w], out.PerWorkerGPS[w])
	}
	fmt.Fprintf(stdout, "%-8s %14.0f %12.0f\n", "total", out.PliesPerSec, out.GamesPerSec)
	fmt.Fprintf(stdout, "%d games, %d plies, %.1f plies/game, %.3f allocations/game\n", out.Games, out.Plies, out.MeanGameLen, out.AllocsPerGame)
	return nil
}
