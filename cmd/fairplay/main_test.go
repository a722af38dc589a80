package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func runCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), err
}

// wantUsageError runs args and checks for a usage error (exit code 2) whose message contains want.
func wantUsageError(t *testing.T, want string, args ...string) {
	t.Helper()
	_, _, err := runCmd(t, args...)
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), want) {
		t.Errorf("%v: err %v, want a usage error mentioning %q", args, err, want)
	}
	if exitCode(err, &bytes.Buffer{}) != 2 {
		t.Errorf("%v: exit code %d, want 2", args, exitCode(err, &bytes.Buffer{}))
	}
}

// golden compares got with testdata/name.golden (rewritten with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s: output differs from %s\n got:\n%s\nwant:\n%s", name, path, got, want)
	}
}

func TestGoldenOutputs(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
	}{
		{"perft-baran", []string{"perft", "-game", "baran", "-depth", "3"}},
		{"perft-katarenga", []string{"perft", "-game", "katarenga", "-depth", "3"}},
		{"perft-baran-strict", []string{"perft", "-game", "baran", "-rules", "capture=strict", "-pos", "6k/7/7/2w4/2W4/7/K6 r - 0", "-depth", "3"}},
		{"moves-baran", []string{"moves", "-game", "baran"}},
		{"moves-katarenga-layout", []string{"moves", "-game", "katarenga", "-layout", "C13-A02-D10-B01"}},
		{"layout-index", []string{"layout", "-layout", "0"}},
		{"layout-string", []string{"layout", "-layout", "C13-A02-D10-B01"}},
		{"layout-grid", []string{"layout", "-layout", "rybgrygb/grgbgyry/yybrbbgr/bgryyrbg/rgbyrgby/yygryybr/bbrgbgrg/grybgryb"}},
		{"layout-custom", []string{"layout", "-layout", "rrrrrrrr/yyyyyyyy/gggggggg/bbbbbbbb/rrrrrrrr/yyyyyyyy/gggggggg/bbbbbbbb"}},
		{"show-baran", []string{"show", "-game", "baran"}},
		{"show-katarenga", []string{"show", "-game", "katarenga", "-layout", "98303"}},
	} {
		out, _, err := runCmd(t, c.args...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		golden(t, c.name, out)
	}
}

func TestGoldenPlay(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	out, _, err := runCmd(t, "play", "-game", "katarenga", "-layout", "5", "-games", "60", "-seed", "7", "-out", dir, "-progress", "never")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "play-summary", strings.ReplaceAll(out, dir, "DIR"))
	games, err := os.ReadFile(filepath.Join(dir, "games.csv"))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "play-games.csv", string(games))
	// -workers must not change a byte.
	dir1 := filepath.Join(t.TempDir(), "run1")
	if _, _, err := runCmd(t, "play", "-game", "katarenga", "-layout", "5", "-games", "60", "-seed", "7", "-out", dir1, "-progress", "never", "-workers", "1"); err != nil {
		t.Fatal(err)
	}
	g1, _ := os.ReadFile(filepath.Join(dir1, "games.csv"))
	if !bytes.Equal(games, g1) {
		t.Error("games.csv differs between -workers 1 and the default")
	}
	// The same directory again without -resume: refused, nothing overwritten.
	before, _ := os.ReadFile(filepath.Join(dir, "summary.csv"))
	_, _, err = runCmd(t, "play", "-games", "10", "-out", dir, "-progress", "never")
	var ue usageError
	if !errors.As(err, &ue) {
		t.Errorf("reusing a run directory: err %v, want a usage error", err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "summary.csv"))
	if !bytes.Equal(before, after) {
		t.Error("a refused run changed summary.csv")
	}
	// A complete run resumes to nothing.
	if _, _, err := runCmd(t, "play", "-resume", dir, "-progress", "never"); err != nil {
		t.Errorf("resume of a complete run: %v", err)
	}
}

