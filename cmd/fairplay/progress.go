package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/fairplay-lab/fairplay/runner"
)

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progress draws a session's progress: a progressbar/v3 bar redrawn in place on a terminal, or
// a plain line every few seconds otherwise (every 5 s in the first minute of its line clock,
// then every 30 s). Workers only count (done reads their count); one goroutine draws, under
// mu, which also guards lines other code prints while the bar is up (see PrintAbove). The
// bar's text (count, rate, ETA) is ours, so that the rate is this session's recent one and a
// capped run shows no ETA: progressbar's own rate and time prediction are off.
type progress struct {
	mu      sync.Mutex
	w       io.Writer
	bar     bool
	total   int64 // items planned; with capped, the most there can be (a sequential test's cap)
	capped  bool
	unit    string
	done    func() int64
	start   time.Time
	samples []sample                 // recent (time, done) pairs for the rate, oldest first
	pb      *progressbar.ProgressBar // the terminal bar, made on the first draw
	drawn   bool                     // a bar line is on screen without its newline
	clock   *lineClock               // when plain lines are due; nil: the session's own
}

// lineClock paces the plain lines of every session of a process (on stderr): a study's
// runs, a ladder's levels. The first minute is counted from the start of the first session
// with plain lines, and a new session waits out the gap since the last line of the one
// before, so that a study of many short runs logs no faster than one long run. The sessions
// on a clock run one at a time (two at once could each print a line at the same tick).
type lineClock struct {
	mu    sync.Mutex
	began time.Time // the first session's start; zero before it
	lined time.Time // when the last plain line was printed; zero before it
}

// lineClockKey holds a process's *lineClock in a context (withLineClock).
type lineClockKey struct{}

// withLineClock gives ctx a line clock, unless it holds one: every command run under it (a
// study's runs through run) paces its plain lines on that one clock.
func withLineClock(ctx context.Context) context.Context {
	if _, ok := ctx.Value(lineClockKey{}).(*lineClock); ok {
		return ctx
	}
	return context.WithValue(ctx, lineClockKey{}, &lineClock{})
}

type sample struct {
	t time.Time
	n int64
}

// The displayed rate is that of the last rateWindow, long enough to be steady and short
// enough to follow a change of speed, unless fewer than rateItems items finished in it (a run
// of slow games): then it looks further back, to the last rateItems items, up to rateHorizon.
const (
	rateWindow  = 20 * time.Second
	rateItems   = 10
	rateHorizon = 10 * time.Minute
)

// Plain lines (not a terminal) come every lineEvery for the first lineBurst, then every
// lineLater: a long session's log stays readable (about 130 lines in its first hour).
const (
	lineEvery = 5 * time.Second
	lineBurst = time.Minute
	lineLater = 30 * time.Second
)

// progressDisplay is the runs' progress display on w (stderr), the runner.Progress of the
// -progress flag: a bar (items done, rate, ETA) when the mode is "always", or "auto" and w is a
// terminal; plain lines when the mode is "auto" and w is not a terminal (lineEvery, then
// lineLater).
// It shows one session's progress at a time (cur, between Start and its stop).
type progressDisplay struct {
	w     io.Writer
	bar   bool
	clock *lineClock // the plain lines' pace, shared with the process's other displays
	mu    sync.Mutex
	cur   *progress // the display up now; nil between sessions
}

// newProgress makes the display of -progress mode on w: none (nil) for "never". Its plain
// lines keep the pace of ctx's line clock (withLineClock), or of their own without one.
func newProgress(ctx context.Context, mode string, w io.Writer) runner.Progress {
	if mode == "never" || w == nil {
		return nil
	}
	clock, ok := ctx.Value(lineClockKey{}).(*lineClock)
	if !ok {
		clock = &lineClock{}
	}
	return &progressDisplay{w: w, bar: mode == "always" || (mode == "auto" && isTerminal(w)), clock: clock}
}

