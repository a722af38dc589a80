package agents

import (
	"fmt"
	"time"
)

// budget bounds one search: a node (or playout) count, a wall-clock time, and the runner's stop
// function. Node budgets are deterministic; time budgets are not.
type budget struct {
	nodes    int64         // limit per move; 0: none
	movetime time.Duration // limit per move; 0: none
	stop     func() bool   // the runner's stop request (agents.Stopper); nil: none
	start    time.Time
	count    int64 // nodes or playouts of this move
	armed    bool  // whether the node and time limits apply (not during a first, short iteration)
	out      bool  // the search must unwind
	stopped  bool  // it must unwind because stop reported true
}

// begin starts a move.
func (b *budget) begin() {
	b.count, b.out, b.stopped, b.armed = 0, false, false, true
	if b.movetime > 0 {
		b.start = time.Now()
	}
}

// tick counts one node and reports whether the search must unwind. The clock and the stop
// function are polled every 256 nodes (well under a millisecond in either game).
func (b *budget) tick() bool {
	b.count++
	if b.armed && b.nodes > 0 && b.count > b.nodes {
		b.out = true
	}
	if b.count&255 == 0 {
		b.poll()
	}
	return b.out
}

// poll checks the stop function and the clock.
func (b *budget) poll() {
	if b.stop != nil && b.stop() {
		b.out, b.stopped = true, true
	}
	if b.armed && b.movetime > 0 && time.Since(b.start) >= b.movetime {
		b.out = true
	}
}

// elapsed is the time since begin (zero without a time budget).
func (b *budget) elapsed() time.Duration {
	if b.movetime == 0 {
		return 0
	}
	return time.Since(b.start)
}

// parseMovetime reads a movetime parameter: 0 for none, else a Go duration from 1ms to 1h.
func parseMovetime(p Params) (time.Duration, error) {
	v := p.String("movetime")
	if v == "0" || v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < time.Millisecond || d > time.Hour {
		return 0, fmt.Errorf("agent %s: movetime=%q: want 0 or a duration from 1ms to 1h such as 100ms", p.kind, v)
	}
	return d, nil
}

// switches reads 0/1 parameters into dst, in order of names.
func (p Params) switches(names []string, dst ...*bool) error {
	for i, n := range names {
		v, err := p.Int(n, 0, 1)
		if err != nil {
			return err
		}
		*dst[i] = v == 1
	}
	return nil
}
