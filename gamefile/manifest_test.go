package gamefile

import (
	"os/exec"
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