// A tiny sequential test: its report lines and verdict are fixed by the seed; the run
// directory resumes to nothing and play refuses to resume it.
func TestGoldenSPRT(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sprt")
	out, _, err := runCmd(t, "sprt", "-game", "katarenga", "-layout", "3", "-a", "alphabeta:depth=1", "-b", "greedy", "-model", "logistic",
		"-elo0", "-20", "-elo1", "20", "-rating-interval", "8", "-seed", "5", "-out", dir, "-progress", "never")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "sprt", out)
	if !strings.Contains(out, "H1 accepted") {
		t.Errorf("alphabeta:depth=1 vs greedy: no H1 verdict\n%s", out)
	}
	if _, _, err := runCmd(t, "sprt", "-resume", dir, "-progress", "never"); err != nil {
		t.Errorf("resume of a finished test: %v", err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "manifest.json"))
	os.WriteFile(filepath.Join(dir, "manifest.json"), bytes.Replace(b, []byte(`"status": "complete"`), []byte(`"status": "interrupted"`), 1), 0o644)
	if _, _, err := runCmd(t, "play", "-resume", dir, "-progress", "never"); err == nil || !strings.Contains(err.Error(), "sprt -resume") {
		t.Errorf("play -resume of a test: %v", err)
	}
}

// A short tuning run prints its weights table and the SPRT verdict; the interrupted-run path
// is covered in runner.
func TestTuneCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tune")
	out, _, err := runCmd(t, "tune", "-game", "katarenga", "-agent", "greedy", "-params", "camps,advance", "-iterations", "30",
		"-sprt-max-pairs", "50", "-seed", "3", "-out", dir, "-progress", "never")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"camps", "advance", "SPRT katarenga", "after"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, f := range []string{"trajectory.csv", "tuned.json", "sprt/games.csv", "sprt/sprt.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if _, errOut, err := runCmd(t, "tune", "-resume", dir); err != nil || !strings.Contains(errOut, "already complete") {
		t.Errorf("resume of a complete run: %v %s", err, errOut)
	}
}

// A tiny variant study: the report (tables and Holm-corrected differences) and variants.csv
// are fixed by the seed; an interrupted study resumes to the same files.
func TestGoldenVariants(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "study")
	args := []string{"variants", "-game", "baran", "-vary", "capture=huff,strict", "-ladder", "random;greedy", "-games-per-cell", "20", "-seed", "4", "-out", dir, "-progress", "never"}
	out, _, err := runCmd(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "variants-report", strings.ReplaceAll(out, dir, "DIR"))
	// One Holm family: the page counts the tests report.md counts, and no finding restates a rule.
	family := regexp.MustCompile(`\(([0-9]+) of ([0-9]+) tests`).FindStringSubmatch(out)
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil || family == nil {
		t.Fatalf("%v; family %q", err, family)
	}
	if want := family[1] + " of " + family[2] + " tests hold after Holm"; !strings.Contains(string(page), want) {
		t.Errorf("report.html does not say %q", want)
	}
	if strings.Contains(string(page), "removals_mean is") || strings.Contains(out, "| removals_mean | capture=huff") {
		t.Error("a finding on removals, which capture=strict keeps at zero by rule")
	}
	csv, err := os.ReadFile(filepath.Join(dir, "variants.csv"))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "variants.csv", string(csv))
	for _, f := range []string{"differences.csv", "variants_first_win_rate.png", "variants_removals_mean.svg", "cells/2-2/games.csv",
		"ratings/ratings.csv", "ratings/pairings/1-2/games.csv"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	// greedy won every rating game: its gap to random is the prior's, so there is no strength
	// trend, and no strength_trend.csv or strength plots (they were fitted through that gap).
	for _, f := range []string{"strength_trend.csv", "strength_first_win_rate.png", "strength_captures_mean.svg"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s written without two levels measured against each other", f)
		}
	}
	if !strings.Contains(out, "No strength trend: fewer than 2 levels") || !strings.Contains(string(page), "No strength trend: fewer than 2 levels") {
		t.Error("report.md or report.html does not say why there is no strength trend")
	}
	checkReportPage(t, page)
	trend, _ := os.ReadFile(filepath.Join(dir, "strength_trend.csv"))
	// Interrupt: drop the last cell and the rating games and mark the study unfinished;
	// resume rebuilds the same report.
	os.RemoveAll(filepath.Join(dir, "cells", "2-2"))
	os.RemoveAll(filepath.Join(dir, "ratings"))
	b, _ := os.ReadFile(filepath.Join(dir, "manifest.json"))
	os.WriteFile(filepath.Join(dir, "manifest.json"), bytes.Replace(b, []byte(`"status": "complete"`), []byte(`"status": "interrupted"`), 1), 0o644)
	out2, _, err := runCmd(t, "variants", "-resume", dir, "-progress", "never")
	if err != nil {
		t.Fatal(err)
	}
	if out2 != out {
		t.Error("the resumed study's report differs")
	}
	csv2, _ := os.ReadFile(filepath.Join(dir, "variants.csv"))
	if !bytes.Equal(csv, csv2) {
		t.Error("the resumed study's variants.csv differs")
	}
	if trend2, _ := os.ReadFile(filepath.Join(dir, "strength_trend.csv")); !bytes.Equal(trend, trend2) {
		t.Error("the resumed study's strength_trend.csv differs")
	}
}

