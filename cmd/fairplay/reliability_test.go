package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fairplay-lab/fairplay/gamefile"
)

// Bad agents and flags are refused before any game, in every command that plays: exit 2, a
// message naming the bad value, nothing written.
func TestRefuseBeforePlaying(t *testing.T) {
	tmp := t.TempDir()
	w := func(name, data string) string {
		p := filepath.Join(tmp, name)
		os.WriteFile(p, []byte(data), 0o644)
		return p
	}
	files := map[string]string{
		"missing.json":          filepath.Join(tmp, "missing.json"),
		"not a JSON object":     w("nj.json", "material = 100"),
		`unknown weight "zeal"`: w("uk.json", `{"zeal": 1}`),
		"finite":                w("inf.json", `{"material": 1e999}`),
		"outside its bounds":    w("big.json", `{"material": 5000}`),
	}
	out := filepath.Join(tmp, "out")
	for want, file := range files {
		spec := "alphabeta:depth=1,weights=" + file
		for _, args := range [][]string{
			{"play", "-games", "2", "-a", spec},
			{"sprt", "-game", "baran", "-a", spec, "-b", "random"},
			{"ladder", "-game", "baran", "-games-per-step", "2", "-steps", spec + ">random"},
			{"variants", "-game", "baran", "-vary", "capture=huff,strict", "-games-per-cell", "2", "-ladder", spec},
			{"layouts", "-layouts", "sample:2", "-games-per-board", "2", "-a", spec},
			{"tune", "-game", "baran", "-agent", spec, "-iterations", "1"},
		} {
			checkRefused(t, append(args, "-out", out), want)
		}
	}
	for _, c := range []struct {
		want string
		args []string
	}{
		{"/no/such/program", []string{"play", "-a", "ext:cmd=/no/such/program"}},
		{"c=\"NaN\"", []string{"play", "-a", "mcts:c=NaN"}},
		{"depth given twice", []string{"play", "-a", "alphabeta:depth=2,depth=3"}},
		{"-elo1 +Inf", []string{"sprt", "-a", "random", "-b", "random", "-elo1", "Inf"}},
		{"-c NaN", []string{"tune", "-agent", "greedy", "-c", "NaN"}},
		{"disagree", []string{"play", "-games", "4", "-shard", "0/3", "-shards", "4"}},
		{"sample:N", []string{"layouts", "-layouts", "sampel:5"}},
		{"-compare", []string{"layouts", "-layouts", "sample:2", "-compare", filepath.Join(tmp, "nosweep")}},
	} {
		checkRefused(t, append(c.args, "-out", out), c.want)
	}
	w("mute.sh", "#!/bin/sh\nexit 0\n")
	os.Chmod(filepath.Join(tmp, "mute.sh"), 0o755)
	if _, _, err := runCmd(t, "bench", "-seconds", "NaN"); exitCode(err, &bytes.Buffer{}) != 2 || !strings.Contains(err.Error(), "-seconds NaN") {
		t.Errorf("bench -seconds NaN: %v", err)
	}
	checkRefused(t, []string{"play", "-a", "ext:cmd=" + filepath.Join(tmp, "mute.sh"), "-out", out}, "ready")
}

func checkRefused(t *testing.T, args []string, want string) {
	t.Helper()
	_, _, err := runCmd(t, args...)
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), want) {
		t.Errorf("%v: %v, want a usage error mentioning %q", args, err, want)
	}
	if _, err := os.Stat(args[len(args)-1]); err == nil {
		t.Fatalf("%v wrote %s", args, args[len(args)-1])
	}
}

// The first signal cancels the run; the second exits at once with status 130.
func TestSecondSignalExits(t *testing.T) {
	sigs := make(chan os.Signal, 2)
	cancelled, exited := make(chan bool, 1), make(chan int, 1)
	go onSignals(sigs, func() { cancelled <- true }, true, &bytes.Buffer{}, func(c int) { exited <- c })
	sigs <- os.Interrupt
	<-cancelled
	select {
	case <-exited:
		t.Fatal("exited at the first signal")
	case <-time.After(50 * time.Millisecond):
	}
	sigs <- os.Interrupt
	if c := <-exited; c != 130 {
		t.Errorf("exit %d, want 130", c)
	}
}

