package main

import (
	"encoding/json"
	"errors"
	"runtime"
	"testing"
)

// TestBenchPin checks that bench -pin runs pinned workers where the system allows it, says so
// in its JSON, and that -pin is refused with the modes that do not run bench's own workers.
func TestBenchPin(t *testing.T) {
	out, _, err := runCmd(t, "bench", "-game", "baran", "-workers", "2", "-seconds", "0.02", "-pin", "-json")
	if err != nil {
		t.Fatal(err)
	}
	var r BenchResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if r.Games == 0 || len(r.PerWorkerPPS) != 2 || r.Pinned != (runtime.GOOS == "linux") {
		t.Errorf("bench -pin: %+v", r)
	}
	for _, args := range [][]string{{"-agent", "greedy"}, {"-play"}} {
		_, _, err := runCmd(t, append([]string{"bench", "-pin"}, args...)...)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("-pin %v: err %v, want a usage error", args, err)
		}
	}
}

// TestBenchAtLeast64Games: a window that closes before the workers start (here 1 µs; under
// load, a late start) still measures 64 games a worker, never none.
func TestBenchAtLeast64Games(t *testing.T) {
	out, _, err := runCmd(t, "bench", "-game", "baran", "-workers", "2", "-seconds", "0.000001", "-json")
	if err != nil {
		t.Fatal(err)
	}
	var r BenchResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if r.Games != 128 || r.Plies == 0 || len(r.PerWorkerPPS) != 2 {
		t.Errorf("bench -seconds 0.000001 -workers 2: %d games, %d plies, %d workers; want 64 games a worker", r.Games, r.Plies, len(r.PerWorkerPPS))
	}
}
