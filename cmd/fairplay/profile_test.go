package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProfileEnv checks that FAIRPLAY_CPUPROFILE and FAIRPLAY_MEMPROFILE write non-empty
// profiles of a subcommand, and that an unwritable profile path is an error naming it.
func TestProfileEnv(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof")
	t.Setenv(cpuProfileEnv, cpu)
	t.Setenv(memProfileEnv, mem)
	if _, _, err := runCmd(t, "play", "-game", "katarenga", "-games", "2000", "-workers", "1",
		"-progress", "never", "-out", filepath.Join(dir, "run")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{cpu, mem} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Size() == 0 {
			t.Errorf("%s is empty", p)
		}
		b, _ := os.ReadFile(p)
		if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b { // pprof files are gzipped protobufs
			t.Errorf("%s: not a gzipped profile", p)
		}
	}
	bad := filepath.Join(dir, "missing", "cpu.pprof")
	t.Setenv(cpuProfileEnv, bad)
	_, _, err := runCmd(t, "play", "-game", "katarenga", "-games", "2", "-workers", "1",
		"-progress", "never", "-out", filepath.Join(dir, "run2"))
	if err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("unwritable %s: err %v, want an error naming it", cpuProfileEnv, err)
	}
}
