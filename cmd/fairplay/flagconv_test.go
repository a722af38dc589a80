package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine/katarenga"
	"github.com/fairplay-lab/fairplay/gamefile"
)

// runConfig runs args (a run writing DIR/manifest.json) into a new directory and returns the
// configuration its manifest records, and its stderr.
func runConfig(t *testing.T, args ...string) (map[string]any, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	_, stderr, err := runCmd(t, append(args, "-out", dir, "-progress", "never", "-workers", "1")...)
	if err != nil {
		t.Fatalf("%v: %v\n%s", args, err, stderr)
	}
	man, err := gamefile.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(man.Config, &cfg); err != nil {
		t.Fatal(err)
	}
	return cfg, stderr
}

// One Katarenga board default for every run (a random tile placement per pair; -layout L
// fixes one) and one random-opening default (auto: 2 plies from one start, none where the
// starts vary), whatever the subcommand; the old spellings still work, with a notice.
func TestLayoutAndOpeningDefaults(t *testing.T) {
	pos := "6k/7/7/2w4/2W4/7/K6 r - 0"
	for _, c := range []struct {
		args    []string
		random  bool    // random_layouts in the configuration
		layout  string  // its layout ("" for any)
		opening float64 // its random_opening
		notice  string  // on stderr
	}{
		{[]string{"play", "-games", "2"}, true, "random", 0, ""},
		{[]string{"play", "-games", "2", "-layout", "random"}, true, "random", 0, ""},
		{[]string{"play", "-games", "2", "-layout", "3"}, false, "", 2, ""},
		{[]string{"play", "-games", "2", "-layout", "3", "-random-opening", "5"}, false, "", 5, ""},
		{[]string{"play", "-games", "2", "-random-opening", "auto"}, true, "random", 0, ""},
		{[]string{"play", "-game", "baran", "-games", "2"}, false, "", 2, ""},
		{[]string{"play", "-game", "baran", "-games", "2", "-pos", pos}, false, "", 0, ""},
		{[]string{"play", "-games", "2", "-random-layouts"}, true, "random", 0, "-random-layouts is deprecated: use -layout random"},
		{[]string{"play", "-games", "2", "-random-layouts=false"}, false, "", 2, "-random-layouts is deprecated"},
		{[]string{"sprt", "-a", "greedy", "-b", "random", "-max-pairs", "1"}, true, "random", 0, ""},
		{[]string{"sprt", "-game", "baran", "-a", "greedy", "-b", "random", "-max-pairs", "1"}, false, "", 2, ""},
		{[]string{"tournament", "-agents", "random;greedy", "-games-per-pairing", "2", "-bootstrap", "0"}, true, "", 0, ""},
		{[]string{"tournament", "-game", "baran", "-agents", "random;greedy", "-games-per-pairing", "2", "-bootstrap", "0"}, false, "", 2, ""},
		{[]string{"tournament", "-agents", "random;greedy", "-games-per-pairing", "2", "-bootstrap", "0", "-fixed-layout"}, false, "0", 2, "-fixed-layout is deprecated: use -layout L"},
		{[]string{"variants", "-vary", "first-move-capture=allowed,banned", "-ladder", "random", "-games-per-cell", "2", "-rating-games-per-pairing", "0"}, true, "", 0, ""},
		{[]string{"variants", "-vary", "first-move-capture=allowed,banned", "-ladder", "random", "-games-per-cell", "2", "-rating-games-per-pairing", "0", "-layout", "7"}, false, "7", 2, ""},
		{[]string{"layouts", "-layouts", "sample:1", "-games-per-board", "2"}, false, "", 2, ""},
		{[]string{"tune", "-agent", "greedy", "-params", "camps", "-iterations", "1", "-no-sprt"}, true, "", 0, ""},
		{[]string{"tune", "-game", "baran", "-agent", "greedy", "-params", "threats", "-iterations", "1", "-no-sprt"}, false, "", 2, ""},
	} {
		cfg, stderr := runConfig(t, c.args...)
		random, _ := cfg["random_layouts"].(bool)
		layout, _ := cfg["layout"].(string)
		opening, _ := cfg["random_opening"].(float64) // left out when 0
		if random != c.random || c.layout != "" && layout != c.layout || opening != c.opening {
			t.Errorf("%v: random_layouts %v, layout %q, random_opening %v; want %v, %q, %v", c.args, random, layout, opening, c.random, c.layout, c.opening)
		}
		if !strings.Contains(stderr, c.notice) || c.notice == "" && strings.Contains(stderr, "deprecated") {
			t.Errorf("%v: stderr %q, want %q", c.args, stderr, c.notice)
		}
	}
}