// PrintAbove runs print (which writes whole lines to the terminal) with the progress bar, if
// one is up, cleared first and redrawn after, so that neither garbles the other.
func (d *progressDisplay) PrintAbove(print func()) {
	d.mu.Lock()
	p := d.cur
	d.mu.Unlock()
	if p == nil || !p.bar {
		print()
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	print()
	p.draw(time.Now())
}

// Start shows progress of total work items (unit: "games", "boards", "iterations") until the
// returned stop is called. A negative total is a cap rather than a goal (a sequential test
// stops when it decides): the display then shows no ETA (and on a terminal a spinner rather
// than a bar toward the cap). done counts only the items of this session (not those of a
// resumed run's earlier sessions): the rate is theirs over the last rateWindow, or over the
// last rateItems items when fewer finished in it. stop ends the
// bar's line, so that what is printed next starts on a line of its own.
func (d *progressDisplay) Start(total int64, unit string, done func() int64) (stop func()) {
	if total == 0 {
		return func() {}
	}
	p := &progress{w: d.w, bar: d.bar, total: total, unit: unit, done: done, start: time.Now(), capped: total < 0, clock: d.clock}
	if p.capped {
		p.total = -total
	}
	if !p.bar {
		p.pace() // starts the line clock if this is its first session
	}
	d.mu.Lock()
	d.cur = p
	d.mu.Unlock()
	quit, finished := make(chan struct{}), make(chan struct{})
	every := lineEvery
	if p.bar {
		every = 200 * time.Millisecond
	}
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-quit:
				p.mu.Lock()
				if p.bar {
					p.draw(time.Now())
				}
				p.end()
				p.mu.Unlock()
				return
			case now := <-t.C:
				p.mu.Lock()
				p.tick(now)
				p.mu.Unlock()
			}
		}
	}()
	return func() {
		close(quit)
		<-finished
		d.mu.Lock()
		if d.cur == p {
			d.cur = nil
		}
		d.mu.Unlock()
	}
}

// newBar makes the terminal bar: progressbar/v3 drawing on p.w, with our text after it.
// Nothing in it draws on its own (no spinner goroutine, no throttle): all drawing happens in
// draw, clear and end, under p.mu. A capped run gets a spinner (max -1) rather than a bar
// filling toward a cap it will likely never reach.
func (p *progress) newBar() *progressbar.ProgressBar {
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetTheme(progressbar.Theme{Saucer: "=", SaucerHead: ">", SaucerPadding: " ", BarStart: "[", BarEnd: "]"}),
		progressbar.OptionSetWidth(24),
		// No OptionShowIts: our own rate, over this session's recent window, is in the description.
		progressbar.OptionSetPredictTime(false),
		progressbar.OptionSetElapsedTime(false),
		progressbar.OptionSetSpinnerChangeInterval(0),
		progressbar.OptionThrottle(0),
	}
	max := p.total
	if p.capped {
		max = -1
	} else {
		opts = append(opts, progressbar.OptionShowDescriptionAtLineEnd()) // the bar first, then our text
	}
	return progressbar.NewOptions64(max, opts...)
}

// clear erases the bar's line, if one is on screen, and leaves the cursor at its start.
// p.mu is held.
func (p *progress) clear() {
	if p.pb != nil && p.drawn {
		p.pb.Clear()
	}
	p.drawn = false
}

// end finishes the bar's line (a newline after it), so that what follows starts on a line of
// its own. p.mu is held.
func (p *progress) end() {
	if p.drawn {
		fmt.Fprintln(p.w)
		p.drawn = false
	}
}

// tick is the display's clock at now: the bar is redrawn; a plain line is printed when one is
// due, and otherwise the count is only sampled, so that the rate's window is as fine as the
// ticks. p.mu is held.
func (p *progress) tick(now time.Time) {
	if p.bar || p.lineDue(now) {
		p.draw(now)
		return
	}
	n := p.done()
	p.rateFrom(now, n)
	p.samples = append(p.samples, sample{now, n})
}

