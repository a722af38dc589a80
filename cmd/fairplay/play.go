package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fairplay-lab/fairplay/runner"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/tally"

	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// runFlags are the flags every long-running subcommand shares.
type runFlags struct {
	seed     uint64
	workers  int
	out      string
	resume   string
	progress string
	shard    string
	shards   int
}

func (r *runFlags) register(fs *flag.FlagSet) {
	fs.Uint64Var(&r.seed, "seed", 1, "master seed: game i is a pure function of (configuration, seed, i)")
	fs.IntVar(&r.workers, "workers", runtime.GOMAXPROCS(0), "parallel workers (results do not depend on it)")
	fs.StringVar(&r.out, "out", "", "output directory (default: a new directory named after the run)")
	fs.StringVar(&r.resume, "resume", "", "finish the interrupted run in this directory")
	fs.StringVar(&r.progress, "progress", "auto", "progress display on stderr: auto (bar on a terminal, periodic lines otherwise), always, never")
	fs.StringVar(&r.shard, "shard", "", "play only shard i of M (i/M, 0-based); falls back to JOB_COMPLETION_INDEX with -shards, or SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT")
	fs.IntVar(&r.shards, "shards", 0, "the shard count M when the index comes from JOB_COMPLETION_INDEX")
}

// parseUnsharded parses args for a command that runs whole (a sequential test, a tuning run,
// a study): -shard and -shards are refused with why.
func (r *runFlags) parseUnsharded(fs *flag.FlagSet, args []string, stderr io.Writer, why string) error {
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if _, err := r.check(func(string) string { return "" }); err != nil {
		return err
	}
	if r.shard != "" || r.shards != 0 {
		return usageError{msg: why}
	}
	return nil
}

// matchFor builds the game and the match of a configuration; errors are usage errors.
func matchFor(cfg runner.MatchConfig) (*runner.Match, error) {
	ts, err := tilesFor(cfg.Tiles)
	if err != nil {
		return nil, usagef("-tiles: %v", err)
	}
	gm, err := matchGame(cfg, ts)
	if err != nil {
		return nil, usageErr(err)
	}
	m, err := runner.NewMatch(cfg, gm)
	if err != nil {
		return nil, usageErr(err)
	}
	if err := m.Check(); err != nil {
		return nil, usageErr(err)
	}
	return m, nil
}

// matchGame builds the game of a match's configuration: with random layouts on any board (a
// match's configuration, once made, names its layout "random", which no board is called).
func matchGame(cfg runner.MatchConfig, ts *katarenga.TileSet) (*games.Game, error) {
	layout := cfg.Layout
	if cfg.RandomLayouts {
		layout = ""
	}
	return games.New(cfg.Game, cfg.Rules, layout, ts)
}

// check validates the shared flags and resolves the shard.
func (r *runFlags) check(getenv func(string) string) (runner.Shard, error) {
	if err := checkWorkers(r.workers); err != nil {
		return runner.Shard{}, err
	}
	switch r.progress {
	case "auto", "always", "never":
	default:
		return runner.Shard{}, usagef("-progress %q: want auto, always or never", r.progress)
	}
	return resolveShard(r.shard, r.shards, getenv)
}

