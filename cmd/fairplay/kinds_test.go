package main

import (
	"bytes"
	"errors"
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
