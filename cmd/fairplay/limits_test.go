package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairplay-lab/fairplay/study/tune"
)

// learn refuses a game count whose positions cannot fit in memory before anything is played
// or written, and a run that ends without weights leaves nothing under -out (a retry is not
// blocked by an empty file).
func TestLearnMemory(t *testing.T) {
	out := filepath.Join(t.TempDir(), "w.json")
	wantUsageError(t, "-games 99999999999 needs at least", "learn", "-games", "99999999999", "-save-weights", out)
	if _, err := os.Stat(out); err == nil {
		t.Error("the refused learn left its -out file")
	}
	cfg := tune.LearnConfig{Game: "katarenga", Games: 1000}
	if err := learnFits(cfg, 1<<20); err == nil || !strings.Contains(err.Error(), "give at most") {
		t.Errorf("1000 games in 1 MiB: %v", err)
	}
	if err := learnFits(cfg, 1<<30); err != nil {
		t.Errorf("1000 games in 1 GiB: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var so, se bytes.Buffer
	err := run(ctx, []string{"learn", "-game", "baran", "-agent", "greedy", "-games", "4", "-save-weights", out}, &so, &se)
	if err == nil {
		t.Fatal("a cancelled learn succeeded")
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("the interrupted learn left its -out file")
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 0 {
		t.Errorf("the interrupted learn left %v", entries)
	}
	if _, _, err := runCmd(t, "learn", "-game", "katarenga", "-agent", "greedy", "-games", "12", "-holdout", "4", "-save-weights", out); err != nil {
		t.Fatalf("retry: %v", err)
	}
}

// Worker counts beyond what the machine can use are refused, naming the value.
func TestWorkersBounded(t *testing.T) {
	big := fmt.Sprint(maxWorkers() + 1)
	for _, args := range [][]string{
		{"play", "-workers", big},
		{"learn", "-workers", big, "-save-weights", filepath.Join(t.TempDir(), "w.json")},
		{"study", "-workers", big, "testdata/study-small.json"},
		{"tournament", "-agents", "random;greedy", "-workers", "4096"},
	} {
		wantUsageError(t, "-workers "+args[slicesIndex(args, "-workers")+1], args...)
	}
}

func slicesIndex(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// The first Ctrl-C of a command that keeps nothing does not claim games are kept.
func TestSignalMessage(t *testing.T) {
	for _, keeps := range []bool{true, false} {
		sigs := make(chan os.Signal, 2)
		var stderr bytes.Buffer
		done := make(chan int, 1)
		cancelled := make(chan bool, 1)
		go onSignals(sigs, func() { cancelled <- true }, keeps, &stderr, func(c int) { done <- c })
		sigs <- os.Interrupt
		<-cancelled
		sigs <- os.Interrupt
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("no exit")
		}
		if got := strings.Contains(stderr.String(), "games are kept"); got != keeps {
			t.Errorf("keeps %v: %q", keeps, stderr.String())
		}
	}
	if keepsGames("learn") || !keepsGames("play") {
		t.Error("keepsGames")
	}
}
