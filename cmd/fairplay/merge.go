package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/fairplay-lab/fairplay/runner"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/tally"
)

func runMerge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("merge", "-out DIR [-format csv|csv.gz|parquet] [-parquet-codec snappy|zstd] SHARD_DIR...",
		"fairplay merge -out full part0 part1 part2",
		"fairplay merge -out full -format parquet part0 part1   # shards in any format, merged into games.parquet",
		"fairplay merge -out archive -format parquet -parquet-codec zstd part0 part1   # Zstandard: a smaller file to keep")
	out := fs.String("out", "", "output directory for the merged run (must not exist or be empty)")
	format := fs.String("format", "", "games file format of the merged run: csv, csv.gz or parquet (default: the first shard's)")
	codec := fs.String("parquet-codec", "", parquetCodecUsage+" (default: the first shard's when it is Parquet, else snappy)")
	fs.SetOutput(stderr)
	dirs, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if *out == "" {
		return usagef("-out: missing (the merged run's directory)")
	}
	if len(dirs) == 0 {
		return usagef("no shard directories given")
	}
	if entries, err := os.ReadDir(*out); err == nil && len(entries) > 0 { // the runs' hint would be -resume
		return usagef("-out %s: exists and is not empty (a merge writes a new run: give another -out)", *out)
	}
	if *format != "" {
		if _, err := gamefile.ParseFormat(*format); err != nil {
			return usagef("-format: %v", err)
		}
	}
	if *codec != "" {
		if _, err := gamefile.ParseCodec(*codec); err != nil {
			return usagef("-parquet-codec: %v", err)
		}
	}
	type shard struct {
		dir string
		man *gamefile.Manifest
	}
	var shards []shard
	for _, d := range dirs {
		man, rk, err := readRunManifest("shard", d, "")
		if err != nil {
			return err
		}
		if len(shards) > 0 && man.Kind != shards[0].man.Kind {
			return usagef("shard %s holds a %s run, %s a %s run", d, man.Kind, dirs[0], shards[0].man.Kind)
		}
		if len(shards) > 0 && man.ConfigSHA256 != shards[0].man.ConfigSHA256 {
			return usagef("shard %s: configuration hash %s differs from %s's %s", d, man.ConfigSHA256[:12], dirs[0], shards[0].man.ConfigSHA256[:12])
		}
		if len(shards) > 0 {
			if err := runner.SamePins(shards[0].man.Agents, man.Agents, "in "+dirs[0], "in "+d); err != nil {
				return usagef("%v: the shards were played by different versions of the program or its files", err)
			}
		}
		if man.Status != "complete" || man.Completed != man.Planned {
			return usagef("shard %s is %s (%d of %d %s): finish it with fairplay %s -resume %s", d, man.Status, man.Completed, man.Planned, man.Unit, rk.command, d)
		}
		shards = append(shards, shard{d, man})
	}
	m0 := shards[0].man
	if now, err := runner.Repin(m0.Agents, 0); err != nil {
		return err
	} else if err := runner.SamePins(m0.Agents, now, "in the shards (revision "+m0.VCSRevision+")", "with this program"); err != nil {
		return fmt.Errorf("%v: the merged run would record agents that did not play it; merge with the program that played the shards", err)
	}
	sort.Slice(shards, func(i, j int) bool { return shards[i].man.Shard < shards[j].man.Shard })
	for i, s := range shards {
		if s.man.Shards != m0.Shards {
			return usagef("shard %s is one of %d shards, %s one of %d", s.dir, s.man.Shards, dirs[0], m0.Shards)
		}
		if s.man.Shard != i {
			if i > 0 && s.man.Shard == shards[i-1].man.Shard {
				return usagef("shard %d/%d given twice (%s and %s)", s.man.Shard, s.man.Shards, shards[i-1].dir, s.dir)
			}
			return usagef("shard %d/%d is missing", i, m0.Shards)
		}
	}
	if len(shards) != m0.Shards {
		return usagef("%d of %d shards given", len(shards), m0.Shards)
	}
	rk, err := kindOf(m0)
	if err != nil {
		return usagef("shard %s: %v", dirs[0], err)
	}
	if rk.merge == nil {
		return usagef("shard %s: a %s run is not sharded; nothing to merge", dirs[0], rk.kind)
	}
	if rk.csvOnly && *format != "" && *format != string(gamefile.CSV) {
		return usagef("-format %s: %s shards merge as csv only", *format, rk.kind)
	}
	if rk.csvOnly && *codec != "" {
		return usagef("-parquet-codec %s: %s shards merge as csv only", *codec, rk.kind)
	}
	job := mergeJob{out: *out, format: *format, codec: *codec, args: args, stdout: stdout, stderr: stderr}
	for _, s := range shards {
		job.dirs = append(job.dirs, s.dir)
	}
	return rk.merge(ctx, job)
}

// mergeMatch merges the shards of a match (play).
func mergeMatch(_ context.Context, job mergeJob) error {
	var cfg runner.MatchConfig
	if _, err := loadResume(job.dirs[0], runner.MatchKind, &cfg); err != nil {
		return err
	}
	format := &job.format
	ts, err := tilesFor(cfg.Tiles)
	if err != nil {
		return err
	}
	gm, err := matchGame(cfg, ts)
	if err != nil {
		return err
	}
	m, err := runner.NewMatch(cfg, gm)
	if err != nil {
		return err
	}
	dir, err := outDir(job.out, "merge")
	if err != nil {
		return err
	}
	var srcs []string
	for _, d := range job.dirs {
		path, f, err := gamefile.FindGames(d)
		if err != nil {
			return usagef("shard %s: %v", d, err)
		}
		if *format == "" {
			*format = string(f)
		}
		srcs = append(srcs, path)
	}
	gamesFormat, err := gamefile.ParseFormat(*format)
	if err != nil {
		return usagef("-format: %v", err)
	}
	codec, err := mergeCodec(job, gamesFormat)
	if err != nil {
		return err
	}
	res, err := runner.MergeRuns(m, srcs, dir, append([]string{"fairplay", "merge"}, job.args...), gamesFormat, codec)
	if err != nil {
		return err
	}
	fmt.Fprintf(job.stdout, "%s\n%d games merged from %d shards into %s\n\n", m.Title(), res.Manifest.Completed, len(job.dirs), dir)
	tally.WriteTable(job.stdout, res.Summary.Stats())
	if w := res.Summary.DistinctWarning(); !w.IsZero() {
		fmt.Fprintln(job.stderr, w.Render(flagName))
	}
	return nil
}
