package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/stats"
)

// bench -procs N: does one process with N workers play as fast as N processes of one worker
// each? Summing the rates of N separately started `bench -workers 1` processes overstates the
// processes: their windows are staggered, so each spends part of its window alone. Here the
// N processes (this binary, `bench -workers 1`, worker k playing the games of in-process worker
// k) are started together and all play one common window: an absolute start and end passed to
// them in benchWindowEnv, a start far enough ahead that all have started by then. Their total
// is the plies all of them played in the window over its length; `bench -workers N` in this
// process is measured for as long, in the same round, before or after them in turn (rounds
// alternate the order), and each round gives the ratio in-process ÷ processes.

// benchWindowEnv carries a bench child's window: "START,END,WORKER" (Unix nanoseconds, and the
// worker index whose games it plays). Only bench -procs sets it.
const benchWindowEnv = "FAIRPLAY_BENCH_WINDOW"

// benchWindow is a child's share of bench -procs.
type benchWindow struct {
	start, end time.Time
	worker     int
}

func parseBenchWindow(s string) (benchWindow, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return benchWindow{}, fmt.Errorf("%s=%q: want START,END,WORKER", benchWindowEnv, s)
	}
	var v [3]int64
	for i, p := range parts {
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil || n < 0 {
			return benchWindow{}, fmt.Errorf("%s=%q: want START,END,WORKER", benchWindowEnv, s)
		}
		v[i] = n
	}
	w := benchWindow{start: time.Unix(0, v[0]), end: time.Unix(0, v[1]), worker: int(v[2])}
	if !w.end.After(w.start) {
		return benchWindow{}, fmt.Errorf("%s=%q: the window ends before it starts", benchWindowEnv, s)
	}
	return w, nil
}

// benchChildResult is what a bench -procs child prints: its games and plies, and when it
// started and stopped playing (Unix nanoseconds).
type benchChildResult struct {
	Games   int64 `json:"games"`
	Plies   int64 `json:"plies"`
	Started int64 `json:"started_unix_ns"`
	Stopped int64 `json:"stopped_unix_ns"`
}

// benchChild is a bench -procs child: it waits for the window's start, plays until its end
// (the stop is checked every 64 games from the 64th on, as bench's workers do: a child the OS
// starts late still measures some games) and prints one JSON line.
func benchChild(ctx context.Context, gm *games.Game, seed uint64, w benchWindow, stdout io.Writer) error {
	select {
	case <-time.After(time.Until(w.start)):
	case <-ctx.Done():
		return errInterrupted
	}
	started := time.Now()
	t := playouts(gm, seed, w.worker, func(n int64) bool {
		return n > 0 && n&63 == 0 && (time.Now().After(w.end) || ctx.Err() != nil)
	})
	stopped := time.Now()
	if ctx.Err() != nil {
		return errInterrupted
	}
	return json.NewEncoder(stdout).Encode(benchChildResult{Games: t.games, Plies: t.plies,
		Started: started.UnixNano(), Stopped: stopped.UnixNano()})
}

// BenchProcsRound is one round of bench -procs.
type BenchProcsRound struct {
	ProcsFirst bool `json:"procs_first"`
	// ProcsPliesPerSec: the plies the processes played in the window over its length (from
	// the common start to the last process's stop).
	ProcsPliesPerSec float64 `json:"procs_plies_per_sec"`
	// PerProcess: each process's plies over its own time from start to stop.
	PerProcess []float64 `json:"per_process_plies_per_sec"`
	// LateSeconds: how long after the common start the last process began to play (a wake-up
	// takes well under a millisecond on an idle machine; bench warns above 1% of the window).
	LateSeconds          float64 `json:"late_seconds"`
	InProcessPliesPerSec float64 `json:"in_process_plies_per_sec"`
	// PerWorker: each in-process worker's plies over the in-process run's time. Against
	// PerProcess it tells a few slow workers (two workers writing one cache line slow each
	// other) from all of them slower.
	PerWorker []float64 `json:"per_worker_plies_per_sec"`
	Ratio     float64   `json:"in_process_over_procs"`
}