// lineDue reports whether a plain line is due at now: lineEvery since the last one during the
// first lineBurst of the line clock, lineLater after it (the ticker fires every lineEvery).
// It starts the clock if this is its first session.
func (p *progress) lineDue(now time.Time) bool {
	c := p.pace()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lined.IsZero() {
		return true
	}
	gap := lineEvery
	if now.Sub(c.began) >= lineBurst {
		gap = lineLater
	}
	// Half a tick's slack, so that a ticker firing a little early does not skip a line.
	return now.Sub(c.lined) >= gap-lineEvery/2
}

// pace returns p's line clock (a new one if p has none), started at p's start if no session
// has started it. p.mu is held, or p is not yet shared.
func (p *progress) pace() *lineClock {
	if p.clock == nil {
		p.clock = &lineClock{}
	}
	p.clock.mu.Lock()
	if p.clock.began.IsZero() {
		p.clock.began = p.start
	}
	p.clock.mu.Unlock()
	return p.clock
}

// rateFrom returns the sample the rate at now counts from (n items done at now): the newest
// at least rateWindow old with at least rateItems items since, else the oldest kept, or the
// start while it lies within rateHorizon. Samples older than rateHorizon are dropped.
func (p *progress) rateFrom(now time.Time, n int64) sample {
	for len(p.samples) > 2 && now.Sub(p.samples[1].t) > rateHorizon {
		p.samples = p.samples[1:]
	}
	for i := len(p.samples) - 1; i >= 0; i-- {
		s := p.samples[i]
		if now.Sub(s.t) >= rateWindow && n-s.n >= rateItems {
			return s
		}
	}
	if len(p.samples) == 0 || now.Sub(p.start) <= rateHorizon {
		return sample{p.start, 0}
	}
	return p.samples[0]
}

// draw shows the state at now: the bar in place, or one plain line. p.mu is held.
func (p *progress) draw(now time.Time) {
	n := p.done()
	first := p.rateFrom(now, n)
	p.samples = append(p.samples, sample{now, n})
	rate, eta := "-", "-"
	if el := now.Sub(first.t).Seconds(); el >= 1 && n > first.n {
		r := float64(n-first.n) / el
		rate = humanRate(r)
		if !p.capped && n < p.total {
			eta = (time.Duration(float64(p.total-n)/r) * time.Second).Round(time.Second).String()
		}
	}
	if p.bar {
		var desc string
		if p.capped {
			desc = fmt.Sprintf("%d %s (stops at its decision, at most %d), %s %s/s", n, p.unit, p.total, rate, p.unit)
		} else {
			desc = fmt.Sprintf("%d/%d %s, %s %s/s, ETA %s", n, p.total, p.unit, rate, p.unit, eta)
		}
		if p.pb == nil {
			p.pb = p.newBar()
		}
		if !p.capped {
			p.pb.Set64(min(n, p.total))
		}
		// Describe redraws the line (also once the bar is full; a spinner turns once per
		// redraw), with the count, rate and ETA just computed.
		p.pb.Describe(desc)
		p.drawn = true
		return
	}
	var line string
	if p.capped {
		line = fmt.Sprintf("%d %s (stops at its decision, at most %d), %s %s/s", n, p.unit, p.total, rate, p.unit)
	} else {
		frac := min(float64(n)/float64(p.total), 1)
		line = fmt.Sprintf("%d/%d %s (%.1f%%), %s %s/s, ETA %s", n, p.total, p.unit, 100*frac, rate, p.unit, eta)
	}
	fmt.Fprintln(p.w, "progress: "+line)
	c := p.pace()
	c.mu.Lock()
	c.lined = now
	c.mu.Unlock()
}

// humanRate prints a rate with three significant digits: 873, 12.4k, 2.61M.
func humanRate(r float64) string {
	switch {
	case r >= 1e6:
		return fmt.Sprintf("%.3gM", r/1e6)
	case r >= 1e4:
		return fmt.Sprintf("%.3gk", r/1e3)
	case r >= 10:
		return fmt.Sprintf("%.0f", r)
	}
	return fmt.Sprintf("%.2g", r)
}
