package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/agents/nnue"
)

// A flag has one meaning across subcommands: tournament's neighbour count is -neighbours (-band
// is layouts' and plan's fairness band); the old spelling still works, with a notice, and
// gives the run -neighbours gives; messages about the field name -neighbours.
func TestTournamentNeighbours(t *testing.T) {
	base := []string{"tournament", "-game", "baran", "-agents", "random;greedy;alphabeta:depth=1", "-games-per-pairing", "2", "-bootstrap", "0"}
	oldCfg, stderr := runConfig(t, append(base, "-band", "1")...)
	newCfg, newErr := runConfig(t, append(base, "-neighbours", "1")...)
	if fmt.Sprint(oldCfg) != fmt.Sprint(newCfg) || newCfg["band"] != 1.0 {
		t.Errorf("-band 1: configuration %v; -neighbours 1 gives %v", oldCfg, newCfg)
	}
	if !strings.Contains(stderr, "fairplay tournament: -band is deprecated: use -neighbours") || strings.Contains(newErr, "deprecated") {
		t.Errorf("stderr %q (and %q from -neighbours)", stderr, newErr)
	}
	out := filepath.Join(t.TempDir(), "out")
	wantUsageError(t, "-band and -neighbours: give -neighbours only", append(base, "-band", "1", "-neighbours", "1", "-out", out)...)
	wantUsageError(t, "-neighbours 1: want 0 (every pairing) or a positive count, and not with -gauntlet", append(base, "-neighbours", "1", "-gauntlet", "-out", out)...)
	wantUsageError(t, "-neighbours 1: want 0", append(base, "-band", "1", "-gauntlet", "-out", out)...)
}

// train's second layer is -hidden2 and its Adam batch -batch-size (learn's -l2 is a ridge
// penalty, layouts' -batch games per batch); -l2 and -batch still work in train, with a
// notice, and fit the same network.
func TestTrainRenamedFlags(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "k.gob")
	if _, stderr, err := runCmd(t, "train", "-game", "katarenga", "-agent", "alphabeta:depth=1", "-games", "6", "-epochs", "1", "-hidden", "4",
		"-save-data", data, "-save-net", filepath.Join(dir, "gen.nnue")); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	fit := func(name string, flags ...string) (*nnue.Net, string, string) {
		net, curve := filepath.Join(dir, name+".nnue"), filepath.Join(dir, name+".csv")
		args := append([]string{"train", "-game", "katarenga", "-data", data, "-epochs", "2", "-hidden", "4", "-holdout", "3"}, flags...)
		_, stderr, err := runCmd(t, append(args, "-curve", curve, "-save-net", net)...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", flags, err, stderr)
		}
		n, err := nnue.Load(net)
		if err != nil {
			t.Fatal(err)
		}
		c, err := os.ReadFile(curve)
		if err != nil {
			t.Fatal(err)
		}
		n.Meta = "" // holds the command line
		return n, string(c), stderr
	}
	newNet, newCurve, newErr := fit("new", "-hidden2", "4", "-batch-size", "16")
	oldNet, oldCurve, stderr := fit("old", "-l2", "4", "-batch", "16")
	if newNet.L2 != 4 || !reflect.DeepEqual(oldNet, newNet) || oldCurve != newCurve {
		t.Errorf("-l2 4 -batch 16 fit another network than -hidden2 4 -batch-size 16 (L2 %d, %d); curves\n%s\n%s", oldNet.L2, newNet.L2, oldCurve, newCurve)
	}
	if !strings.Contains(stderr, "-l2 is deprecated: use -hidden2") || !strings.Contains(stderr, "-batch is deprecated: use -batch-size") || strings.Contains(newErr, "deprecated") {
		t.Errorf("stderr %q (and %q from the new spellings)", stderr, newErr)
	}
	if _, _, curve := fit("other", "-hidden2", "4", "-batch-size", "4"); curve == newCurve {
		t.Error("-batch-size changes nothing: the comparison above cannot fail")
	}
	out := filepath.Join(dir, "x.nnue")
	wantUsageError(t, "-l2 and -hidden2: give -hidden2 only", "train", "-data", data, "-l2", "4", "-hidden2", "4", "-save-net", out)
	wantUsageError(t, "-batch and -batch-size: give -batch-size only", "train", "-data", data, "-batch", "4", "-batch-size", "4", "-save-net", out)
	wantUsageError(t, "-hidden2 300: want 0..256", "train", "-l2", "300", "-save-net", out)
	wantUsageError(t, "-batch-size 0", "train", "-batch", "0", "-save-net", out)
}
