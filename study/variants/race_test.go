package variants

import (
	"bufio"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/runner"
	"github.com/fairplay-lab/fairplay/stats"
)

// raceConfig is a race over Katarenga's first-move capture at the given ladder, each pair on a
// random tile placement.
func raceConfig(t *testing.T, race string, ladder []string, games, batch int64) VariantsConfig {
	t.Helper()
	cfg := VariantsConfig{Game: "katarenga", Vary: []Vary{{Name: "first-move-capture", Values: []string{"allowed", "banned"}}},
		Ladder: ladder, Games: games, Seed: 5, RandomLayouts: true, Race: race, Batch: batch}
	if race == stats.RaceFair {
		cfg.BandLow, cfg.BandHigh = 0.45, 0.55
	}
	cfg, err := NewVariantsConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func runRace(t *testing.T, cfg VariantsConfig, workers int) (*RaceOutcome, string) {
	t.Helper()
	dir := t.TempDir()
	out, err := RunRace(context.Background(), cfg, nil, runner.Session{Dir: dir, Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "races.csv"))
	if err != nil {
		t.Fatal(err)
	}
	return out, string(b)
}

// A race's answers and games do not depend on the workers: races.csv is byte-identical at 1
// and 2 workers, for random play (settled over several rounds) and a searching level.
func TestRaceWorkers(t *testing.T) {
	for _, cfg := range []VariantsConfig{
		raceConfig(t, stats.RaceFair, []string{"random"}, 3000, 100),
		raceConfig(t, stats.RaceFairest, []string{"alphabeta:depth=1"}, 8, 4),
	} {
		o1, one := runRace(t, cfg, 1)
		_, two := runRace(t, cfg, 2)
		if one != two {
			t.Errorf("%s race: races.csv at 1 worker\n%s\nat 2\n%s", cfg.Race, one, two)
		}
		if strings.Count(one, "\n") != 3 || o1.Games == 0 {
			t.Errorf("%s race: races.csv\n%s", cfg.Race, one)
		}
	}
}

// A cell's game i is game i of the same cell in a study of fixed size: a race's tally of a cell
// is the tally of the study's first n games of that cell (its games.csv).
func TestRaceGamesAreTheStudys(t *testing.T) {
	cfg := raceConfig(t, stats.RaceFair, []string{"random"}, 3000, 100)
	out, _ := runRace(t, cfg, 2)
	r := out.Settings[1]
	if r.N == 0 || r.N%cfg.Batch != 0 && r.N != cfg.Games {
		t.Fatalf("the race played %d games of %s", r.N, r.Variant)
	}
	study := cfg
	study.Race, study.Batch, study.BandLow, study.BandHigh, study.Games = "", 0, 0, 0, r.N
	dir := t.TempDir()
	if _, err := RunVariants(context.Background(), study, nil, runner.Session{Dir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "cells", "1-2", "games.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(bufio.NewReader(f)).ReadAll()
	if err != nil || len(rows) == 0 {
		t.Fatalf("games.csv: %v", err)
	}
	col := slices.Index(rows[0], "winner")
	var n, first, draws int64
	for _, row := range rows[1:] {
		n++
		first += b2i(row[col] == "first")
		draws += b2i(row[col] == "draw")
	}
	if col < 0 || n != r.N || first != r.FirstWins || draws != r.Draws {
		t.Errorf("%s: the study's first %d games: %d first wins, %d draws (winner column %d); the race's %d games: %d, %d",
			r.Variant, n, first, draws, col, r.N, r.FirstWins, r.Draws)
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// A race saves games against the fixed design: random Katarenga's first-player score is near
// 0.5 under both settings, so a fair race settles both inside the band before the cap.
func TestRaceSavesGames(t *testing.T) {
	cfg := raceConfig(t, stats.RaceFair, []string{"random"}, 8000, 200)
	out, _ := runRace(t, cfg, 2)
	for _, r := range out.Settings {
		if r.State != stats.Inside || !(r.CS.Low >= 0.45 && r.CS.High <= 0.55) || r.N >= cfg.Games {
			t.Errorf("%s: %s after %d games, sequence [%g, %g]", r.Variant, r.State, r.N, r.CS.Low, r.CS.High)
		}
	}
	t.Logf("%d games of the fixed design's %d (%s saved)", out.Games, out.Fixed, strconv.FormatFloat(100*(1-float64(out.Games)/float64(out.Fixed)), 'f', 0, 64)+"%")
	if out.Fixed != 2*8000 || out.Games*2 > out.Fixed {
		t.Errorf("%d games of %d: want at most half", out.Games, out.Fixed)
	}
}

// An interrupted race keeps no results: no races.csv, and the manifest says interrupted.
func TestRaceInterrupted(t *testing.T) {
	cfg := raceConfig(t, stats.RaceFair, []string{"random"}, 400, 100)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	out, err := RunRace(ctx, cfg, nil, runner.Session{Dir: dir, Workers: 2})
	if err != nil || !out.Interrupted {
		t.Fatalf("outcome %+v, %v", out, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "races.csv")); err == nil {
		t.Error("an interrupted race wrote races.csv")
	}
	man, err := gamefile.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil || man.Kind != RaceKind || man.Status != "interrupted" {
		t.Errorf("manifest %+v, %v", man, err)
	}
}
