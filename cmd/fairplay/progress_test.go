package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fairplay-lab/fairplay/runner"
)

func TestProgressLines(t *testing.T) {
	var done atomic.Int64
	var b bytes.Buffer
	t0 := time.Now()
	// The terminal bar (progressbar/v3), with our count, rate and ETA after it.
	p := &progress{w: &b, bar: true, total: 1000, unit: "games", done: done.Load, start: t0}
	done.Store(100)
	p.draw(t0.Add(2 * time.Second))
	if got := screen(b.String()); len(got) != 1 || !strings.Contains(got[0], "10% [=>") || !strings.Contains(got[0], "100/1000 games, 50 games/s, ETA 18s") {
		t.Errorf("bar %q (raw %q)", got, b.String())
	}
	// Non-terminal output: plain periodic lines.
	b.Reset()
	p = &progress{w: &b, total: 1000, unit: "games", done: done.Load, start: t0}
	p.draw(t0.Add(2 * time.Second))
	if got := b.String(); got != "progress: 100/1000 games (10.0%), 50 games/s, ETA 18s\n" {
		t.Errorf("line %q", got)
	}
	// A resumed run: done counts this session's games only, so the rate is this session's.
	b.Reset()
	p = &progress{w: &b, total: 50000, capped: true, unit: "games", done: done.Load, start: t0}
	done.Store(300)
	p.draw(t0.Add(3 * time.Second))
	if got := b.String(); got != "progress: 300 games (stops at its decision, at most 50000), 100 games/s\n" {
		t.Errorf("capped line %q (no ETA from the cap)", got)
	}
	// Before a second has passed there is no rate (no "2.6M games/s" from a first tiny interval).
	b.Reset()
	p = &progress{w: &b, total: 10, unit: "games", done: done.Load, start: t0}
	p.draw(t0.Add(time.Millisecond))
	if got := b.String(); !strings.Contains(got, "- games/s, ETA -") {
		t.Errorf("early line %q", got)
	}
}

// TestProgressSlowRun: games of several seconds each. The rate then looks back past rateWindow
// to the last rateItems games (a 20 s window holds two or three, and its rate swings); plain
// lines come every 5 s for the first minute, then every 30 s. The ticks drive the display as
// Start's ticker does.
func TestProgressSlowRun(t *testing.T) {
	var done atomic.Int64
	var b bytes.Buffer
	t0 := time.Now()
	p := &progress{w: &b, total: 1200, unit: "games", done: done.Load, start: t0}
	lines := 0
	rateAt := func(s int) float64 {
		t.Helper()
		line := b.String()
		i := strings.Index(line, "), ")
		var rate float64
		if i < 0 || !strings.Contains(line, "games/s, ETA ") || strings.Contains(line, "ETA -") {
			t.Fatalf("at %d s: line %q", s, line)
		}
		if _, err := fmt.Sscanf(line[i+3:], "%g", &rate); err != nil {
			t.Fatalf("at %d s: line %q: %v", s, line, err)
		}
		return rate
	}
	for s := 5; s <= 3600; s += 5 { // the ticker, every lineEvery
		// One game every 8 s, but in bursts: two games at once every 16 s.
		done.Store(int64(s/16) * 2)
		b.Reset()
		p.tick(t0.Add(time.Duration(s) * time.Second))
		if b.Len() == 0 {
			continue
		}
		lines++
		// After two minutes every line shows about 0.125 games/s (a 20 or 30 s window would
		// swing between 0.067 and 0.13 with these bursts) and an ETA from it.
		if s < 120 {
			continue
		}
		if r := rateAt(s); r < 0.10 || r > 0.14 {
			t.Errorf("at %d s: rate %v, want about 0.125", s, r)
		}
	}
	// 11 lines in the first minute (5-55 s), then one every 30 s: 11 + 118 in the hour.
	if lines != 129 {
		t.Errorf("%d lines in an hour, want 129", lines)
	}
	// Samples older than the horizon are dropped.
	if old := t0.Add(3600*time.Second - rateHorizon - 6*time.Second); p.samples[1].t.Before(old) {
		t.Errorf("a sample from %v kept past the horizon", p.samples[1].t.Sub(t0))
	}
	// The run speeds up to 2 games a second: within a minute the rate follows (a rate since
	// the start would stay near 0.2).
	base := done.Load()
	for s := 3605; s <= 3660; s += 5 {
		done.Store(base + int64(s-3600)*2)
		b.Reset()
		p.tick(t0.Add(time.Duration(s) * time.Second))
		if b.Len() > 0 && s >= 3630 {
			if r := rateAt(s); r < 1.8 || r > 2.2 {
				t.Errorf("at %d s, after the speed-up: rate %v, want about 2", s, r)
			}
		}
	}
	// A first draw long after the start, with no sample yet, does not fail.
	q := &progress{w: &b, total: 10, unit: "games", done: done.Load, start: t0}
	b.Reset()
	q.draw(t0.Add(time.Hour))
	if !strings.HasPrefix(b.String(), "progress: ") {
		t.Errorf("late first line %q", b.String())
	}
}

