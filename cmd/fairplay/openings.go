package main

import (
	"os"
	"strconv"
	"strings"

	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/runner"
)

// openingsSpec is play's -openings FILE[,order=sequential|random][,plies=N], cutechess's
// options of an opening book.
type openingsSpec struct {
	file   string
	random bool // order=random: the lines shuffled once by the master seed
	plies  int  // plies=N: at most N of each line's moves (runner.AllPlies: all)
}

// parseOpeningsSpec reads -openings' value: the file, then options order= and plies= after
// commas, taken from the end (a file name may hold commas). Another key=value after a comma is
// a usage error naming the key, unless the value up to there is itself an existing file.
func parseOpeningsSpec(v string) (openingsSpec, error) {
	spec := openingsSpec{file: v, plies: runner.AllPlies}
	seen := map[string]bool{}
	for {
		i := strings.LastIndexByte(spec.file, ',')
		if i < 0 {
			break
		}
		key, val, ok := strings.Cut(spec.file[i+1:], "=")
		if !ok {
			break
		}
		if key != "order" && key != "plies" {
			if _, err := os.Stat(spec.file); err == nil {
				break // a file whose name ends in ",key=value"
			}
			return spec, usagef("-openings %s: unknown option %q: want order= or plies=", v, key)
		}
		if seen[key] {
			return spec, usagef("-openings %s: %s given twice", v, key)
		}
		seen[key] = true
		switch key {
		case "order":
			if val != "sequential" && val != "random" {
				return spec, usagef("-openings %s: order=%s: want sequential or random", v, val)
			}
			spec.random = val == "random"
		case "plies":
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 {
				return spec, usagef("-openings %s: plies=%s: want 0 or more plies of each line's moves", v, val)
			}
			spec.plies = n
		}
		spec.file = spec.file[:i]
	}
	if spec.file == "" {
		return spec, usagef("-openings %s: no file before the options", v)
	}
	return spec, nil
}

// playOpenings reads the start positions of -openings FILE or -pos P (nil for neither),
// checking every one under the match's game and rules; errors are usage errors naming the line.
func playOpenings(cfg runner.MatchConfig, openings, pos string) ([]string, error) {
	if openings == "" && pos == "" {
		return nil, nil
	}
	if openings != "" && pos != "" {
		return nil, usagef("give -openings or -pos, not both")
	}
	ts, err := tilesFor(cfg.Tiles)
	if err != nil {
		return nil, usagef("-tiles: %v", err)
	}
	gm, err := games.New(cfg.Game, cfg.Rules, "", ts)
	if err != nil {
		return nil, usageErr(err)
	}
	if pos != "" {
		list, err := runner.ReadOpenings(gm, strings.NewReader(pos), runner.AllPlies)
		if err != nil {
			return nil, usagef("-pos %q: %v", pos, strings.TrimPrefix(err.Error(), "line 1: "))
		}
		return list, nil
	}
	spec, err := parseOpeningsSpec(openings)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(spec.file)
	if err != nil {
		return nil, usagef("-openings: %v", err)
	}
	defer f.Close()
	list, err := runner.ReadOpenings(gm, f, spec.plies)
	if err != nil {
		return nil, usagef("-openings %s: %v", spec.file, err)
	}
	if spec.random {
		runner.ShuffleOpenings(list, cfg.Seed)
	}
	return list, nil
}