// kill -9 of a process running play, then -resume: the run completes to the bytes of an
// uninterrupted run, keeping the checkpointed games; while the process runs, the directory is
// locked against a second one.
func TestKillResume(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and plays a few thousand games")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "fairplay")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// A checkpoint is recorded every 2 s (durable.DefaultCheckpointEvery): a run that ends
	// sooner has none. 3000 greedy games took about 2 s on a 2-core machine, so each try plays
	// twice the games of the last until one has played at most half of its games at its first
	// checkpoint and is still running when it is killed (a run near its end may finish between
	// the two).
	var args []string
	var dir string
	var man *gamefile.Manifest
	for games := 3000; ; games *= 2 {
		if games > 3000<<6 {
			t.Fatal("no run was still going at its first checkpoint and its kill")
		}
		args = []string{"play", "-game", "baran", "-a", "greedy", "-b", "greedy", "-games", strconv.Itoa(games), "-workers", "1", "-progress", "never"}
		dir = filepath.Join(tmp, "killed-"+strconv.Itoa(games))
		if man = killAfterCheckpoint(t, bin, append(args, "-out", dir), games/2); man != nil {
			break
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "games.csv")); err == nil {
		t.Fatal("games.csv exists after kill -9 mid-run")
	}
	if _, _, err := runCmd(t, "play", "-resume", dir); err != nil {
		t.Fatalf("resume after kill -9: %v", err)
	}
	ref := filepath.Join(tmp, "ref")
	if _, _, err := runCmd(t, append(args, "-out", ref)...); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"games.csv", "summary.csv"} {
		a, _ := os.ReadFile(filepath.Join(dir, f))
		b, _ := os.ReadFile(filepath.Join(ref, f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s after kill -9 and resume differs from an uninterrupted run's", f)
		}
	}
	after, err := gamefile.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil || after.Status != "complete" || after.Checkpoint != nil {
		t.Errorf("manifest after resume: %+v %v", after, err)
	}
	t.Logf("killed after a checkpoint of %d games", man.Checkpoint.Items)
}

// killAfterCheckpoint starts bin with args, waits for its first checkpoint, checks that the
// run's directory is locked against a second run, and kills the process with SIGKILL. It returns
// the checkpoint's manifest, or nil (after the process has exited) when the run ended without a
// checkpoint, had played more than most games at it, or ended on its own before the kill.
func killAfterCheckpoint(t *testing.T, bin string, args []string, most int) *gamefile.Manifest {
	t.Helper()
	dir := args[len(args)-1]
	cmd := exec.Command(bin, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() { cmd.Process.Kill(); <-exited })
	man := firstCheckpoint(t, dir, exited)
	if man == nil || man.Checkpoint.Items > int64(most) {
		<-exited
		return nil
	}
	_, _, lockErr := runCmd(t, "play", "-resume", dir)
	cmd.Process.Signal(syscall.SIGKILL)
	<-exited
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
		t.Logf("%s ended on its own before the kill; trying a longer run", dir)
		return nil
	}
	if lockErr == nil || !strings.Contains(lockErr.Error(), "in use") {
		t.Errorf("resume while the run goes on: %v, want an error saying the directory is in use", lockErr)
	}
	return man
}

// firstCheckpoint waits for the run in dir to record a checkpoint and returns its manifest; nil
// when the run exited first (exited closed) without one.
func firstCheckpoint(t *testing.T, dir string, exited <-chan struct{}) *gamefile.Manifest {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		m, err := gamefile.ReadManifest(filepath.Join(dir, "manifest.json"))
		if err == nil && m.Checkpoint != nil && m.Checkpoint.Items > 0 {
			return m
		}
		select {
		case <-exited:
			return nil
		default:
		}
	}
	t.Fatal("no checkpoint within 60s")
	return nil
}

// Stopped before the first game finishes, every playing command exits 130 (interrupted, not a
// failure: empty plots and summaries are drawn), and the run then resumes to completion.
func TestInterruptedBeforeFirstGame(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every playing command twice")
	}
	tmp := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for i, args := range [][]string{
		{"play", "-game", "baran", "-games", "20"},
		{"play", "-games", "20"}, // Katarenga on random placements: its configuration names the layout "random"
		{"sprt", "-a", "greedy", "-b", "random", "-max-pairs", "4"},
		{"sprt", "-game", "baran", "-a", "greedy", "-b", "random", "-max-pairs", "20"},
		{"ladder", "-game", "baran", "-games-per-step", "4", "-steps", "greedy>random"},
		{"variants", "-game", "baran", "-vary", "capture=huff,strict", "-games-per-cell", "4", "-ladder", "random"},
		{"layouts", "-layouts", "sample:3", "-games-per-board", "2"},
		{"tune", "-game", "baran", "-agent", "greedy", "-iterations", "2", "-games-per-iteration", "4", "-sprt-max-pairs", "10"},
	} {
		dir := filepath.Join(tmp, string(rune('a'+i)))
		var o, e bytes.Buffer
		err := run(ctx, append(args, "-out", dir, "-progress", "never"), &o, &e)
		if code := exitCode(err, &bytes.Buffer{}); code != 130 {
			t.Errorf("%s stopped at once: exit %d (%v), want 130\n%s", args[0], code, err, e.String())
		}
		if args[0] == "ladder" { // a ladder's steps resume with play -resume
			continue
		}
		if err := run(context.Background(), []string{args[0], "-resume", dir, "-progress", "never"}, &o, &e); err != nil {
			t.Errorf("%s -resume after an interruption before the first game: %v", args[0], err)
		}
	}
}