// TestProgressShortSessions: a study of twenty 20-second runs, each its own session and
// display, on one process's line clock, logs at the pace of one long run: a line every 5 s in
// the process's first minute, then every 30 s, and not three lines a run.
func TestProgressShortSessions(t *testing.T) {
	ctx := withLineClock(context.Background())
	if withLineClock(ctx) != ctx {
		t.Fatal("withLineClock replaced a context's line clock")
	}
	if a, b := newProgress(ctx, "auto", io.Discard).(*progressDisplay), newProgress(ctx, "auto", io.Discard).(*progressDisplay); a.clock != b.clock {
		t.Fatal("two displays under one context have two line clocks")
	}
	if a, b := newProgress(context.Background(), "auto", io.Discard).(*progressDisplay), newProgress(context.Background(), "auto", io.Discard).(*progressDisplay); a.clock == b.clock {
		t.Fatal("displays without a context's clock share one")
	}
	clock := ctx.Value(lineClockKey{}).(*lineClock)
	var done atomic.Int64
	// A session of a plain display runs on the display's clock, and starts it.
	d := newProgress(ctx, "auto", io.Discard).(*progressDisplay)
	t0 := time.Now()
	stop := d.Start(10, "games", done.Load)
	d.mu.Lock()
	cur := d.cur
	d.mu.Unlock()
	stop()
	if cur.clock != clock {
		t.Fatal("a session does not run on its display's line clock")
	}
	if clock.began.Before(t0) || clock.began.After(time.Now()) {
		t.Fatalf("the first session left the clock started at %v", clock.began)
	}
	*clock = lineClock{} // the sessions below start it afresh, at their own times
	var b bytes.Buffer
	t0 = time.Now()
	var at []int // seconds since t0 of each line
	for k := 0; k < 20; k++ {
		start := 20 * k
		p := &progress{w: &b, total: 40, unit: "games", done: done.Load, start: t0.Add(time.Duration(start) * time.Second), clock: clock}
		for s := start + 5; s < start+20; s += 5 { // the session's ticker
			done.Store(int64(s-start) * 2)
			b.Reset()
			p.tick(t0.Add(time.Duration(s) * time.Second))
			if b.Len() > 0 {
				at = append(at, s)
			}
		}
	}
	// First minute: 5, 10, 15, 25, 30, 35, 45, 50, 55 (each run's ticks at 5, 10 and 15 s).
	// Then 30 s after the last line, at the first tick: 85, 115, ..., 385.
	want := []int{5, 10, 15, 25, 30, 35, 45, 50, 55}
	for s := 85; s <= 385; s += 30 {
		want = append(want, s)
	}
	if fmt.Sprint(at) != fmt.Sprint(want) {
		t.Errorf("lines at %v s, want %v", at, want)
	}
}

// screen returns what a terminal shows after out: its lines, trailing blanks trimmed. It knows
// what the progress display writes: text, \r, \n and the erase-line sequences ESC[K, ESC[0K
// and ESC[2K; lines do not wrap.
func screen(out string) []string {
	lines := [][]rune{nil}
	row, col := 0, 0
	rs := []rune(out)
	for i := 0; i < len(rs); i++ {
		switch c := rs[i]; {
		case c == '\r':
			col = 0
		case c == '\n':
			row, col = row+1, 0
			if row == len(lines) {
				lines = append(lines, nil)
			}
		case c == '\033' && i+1 < len(rs) && rs[i+1] == '[':
			j := i + 2
			for j < len(rs) && rs[j] >= '0' && rs[j] <= '9' {
				j++
			}
			if j < len(rs) && rs[j] == 'K' {
				if string(rs[i+2:j]) == "2" {
					lines[row] = nil
				} else if col < len(lines[row]) {
					lines[row] = lines[row][:col]
				}
			}
			i = j
		default:
			for len(lines[row]) <= col {
				lines[row] = append(lines[row], ' ')
			}
			lines[row][col] = c
			col++
		}
	}
	s := make([]string, len(lines))
	for i, l := range lines {
		s[i] = strings.TrimRight(string(l), " ")
	}
	return s
}