// Bad input: a usage error (exit 2) naming the bad value, and nothing written.
func TestBadInput(t *testing.T) {
	tmp := t.TempDir()
	nonEmpty := filepath.Join(tmp, "full")
	os.MkdirAll(nonEmpty, 0o755)
	os.WriteFile(filepath.Join(nonEmpty, "x"), nil, 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"frobnicate"}, "frobnicate"},
		{[]string{"perft", "-game", "chess", "-depth", "2"}, "chess"},
		{[]string{"perft", "-game", "baran", "-depth", "0"}, "-depth 0"},
		{[]string{"perft", "-game", "baran", "-pos", "bad", "-depth", "1"}, "-pos"},
		{[]string{"moves", "-game", "baran", "-rules", "capture=sometimes"}, "sometimes"},
		{[]string{"moves", "-game", "katarenga", "-layout", "99999"}, "99999"},
		{[]string{"layout", "-layout", "Z00-B00-C00-D00"}, "Z00"},
		{[]string{"layout"}, "-layout"},
		{[]string{"play", "-games", "-4", "-out", filepath.Join(tmp, "a")}, "-games -4"},
		{[]string{"play", "-a", "grandmaster", "-out", filepath.Join(tmp, "b")}, "grandmaster"},
		{[]string{"play", "-shard", "2/2", "-out", filepath.Join(tmp, "c")}, "2/2"},
		{[]string{"play", "-progress", "loud", "-out", filepath.Join(tmp, "d")}, "loud"},
		{[]string{"play", "-out", nonEmpty}, nonEmpty},
		{[]string{"play", "-resume", filepath.Join(tmp, "nothing")}, "nothing"},
		{[]string{"play", "-resume", nonEmpty, "-games", "10"}, "-games"},
		{[]string{"bench", "-seconds", "0"}, "-seconds"},
		{[]string{"merge", "-out", filepath.Join(tmp, "m")}, "no shard"},
		{[]string{"merge", "-format", "bogus", "-out", filepath.Join(tmp, "m2"), nonEmpty}, "bogus"},
		{[]string{"merge", "-parquet-codec", "lz4", "-out", filepath.Join(tmp, "m2"), nonEmpty}, "lz4"},
		{[]string{"play", "-format", "parquet", "-parquet-codec", "brotli", "-out", filepath.Join(tmp, "a")}, "brotli"},
		{[]string{"play", "-parquet-codec", "zstd", "-out", filepath.Join(tmp, "a")}, "-parquet-codec zstd: the games file is csv"},
		{[]string{"play", "-format", "csv.gz", "-parquet-codec", "snappy", "-out", filepath.Join(tmp, "a")}, "-format parquet"},
		{[]string{"play", "-resume", nonEmpty, "-parquet-codec", "zstd"}, "drop -parquet-codec"},
		{[]string{"play", "-bogus"}, "bogus"},
		{[]string{"sprt", "-a", "random", "-b", "random", "-elo0", "5", "-elo1", "0", "-out", filepath.Join(tmp, "e")}, "elo0 5"},
		{[]string{"sprt", "-a", "random", "-b", "random", "-model", "bayes", "-out", filepath.Join(tmp, "e")}, "bayes"},
		{[]string{"sprt", "-a", "random", "-b", "random", "-alpha", "1.5", "-out", filepath.Join(tmp, "e")}, "alpha 1.5"},
		{[]string{"sprt", "-a", "random", "-out", filepath.Join(tmp, "e")}, "-b"},
		{[]string{"sprt", "-a", "random", "-b", "random", "-shard", "0/2", "-out", filepath.Join(tmp, "e")}, "sharded"},
		{[]string{"sprt", "-a", "random", "-b", "random", "-max-pairs", "0", "-out", filepath.Join(tmp, "e")}, "-max-pairs 0"},
		{[]string{"tune", "-agent", "random", "-out", filepath.Join(tmp, "e")}, "random"},
		{[]string{"variants", "-game", "baran", "-out", filepath.Join(tmp, "e")}, "-vary"},
		{[]string{"variants", "-game", "baran", "-vary", "capture=huff,sometimes", "-out", filepath.Join(tmp, "e")}, "sometimes"},
		{[]string{"variants", "-game", "baran", "-vary", "capture=huff", "-out", filepath.Join(tmp, "e")}, "two values"},
		{[]string{"variants", "-game", "baran", "-vary", "capture=huff,huff", "-out", filepath.Join(tmp, "e")}, "given twice"},
		{[]string{"variants", "-game", "baran", "-vary", "speed=1,2", "-out", filepath.Join(tmp, "e")}, "speed"},
		{[]string{"variants", "-game", "baran", "-vary", "capture", "-out", filepath.Join(tmp, "e")}, "NAME=value1"},
		{[]string{"variants", "-game", "baran", "-vary", "capture=huff,free", "-ladder", "random;wizard", "-out", filepath.Join(tmp, "e")}, "wizard"},
		{[]string{"variants", "-game", "baran", "-vary", "capture=huff,free", "-rating-games-per-pairing", "-3", "-out", filepath.Join(tmp, "e")}, "-rating-games-per-pairing -3"},
		{[]string{"variants", "-game", "baran", "-vary", "capture=huff,free", "-ladder", "random;random", "-out", filepath.Join(tmp, "e")}, "agent 2 (random) is agent 1"},
		{[]string{"tune", "-agent", "greedy", "-params", "speed", "-out", filepath.Join(tmp, "e")}, "speed"},
		{[]string{"tune", "-agent", "greedy", "-games-per-iteration", "3", "-out", filepath.Join(tmp, "e")}, "-games-per-iteration 3"},
		{[]string{"tune", "-agent", "greedy", "-c", "2", "-out", filepath.Join(tmp, "e")}, "-c 2"},
		{[]string{"tune", "-agent", "greedy", "-sprt-elo0", "9", "-sprt-elo1", "1", "-out", filepath.Join(tmp, "e")}, "elo0 9"},
	} {
		wantUsageError(t, c.want, c.args...)
	}
	for _, d := range []string{"a", "b", "c", "d", "e"} {
		if _, err := os.Stat(filepath.Join(tmp, d)); err == nil {
			t.Errorf("a refused run created %s", d)
		}
	}
}

