package experiments

import (
	"bytes"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestProgressLines(t *testing.T) {
	var done atomic.Int64
	var b bytes.Buffer
	t0 := time.Now()
	p := &progress{w: &b, bar: true, total: 1000, unit: "games", done: &done, start: t0}
	done.Store(100)
	p.draw(t0.Add(2 * time.Second))
	if got := b.String(); !strings.HasPrefix(got, "\r\033[K[==") || !strings.Contains(got, "100/1000 games (10.0%), 50 games/s, ETA 18s") {
		t.Errorf("bar %q", got)
	}
	// A resumed run: done counts this session's games only, so the rate is this session's.
	b.Reset()
	p = &progress{w: &b, total: 50000, capped: true, unit: "games", done: &done, start: t0}
	done.Store(300)
	p.draw(t0.Add(3 * time.Second))
	if got := b.String(); got != "progress: 300 games (stops at its decision, at most 50000), 100 games/s\n" {
		t.Errorf("capped line %q (no ETA from the cap)", got)
	}
	// Before a second has passed there is no rate (no "2.6M games/s" from a first tiny interval).
	b.Reset()
	p = &progress{w: &b, total: 10, unit: "games", done: &done, start: t0}
	p.draw(t0.Add(time.Millisecond))
	if got := b.String(); !strings.Contains(got, "- games/s, ETA -") {
		t.Errorf("early line %q", got)
	}
}

func TestProgressPrintAboveAndStop(t *testing.T) {
	var done atomic.Int64
	var b bytes.Buffer
	h := &progressHolder{}
	stop := startProgress("always", &b, 100, &done, "games", h)
	h.mu.Lock()
	p := h.p
	h.mu.Unlock()
	p.mu.Lock()
	p.draw(time.Now()) // a bar on screen
	p.mu.Unlock()
	h.printAbove(func() { b.WriteString("report line\n") })
	stop()
	out := b.String()
	if !strings.Contains(out, "\r\033[Kreport line\n\r\033[K[") {
		t.Errorf("the report line is not on a cleared line of its own, with the bar redrawn after: %q", out)
	}
	if !strings.HasSuffix(out, "\n") {
		t.Errorf("stop leaves the bar's line open: %q", out)
	}
	if h.p != nil {
		t.Error("the holder keeps a stopped display")
	}
	var nb bytes.Buffer
	h.printAbove(func() { nb.WriteString("x\n") }) // no display: printed as is
	if nb.String() != "x\n" {
		t.Errorf("%q", nb.String())
	}
}