// BenchProcsResult is bench -procs's JSON output.
type BenchProcsResult struct {
	Game       string            `json:"game"`
	Rules      string            `json:"rules"`
	Layout     string            `json:"layout,omitempty"`
	Procs      int               `json:"procs"`
	Seconds    float64           `json:"seconds"`
	GOMAXPROCS int               `json:"gomaxprocs"`
	Rounds     []BenchProcsRound `json:"rounds"`
	Ratio      BenchPlayRatio    `json:"ratio"` // in-process ÷ processes over the rounds
	Method     string            `json:"method"`
}

// benchProcsOpts are bench -procs's settings.
type benchProcsOpts struct {
	procs, rounds int
	seconds       float64
	seed          uint64
	json          bool
}

func benchProcs(ctx context.Context, gm *games.Game, gf gameFlags, o benchProcsOpts, stdout, stderr io.Writer) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("bench -procs: this binary's path: %w", err)
	}
	out := BenchProcsResult{Game: gm.Name(), Rules: gm.Rules(), Layout: gm.Layout(), Procs: o.procs, Seconds: o.seconds,
		GOMAXPROCS: runtime.GOMAXPROCS(0), Method: stats.MethodMedianCI}
	fmt.Fprintf(stderr, "fairplay bench -procs: %d rounds of %d processes and %d workers, %.1f s each\n", o.rounds, o.procs, o.procs, o.seconds)
	for r := 0; r < o.rounds; r++ {
		rd := BenchProcsRound{ProcsFirst: r%2 == 0}
		for _, procs := range []bool{rd.ProcsFirst, !rd.ProcsFirst} {
			if procs {
				if err := runBenchProcs(ctx, exe, gf, o, &rd); err != nil {
					return err
				}
				continue
			}
			per := make([]int64, o.procs)
			t, el := benchCounted(gm, o.seed, o.procs, func(_ int, i int64) bool {
				return i&63 == 0 && ctx.Err() != nil
			}, o.seconds, per)
			rd.InProcessPliesPerSec = float64(t.plies) / el
			for _, p := range per {
				rd.PerWorker = append(rd.PerWorker, float64(p)/el)
			}
		}
		if ctx.Err() != nil {
			return errInterrupted
		}
		rd.Ratio = rd.InProcessPliesPerSec / rd.ProcsPliesPerSec
		if rd.LateSeconds > math.Max(0.005, o.seconds/100) {
			fmt.Fprintf(stderr, "warning: round %d: a process began %.3f s after the common start (a loaded machine?)\n", r+1, rd.LateSeconds)
		}
		fmt.Fprintf(stderr, "round %d/%d: processes %.0f, in-process %.0f plies/s, ratio %.3f\n", r+1, o.rounds,
			rd.ProcsPliesPerSec, rd.InProcessPliesPerSec, rd.Ratio)
		out.Rounds = append(out.Rounds, rd)
	}
	xs := make([]float64, len(out.Rounds))
	for i, rd := range out.Rounds {
		xs[i] = rd.Ratio
	}
	out.Ratio = BenchPlayRatio{Name: fmt.Sprintf("bench -workers %d / %d processes", o.procs, o.procs), Rounds: xs}
	out.Ratio.Median, out.Ratio.Lo, out.Ratio.Hi, out.Ratio.Coverage = stats.MedianCI(xs, 0.95)
	if o.json {
		return json.NewEncoder(stdout).Encode(out)
	}
	printGame(stdout, out.Game, out.Rules, out.Layout)
	fmt.Fprintf(stdout, "\nbench -workers %d in one process against %d processes of bench -workers 1 playing one common window, %.1f s each, GOMAXPROCS %d\n",
		o.procs, o.procs, o.seconds, out.GOMAXPROCS)
	fmt.Fprintf(stdout, "%-6s %-12s %16s %18s %10s  %-28s %s\n", "round", "first", "processes pl/s", "in-process pl/s", "ratio",
		"per process pl/s (min-max)", "per worker pl/s (min-max)")
	for i, rd := range out.Rounds {
		first := "in-process"
		if rd.ProcsFirst {
			first = "processes"
		}
		fmt.Fprintf(stdout, "%-6d %-12s %16.0f %18.0f %10.3f  %-28s %s\n", i+1, first, rd.ProcsPliesPerSec, rd.InProcessPliesPerSec, rd.Ratio,
			minMax(rd.PerProcess), minMax(rd.PerWorker))
	}
	fmt.Fprintf(stdout, "in-process / processes: median %.3f [%.3f, %.3f] (coverage %.3f; %s, over rounds)\n",
		out.Ratio.Median, out.Ratio.Lo, out.Ratio.Hi, out.Ratio.Coverage, stats.MethodMedianCI)
	return nil
}

