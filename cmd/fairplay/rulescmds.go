package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// gameFlags are the flags that select a game, its rules, the Katarenga board and a position.
type gameFlags struct {
	game, rules, tiles, pos string
	layout                  layoutFlag
}

// register registers the game flags: -layout defaults to layoutDefault (layoutRandom for a
// run, "0" for a tool that looks at one position); withPos adds -pos.
func (g *gameFlags) register(fs *flag.FlagSet, layoutDefault string, withPos bool) {
	fs.StringVar(&g.game, "game", "katarenga", "game: baran or katarenga")
	fs.StringVar(&g.rules, "rules", "", "rule switches name=value,... (empty: the published rules)")
	registerLayout(fs, &g.layout, layoutDefault)
	fs.StringVar(&g.tiles, "tiles", "", "Katarenga tile set file (default: the published tiles)")
	if withPos {
		fs.StringVar(&g.pos, "pos", "", "position in the game's notation (default: the start position)")
	}
}

// board resolves -layout (see layoutFlag.board) for a run.
func (g *gameFlags) board(fromPositions bool) (layout string, random bool, err error) {
	return g.layout.board(g.game, fromPositions)
}

// tilesText reads the -tiles file (empty when not given).
func (g *gameFlags) tilesText() (string, error) {
	if g.tiles == "" {
		return "", nil
	}
	t, err := os.ReadFile(g.tiles)
	if err != nil {
		return "", usagef("-tiles: %v", err)
	}
	return string(t), nil
}

// build configures the game and the position; errors are usage errors naming the bad value.
func (g *gameFlags) build() (*games.Game, engine.State, error) {
	var ts *katarenga.TileSet
	if g.tiles != "" {
		t, err := katarenga.LoadTiles(g.tiles)
		if err != nil {
			return nil, nil, usagef("-tiles: %v", err)
		}
		ts = &t
	}
	if g.pos != "" && g.layout.set {
		return nil, nil, usagef("give -pos or -layout, not both (a Katarenga position carries its colours)")
	}
	layout := g.layout.value // a position carries its own colours: any layout parses it
	if g.game != "katarenga" {
		layout = ""
	}
	gm, err := games.New(g.game, g.rules, layout, ts)
	if err != nil {
		return nil, nil, usageErr(err)
	}
	if g.pos == "" {
		return gm, gm.Start(0), nil
	}
	st, err := gm.ParsePosition(g.pos)
	if err != nil {
		return nil, nil, usagef("-pos: %v", err)
	}
	return gm, st, nil
}

func runPerft(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("perft", "-game baran|katarenga [-pos P | -layout L] [-rules k=v,...] -depth N",
		"fairplay perft -game baran -depth 4",
		"fairplay perft -game katarenga -layout C13-A02-D10-B01 -depth 3",
		"fairplay perft -game baran -rules capture=strict -pos '6k/7/7/2w4/2W4/7/K6 r - 0' -depth 2")
	var gf gameFlags
	gf.register(fs, "0", true)
	depth := fs.Int("depth", 0, "deepest depth to count (each depth 1..N gets a line)")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if *depth < 1 || *depth > 20 {
		return usagef("-depth %d: want 1..20", *depth)
	}
	_, st, err := gf.build()
	if err != nil {
		return err
	}
	bufs := engine.PerftBuffers(*depth)
	for d := 1; d <= *depth; d++ {
		if ctx.Err() != nil {
			return errInterrupted
		}
		t0 := time.Now()
		n := engine.Perft(st, d, bufs)
		el := time.Since(t0)
		fmt.Fprintf(stdout, "%d %d\n", d, n)
		fmt.Fprintf(stderr, "depth %d: %d nodes in %v (%.1f M nodes/s)\n", d, n, el.Round(time.Microsecond), float64(n)/el.Seconds()/1e6)
	}
	return nil
}

func runMoves(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("moves", "-game G [-pos P | -layout L] [-rules k=v,...]",
		"fairplay moves -game baran",
		"fairplay moves -game katarenga -layout 17")
	var gf gameFlags
	gf.register(fs, "0", true)
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	_, st, err := gf.build()
	if err != nil {
		return err
	}
	for _, a := range st.Legal(nil) {
		fmt.Fprintln(stdout, st.FormatAction(a))
	}
	if s := st.Status(); s.Over {
		fmt.Fprintf(stderr, "game over: %s\n", describeStatus(s, st))
	}
	return nil
}

func describeStatus(s engine.Status, st engine.State) string {
	names := [2]string{"red", "black"}
	if st.Game() == "katarenga" {
		names = [2]string{"white", "black"}
	}
	if s.Winner == engine.NoPlayer {
		return "draw by " + s.Reason.String()
	}
	return names[s.Winner] + " wins by " + s.Reason.String()
}

func runLayout(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("layout", "-layout L [-tiles FILE]",
		"fairplay layout -layout 0",
		"fairplay layout -layout C13-A02-D10-B01",
		"fairplay layout -layout rybgrygb/grgbgyry/yybrbbgr/bgryyrbg/rgbyrgby/yygryybr/bbrgbgrg/grybgryb")
	layout := fs.String("layout", "", "a layout index, layout string or colour grid")
	tiles := fs.String("tiles", "", "tile set file (default: the published tiles)")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	ts := &katarenga.DefaultTiles
	if *tiles != "" {
		t, err := katarenga.LoadTiles(*tiles)
		if err != nil {
			return usagef("-tiles: %v", err)
		}
		ts = &t
	}
	if *layout == "" {
		return usagef("-layout: missing (want an index 0..%d, a layout string or a colour grid)", katarenga.NumPlacements-1)
	}
	l, err := ts.ParseLayout(*layout)
	if err != nil {
		return usagef("-layout: %v", err)
	}
	fmt.Fprintln(stdout, l)
	return nil
}

func runShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("show", "-game G [-pos P | -layout L]",
		"fairplay show -game baran",
		"fairplay show -game katarenga -layout 98303")
	var gf gameFlags
	gf.register(fs, "0", true)
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	_, st, err := gf.build()
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, drawState(st))
	if stt := st.Status(); stt.Over {
		fmt.Fprintf(stdout, "game over: %s\n", describeStatus(stt, st))
	}
	fmt.Fprintln(stdout, strings.TrimSpace(st.String()))
	return nil
}
