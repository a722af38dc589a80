package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
)

// Every run's manifest names its kind, and the commands that read a run directory go by it: a
// run of another kind is refused with the command that owns it, an unknown kind is refused, and
// a kind that does not shard is not merged.
func TestRunKinds(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if _, _, err := runCmd(t, "play", "-games", "4", "-out", dir, "-progress", "never"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "manifest.json")
	man, err := gamefile.ReadManifest(path)
	if err != nil {
		t.Fatal(err)
	}
	if man.Kind != "match" || man.Schema != gamefile.SchemaVersion {
		t.Fatalf("play's manifest: kind %q schema %d", man.Kind, man.Schema)
	}
	orig, _ := os.ReadFile(path)
	setKind := func(kind string) {
		t.Helper()
		b := bytes.Replace(orig, []byte(`"kind": "match"`), []byte(`"kind": "`+kind+`"`), 1)
		if kind != "match" && bytes.Equal(b, orig) {
			t.Fatal("no kind in manifest.json")
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		kind string
		args []string
		want string
	}{
		{"tune", []string{"play", "-resume", dir}, "it holds a tune run, which fairplay tune makes and resumes"},
		{"match", []string{"tournament", "-resume", dir}, "it holds a match run, which fairplay play makes and resumes"},
		{"match", []string{"layouts", "-resume", dir}, "it holds a match run"},
		{"variants", []string{"merge", "-out", filepath.Join(t.TempDir(), "m"), dir}, "a variants run is not sharded"},
		{"mystery", []string{"play", "-resume", dir}, `unknown kind of run "mystery"`},
	} {
		setKind(c.kind)
		_, _, err := runCmd(t, c.args...)
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("kind %s, %v: err %v, want a usage error with %q", c.kind, c.args, err, c.want)
		}
	}
}

// Flags may follow the positional arguments (merge -out M a b -format parquet), as in other
// tools; "--" ends the flags.
func TestParseInterleaved(t *testing.T) {
	fs := newFlags("x", "", "")
	out := fs.String("out", "", "")
	format := fs.String("format", "", "")
	pos, err := parseInterleaved(fs, []string{"-out", "m", "a", "b", "-format", "parquet", "c", "--", "-d"})
	if err != nil || *out != "m" || *format != "parquet" || strings.Join(pos, " ") != "a b c -d" {
		t.Errorf("out %q format %q positional %q, %v", *out, *format, pos, err)
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for i, d := range []string{a, b} {
		if _, _, err := runCmd(t, "play", "-games", "4", "-shard", fmt.Sprintf("%d/2", i), "-out", d, "-progress", "never"); err != nil {
			t.Fatal(err)
		}
	}
	m := filepath.Join(dir, "m")
	if _, _, err := runCmd(t, "merge", "-out", m, a, b, "-format", "parquet"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(m, "games.parquet")); err != nil {
		t.Errorf("-format after the shard directories was not taken: %v", err)
	}
}
