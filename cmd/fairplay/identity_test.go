package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestIdentity pins what every subcommand writes, so that a change meant to leave the
// behaviour alone (moving code between packages, say) can show that no output moved: a set
// of small runs covering every subcommand, each compared with testdata/identity/NAME.golden,
// which holds its normalised stdout and stderr and the SHA-256 of every deterministic file
// it wrote (rewrite them with go test ./cmd/fairplay -update, only when a change is meant).
//
// The runs share one working directory, in order (merge reads the shards, replay and plan
// read earlier runs, -resume and -report go back to finished ones), and give relative
// paths, so no directory name reaches an output. Left out as run-specific: .fairplay.lock
// (a process id) and, from manifest.json, the keys in manifestVolatile; masked: the source
// revision in HTML pages and the timings on stderr (identityNormalise). PNG plots are left
// out too: each is the SVG plot of the same name, drawn by the standard library's encoder,
// whose bytes may change with the Go release. bench's uniform random and -play
// measurements are all timing; bench -agent keeps its searched positions, moves and nodes.
// A csv.gz file is hashed as written: its gzip members end at fixed blocks of games, whatever
// the worker count. Some 6 s of CPU, mostly drawing plots.
func TestIdentity(t *testing.T) {
	inputs := map[string][]byte{}
	for _, f := range []string{"study.json", "openings-baran.txt", "book-baran.txt", "layouts.txt"} {
		b, err := os.ReadFile(filepath.Join("testdata", "identity", f))
		if err != nil {
			t.Fatal(err)
		}
		inputs[f] = b
	}
	got := map[string]string{}
	t.Run("runs", func(t *testing.T) {
		for _, v := range []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT"} {
			t.Setenv(v, "") // a batch job's array index would shard every run
		}
		tmp := t.TempDir()
		t.Chdir(tmp)
		for f, b := range inputs {
			if err := os.WriteFile(f, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		seen := map[string]string{}
		for _, c := range identityRuns {
			got[c.name] = identityRun(t, tmp, c, seen)
		}
		got["help"] = identityHelp(t)
	})
	if t.Failed() {
		return
	}
	if *update {
		if err := os.MkdirAll(filepath.Join("testdata", "identity"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	names := make([]string, 0, len(got))
	for n := range got {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		golden(t, filepath.Join("identity", n), got[n])
	}
	// A golden file no run writes any more is a run that was dropped.
	old, _ := filepath.Glob(filepath.Join("testdata", "identity", "*.golden"))
	for _, p := range old {
		if _, ok := got[strings.TrimSuffix(filepath.Base(p), ".golden")]; !ok {
			t.Errorf("%s: no run of that name (remove the file)", p)
		}
	}
}

type identityCase struct {
	name string   // the golden file testdata/identity/NAME.golden
	args []string // the command line
	outs []string // files and directories it writes (or rewrites), hashed once it returns
	json []string // stdout is one JSON object: drop these keys (timings)
}

// identityRuns are the invocations, run in this order in one directory.
var identityRuns = []identityCase{
	// Rules tools.
	{name: "perft-baran", args: []string{"perft", "-game", "baran", "-depth", "2"}},
	{name: "perft-katarenga", args: []string{"perft", "-game", "katarenga", "-layout", "17", "-rules", "first-move-capture=banned", "-depth", "2"}},
	{name: "moves-baran", args: []string{"moves", "-game", "baran", "-pos", "6k/7/7/2w4/2W4/7/K6 r - 0", "-rules", "capture=strict"}},
	{name: "moves-katarenga", args: []string{"moves", "-game", "katarenga", "-layout", "C13-A02-D10-B01"}},
	{name: "layout", args: []string{"layout", "-layout", "12345"}},
	{name: "show-baran", args: []string{"show", "-game", "baran", "-pos", "3k3/7/7/7/7/7/3K3 b - 0"}},
	{name: "show-katarenga", args: []string{"show", "-game", "katarenga", "-layout", "98303"}},
	{name: "agents", args: []string{"agents"}},
	{name: "bench-agent", args: []string{"bench", "-game", "katarenga", "-agent", "alphabeta:depth=2", "-positions", "3", "-seconds", "0.000001", "-json"},
		json: []string{"seconds", "ms_per_move", "ms_per_move_median", "moves_per_sec", "work_per_sec", "go_version", "gomaxprocs"}},
	{name: "bench-agent-mcts", args: []string{"bench", "-game", "baran", "-agent", "mcts:playouts=30", "-positions", "2", "-seconds", "0.000001", "-json"},
		json: []string{"seconds", "ms_per_move", "ms_per_move_median", "moves_per_sec", "work_per_sec", "go_version", "gomaxprocs"}},

	// play in each games file format, from each kind of start; shards, merge and replay.
	{name: "play-katarenga", args: []string{"play", "-games", "20", "-out", "play-katarenga", "-progress", "never"}, outs: []string{"play-katarenga"}},
	{name: "play-katarenga-resume", args: []string{"play", "-resume", "play-katarenga", "-progress", "never"}, outs: []string{"play-katarenga"}},
	{name: "play-katarenga-agents", args: []string{"play", "-game", "katarenga", "-layout", "C13-A02-D10-B01", "-a", "alphabeta:depth=1", "-b", "greedy",
		"-games", "8", "-seed", "7", "-workers", "1", "-out", "play-katarenga-agents", "-progress", "never"}, outs: []string{"play-katarenga-agents"}},
	{name: "play-katarenga-parquet", args: []string{"play", "-game", "katarenga", "-layout", "random", "-branching=false", "-a", "mcts:playouts=20", "-b", "random",
		"-games", "6", "-seed", "11", "-workers", "3", "-format", "parquet", "-out", "play-katarenga-parquet", "-progress", "never"}, outs: []string{"play-katarenga-parquet"}},
	{name: "play-baran-gz", args: []string{"play", "-game", "baran", "-rules", "capture=strict,fast-row=4", "-games", "10", "-seed", "3",
		"-format", "csv.gz", "-out", "play-baran-gz", "-progress", "never"}, outs: []string{"play-baran-gz"}},
	{name: "play-baran-pos", args: []string{"play", "-game", "baran", "-pos", "6k/7/7/2w4/2W4/7/K6 r - 0", "-a", "greedy", "-games", "6", "-seed", "5",
		"-out", "play-baran-pos", "-progress", "never"}, outs: []string{"play-baran-pos"}},
	{name: "play-baran-openings", args: []string{"play", "-game", "baran", "-openings", "openings-baran.txt", "-a", "alphabeta:depth=1", "-b", "classic:depth=1",
		"-games", "6", "-seed", "9", "-out", "play-baran-openings", "-progress", "never"}, outs: []string{"play-baran-openings"}},
	{name: "play-baran-book", args: []string{"play", "-game", "baran", "-openings", "book-baran.txt,order=random,plies=7", "-a", "greedy",
		"-games", "6", "-seed", "9", "-out", "play-baran-book", "-progress", "never"}, outs: []string{"play-baran-book"}},
	{name: "play-shard-0", args: []string{"play", "-game", "katarenga", "-layout", "5", "-games", "12", "-seed", "4", "-shard", "0/2", "-out", "shard-0", "-progress", "never"}, outs: []string{"shard-0"}},
	{name: "play-shard-1", args: []string{"play", "-game", "katarenga", "-layout", "5", "-games", "12", "-seed", "4", "-shard", "1/2", "-format", "csv.gz", "-out", "shard-1", "-progress", "never"}, outs: []string{"shard-1"}},
	{name: "merge", args: []string{"merge", "-out", "merged", "shard-0", "shard-1"}, outs: []string{"merged"}},
	{name: "merge-parquet", args: []string{"merge", "-out", "merged-parquet", "-format", "parquet", "shard-1", "shard-0"}, outs: []string{"merged-parquet"}},
	{name: "merge-parquet-zstd", args: []string{"merge", "-out", "merged-parquet-zstd", "-format", "parquet", "-parquet-codec", "zstd", "shard-1", "shard-0"}, outs: []string{"merged-parquet-zstd"}},
	{name: "replay-ply", args: []string{"replay", "-run", "merged", "-index", "3", "-ply", "4"}},
	{name: "replay-game", args: []string{"replay", "-run", "play-katarenga-agents", "-index", "0"}},
	{name: "replay-long", args: []string{"replay", "-run", "play-baran-pos", "-index", "1"}},
	{name: "replay-shard", args: []string{"replay", "-run", "shard-1", "-index", "7", "-ply", "0"}},

	// Statistics over runs.
	{name: "plan-rate", args: []string{"plan", "-rate", "0.5", "-effect", "0.02"}},
	{name: "plan-rate-games", args: []string{"plan", "-rate", "0.45", "-effect", "0.02", "-games", "3000", "-alpha", "0.01"}},
	{name: "plan-variants", args: []string{"plan", "-rate", "0.55", "-effect", "-0.05", "-variants", "-cc", "-json"}},
	{name: "plan-elo-pilot", args: []string{"plan", "-elo", "40", "-pilot", "play-katarenga", "-power", "0.9"}},
	{name: "plan-elo-penta", args: []string{"plan", "-elo", "10", "-penta", "5,10,30,35,20", "-json"}},

	// Experiments.
	{name: "sprt", args: []string{"sprt", "-game", "katarenga", "-layout", "3", "-a", "alphabeta:depth=1", "-b", "greedy", "-model", "logistic",
		"-elo0", "-20", "-elo1", "20", "-max-pairs", "12", "-rating-interval", "4", "-random-opening", "4", "-seed", "5", "-out", "sprt", "-progress", "never"}, outs: []string{"sprt"}},
	{name: "sprt-baran", args: []string{"sprt", "-game", "baran", "-a", "greedy", "-b", "random", "-elo0", "0", "-elo1", "200", "-max-pairs", "20",
		"-out", "sprt-baran", "-progress", "never"}, outs: []string{"sprt-baran"}},
	{name: "sprt-resume", args: []string{"sprt", "-resume", "sprt", "-progress", "never"}, outs: []string{"sprt"}},
	{name: "ladder", args: []string{"ladder", "-game", "katarenga", "-layout", "0", "-steps", "greedy>random;alphabeta:depth=1>greedy", "-games-per-step", "4", "-seed", "2",
		"-out", "ladder", "-progress", "never"}, outs: []string{"ladder"}},
	{name: "ladder-baran", args: []string{"ladder", "-game", "baran", "-steps", "alphabeta:depth=1>random", "-games-per-step", "4", "-random-opening", "4",
		"-out", "ladder-baran", "-progress", "never"}, outs: []string{"ladder-baran"}},
	{name: "variants-baran", args: []string{"variants", "-game", "baran", "-vary", "capture=huff,strict", "-ladder", "random;greedy", "-games-per-cell", "4",
		"-rating-games-per-pairing", "4", "-rating-bootstrap", "20", "-seed", "4", "-out", "variants-baran", "-progress", "never"}, outs: []string{"variants-baran"}},
	{name: "variants-katarenga", args: []string{"variants", "-game", "katarenga", "-vary", "first-move-capture=allowed,banned", "-vary", "no-move=loss,pass",
		"-ladder", "greedy", "-games-per-cell", "4", "-rating-games-per-pairing", "0", "-layout", "9",
		"-out", "variants-katarenga", "-progress", "never"}, outs: []string{"variants-katarenga"}},
	{name: "variants-resume", args: []string{"variants", "-resume", "variants-baran", "-progress", "never"}, outs: []string{"variants-baran"}},
	{name: "variants-race", args: []string{"variants", "-game", "katarenga", "-vary", "first-move-capture=allowed,banned", "-ladder", "random;greedy", "-race", "fairest",
		"-games-per-cell", "40", "-batch", "10", "-seed", "4", "-out", "variants-race", "-progress", "never"}, outs: []string{"variants-race"}},
	{name: "layouts", args: []string{"layouts", "-layouts", "layouts.txt", "-games-per-board", "4", "-seed", "3", "-out", "layouts", "-progress", "never"}, outs: []string{"layouts"}},
	{name: "layouts-adaptive", args: []string{"layouts", "-layouts", "random:2", "-adaptive", "-batch", "10", "-games-per-board", "40", "-band", "0.4,0.6",
		"-a", "greedy", "-b", "random", "-out", "layouts-adaptive", "-progress", "never"}, outs: []string{"layouts-adaptive"}},
	{name: "layouts-shard-0", args: []string{"layouts", "-layouts", "layouts.txt", "-games-per-board", "4", "-rules", "first-move-capture=banned", "-random-opening", "0",
		"-shard", "0/2", "-out", "layouts-shard-0", "-progress", "never"}, outs: []string{"layouts-shard-0"}},
	{name: "layouts-shard-1", args: []string{"layouts", "-layouts", "layouts.txt", "-games-per-board", "4", "-rules", "first-move-capture=banned", "-random-opening", "0",
		"-shard", "1/2", "-out", "layouts-shard-1", "-progress", "never"}, outs: []string{"layouts-shard-1"}},
	{name: "layouts-merge", args: []string{"merge", "-out", "layouts-merged", "layouts-shard-0", "layouts-shard-1"}, outs: []string{"layouts-merged"}},
	{name: "layouts-report-compare", args: []string{"layouts", "-report", "layouts-merged", "-compare", "layouts"}, outs: []string{"layouts-merged"}},
	{name: "layouts-ladder", args: []string{"layouts", "-ladder", "random;greedy", "-layouts", "layouts.txt", "-games-per-board", "4", "-replicates", "2",
		"-rating-games-per-pairing", "4", "-rating-bootstrap", "20", "-top", "3", "-compare", "layouts", "-out", "layouts-ladder", "-progress", "never"}, outs: []string{"layouts-ladder"}},
	{name: "layouts-ladder-report", args: []string{"layouts", "-report", "layouts-ladder"}, outs: []string{"layouts-ladder"}},
	{name: "tournament", args: []string{"tournament", "-game", "katarenga", "-agents", "random;greedy;alphabeta:depth=1", "-games-per-pairing", "4", "-bootstrap", "20",
		"-out", "tournament", "-progress", "never"}, outs: []string{"tournament"}},
	{name: "tournament-band", args: []string{"tournament", "-game", "katarenga", "-agents", "greedy;mcts:playouts=20;alphabeta:depth=2", "-neighbours", "1",
		"-games-per-pairing", "2", "-layout", "4", "-random-opening", "2", "-prior", "0.5", "-bootstrap", "10", "-seed", "6",
		"-out", "tournament-band", "-progress", "never"}, outs: []string{"tournament-band"}},
	{name: "tournament-combine", args: []string{"tournament", "-combine", "-bootstrap", "20", "-out", "tournament-combined", "tournament", "tournament-band"},
		outs: []string{"tournament-combined"}},
	{name: "tournament-shard-0", args: []string{"tournament", "-game", "baran", "-agents", "greedy;alphabeta:depth=1;random", "-gauntlet", "-games-per-pairing", "4", "-random-opening", "4",
		"-bootstrap", "20", "-shard", "0/2", "-out", "tournament-shard-0", "-progress", "never"}, outs: []string{"tournament-shard-0"}},
	{name: "tournament-shard-1", args: []string{"tournament", "-game", "baran", "-agents", "greedy;alphabeta:depth=1;random", "-gauntlet", "-games-per-pairing", "4", "-random-opening", "4",
		"-bootstrap", "20", "-shard", "1/2", "-out", "tournament-shard-1", "-progress", "never"}, outs: []string{"tournament-shard-1"}},
	{name: "tournament-merge", args: []string{"merge", "-out", "tournament-merged", "tournament-shard-0", "tournament-shard-1"}, outs: []string{"tournament-merged"}},
	{name: "tournament-resume", args: []string{"tournament", "-resume", "tournament", "-progress", "never"}, outs: []string{"tournament"}},
	{name: "tune", args: []string{"tune", "-game", "katarenga", "-layout", "0", "-random-opening", "4", "-agent", "greedy", "-params", "camps,advance", "-iterations", "3", "-sprt-max-pairs", "4",
		"-seed", "3", "-out", "tune", "-progress", "never"}, outs: []string{"tune"}},
	{name: "tune-resume", args: []string{"tune", "-resume", "tune", "-progress", "never"}, outs: []string{"tune"}},
	{name: "tune-baran", args: []string{"tune", "-game", "baran", "-agent", "greedy", "-params", "king_distance,threats", "-iterations", "2",
		"-games-per-iteration", "4", "-c", "0.1", "-r-end", "0.05", "-no-sprt", "-out", "tune-baran", "-progress", "never"}, outs: []string{"tune-baran"}},
	{name: "learn", args: []string{"learn", "-game", "katarenga", "-random-opening", "4", "-agent", "alphabeta:depth=1", "-games", "10", "-holdout", "3", "-save-weights", "learned.json"},
		outs: []string{"learned.json"}},
	{name: "learn-baran", args: []string{"learn", "-game", "baran", "-agent", "greedy", "-games", "6", "-random-opening", "6", "-l2", "0.01", "-save-weights", "learned-baran.json"},
		outs: []string{"learned-baran.json"}},
	{name: "sprt-learned", args: []string{"sprt", "-game", "katarenga", "-random-opening", "4", "-a", "greedy:weights=learned.json", "-b", "greedy", "-elo0", "0", "-elo1", "50",
		"-max-pairs", "4", "-out", "sprt-learned", "-progress", "never"}, outs: []string{"sprt-learned"}},

	// A study file: its dry run, the study, and a second go that plays nothing.
	{name: "study-dry-run", args: []string{"study", "-dry-run", "study.json"}},
	{name: "study", args: []string{"study", "-out", "study", "-workers", "3", "-progress", "never", "study.json"}, outs: []string{"study"}},
	{name: "study-resume", args: []string{"study", "-resume", "study", "-progress", "never", "study.json"}, outs: []string{"study"}},
}

// identityHelp is fairplay -h and the SHA-256 of every subcommand's -h (flags, defaults and
// examples: some 30 KB of text), the default worker count (GOMAXPROCS) masked.
func identityHelp(t *testing.T) string {
	var b strings.Builder
	out, errOut, err := runCmd(t, "-h")
	if err != nil {
		t.Errorf("-h: %v", err)
	}
	fmt.Fprintf(&b, "$ fairplay -h\n-- stdout\n%s-- stderr\n%s-- sha256 of each subcommand's -h (stdout, then stderr)\n", out, errOut)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		out, errOut, err := runCmd(t, n, "-h")
		if !errors.Is(err, flag.ErrHelp) {
			t.Errorf("%s -h: %v", n, err)
		}
		errOut = workersDefault.ReplaceAllString(errOut, "${1} (default GOMAXPROCS)")
		fmt.Fprintf(&b, "%x  fairplay %s -h\n", sha256.Sum256([]byte(out+"\x00"+errOut)), n)
	}
	return b.String()
}

// identityRun runs one invocation in the working directory tmp and returns its golden text:
// the command, stdout, stderr and one "sha256  path" line per file of outs that it wrote or
// changed; seen holds every hashed file's hash as the runs before left it, so a resumed run
// or a re-derived report lists only what it rewrote differently, and how many files it left
// as they were.
func identityRun(t *testing.T, tmp string, c identityCase, seen map[string]string) string {
	t.Helper()
	out, errOut, err := runCmd(t, c.args...)
	if err != nil {
		t.Errorf("%s: %v\n%s", c.name, err, errOut)
	}
	if c.json != nil {
		b, jerr := dropJSONKeys([]byte(out), c.json)
		if jerr != nil {
			t.Errorf("%s: stdout: %v", c.name, jerr)
		}
		out = string(b)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "$ fairplay %s\n", strings.Join(c.args, " "))
	for _, s := range []struct{ name, text string }{{"stdout", out}, {"stderr", errOut}} {
		text := identityNormalise(s.text, tmp)
		if len(text) > identityMaxText { // a whole game replayed: its hash keeps testdata small
			fmt.Fprintf(&b, "-- %s: %d bytes, sha256 %x\n", s.name, len(text), sha256.Sum256([]byte(text)))
			continue
		}
		fmt.Fprintf(&b, "-- %s\n%s", s.name, text)
	}
	var files []string
	unchanged := 0
	for _, o := range c.outs {
		werr := filepath.WalkDir(o, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || d.Name() == ".fairplay.lock" || filepath.Ext(p) == ".png" {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			switch {
			case d.Name() == "manifest.json":
				if data, err = dropJSONKeys(data, manifestVolatile); err != nil {
					return fmt.Errorf("%s: %v", p, err)
				}
			case filepath.Ext(p) == ".html":
				data = htmlRevision.ReplaceAll(data, []byte("revision REV"))
			}
			if ext := filepath.Ext(p); ext != ".parquet" && ext != ".gz" {
				data = []byte(identityNormalise(string(data), tmp))
			}
			p = filepath.ToSlash(p)
			h := fmt.Sprintf("%x", sha256.Sum256(data))
			if seen[p] == h {
				unchanged++
				return nil
			}
			seen[p] = h
			files = append(files, h+"  "+p+"\n")
			return nil
		})
		if werr != nil {
			t.Errorf("%s: %v", c.name, werr)
		}
	}
	if len(c.outs) > 0 {
		fmt.Fprintf(&b, "-- files written or changed (sha256), %d left as they were\n%s", unchanged, strings.Join(files, ""))
	}
	return b.String()
}

// identityMaxText is the longest stdout or stderr kept as text in a golden file.
const identityMaxText = 16 << 10

// manifestVolatile are the manifest keys that depend on the time, the host, the toolchain,
// the source revision and build or the worker count, not on what was played.
var manifestVolatile = []string{"go_version", "vcs_revision", "build_sha256", "started", "ended", "seconds", "games_per_second", "plies_per_second",
	"workers", "gomaxprocs", "peak_rss_bytes", "host"}

var (
	htmlRevision   = regexp.MustCompile(`revision [^<]*`)
	workersDefault = regexp.MustCompile(`(parallel workers.*) \(default \d+\)`)
	// Timings on stderr: perft's per-depth speed, a study's elapsed time and ETA.
	perftTiming = regexp.MustCompile(`nodes in \S+ \([^)]*\)`)
	studyTiming = regexp.MustCompile(`study elapsed [^,]*, ETA [^)]*`)
)

// identityNormalise masks the working directory (in case a path is made absolute) and the
// timings printed on stderr.
func identityNormalise(s, tmp string) string {
	for _, d := range []string{tmp, evalSymlinks(tmp)} {
		s = strings.ReplaceAll(s, d, "$TMP")
	}
	s = perftTiming.ReplaceAllString(s, "nodes in T")
	return studyTiming.ReplaceAllString(s, "study elapsed T, ETA T")
}

func evalSymlinks(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// dropJSONKeys removes keys from a JSON object: the rest is written back one key a line, in
// its order, each value as it was written.
func dropJSONKeys(data []byte, keys []string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object (%v)", err)
	}
	var b bytes.Buffer
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if k := tok.(string); !slices.Contains(keys, k) {
			fmt.Fprintf(&b, "%q: %s\n", k, v)
		}
	}
	return b.Bytes(), nil
}