func TestLayoutRefused(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	for _, c := range []struct {
		want string
		args []string
	}{
		{"-random-layouts and -layout 5: give one", []string{"play", "-random-layouts", "-layout", "5"}},
		{"-openings and -pos take the board from the positions; drop -layout", []string{"play", "-layout", "5", "-pos", "x"}},
		{"-layout: Katarenga only", []string{"sprt", "-game", "baran", "-layout", "random", "-a", "greedy", "-b", "random"}},
		{`invalid value "x" for flag -random-opening: want auto or a number of plies`, []string{"play", "-random-opening", "x"}},
		{"-layout 99999", []string{"learn", "-layout", "99999"}},
	} {
		wantUsageError(t, c.want, append(c.args, "-out", out)...)
	}
}

// A count per unit is named by its unit; the old spelling still works, with a notice, and
// gives the run the new one gives.
func TestPerUnitCountsOldSpellings(t *testing.T) {
	vary := []string{"variants", "-game", "baran", "-vary", "capture=huff,strict", "-ladder", "random"}
	for _, c := range []struct {
		old, new []string
		notice   string
	}{
		{[]string{"tournament", "-agents", "random;greedy", "-bootstrap", "0", "-games", "2"}, []string{"tournament", "-agents", "random;greedy", "-bootstrap", "0", "-games-per-pairing", "2"},
			"-games is deprecated: use -games-per-pairing"},
		{append(vary, "-games", "2", "-rating-games", "2"), append(vary, "-games-per-cell", "2", "-rating-games-per-pairing", "2"),
			"-rating-games is deprecated: use -rating-games-per-pairing"},
		{[]string{"layouts", "-layouts", "sample:1", "-games-per-layout", "2"}, []string{"layouts", "-layouts", "sample:1", "-games-per-board", "2"},
			"-games-per-layout is deprecated: use -games-per-board"},
		{[]string{"layouts", "-ladder", "random;greedy", "-layouts", "sample:1", "-games-per-board", "2", "-rating-games", "2"},
			[]string{"layouts", "-ladder", "random;greedy", "-layouts", "sample:1", "-games-per-board", "2", "-rating-games-per-pairing", "2"},
			"-rating-games is deprecated: use -rating-games-per-pairing"},
	} {
		oldCfg, stderr := runConfig(t, c.old...)
		newCfg, newErr := runConfig(t, c.new...)
		if fmt.Sprint(oldCfg) != fmt.Sprint(newCfg) {
			t.Errorf("%v: configuration %v, %v gives %v", c.old, oldCfg, c.new, newCfg)
		}
		if !strings.Contains(stderr, c.notice) || strings.Contains(newErr, "deprecated") {
			t.Errorf("%v: stderr %q, want %q (and none from %v: %q)", c.old, stderr, c.notice, c.new, newErr)
		}
	}
	out := filepath.Join(t.TempDir(), "out")
	wantUsageError(t, "-games and -games-per-pairing: give -games-per-pairing only", "tournament", "-agents", "random;greedy", "-games", "2", "-games-per-pairing", "4", "-out", out)
	wantUsageError(t, "-games-per-step 0: want a positive number", "ladder", "-games", "0", "-out", out) // a ladder's -games is per step
}