// runBenchProcs starts o.procs children of exe over one common window of o.seconds and
// records their total in rd.
func runBenchProcs(ctx context.Context, exe string, gf gameFlags, o benchProcsOpts, rd *BenchProcsRound) error {
	// The start leaves time for every process to start (a Go binary's start is milliseconds;
	// on a loaded machine many more).
	start := time.Now().Add(300*time.Millisecond + time.Duration(o.procs)*50*time.Millisecond)
	end := start.Add(time.Duration(o.seconds * float64(time.Second)))
	type child struct {
		cmd         *exec.Cmd
		out, errOut bytes.Buffer
	}
	args := []string{"bench", "-game", gf.game, "-seed", strconv.FormatUint(o.seed, 10), "-workers", "1"}
	for _, f := range [][2]string{{"-rules", gf.rules}, {"-layout", gf.layoutGiven()}, {"-tiles", gf.tiles}} {
		if f[1] != "" {
			args = append(args, f[0], f[1])
		}
	}
	children := make([]*child, o.procs)
	for k := range children {
		c := &child{cmd: exec.CommandContext(ctx, exe, args...)}
		c.cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d,%d,%d", benchWindowEnv, start.UnixNano(), end.UnixNano(), k))
		c.cmd.Stdout, c.cmd.Stderr = &c.out, &c.errOut
		if err := c.cmd.Start(); err != nil {
			for _, o := range children[:k] {
				o.cmd.Process.Kill()
				o.cmd.Wait()
			}
			return fmt.Errorf("bench -procs: starting process %d: %w", k, err)
		}
		children[k] = c
	}
	var firstErr error
	for k, c := range children {
		if err := c.cmd.Wait(); err != nil && firstErr == nil {
			firstErr = fmt.Errorf("bench -procs: process %d: %v: %s", k, err, strings.TrimSpace(c.errOut.String()))
		}
	}
	if ctx.Err() != nil {
		return errInterrupted
	}
	if firstErr != nil {
		return firstErr
	}
	var plies int64
	last := end
	for k, c := range children {
		var res benchChildResult
		if err := json.Unmarshal(c.out.Bytes(), &res); err != nil {
			return fmt.Errorf("bench -procs: process %d printed %q: %v", k, c.out.String(), err)
		}
		plies += res.Plies
		started, stopped := time.Unix(0, res.Started), time.Unix(0, res.Stopped)
		if stopped.After(last) {
			last = stopped
		}
		rd.LateSeconds = math.Max(rd.LateSeconds, started.Sub(start).Seconds())
		rd.PerProcess = append(rd.PerProcess, float64(res.Plies)/math.Max(stopped.Sub(started).Seconds(), 1e-9))
	}
	rd.ProcsPliesPerSec = float64(plies) / last.Sub(start).Seconds()
	return nil
}

// minMax formats the least and the greatest of xs as "min-max".
func minMax(xs []float64) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range xs {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return fmt.Sprintf("%.0f-%.0f", lo, hi)
}
