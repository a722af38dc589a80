package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fairplay-lab/fairplay/gamefile"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/baran"
	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

func runReplay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("replay", "-run DIR -index I [-ply K] [-notation] [-game G]",
		"fairplay replay -run fairplay-play-baran-20261122-122043 -index 7         # every position of game 7",
		"fairplay replay -run part0 -index 12 -ply 30                            # the position after 30 plies (a shard directory)",
		"fairplay replay -run sweep/cells/1-2 -index 0 -ply 0                    # the start position",
		"fairplay replay -run run1 -index 3 -ply 8 -notation >> book.txt        # add the position to an opening book (play -openings)")
	dir := fs.String("run", "", "a run directory with games.csv (a whole run, a merged run or one shard)")
	var idx gameIndex
	fs.Var(&idx, "index", "the game's index `I`, the game column of games.csv (required)")
	index := &idx.n
	ply := fs.Int("ply", -1, "show only the position after `K` plies (-1: every position)")
	notation := fs.Bool("notation", false, "print each position as one line in the game's position notation (as -pos and -openings files read it), nothing else")
	game := fs.String("game", "", "baran or katarenga: refuse a run of the other game (default: the run's game)")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if n, err := strconv.ParseInt(*game, 10, 64); err == nil { // the old spelling of -index
		if idx.set {
			return usagef("-game %s and -index %d: -game names the game; give the index with -index only", *game, *index)
		}
		fmt.Fprintf(stderr, "fairplay replay: -game %s is deprecated for the game's index: use -index %s (-game names the game)\n", *game, *game)
		idx, *game = gameIndex{n, true}, ""
	}
	if *game != "" && *game != "baran" && *game != "katarenga" {
		return usagef("-game %q: want baran or katarenga (the game's index is -index)", *game)
	}
	if *dir == "" {
		return usagef("-run: missing (want a run directory with games.csv)")
	}
	if !idx.set {
		return usagef("-index: missing (want the game's index, its game column in games.csv)")
	}
	if *index < 0 {
		return usagef("-index %d: want a game index 0 or more", *index)
	}
	if *ply < -1 {
		return usagef("-ply %d: want 0 or more (the position after that many plies), or leave it out for every position", *ply)
	}
	rec, tiles, err := findGame(*dir, *index)
	if err != nil {
		return err
	}
	if *game != "" && rec.GameName != *game {
		return usagef("-game %s: %s holds %s games", *game, *dir, rec.GameName)
	}
	if *ply > rec.Plies {
		return usagef("-ply %d: game %d has %d plies", *ply, *index, rec.Plies)
	}
	st, err := startOf(rec, tiles)
	if err != nil {
		return fmt.Errorf("%s game %d: %w", *dir, *index, err)
	}
	show := func(k int, action string) {
		if *ply >= 0 && k != *ply {
			return
		}
		if *notation {
			fmt.Fprintln(stdout, strings.TrimSpace(st.String()))
			return
		}
		if k == 0 {
			fmt.Fprintf(stdout, "ply 0: start (%s moves first)\n", rec.FirstColour)
		} else {
			fmt.Fprintf(stdout, "ply %d: %s\n", k, action)
		}
		fmt.Fprint(stdout, drawState(st))
		fmt.Fprintln(stdout)
	}
	show(0, "")
	words := strings.Fields(rec.Moves)
	for k := 1; len(words) > 0; k++ {
		if ctx.Err() != nil {
			return errInterrupted
		}
		a, text, rest, err := engine.NextAction(st, words)
		if err != nil {
			return fmt.Errorf("%s game %d: move %d: %w", *dir, *index, k, err)
		}
		st.Apply(a)
		words = rest
		show(k, text)
	}
	if err := checkReplay(st, rec); err != nil {
		return fmt.Errorf("%s game %d: %w", *dir, *index, err)
	}
	if !*notation {
		fmt.Fprintf(stdout, "result: %s %s %d\n", rec.Winner, rec.Reason, rec.Plies)
	}
	return nil
}