// TestProgressBarTerminal forces the terminal path ("always", on a buffer) and checks what a
// terminal would show: each line printed above the bar whole on a line of its own, the bar
// redrawn under them, and the bar's line finished (a newline) when the display stops.
func TestProgressBarTerminal(t *testing.T) {
	var done atomic.Int64
	var b bytes.Buffer
	h := newProgress(context.Background(), "always", &b).(*progressDisplay)
	stop := h.Start(100, "games", done.Load)
	h.mu.Lock()
	p := h.cur
	h.mu.Unlock()
	const reports = 12
	for i := range reports {
		done.Store(min(int64(10*i), 100))
		p.mu.Lock()
		p.draw(time.Now()) // a bar on screen, as the ticker would draw it
		p.mu.Unlock()
		h.PrintAbove(func() { fmt.Fprintf(&b, "SPRT report %d: LLR %.2f\n", i, 0.1*float64(i)) })
	}
	stop() // the bar is full by now: the last reports printed above a finished bar
	out := b.String()
	if !strings.HasSuffix(out, "\n") {
		t.Errorf("stop leaves the bar's line open: %q", out)
	}
	got := screen(out)
	if len(got) != reports+2 {
		t.Fatalf("screen %q (raw %q)", got, out)
	}
	for i := range reports {
		if want := fmt.Sprintf("SPRT report %d: LLR %.2f", i, 0.1*float64(i)); got[i] != want {
			t.Errorf("line %d: %q, want %q (raw %q)", i, got[i], want, out)
		}
	}
	if bar := got[reports]; !strings.Contains(bar, "100% [====") || !strings.Contains(bar, "100/100 games") {
		t.Errorf("the bar under the reports: %q", bar)
	}
	if got[reports+1] != "" {
		t.Errorf("after the bar: %q", got[reports+1])
	}
	if h.cur != nil {
		t.Error("the display keeps a stopped session's bar")
	}
	var nb bytes.Buffer
	h.PrintAbove(func() { nb.WriteString("x\n") }) // no display: printed as is
	if nb.String() != "x\n" {
		t.Errorf("%q", nb.String())
	}
}

// TestProgressBarCapped: a sequential test's display (a cap, not a goal) on a terminal is a
// spinner with our count and rate, and no ETA; lines printed while the ticker draws come out
// whole.
func TestProgressBarCapped(t *testing.T) {
	var done atomic.Int64
	var b bytes.Buffer
	h := newProgress(context.Background(), "always", &b)
	stop := h.Start(-50000, "games", done.Load)
	for i := range 5 {
		done.Add(7)
		h.PrintAbove(func() { fmt.Fprintf(&b, "report %d\n", i) })
		time.Sleep(250 * time.Millisecond) // the ticker redraws in between
	}
	stop()
	out := b.String()
	got := screen(out)
	if len(got) != 7 || !strings.HasSuffix(out, "\n") || got[6] != "" {
		t.Fatalf("screen %q (raw %q)", got, out)
	}
	for i := range 5 {
		if want := fmt.Sprintf("report %d", i); got[i] != want {
			t.Errorf("line %d: %q, want %q", i, got[i], want)
		}
	}
	if s := got[5]; !strings.Contains(s, "35 games (stops at its decision, at most 50000)") || strings.Contains(s, "ETA") ||
		strings.Contains(s, "[") {
		t.Errorf("capped display %q (no bar toward the cap, no ETA)", s)
	}
}

// TestProgressNever: -progress never is no display, and a session without one shows nothing
// and prints above nothing.
func TestProgressNever(t *testing.T) {
	var done atomic.Int64
	var b bytes.Buffer
	p := newProgress(context.Background(), "never", &b)
	if p != nil {
		t.Fatalf("-progress never: display %T", p)
	}
	s := runner.Session{Progress: p}
	s.StartProgress(10, "games", done.Load)()
	s.PrintAbove(func() { b.WriteString("x\n") })
	if b.String() != "x\n" {
		t.Errorf("%q", b.String())
	}
	// auto on a buffer (not a terminal): plain lines, not a bar.
	if d := newProgress(context.Background(), "auto", &b).(*progressDisplay); d.bar {
		t.Error("-progress auto draws a bar on a non-terminal")
	}
}
