package gamefile

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Under go run (or -buildvcs=false) the revision comes from the git checkout of this module
// holding the working directory, and from nowhere else.
func TestGitRevision(t *testing.T) {
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skip("not in a git checkout, or no git")
	}
	if rev := gitRevision(); !strings.HasPrefix(rev, strings.TrimSpace(string(head))) {
		t.Errorf("gitRevision %q, HEAD %s", rev, head)
	}
	t.Chdir(t.TempDir())
	if rev := gitRevision(); rev != "" {
		t.Errorf("outside the checkout: %q, want none", rev)
	}
	if rev := vcsRevision("abc"); rev != "abc" {
		t.Errorf("link-time revision ignored: %q", rev)
	}
}

// A manifest written before manifests had a kind gets the kind its configuration names, and a
// match's (whose configuration named none) is a match.
func TestReadManifestInfersKind(t *testing.T) {
	for _, c := range []struct{ config, want string }{
		{`{"kind":"tournament","game":"baran"}`, "tournament"},
		{`{"kind":"layouts"}`, "layouts"},
		{`{"game":"katarenga","a":"random"}`, "match"},
	} {
		path := filepath.Join(t.TempDir(), "manifest.json")
		if err := os.WriteFile(path, []byte(`{"tool":"fairplay","config":`+c.config+`,"shards":1}`), 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := ReadManifest(path)
		if err != nil {
			t.Fatal(err)
		}
		if m.Kind != c.want {
			t.Errorf("config %s: kind %q, want %q", c.config, m.Kind, c.want)
		}
	}
	// A current manifest's kind is taken as written.
	path := filepath.Join(t.TempDir(), "manifest.json")
	os.WriteFile(path, []byte(`{"kind":"tune","schema_version":2,"config":{"kind":"layouts"}}`), 0o644)
	if m, err := ReadManifest(path); err != nil || m.Kind != "tune" {
		t.Errorf("schema 2: %+v %v", m, err)
	}
}
