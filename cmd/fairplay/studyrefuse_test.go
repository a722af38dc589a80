package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
)

// writeStudy writes a study file of the given runs (JSON objects) and returns its path.
func writeStudy(t *testing.T, dir string, runs ...string) string {
	t.Helper()
	p := filepath.Join(dir, "study.json")
	if err := os.WriteFile(p, []byte(`{"name": "s", "runs": [`+strings.Join(runs, ",")+`]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A study file names programs only a person who read it may start: fairplay study refuses a
// study with ext agents unless -allow-programs is given, starting nothing; -dry-run lists them.
func TestStudyPrograms(t *testing.T) {
	tmp := t.TempDir()
	marker := filepath.Join(tmp, "ran")
	bot := filepath.Join(tmp, "bot.sh")
	firstbot, _ := filepath.Abs("../../agents/testdata/firstbot.sh")
	os.WriteFile(bot, []byte("#!/bin/sh\ntouch "+marker+"\nexec "+firstbot+"\n"), 0o755)
	file := writeStudy(t, tmp,
		`{"name": "a", "command": "play", "args": ["-game", "baran", "-games", "2"]}`,
		`{"name": "b", "command": "ladder", "args": ["-game", "baran", "-games-per-step", "2", "-steps", "greedy>ext:cmd=`+bot+`,timeout=5s"]}`)
	out := filepath.Join(tmp, "out")
	_, _, err := runCmd(t, "study", "-out", out, "-progress", "never", file)
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "run b: "+bot) || !strings.Contains(err.Error(), "-allow-programs") {
		t.Errorf("study naming a program: %v, want a usage error naming it and -allow-programs", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the refused study started its program")
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("the refused study wrote its directory")
	}
	stdout, _, err := runCmd(t, "study", "-dry-run", file)
	if err != nil || !strings.Contains(stdout, "program: run b: "+bot+"\n") {
		t.Errorf("-dry-run: %v\n%s", err, stdout)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("-dry-run started the study's program")
	}
	if _, _, err := runCmd(t, "study", "-out", out, "-progress", "never", "-allow-programs", file); err != nil {
		t.Fatalf("-allow-programs: %v", err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Error("-allow-programs did not run the program")
	}
}

// Every run's arguments are parsed before the first run (and by -dry-run): a typo in the last
// run plays nothing.
func TestStudyTypoRefusedFirst(t *testing.T) {
	tmp := t.TempDir()
	file := writeStudy(t, tmp,
		`{"name": "a", "command": "play", "args": ["-games", "2"]}`,
		`{"name": "b", "command": "play", "args": ["-gmaes", "2"]}`)
	out := filepath.Join(tmp, "out")
	for _, args := range [][]string{{"study", "-out", out, file}, {"study", "-dry-run", file}} {
		_, _, err := runCmd(t, args...)
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "run 2 (b)") || !strings.Contains(err.Error(), "gmaes") {
			t.Errorf("%v: %v, want a usage error naming run 2 and -gmaes", args, err)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("the study ran before refusing run 2")
	}
}

// A study started inside a Slurm array task does not shard its runs: the variables are for
// play's shards, and a study's runs are whole.
func TestStudyIgnoresShardEnvironment(t *testing.T) {
	t.Setenv("SLURM_ARRAY_TASK_ID", "1")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "4")
	t.Setenv("JOB_COMPLETION_INDEX", "1")
	tmp := t.TempDir()
	file := writeStudy(t, tmp, `{"name": "a", "command": "play", "args": ["-games", "8"]}`)
	out := filepath.Join(tmp, "out")
	if _, _, err := runCmd(t, "study", "-out", out, "-progress", "never", file); err != nil {
		t.Fatal(err)
	}
	man, err := gamefile.ReadManifest(filepath.Join(out, "a", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if man.Shards != 1 || man.Completed != 8 {
		t.Errorf("the study's run is shard %d/%d with %d games, want the whole run of 8", man.Shard, man.Shards, man.Completed)
	}
}
