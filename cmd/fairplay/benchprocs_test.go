package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// bench -procs 2 starts two processes of this binary that play one common window, measures two
// workers in this process for as long, alternating the order by round, and reports the ratio.
func TestBenchProcs(t *testing.T) {
	t.Setenv("FAIRPLAY_TEST_AS_MAIN", "1") // the test binary answers as fairplay in the children
	out, errOut, err := runCmd(t, "bench", "-game", "katarenga", "-procs", "2", "-seconds", "0.2", "-rounds", "2", "-json")
	if err != nil {
		t.Fatal(err, errOut)
	}
	var res BenchProcsResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if res.Procs != 2 || len(res.Rounds) != 2 || !res.Rounds[0].ProcsFirst || res.Rounds[1].ProcsFirst {
		t.Fatalf("JSON %+v", res)
	}
	for i, rd := range res.Rounds {
		if len(rd.PerProcess) != 2 || !(rd.ProcsPliesPerSec > 0) || !(rd.InProcessPliesPerSec > 0) ||
			math.Abs(rd.Ratio-rd.InProcessPliesPerSec/rd.ProcsPliesPerSec) > 1e-9*rd.Ratio || rd.LateSeconds < 0 {
			t.Errorf("round %d: %+v", i+1, rd)
		}
		// Each process's rate is its plies over its own time, which lies within the common
		// time of the total rate, so the rates add up to at least the total (a bound that
		// holds under any load; a process's own rate may exceed the total when the other
		// was descheduled).
		perProc := 0.0
		for _, v := range rd.PerProcess {
			if !(v > 0) {
				t.Errorf("round %d: a process at %.0f plies/s", i+1, v)
			}
			perProc += v
		}
		if perProc < rd.ProcsPliesPerSec*(1-1e-9) {
			t.Errorf("round %d: the processes' own rates %v add up to less than all together, %.0f plies/s", i+1, rd.PerProcess, rd.ProcsPliesPerSec)
		}
		sum := 0.0 // the workers' own rates add up to the in-process total (one common time)
		for _, v := range rd.PerWorker {
			if !(v > 0) {
				t.Errorf("round %d: an in-process worker at %v plies/s", i+1, v)
			}
			sum += v
		}
		if len(rd.PerWorker) != 2 || math.Abs(sum-rd.InProcessPliesPerSec) > 1e-9*sum {
			t.Errorf("round %d: per worker %v, in all %.0f plies/s", i+1, rd.PerWorker, rd.InProcessPliesPerSec)
		}
	}
	if r := res.Ratio; len(r.Rounds) != 2 || r.Lo > r.Median || r.Hi < r.Median {
		t.Errorf("ratio %+v", r)
	}
	if !strings.Contains(errOut, "round 2/2:") {
		t.Errorf("no progress lines on stderr:\n%s", errOut)
	}
	text, _, err := runCmd(t, "bench", "-game", "baran", "-procs", "2", "-seconds", "0.1", "-rounds", "1")
	if err != nil || !strings.Contains(text, "in-process / processes: median") || !strings.Contains(text, "2 processes of bench -workers 1") ||
		!strings.Contains(text, "per worker pl/s (min-max)") {
		t.Errorf("table (err %v):\n%s", err, text)
	}
	wantUsageError(t, "-procs -1", "bench", "-procs", "-1")
	wantUsageError(t, "-workers does not go with -procs", "bench", "-procs", "2", "-workers", "2")
	wantUsageError(t, "-play does not go with -procs", "bench", "-procs", "2", "-play")
	wantUsageError(t, "-rounds 0", "bench", "-procs", "2", "-rounds", "0")
}

// -procs 0 is refused as -procs -1 is, not taken for a plain bench without -procs.
func TestBenchProcsZero(t *testing.T) {
	wantUsageError(t, "-procs 0: want 1..1024", "bench", "-procs", "0", "-seconds", "0.01")
}

// A child waits for the window's start and plays until its end (stopping within 64 games of
// it), whatever time it was started at.
func TestBenchChildWindow(t *testing.T) {
	gf := gameFlags{game: "katarenga"}
	gm, _, err := gf.build()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now().Add(150 * time.Millisecond)
	w := benchWindow{start: start, end: start.Add(100 * time.Millisecond), worker: 1}
	var out bytes.Buffer
	if err := benchChild(context.Background(), gm, 1, w, &out); err != nil {
		t.Fatal(err)
	}
	var res benchChildResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	started, stopped := time.Unix(0, res.Started), time.Unix(0, res.Stopped)
	if started.Before(w.start) || stopped.Before(w.end) || stopped.Sub(w.end) > 250*time.Millisecond || res.Games < 64 || res.Plies <= res.Games {
		t.Errorf("window %v–%v: played %v–%v, %d games, %d plies", w.start, w.end, started, stopped, res.Games, res.Plies)
	}
	for _, bad := range []string{"1,2", "a,b,c", "5,3,0", "-1,3,0"} {
		if _, err := parseBenchWindow(bad); err == nil {
			t.Errorf("%s=%q accepted", benchWindowEnv, bad)
		}
	}
	t.Setenv(benchWindowEnv, fmt.Sprintf("%d,%d,0", start.UnixNano(), start.Add(time.Second).UnixNano()))
	wantUsageError(t, "want 1", "bench", "-workers", "2")
}
