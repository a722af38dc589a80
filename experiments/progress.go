package experiments

import (
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// startProgress shows progress of total work items (unit: "games" or "boards") on w until the returned stop is called: a bar
// (games done, games/s, ETA) when mode is "always", or "auto" and w is a terminal; a plain line
// every few seconds when mode is "auto" and w is not a terminal; nothing for "never". Workers
// only bump done; this one goroutine draws.
func startProgress(mode string, w io.Writer, total int64, done *atomic.Int64, unit string) (stop func()) {
	if mode == "never" || w == nil || total <= 0 {
		return func() {}
	}
	bar := mode == "always" || (mode == "auto" && isTerminal(w))
	quit, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		start := time.Now()
		if bar {
			pb := progressbar.NewOptions64(total, progressbar.OptionSetWriter(w),
				progressbar.OptionSetDescription(unit), progressbar.OptionShowCount(),
				progressbar.OptionShowIts(), progressbar.OptionSetItsString(unit),
				progressbar.OptionSetPredictTime(true), progressbar.OptionThrottle(100*time.Millisecond),
				progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }))
			t := time.NewTicker(150 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-quit:
					pb.Set64(done.Load())
					return
				case <-t.C:
					pb.Set64(done.Load())
				}
			}
		}
		t := time.NewTicker(5 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				n := done.Load()
				el := time.Since(start).Seconds()
				rate := float64(n) / el
				eta := "-"
				if rate > 0 {
					eta = (time.Duration(float64(total-n)/rate) * time.Second).Round(time.Second).String()
				}
				fmt.Fprintf(w, "progress: %d/%d %s (%.1f%%), %.0f %s/s, ETA %s\n", n, total, unit, 100*float64(n)/float64(total), rate, unit, eta)
			}
		}
	}()
	return func() { close(quit); <-finished }
}
