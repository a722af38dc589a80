package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/fairplay-lab/fairplay/runner"
)

// The flag conventions shared by the subcommands (README.md, "Conventions", lists them and
// conventions_test.go checks every subcommand's -h against that table): the Katarenga board
// (-layout, a random tile placement per pair unless a layout is given), the random opening
// (-random-opening, auto), and the deprecated spellings still accepted with a notice.

// -holdout of learn and train: every K-th game, by index (0, K, 2K, ...), is held out of the
// fit, 1 game in 5 by default.
const (
	defaultHoldOut = 5
	holdoutUsage   = "every `K`-th game by index (0, K, 2K, ...) is held out of the fit"
)

// layoutRandom is -layout's value for a random tile placement per pair (each game in
// self-play), the published way of setting up Katarenga: the default of every run.
const layoutRandom = "random"

// layoutFlag is -layout of a run: "random" or a board (an index, a layout string, a colour
// grid), with whether it was given, and the deprecated -random-layouts and -fixed-layout.
type layoutFlag struct {
	value string
	set   bool
	// The deprecated spellings, as given (nil: not given).
	randomLayouts, fixedLayout *bool
}

// layoutGiven is the -layout value the user gave, "" when none was given.
func (g *gameFlags) layoutGiven() string {
	if !g.layout.set {
		return ""
	}
	return g.layout.value
}

func (l *layoutFlag) String() string {
	if l == nil {
		return ""
	}
	return l.value
}

func (l *layoutFlag) Set(s string) error { l.value, l.set = s, true; return nil }

func (l *layoutFlag) Get() any { return l.value }

// registerLayout registers -layout with def as its default: layoutRandom for a run, "0" for
// a tool that shows one position.
func registerLayout(fs *flag.FlagSet, l *layoutFlag, def string) {
	l.value = def
	usage := "Katarenga board: a layout index `L` (0..98303), a layout string or a colour grid"
	if def == layoutRandom {
		usage = "Katarenga board of every game: a layout index `L` (0..98303), a layout string, a colour grid, or random: each pair on its own uniformly drawn tile placement, as the published game is set up"
	}
	fs.Var(l, "layout", usage)
}

// aliasRandomLayouts registers the deprecated -random-layouts (true: -layout random, false:
// -layout 0 unless -layout is given).
func (l *layoutFlag) aliasRandomLayouts(fs *flag.FlagSet) {
	deprecateFunc(fs, "random-layouts", "-layout random (the default; -random-layouts=false is -layout 0)", true, func(s string) error {
		v, err := strconv.ParseBool(s)
		l.randomLayouts = &v
		return err
	})
}

// aliasFixedLayout registers the deprecated -fixed-layout (true: -layout 0 unless -layout is
// given; false: the default).
func (l *layoutFlag) aliasFixedLayout(fs *flag.FlagSet) {
	deprecateFunc(fs, "fixed-layout", "-layout L (-fixed-layout alone is -layout 0)", true, func(s string) error {
		v, err := strconv.ParseBool(s)
		l.fixedLayout = &v
		return err
	})
}

// board resolves -layout for game: the layout to configure ("" for none) and whether each
// pair gets its own random placement. fromPositions says that the games start from given
// positions (-openings, -pos), which carry their boards: no placement then, and -layout is
// refused.
func (l *layoutFlag) board(game string, fromPositions bool) (layout string, random bool, err error) {
	value, set := l.value, l.set
	if r := l.randomLayouts; r != nil {
		switch {
		case *r && set && value != layoutRandom:
			return "", false, usagef("-random-layouts and -layout %s: give one (-layout %s, or -layout random)", value, value)
		case *r:
			value = layoutRandom
		case !set:
			value, set = "0", true
		}
	}
	if f := l.fixedLayout; f != nil && *f && !set {
		value, set = "0", true
	}
	if game != "katarenga" {
		return "", false, nil // a Katarenga-only flag given with another game is refused by checkGameFlags
	}
	if fromPositions {
		if set || l.randomLayouts != nil || l.fixedLayout != nil {
			return "", false, usagef("-openings and -pos take the board from the positions; drop -layout")
		}
		return "", false, nil
	}
	if value == layoutRandom {
		return "", true, nil
	}
	return value, false, nil
}

// openingFlag is -random-opening: a number of plies, or auto (runner.AutoRandomOpening: a
// few plies where every game would start from one position, none where the starts vary).
type openingFlag struct {
	plies int
	auto  bool
}

