package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"time"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
)

// AgentBenchResult is what `fairplay bench -agent SPEC -json` prints.
type AgentBenchResult struct {
	Game        string  `json:"game"`
	Rules       string  `json:"rules"`
	Layout      string  `json:"layout,omitempty"`
	Agent       string  `json:"agent"`
	Positions   int     `json:"positions"` // distinct positions searched (cycled until the time is up)
	Moves       int64   `json:"moves"`
	Seconds     float64 `json:"seconds"`
	MsPerMove   float64 `json:"ms_per_move"`
	MsMedian    float64 `json:"ms_per_move_median"`
	MovesPerSec float64 `json:"moves_per_sec"`
	Work        int64   `json:"work,omitempty"`      // nodes or playouts, when the agent counts them
	WorkUnit    string  `json:"work_unit,omitempty"` // "nodes" or "playouts"
	WorkPerSec  float64 `json:"work_per_sec,omitempty"`
	GoVersion   string  `json:"go_version"`
	GOMAXPROCS  int     `json:"gomaxprocs"`
}

// benchPositions returns n positions reached by uniformly random plies from the start (5 to
// 40 plies, none terminal), position i a pure function of (seed, i).
func benchPositions(gm *games.Game, n int, seed uint64) []engine.State {
	var out []engine.State
	buf := make([]engine.Action, 0, engine.MaxActions)
	firsts := gm.FirstColours()
	for i := 0; len(out) < n && i < 100*n; i++ {
		r := engine.NewRand(engine.Derive(seed, uint64(i)))
		s := gm.Start(firsts[i%len(firsts)])
		plies := 5 + r.IntN(36)
		for s.Ply() < plies {
			buf = s.Legal(buf[:0])
			if len(buf) == 0 {
				break
			}
			s.Apply(buf[r.IntN(len(buf))])
		}
		if buf = s.Legal(buf[:0]); len(buf) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// benchAgent measures one searching agent on one core: it chooses a move in each of a fixed
// set of positions (a fresh player per position, so no table or tree carries over), cycling
// until the time is up and at least one pass is done, and reports ms per move and, when the
// player counts them (agents.SearchStats), nodes or playouts per second.
func benchAgent(ctx context.Context, gm *games.Game, spec string, seconds float64, positions int, seed uint64, asJSON bool, stdout io.Writer) error {
	ag, err := agents.Parse(spec)
	if err != nil {
		return usagef("-agent: %v", err)
	}
	if err := agents.Check(ag, gm.Name()); err != nil {
		return usagef("-agent %s: %v", spec, err)
	}
	defer agents.Release(ag) // an external bot's process kept between positions
	if positions < 1 || positions > 10000 {
		return usagef("-positions %d: want 1..10000", positions)
	}
	states := benchPositions(gm, positions, seed)
	if len(states) == 0 {
		return fmt.Errorf("no playable position found")
	}
	res := AgentBenchResult{Game: gm.Name(), Rules: gm.Rules(), Layout: gm.Layout(), Agent: ag.Spec(), Positions: len(states),
		GoVersion: runtime.Version(), GOMAXPROCS: runtime.GOMAXPROCS(0)}
	var times []float64
	legal := make([]engine.Action, 0, engine.MaxActions)
	deadline := time.Now().Add(time.Duration(seconds * float64(time.Second)))
	var total time.Duration
	for i := 0; i < len(states) || time.Now().Before(deadline); i++ {
		if ctx.Err() != nil {
			return errInterrupted
		}
		s := states[i%len(states)]
		legal = s.Legal(legal[:0])
		pl, err := ag.NewPlayer(gm.Name())
		if err != nil {
			return err
		}
		if sp, ok := pl.(agents.Stopper); ok {
			sp.SetStop(func() bool { return ctx.Err() != nil })
		}
		r := engine.NewRand(engine.Derive(seed, uint64(1000000+i)))
		t0 := time.Now()
		_, err = pl.Choose(s, legal, r)
		el := time.Since(t0)
		if st, ok := pl.(agents.SearchStats); ok {
			w, unit := st.SearchWork()
			res.Work += w
			res.WorkUnit = unit
		}
		if c, ok := pl.(agents.Closer); ok {
			c.Close()
		}
		if errors.Is(err, agents.ErrStopped) {
			return errInterrupted
		}
		if err != nil {
			return fmt.Errorf("%s: %v", ag.Spec(), err)
		}
		total += el
		times = append(times, float64(el)/float64(time.Millisecond))
		res.Moves++
	}
	res.Seconds = total.Seconds()
	res.MsPerMove = res.Seconds * 1000 / float64(res.Moves)
	slices.Sort(times)
	res.MsMedian = times[len(times)/2]
	res.MovesPerSec = float64(res.Moves) / res.Seconds
	if res.WorkUnit != "" {
		res.WorkPerSec = float64(res.Work) / res.Seconds
	}
	if asJSON {
		return json.NewEncoder(stdout).Encode(res)
	}
	fmt.Fprintf(stdout, "game %s  rules %s", res.Game, res.Rules)
	if res.Layout != "" {
		fmt.Fprintf(stdout, "  layout %s", res.Layout)
	}
	fmt.Fprintf(stdout, "\nagent %s, one core, %d positions (random plies from the start), %d moves in %.2f s of search\n", res.Agent, res.Positions, res.Moves, res.Seconds)
	fmt.Fprintf(stdout, "%.3f ms/move (median %.3f), %.1f moves/s", res.MsPerMove, res.MsMedian, res.MovesPerSec)
	if res.WorkUnit != "" {
		fmt.Fprintf(stdout, ", %.0f %s/s, %.0f %s/move", res.WorkPerSec, res.WorkUnit, float64(res.Work)/float64(res.Moves), res.WorkUnit)
	} else {
		fmt.Fprintf(stdout, " (the agent does not count nodes or playouts)")
	}
	fmt.Fprintln(stdout)
	return nil
}
