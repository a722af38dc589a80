package main

import (
	"flag"
	"fmt"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/runner"
)

// parquetCodecUsage is the help text of -parquet-codec (play, merge), before each one's default.
const parquetCodecUsage = "compression of a Parquet games file: snappy (pyarrow's and DuckDB's default; fast to write) or zstd (Zstandard: about 0.7 times the bytes, slower to write; for files to keep); readers read both"

// parseCodec checks play's -parquet-codec: a codec given with a games file of another format
// is refused (it would not be used); with -resume (resuming) onlyRunFlags refuses it.
func parseCodec(fs *flag.FlagSet, codec string, format gamefile.Format, resuming bool) (gamefile.Codec, error) {
	c, err := gamefile.ParseCodec(codec)
	if err != nil {
		return "", usagef("-parquet-codec: %v", err)
	}
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "parquet-codec" })
	if format != gamefile.Parquet {
		if given && !resuming {
			return "", usagef("-parquet-codec %s: the games file is %s; give -format parquet", codec, format)
		}
		return "", nil
	}
	return c, nil
}

// mergeCodec is the codec of a merge's games file in format: -parquet-codec, else the first
// shard's when its games are in Parquet, else Snappy.
func mergeCodec(job mergeJob, format gamefile.Format) (gamefile.Codec, error) {
	if format != gamefile.Parquet {
		if job.codec != "" {
			return "", usagef("-parquet-codec %s: the merged games file is %s; give -format parquet", job.codec, format)
		}
		return "", nil
	}
	if job.codec != "" {
		return gamefile.ParseCodec(job.codec) // checked by runMerge
	}
	_, f, err := gamefile.FindGames(job.dirs[0])
	if err != nil {
		return "", usagef("shard %s: %v", job.dirs[0], err)
	}
	// A games file that cannot be read is a failure (exit 1), as when the merge itself reads
	// it in another format; a damaged manifest stays a usage error (gamefile.ErrDamaged).
	c, err := runner.RunCodec(job.dirs[0], f)
	if err != nil {
		return "", fmt.Errorf("shard %s: %w", job.dirs[0], err)
	}
	return c, nil
}
