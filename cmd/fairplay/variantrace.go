package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/fairplay-lab/fairplay/engine/katarenga"
	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/runner"
	"github.com/fairplay-lab/fairplay/study/variants"
)

// variantRaceFlags are variants' flags for racing the settings, spelt and meaning as layouts'.
type variantRaceFlags struct {
	race, band string
	tolerance  float64
	batch      int64
}

func (x *variantRaceFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&x.race, "race", "", "race the settings at each level separately, on the first player's score (draws as ½): fair: which settings lie inside -band; fairest: which setting is closest to 0.5. Every answer at a level is right with probability 0.95, all settings at once; plays in rounds of -batch games per setting still racing, up to -games-per-cell, and stops each setting once its answer is settled. Writes races.csv; no level ratings")
	fs.Float64Var(&x.tolerance, "race-tolerance", 0, "with -race fairest: stop once the leader is within this of every other setting's |first score - 0.5| (0: the single fairest, or the settings left at the cap)")
	fs.StringVar(&x.band, "band", "0.45,0.55", "with -race fair: the fairness band for the first player's score: low,high")
	fs.Int64Var(&x.batch, "batch", 100, "with -race: games per setting in each round (even)")
}

// apply puts the race's settings into cfg, refusing race flags without -race and the level
// ratings with it.
func (x *variantRaceFlags) apply(fs *flag.FlagSet, cfg *variants.VariantsConfig) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["race"] {
		for _, name := range []string{"race-tolerance", "band", "batch"} {
			if set[name] {
				return usagef("-%s: only with -race", name)
			}
		}
		return nil
	}
	for _, name := range []string{"rating-games-per-pairing", "rating-games", "rating-bootstrap"} {
		if set[name] {
			return usagef("-%s: not with -race (a race answers its question at each level; it rates no levels)", name)
		}
	}
	if x.race != "fair" && x.race != "fairest" {
		return usagef("-race %q: want fair or fairest", x.race)
	}
	if set["race-tolerance"] && x.race != "fairest" {
		return usagef("-race-tolerance: only with -race fairest")
	}
	if set["band"] && x.race != "fair" {
		return usagef("-band: only with -race fair (a fairest race has no band)")
	}
	cfg.Race, cfg.Batch, cfg.Tolerance, cfg.RatingGames, cfg.RatingBootstrap = x.race, x.batch, x.tolerance, 0, 0
	if x.race == "fair" {
		l, h, err := parseBand(x.band)
		if err != nil {
			return err
		}
		cfg.BandLow, cfg.BandHigh = l, h
	}
	return nil
}

// refuseRaceResume refuses -resume of a race's directory: its rounds depend on every setting at
// a level, and it keeps no partial results.
func refuseRaceResume(dir string) error {
	man, err := gamefile.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err == nil && man.Kind == variants.RaceKind {
		return usagef("-resume %s: a race is not resumable (its rounds depend on every setting at a level); %s", dir, rerunRace(dir))
	}
	return nil
}

// rerunRace is the advice for a race's directory that holds no results: run the race again
// elsewhere (the directory is not empty, so -out refuses it).
func rerunRace(dir string) string {
	return fmt.Sprintf("run it again with the same flags and another -out: the same seed plays the same games (%s holds no results: remove it to use its name again)", dir)
}

// runVariantRace races the settings of cfg and prints its report.
func runVariantRace(ctx context.Context, cfg variants.VariantsConfig, ts *katarenga.TileSet, s runner.Session, cells int, stdout, stderr io.Writer) error {
	fmt.Fprintf(stderr, "fairplay variants: %s race (%s), %d cells, rounds of %d games up to %d per cell, seed %d -> %s\n", cfg.Game, cfg.Race, cells, cfg.Batch, cfg.Games, cfg.Seed, s.Dir)
	out, err := variants.RunRace(ctx, cfg, ts, s)
	if err != nil {
		return err
	}
	if out.Interrupted {
		fmt.Fprintf(stderr, "interrupted: a race keeps no partial results; %s\n", rerunRace(s.Dir))
		return errInterrupted
	}
	report, err := os.ReadFile(filepath.Join(s.Dir, "report.md"))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s\nResults in %s: races.csv, report.md, race_*.png/.svg, report.html\n", report, s.Dir)
	return nil
}