const openingAuto = "auto"

func (o *openingFlag) String() string {
	if o == nil || o.auto {
		return openingAuto
	}
	return strconv.Itoa(o.plies)
}

func (o *openingFlag) Set(s string) error {
	if s == openingAuto {
		o.plies, o.auto = 0, true
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("want %s or a number of plies, 0 or more", openingAuto)
	}
	o.plies, o.auto = n, false
	return nil
}

func (o *openingFlag) Get() any { return o.String() }

// registerOpening registers -random-opening, auto by default.
func registerOpening(fs *flag.FlagSet, o *openingFlag) {
	o.auto = true
	fs.Var(o, "random-opening", fmt.Sprintf("play the first `N` plies of every game uniformly at random, the same in both games of a pair; auto: %d where every game would start from one position (Baran, a Katarenga -layout), 0 where the starts vary already (random tile placements, -openings, -pos), so that the games start exactly there", runner.DefaultRandomOpening))
}

// count resolves the plies: varied says that the games' starts vary already.
func (o *openingFlag) count(varied bool) int {
	if o.auto {
		return runner.AutoRandomOpening(varied)
	}
	return o.plies
}

// deprecatedFlag is an old spelling of a flag, still accepted: it prints a one-line notice
// naming the new spelling (noteDeprecated) and is left out of the flag list of -h.
type deprecatedFlag struct {
	use    string // the new spelling, for the notice
	target string // the flag it sets ("" when set does more than set one flag)
	set    func(string) error
	isBool bool
	given  bool
}

func (d *deprecatedFlag) String() string     { return "" }
func (d *deprecatedFlag) IsBoolFlag() bool   { return d.isBool }
func (d *deprecatedFlag) Set(s string) error { d.given = true; return d.set(s) }

// deprecate registers old as a deprecated spelling of the flag target (registered already).
func deprecate(fs *flag.FlagSet, old, target string) {
	t := fs.Lookup(target)
	_, isBool := t.Value.(interface{ IsBoolFlag() bool })
	fs.Var(&deprecatedFlag{use: "-" + target, target: target, set: t.Value.Set, isBool: isBool}, old, "deprecated: -"+target)
}

// deprecateFunc registers old as a deprecated spelling whose value set handles; use names
// what to give instead.
func deprecateFunc(fs *flag.FlagSet, old, use string, isBool bool, set func(string) error) {
	fs.Var(&deprecatedFlag{use: use, set: set, isBool: isBool}, old, "deprecated: "+use)
}

// noteDeprecated prints a notice on fs's output for each deprecated spelling given, and
// refuses one given together with its new spelling.
func noteDeprecated(fs *flag.FlagSet) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var errs []error
	fs.Visit(func(f *flag.Flag) {
		d, ok := f.Value.(*deprecatedFlag)
		if !ok {
			return
		}
		if d.target != "" && set[d.target] {
			errs = append(errs, usagef("-%s and -%s: give -%s only (-%s is its old spelling)", f.Name, d.target, d.target, f.Name))
			return
		}
		fmt.Fprintf(fs.Output(), "fairplay %s: -%s is deprecated: use %s\n", fs.Name(), f.Name, d.use)
	})
	return errors.Join(errs...)
}

// deprecatedNames lists fs's deprecated spellings with their new ones, for -h.
func deprecatedNames(fs *flag.FlagSet) []string {
	var out []string
	fs.VisitAll(func(f *flag.Flag) {
		if d, ok := f.Value.(*deprecatedFlag); ok {
			out = append(out, fmt.Sprintf("    -%s: use %s", f.Name, d.use))
		}
	})
	return out
}

// printFlags is fs.PrintDefaults without the deprecated spellings, which -h lists apart.
func printFlags(fs *flag.FlagSet) {
	shown := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	shown.SetOutput(fs.Output())
	fs.VisitAll(func(f *flag.Flag) {
		if _, ok := f.Value.(*deprecatedFlag); ok {
			return
		}
		shown.Var(f.Value, f.Name, f.Usage)
		shown.Lookup(f.Name).DefValue = f.DefValue // not the value parsed before -h
	})
	shown.PrintDefaults()
	if old := deprecatedNames(fs); len(old) > 0 {
		fmt.Fprintf(fs.Output(), "\nOld spellings, still accepted with a notice:\n%s\n", strings.Join(old, "\n"))
	}
}