// checkReplay compares the replayed end with the record: same length, and the same end unless
// an agent forfeited (which the rules cannot see).
func checkReplay(st engine.State, rec *gamefile.Record) error {
	if st.Ply() != rec.Plies {
		return fmt.Errorf("the moves replay to %d plies, the record says %d", st.Ply(), rec.Plies)
	}
	if rec.Reason == engine.Forfeit {
		return nil
	}
	s := st.Status()
	if !s.Over || s.Reason != rec.Reason {
		return fmt.Errorf("the moves replay to a position that is not the recorded end (%s by %s): %s", rec.Winner, rec.Reason, strings.TrimSpace(st.String()))
	}
	return nil
}

// findGame reads game i from dir/games.csv, and the tile set text from the run's manifest.
func findGame(dir string, i int64) (*gamefile.Record, string, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, "", usagef("-run %s: %v", dir, err)
	}
	path, _, err := gamefile.FindGames(dir)
	if err != nil {
		return nil, "", usagef("-run %s: %v", dir, err)
	}
	cr, err := gamefile.OpenGames(path)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", dir, err)
	}
	defer cr.Close()
	var first, last int64 = -1, -1
	for r, err := range gamefile.All(cr.Read) {
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", dir, err)
		}
		if first < 0 {
			first = r.Game
		}
		last = r.Game
		if r.Game == i {
			if r.Moves == "" && r.Plies > 0 {
				return nil, "", fmt.Errorf("%s game %d: the games file has no moves column (written before moves were recorded); replay needs it", dir, i)
			}
			return r, manifestTiles(dir), nil
		}
	}
	if first < 0 {
		return nil, "", usagef("-index %d: %s holds no games", i, path)
	}
	return nil, "", usagef("-index %d: %s holds games %d to %d", i, path, first, last)
}

// manifestTiles returns the Katarenga tile set text of the run in dir ("" for the published set).
func manifestTiles(dir string) string {
	man, err := gamefile.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return ""
	}
	var cfg struct {
		Tiles string `json:"tiles"`
	}
	json.Unmarshal(man.Config, &cfg)
	return cfg.Tiles
}

// startOf builds a record's start position: its start_position, or the standard start of its
// game, rules and layout with its first colour to move.
func startOf(rec *gamefile.Record, tilesText string) (engine.State, error) {
	ts, err := tilesFor(tilesText)
	if err != nil {
		return nil, err
	}
	layout := rec.Layout
	if rec.GameName == "katarenga" && (layout == "" || rec.Start != "") {
		layout = "0" // a position carries its own colours
	}
	gm, err := games.New(rec.GameName, rec.Rules, layout, ts)
	if err != nil {
		return nil, err
	}
	if rec.Start != "" {
		return gm.ParsePosition(rec.Start)
	}
	names := gm.ColourNames()
	first := slices.Index(names[:], rec.FirstColour)
	if first < 0 {
		return nil, fmt.Errorf("first colour %q: want %s", rec.FirstColour, strings.Join(names[:], " or "))
	}
	return gm.Start(engine.Player(first)), nil
}

// drawState is the show renderer: a text board of the position.
func drawState(st engine.State) string {
	switch s := st.(type) {
	case *baran.State:
		return baran.Draw(s)
	case *katarenga.State:
		return katarenga.Draw(s)
	}
	return st.String() + "\n"
}

// gameIndex is replay's -index: a game's index, required (-h shows no default).
type gameIndex struct {
	n   int64
	set bool
}

func (g *gameIndex) String() string {
	if g == nil || !g.set {
		return ""
	}
	return strconv.FormatInt(g.n, 10)
}

func (g *gameIndex) Set(s string) error {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return errors.New("want a game index")
	}
	*g = gameIndex{n, true}
	return nil
}
