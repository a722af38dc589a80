package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fairplay-lab/fairplay/gamefile"
)

// RunCodec is the Parquet codec of the run in dir, whose games file has the given format: that
// of its games file; for a file of no games (or none: a run killed before its games file was
// first committed), the one its manifest records; Zstandard for a run whose manifest records
// none (versions that wrote Zstandard only). Another format has no codec (""). A resumed run
// continues in its run's codec, so that it writes the bytes of an uninterrupted one.
func RunCodec(dir string, format gamefile.Format) (gamefile.Codec, error) {
	if format != gamefile.Parquet {
		return "", nil
	}
	c, err := gamefile.ParquetCodec(filepath.Join(dir, format.FileName()))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	if c != "" {
		return c, nil
	}
	man, err := gamefile.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return "", err
	}
	if man.ParquetCodec == "" {
		return gamefile.Zstd, nil
	}
	c, err = gamefile.ParseCodec(man.ParquetCodec)
	if err != nil {
		return "", fmt.Errorf("manifest.json: %w: %w", err, gamefile.ErrDamaged)
	}
	return c, nil
}