func TestHelp(t *testing.T) {
	for name := range commands {
		_, errOut, err := runCmd(t, name, "-h")
		if !errors.Is(err, flag.ErrHelp) || exitCode(err, &bytes.Buffer{}) != 0 {
			t.Errorf("%s -h: err %v", name, err)
		}
		if !strings.Contains(errOut, "Usage: fairplay "+name) || !strings.Contains(errOut, "Examples:") {
			t.Errorf("%s -h lacks usage or examples:\n%s", name, errOut)
		}
	}
	if exitCode(errInterrupted, &bytes.Buffer{}) != 130 || exitCode(errors.New("disk full"), &bytes.Buffer{}) != 1 {
		t.Error("exit codes for interrupt (130) and failure (1)")
	}
}

func TestShardFromEnvironment(t *testing.T) {
	env := map[string]string{"JOB_COMPLETION_INDEX": "2"}
	s, err := resolveShard("", 5, func(k string) string { return env[k] })
	if err != nil || s.Index != 2 || s.Count != 5 {
		t.Errorf("JOB_COMPLETION_INDEX: %+v %v", s, err)
	}
	env = map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4"}
	s, err = resolveShard("", 0, func(k string) string { return env[k] })
	if err != nil || s.Index != 1 || s.Count != 4 {
		t.Errorf("SLURM: %+v %v", s, err)
	}
	s, err = resolveShard("", 0, func(string) string { return "" })
	if err != nil || s.Count != 1 {
		t.Errorf("no shard: %+v %v", s, err)
	}
}