func resolveShard(spec string, shards int, getenv func(string) string) (runner.Shard, error) {
	parse := func(i, m string, what string) (runner.Shard, error) {
		a, err1 := strconv.Atoi(strings.TrimSpace(i))
		b, err2 := strconv.Atoi(strings.TrimSpace(m))
		if err1 != nil || err2 != nil || b < 1 || a < 0 || a >= b {
			return runner.Shard{}, usagef("%s %q: want i/M with 0 <= i < M", what, i+"/"+m)
		}
		return runner.Shard{Index: a, Count: b}, nil
	}
	if spec != "" {
		i, m, ok := strings.Cut(spec, "/")
		if !ok {
			return runner.Shard{}, usagef("-shard %q: want i/M with 0 <= i < M", spec)
		}
		sh, err := parse(i, m, "-shard")
		if err == nil && shards != 0 && shards != sh.Count {
			return sh, usagef("-shard %s and -shards %d disagree (give -shard i/M alone, or -shards M with JOB_COMPLETION_INDEX)", spec, shards)
		}
		return sh, err
	}
	if v := getenv("JOB_COMPLETION_INDEX"); v != "" && shards > 0 {
		return parse(v, strconv.Itoa(shards), "JOB_COMPLETION_INDEX/-shards")
	}
	if shards < 0 {
		return runner.Shard{}, usagef("-shards %d: want a positive count", shards)
	}
	id, n := getenv("SLURM_ARRAY_TASK_ID"), getenv("SLURM_ARRAY_TASK_COUNT")
	switch {
	case id != "" && n != "":
		sh, err := parse(id, n, "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT")
		if err == nil && shards > 0 && shards != sh.Count {
			return sh, usagef("-shards %d and SLURM_ARRAY_TASK_COUNT %s disagree", shards, n)
		}
		return sh, err
	case id != "":
		return runner.Shard{}, usagef("SLURM_ARRAY_TASK_ID %s without SLURM_ARRAY_TASK_COUNT: give -shard i/M, or set both", id)
	case n != "":
		return runner.Shard{}, usagef("SLURM_ARRAY_TASK_COUNT %s without SLURM_ARRAY_TASK_ID: give -shard i/M, or set both", n)
	case shards > 0:
		return runner.Shard{}, usagef("-shards %d: no shard index (give -shard i/M, or run where JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID is set)", shards)
	}
	return runner.Shard{Index: 0, Count: 1}, nil
}

// outDir picks and checks the output directory: a new one named after the run by default.
func outDir(out, name string) (string, error) {
	if out == "" {
		base := fmt.Sprintf("fairplay-%s-%s", name, time.Now().Format("20060102-150405"))
		out = base
		for k := 2; ; k++ {
			if _, err := os.Stat(out); os.IsNotExist(err) {
				break
			}
			out = fmt.Sprintf("%s-%d", base, k)
		}
	}
	if err := runner.CheckDir(out); err != nil {
		return "", usageErr(err)
	}
	return out, nil
}

// loadResume reads the configuration of a run of the given kind (for -resume and -report).
func loadResume(dir, kind string, cfg any) (*gamefile.Manifest, error) {
	return loadRun("-resume", dir, kind, cfg)
}

// loadRun is loadResume for the run named by flag (-resume, -report).
func loadRun(flag, dir, kind string, cfg any) (*gamefile.Manifest, error) {
	man, _, err := readRunManifest(flag, dir, kind)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(man.Config, cfg); err != nil {
		return nil, usagef("%s %s: manifest config: %v", flag, dir, err)
	}
	return man, nil
}

// resumeRun loads the configuration of the run in dir into cfg for -resume. It refuses
// configuration flags, and reports complete (after saying so on stderr) when nothing is left.
func resumeRun(fs *flag.FlagSet, dir, kind string, cfg any, stderr io.Writer) (shard runner.Shard, complete bool, err error) {
	if err := onlyRunFlags(fs); err != nil {
		return shard, false, err
	}
	man, err := loadResume(dir, kind, cfg)
	if err != nil {
		return shard, false, err
	}
	// play and sprt both write matches: each resumes its own (checked before "complete").
	if k, err := kindOf(man); err == nil && (fs.Name() == "play" || fs.Name() == "sprt") && commandOf(man, k) != fs.Name() {
		return shard, false, usagef("-resume %s: it holds a %s run, which fairplay %s makes and resumes: fairplay %s -resume %s", dir, runName(man, k), commandOf(man, k), commandOf(man, k), dir)
	}
	// sprt writes sprt.txt and its page after the match's manifest says complete: without them
	// (a full disk) the test is resumed, which re-reads its games and writes them.
	sprtPending := fs.Name() == "sprt" && !slices.Contains(man.Outputs, "sprt.txt")
	if man.Status == "complete" && !sprtPending {
		if err := checkComplete(dir, man); err != nil {
			return shard, false, err
		}
		fmt.Fprintf(stderr, "%s: the run is already complete (%d %s)\n", dir, man.Completed, man.Unit)
		return shard, true, nil
	}
	return runner.Shard{Index: man.Shard, Count: man.Shards}, false, nil
}

