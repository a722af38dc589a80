package main

import (
	"errors"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestSlurmRecipe runs deploy/slurm/test-local.sh: the Slurm recipe end to end on a single-node
// Slurm on localhost, checking that the merged games.csv equals a single-machine run byte for
// byte. It skips where sbatch is not installed or the script cannot start daemons (not root).
func TestSlurmRecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Slurm daemons: skipped with -short")
	}
	if _, err := exec.LookPath("sbatch"); err != nil {
		t.Skip("sbatch not installed (apt-get install -y slurm-wlm munge)")
	}
	script, err := filepath.Abs("../../deploy/slurm/test-local.sh")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(script).CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 77 {
		t.Skipf("%s", out)
	}
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
	t.Logf("%s", out)
}