// -rating-interval (sprt), -index (replay), -save-weights (learn) and -save-net (train): the
// old spellings still work, with a notice; replay's -game names the game.
func TestRenamedFlags(t *testing.T) {
	tmp := t.TempDir()
	run := filepath.Join(tmp, "sprt")
	out, stderr, err := runCmd(t, "sprt", "-game", "baran", "-a", "greedy", "-b", "random", "-max-pairs", "4", "-report", "2", "-out", run, "-progress", "never")
	if err != nil || !strings.Contains(stderr, "-report is deprecated: use -rating-interval") || strings.Count(out, "LLR") < 3 {
		t.Errorf("sprt -report 2: %v\n%s\n%s", err, stderr, out)
	}
	want, _, err := runCmd(t, "replay", "-run", run, "-index", "3")
	if err != nil {
		t.Fatal(err)
	}
	got, stderr, err := runCmd(t, "replay", "-run", run, "-game", "3")
	if err != nil || got != want || !strings.Contains(stderr, "-game 3 is deprecated for the game's index: use -index 3") {
		t.Errorf("replay -game 3: %v %q", err, stderr)
	}
	if got, _, err := runCmd(t, "replay", "-run", run, "-index", "3", "-game", "baran"); err != nil || got != want {
		t.Errorf("replay -game baran of a Baran run: %v", err)
	}
	wantUsageError(t, "-game katarenga: "+run+" holds baran games", "replay", "-run", run, "-index", "3", "-game", "katarenga")
	wantUsageError(t, "-game 3 and -index 2", "replay", "-run", run, "-index", "2", "-game", "3")
	wantUsageError(t, `-game "chess": want baran or katarenga`, "replay", "-run", run, "-index", "2", "-game", "chess")

	w := filepath.Join(tmp, "w.json")
	if _, stderr, err := runCmd(t, "learn", "-game", "katarenga", "-agent", "greedy", "-games", "12", "-holdout", "4", "-out", w); err != nil ||
		!strings.Contains(stderr, "-out is deprecated: use -save-weights") {
		t.Errorf("learn -out: %v %q", err, stderr)
	}
	if _, err := os.Stat(w); err != nil {
		t.Fatalf("learn -out wrote no file: %v", err) // train below would then play its games
	}
	wantUsageError(t, "learn: -save-weights FILE.json is required", "learn", "-game", "baran")
	wantUsageError(t, "train: -save-net FILE.nnue is required", "train", "-game", "baran")
	wantUsageError(t, "train: -save-net "+w+" exists", "train", "-game", "baran", "-out", w)
}

// ladder plays its steps with -tiles (it was ignored) and refuses -shard (it played every step
// whole, silently).
func TestLadderTilesAndShard(t *testing.T) {
	tmp := t.TempDir()
	tiles := filepath.Join(tmp, "tiles.txt")
	swapped := strings.Replace(katarenga.DefaultTiles.String(), "A0", "X", 1)
	swapped = strings.Replace(strings.Replace(swapped, "A1", "A0", 1), "X", "A1", 1) // tile A turned over
	if err := os.WriteFile(tiles, []byte(swapped), 0o644); err != nil {
		t.Fatal(err)
	}
	games := func(dir string, extra ...string) []byte {
		args := append([]string{"ladder", "-layout", "0", "-steps", "greedy>random", "-games-per-step", "4", "-out", dir, "-progress", "never"}, extra...)
		if _, stderr, err := runCmd(t, args...); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stderr)
		}
		b, err := os.ReadFile(filepath.Join(dir, "step-1", "games.csv"))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	plain, turned := games(filepath.Join(tmp, "plain")), games(filepath.Join(tmp, "turned"), "-tiles", tiles)
	if string(plain) == string(turned) {
		t.Error("ladder -tiles played the published tiles")
	}
	man, err := gamefile.ReadManifest(filepath.Join(tmp, "turned", "step-1", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct{ Tiles string }
	if err := json.Unmarshal(man.Config, &cfg); err != nil || cfg.Tiles != swapped {
		t.Errorf("step configuration's tiles %q (%v), want the -tiles file's", cfg.Tiles, err)
	}
	wantUsageError(t, "-shard: a ladder runs whole", "ladder", "-shard", "0/2", "-out", filepath.Join(tmp, "shard"))
}

// No subcommand's -h sends the user to an old spelling: the flags' own texts name only the
// current flags (the old ones are listed, with their new names, under "Old spellings").
func TestHelpNamesNoOldSpelling(t *testing.T) {
	for cmd := range commands {
		_, help, err := runCmd(t, cmd, "-h")
		if !errors.Is(err, flag.ErrHelp) {
			t.Fatalf("%s -h: %v", cmd, err)
		}
		text, old, _ := strings.Cut(help, "\nOld spellings")
		old, _, _ = strings.Cut(old, "\n\n")
		for _, l := range strings.Split(old, "\n") {
			name, _, ok := strings.Cut(strings.TrimSpace(l), ":")
			if !ok || !strings.HasPrefix(name, "-") {
				continue
			}
			if regexp.MustCompile(`(^|[^a-z0-9-])` + regexp.QuoteMeta(name) + `([^a-z0-9-]|$)`).MatchString(text) {
				t.Errorf("fairplay %s -h names the old spelling %s outside its list of old spellings", cmd, name)
			}
		}
	}
}