// checkComplete checks a match said complete against its games file: it holds the games the
// manifest counts, else the directory is refused (a resume would say "complete" over games
// that are missing).
func checkComplete(dir string, man *gamefile.Manifest) error {
	if man.Kind != runner.MatchKind {
		return nil
	}
	path, _, err := gamefile.FindGames(dir)
	if err != nil {
		return usagef("-resume %s: manifest.json says complete, but: %v", dir, err)
	}
	src, err := runner.OpenGames(path)
	if err != nil {
		return usagef("-resume %s: %v", dir, err)
	}
	defer src.Close()
	var n int64
	for _, err := range gamefile.All(src.Read) {
		if err != nil {
			return usagef("-resume %s: %v", dir, err)
		}
		n++
	}
	if n != man.Completed {
		return usagef("-resume %s: manifest.json says complete with %d %s, %s holds %d: %v", dir, man.Completed, man.Unit, filepath.Base(path), n, gamefile.ErrDamaged)
	}
	return nil
}

// onlyRunFlags rejects configuration flags given together with -resume.
func onlyRunFlags(fs *flag.FlagSet) error {
	var bad []string
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "resume", "workers", "progress":
		default:
			bad = append(bad, "-"+f.Name)
		}
	})
	if len(bad) > 0 {
		return usagef("with -resume the configuration comes from the run's manifest.json; drop %s", strings.Join(bad, " "))
	}
	return nil
}

func tilesFor(text string) (*katarenga.TileSet, error) {
	if text == "" {
		return nil, nil
	}
	ts, err := katarenga.ParseTiles(text)
	if err != nil {
		return nil, err
	}
	return &ts, nil
}

