package reporttest

import (
	"path/filepath"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
)

// EditManifest rewrites the manifest.json of the run in dir through edit (tests that tamper
// with a run: a killed run, another build, a changed configuration).
func EditManifest(t testing.TB, dir string, edit func(*gamefile.Manifest)) {
	t.Helper()
	path := filepath.Join(dir, "manifest.json")
	man, err := gamefile.ReadManifest(path)
	if err != nil {
		t.Fatal(err)
	}
	edit(man)
	if err := gamefile.WriteManifest(path, man); err != nil {
		t.Fatal(err)
	}
}
