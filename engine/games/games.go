// Package games names the games of the toolkit and builds them from strings: a game name, a
// rules spec "name=value,..." and (Katarenga) a layout. It is the one place that knows both
// engines, so that agents and experiments can stay game-agnostic.
package games

import (
	"fmt"
	"strings"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/baran"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// Names lists the games.
var Names = []string{"baran", "katarenga"}

// Game is a configured game: a name, rules in force and, for Katarenga, a board.
type Game struct {
	name  string
	br    baran.Rules
	kr    katarenga.Rules
	board *katarenga.Board
	tiles *katarenga.TileSet
}

// Variants returns the rule switches of a game.
func Variants(game string) ([]engine.Variant, error) {
	switch game {
	case "baran":
		return baran.Variants, nil
	case "katarenga":
		return katarenga.Variants, nil
	}
	return nil, unknown(game)
}

// ZeroByRule returns the game's counters (without a colour suffix) that the rules keep at
// zero (engine.Variant.ZeroByRule): first-move captures under Katarenga's ban, say.
func ZeroByRule(game, rules string) ([]string, error) {
	vs, err := Variants(game)
	if err != nil {
		return nil, err
	}
	return engine.ZeroByRule(rules, vs)
}

func unknown(game string) error {
	return fmt.Errorf("unknown game %q (want %s)", game, strings.Join(Names, " or "))
}

// New configures a game. rules is "name=value,..." (empty: the published rules); layout is a
// Katarenga layout index, layout string or colour grid (empty: layout 0) and must be empty for
// Baran; tiles is the Katarenga tile set (nil: the published one).
func New(game, rules, layout string, tiles *katarenga.TileSet) (*Game, error) {
	g := &Game{name: game, tiles: tiles}
	if tiles == nil {
		g.tiles = &katarenga.DefaultTiles
	}
	var err error
	switch game {
	case "baran":
		if layout != "" {
			return nil, fmt.Errorf("layout %q: Baran has no layouts (-layout is for Katarenga)", layout)
		}
		g.br, err = baran.ParseRules(rules)
	case "katarenga":
		g.kr, err = katarenga.ParseRules(rules)
		if err == nil {
			if layout == "" {
				layout = "0"
			}
			var l katarenga.Layout
			l, err = g.tiles.ParseLayout(layout)
			if err == nil {
				g.board = katarenga.NewBoard(l)
			}
		}
	default:
		return nil, unknown(game)
	}
	if err != nil {
		return nil, err
	}
	return g, nil
}

// WithLayout returns the same game on another Katarenga board (sharing nothing mutable).
func (g *Game) WithLayout(l katarenga.Layout) *Game {
	c := *g
	c.board = katarenga.NewBoard(l)
	return &c
}

// WithLayoutIndex returns the same Katarenga game on the published tile placement i of its
// tile set.
func (g *Game) WithLayoutIndex(i int) (*Game, error) {
	if g.board == nil {
		return nil, fmt.Errorf("layout %d: Baran has no layouts", i)
	}
	l, err := g.tiles.LayoutFromIndex(i)
	if err != nil {
		return nil, err
	}
	return g.WithLayout(l), nil
}

// Name returns the game's name.
func (g *Game) Name() string { return g.name }

// Rules returns the canonical rule string.
func (g *Game) Rules() string {
	if g.name == "baran" {
		return g.br.String()
	}
	return g.kr.String()
}

// Layout returns the Katarenga layout ("" for Baran) by its shortest faithful name.
func (g *Game) Layout() string {
	if g.board == nil {
		return ""
	}
	return g.board.Layout.Name()
}

// KatarengaLayout returns the Katarenga layout (ok false for Baran).
func (g *Game) KatarengaLayout() (katarenga.Layout, bool) {
	if g.board == nil {
		return katarenga.Layout{}, false
	}
	return g.board.Layout, true
}

// FirstColours lists the colours that may move first: Baran either (by lot), Katarenga White.
func (g *Game) FirstColours() []engine.Player {
	if g.name == "baran" {
		return []engine.Player{0, 1}
	}
	return []engine.Player{0}
}

// ColourNames names the two colours.
func (g *Game) ColourNames() [2]string {
	if g.name == "baran" {
		return [2]string{"red", "black"}
	}
	return [2]string{"white", "black"}
}

// Start returns a new game in the start position with first to move (Katarenga: White always
// moves first and first must be 0).
func (g *Game) Start(first engine.Player) engine.State {
	if g.name == "baran" {
		return baran.New(g.br, first)
	}
	return katarenga.New(g.board, g.kr)
}

// ParsePosition reads a position in the game's notation under the game's rules.
func (g *Game) ParsePosition(s string) (engine.State, error) {
	if g.name == "baran" {
		st, err := baran.ParsePosition(s, g.br)
		if err != nil {
			return nil, err
		}
		return st, nil
	}
	st, err := katarenga.ParsePosition(s, g.kr, g.tiles)
	if err != nil {
		return nil, err
	}
	return st, nil
}