func runPlay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("play", "[-game G] [-a AGENT] [-b AGENT] [-games N] [-layout L | -openings FILE[,order=random][,plies=N] | -pos P] [-rules k=v,...] [-seed S] [-workers W] [-out DIR] [-shard i/M] [-resume DIR] [-progress auto|always|never] [-format csv|csv.gz|parquet] [-parquet-codec snappy|zstd] [-branching=false]",
		"fairplay play -layout 0                         # first-player balance of Katarenga layout 0, random agents, 200000 games",
		"fairplay play                                   # the same on a random tile placement per pair, as the published game is set up",
		"fairplay play -games 10000000 -format parquet   # games.parquet: typed columns for pandas, polars, DuckDB",
		"fairplay play -games 10000000 -format parquet -parquet-codec zstd   # a file to keep: 0.7 times Snappy's bytes, slower to write",
		"fairplay play -game baran -rules capture=strict -games 100000 -out baran-strict",
		"fairplay play -game katarenga -layout 1234 -a random -b random -games 20000 -shard 0/4 -out part0",
		"fairplay play -game baran -openings openings.txt -games 2000   # pair p starts from line p mod n of the file",
		"fairplay play -game baran -openings book.txt,order=random,plies=6 -games 2000   # lines 'POSITION moves ...' cut to 6 plies, shuffled by -seed",
		"fairplay play -game baran -pos '6k/7/7/2w4/2W4/7/K6 r - 0' -games 100",
		"fairplay play -games 1000000 -branching=false   # random games drawn by rejection, no legal counts: faster",
		"fairplay play -resume baran-strict               # finish an interrupted run")
	var gf gameFlags
	gf.register(fs, layoutRandom, false)
	gf.layout.aliasRandomLayouts(fs)
	a := fs.String("a", "random", "agent A (run 'fairplay agents' for the list)")
	b := fs.String("b", "random", "agent B")
	n := fs.Int64("games", 200000, "games to play in all, in colour-swapped pairs (rounded up to even)")
	var opening openingFlag
	registerOpening(fs, &opening)
	openings := fs.String("openings", "", "`FILE[,order=sequential|random][,plies=N]`: start positions, one per line in the game's notation, each optionally followed by \"moves\" and actions played from it (at most N with plies=N); pair p starts from line p mod n (both games of the pair), of the file in its order (sequential, the default) or shuffled once by -seed (random)")
	pos := fs.String("pos", "", "one start position in the game's notation for every game")
	format := fs.String("format", "csv", "games file format: csv, csv.gz or parquet (-resume keeps the run's own)")
	codec := fs.String("parquet-codec", "snappy", parquetCodecUsage+" (-resume keeps the run's own)")
	branching := fs.Bool("branching", true, "count every ply's legal actions (legal_actions_total, branching_mean); false: leave them empty, and random agents and openings draw with the engine's random-move sampler (other games, equally uniform; faster in Katarenga, no gain in Baran, whose sampler counts anyway)")
	var rf runFlags
	rf.register(fs)
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	shard, err := rf.check(shardEnv(ctx))
	if err != nil {
		return err
	}
	if err := parsedOnly(ctx, gf.game, *a, *b); err != nil {
		return err
	}
	gamesFormat, err := gamefile.ParseFormat(*format)
	if err != nil {
		return usagef("-format: %v", err)
	}
	gamesCodec, err := parseCodec(fs, *codec, gamesFormat, rf.resume != "")
	if err != nil {
		return err
	}
	var cfg runner.MatchConfig
	dir := rf.resume
	if dir != "" {
		var complete bool
		if shard, complete, err = resumeRun(fs, dir, runner.MatchKind, &cfg, stderr); err != nil || complete {
			return err
		}
		if cfg.SPRT != nil {
			return usagef("-resume %s: a sequential test; finish it with fairplay sprt -resume %s", dir, dir)
		}
	} else {
		if *n <= 0 {
			return usagef("-games %d: want a positive number", *n)
		}
		fromPositions := *openings != "" || *pos != ""
		layout, random, err := gf.board(fromPositions)
		if err != nil {
			return err
		}
		cfg = runner.MatchConfig{Game: gf.game, Rules: gf.rules, Layout: layout, A: *a, B: *b,
			Games: *n + *n%2, Seed: rf.seed, RandomOpening: opening.count(random || fromPositions), RandomLayouts: random, NoBranching: !*branching}
		tiles, err := gf.tilesText()
		if err != nil {
			return err
		}
		cfg.Tiles = tiles
		if cfg.Openings, err = playOpenings(cfg, *openings, *pos); err != nil {
			return err
		}
	}
	m, err := matchFor(cfg)
	if err != nil {
		return err
	}
	if dir == "" {
		if dir, err = outDir(rf.out, "play-"+cfg.Game); err != nil {
			return err
		}
	}
	fmt.Fprintf(stderr, "fairplay play: %s, %d games (shard %d/%d), seed %d -> %s\n", m.Title(), m.Cfg.Games, shard.Index, shard.Count, m.Cfg.Seed, dir)
	out, err := runner.RunMatch(ctx, m, runner.Session{Dir: dir, Resume: rf.resume != "", Workers: rf.workers,
		Progress: newProgress(ctx, rf.progress, stderr), Stderr: stderr, Args: append([]string{"fairplay", "play"}, args...), Shard: shard, Format: gamesFormat, Codec: gamesCodec})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s\n%d of %d games in %s (%s)\n\n", m.Title(), out.Manifest.Completed, out.Manifest.Planned, dir, out.Manifest.Status)
	tally.WriteTable(stdout, out.Summary.Stats())
	if w := out.Summary.DistinctWarning(); !w.IsZero() {
		fmt.Fprintln(stderr, w.Render(flagName))
	}
	if out.Interrupted {
		fmt.Fprintf(stderr, "interrupted: %d finished games kept; finish with: fairplay play -resume %s\n", out.Manifest.Completed, dir)
		return errInterrupted
	}
	return nil
}