func TestGoldenLayouts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sweep")
	out, _, err := runCmd(t, "layouts", "-layouts", filepath.Join("testdata", "three-layouts.txt"), "-games-per-board", "40", "-seed", "3", "-out", dir, "-progress", "never")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "layouts-summary", strings.ReplaceAll(out, dir, "DIR"))
	for _, f := range []string{"layouts.csv", "choices.csv"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "layouts-"+f, string(b))
	}
	for _, f := range []string{"white_rates.png", "white_rates.svg", "after_choice.png", "boards_fairest.png", "boards_unbalanced.svg", "manifest.json"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s missing: %v", f, err)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"layouts", "-layouts", "sample:0"}, "sample:0"},
		{[]string{"layouts", "-layouts", "nofile.txt"}, "nofile.txt"},
		{[]string{"layouts", "-band", "0.6"}, "-band"},
		{[]string{"layouts", "-adaptive", "-batch", "7"}, "batch 7"},
		{[]string{"layouts", "-batch", "20"}, "-batch: only with -adaptive or -race"},
		{[]string{"layouts", "-race", "fair", "-batch", "0"}, "-batch 0: want a positive even number up to the cap of 200 games per board"},
		{[]string{"layouts", "-band", "0.6,0.4"}, "-band 0.6,0.4: want 0 <= low < high <= 1"},
		{[]string{"layouts", "-race", "fairest", "-race-tolerance", "0.7"}, "-race-tolerance 0.7: want a number in [0, 0.5)"},
		{[]string{"layouts", "-games-per-board", "0"}, "-games-per-board 0: want a positive number of games per board"},
	} {
		_, _, err := runCmd(t, append(c.args, "-out", filepath.Join(t.TempDir(), "x"))...)
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err %v, want a usage error mentioning %q", c.args, err, c.want)
		}
	}
}

// A damaged manifest is a clear error, not a panic (shard count 0 would divide by zero).
func TestDamagedManifest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if _, _, err := runCmd(t, "play", "-games", "4", "-out", dir, "-progress", "never"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "manifest.json")
	b, _ := os.ReadFile(path)
	b = bytes.Replace(b, []byte(`"status": "complete"`), []byte(`"status": "interrupted"`), 1)
	b = bytes.Replace(b, []byte(`"shards": 1`), []byte(`"shards": 0`), 1)
	os.WriteFile(path, b, 0o644)
	for _, args := range [][]string{{"play", "-resume", dir}, {"merge", "-out", filepath.Join(t.TempDir(), "m"), dir}} {
		_, _, err := runCmd(t, args...)
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "damaged") {
			t.Errorf("%v: err %v, want a usage error about the damaged manifest", args, err)
		}
	}
}

// TestVersion pins the lines of fairplay version; the module version, the revision and the Go
// release vary by build, so the golden file holds them masked, and they are checked against the manifest's.
func TestVersion(t *testing.T) {
	out, errOut, err := runCmd(t, "version")
	if err != nil || errOut != "" {
		t.Fatalf("version: %v, stderr %q", err, errOut)
	}
	m := gamefile.NewManifest("version", nil)
	for _, want := range []string{"\nrevision " + m.VCSRevision + "\n", "\ngo       " + runtime.Version() + "\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("version lacks %q:\n%s", want, out)
		}
	}
	masked := regexp.MustCompile(`(?m)^(revision|go      |module   \S+) .*$`).ReplaceAllString(out, "$1 X")
	golden(t, "version", masked)
	if _, _, err := runCmd(t, "version", "extra"); exitCode(err, &bytes.Buffer{}) != 2 {
		t.Errorf("version extra: want a usage error, got %v", err)
	}
}

// TestHelpCommand checks that fairplay help CMD is fairplay CMD -h and fairplay help the usage.
func TestHelpCommand(t *testing.T) {
	for name := range commands {
		hOut, hErr, hRunErr := runCmd(t, name, "-h")
		out, errOut, err := runCmd(t, "help", name)
		if out != hOut || errOut != hErr || !errors.Is(err, flag.ErrHelp) || !errors.Is(hRunErr, flag.ErrHelp) {
			t.Errorf("help %s differs from %s -h (err %v)", name, name, err)
		}
	}
	usage, _, err := runCmd(t, "help")
	if err != nil || !strings.Contains(usage, "Subcommands:") || !strings.Contains(usage, "fairplay help <subcommand>") {
		t.Errorf("help: %v\n%s", err, usage)
	}
	for _, args := range [][]string{{"help", "nope"}, {"help", "play", "sprt"}} {
		if _, _, err := runCmd(t, args...); exitCode(err, &bytes.Buffer{}) != 2 {
			t.Errorf("%q: want a usage error, got %v", args, err)
		}
	}
}
