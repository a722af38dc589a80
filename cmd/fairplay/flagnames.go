package main

import "github.com/fairplay-lab/fairplay/internal/config"

// fieldFlags names the configuration fields that library errors and advice refer to (fields
// of runner.Session and of the studies' configurations, see internal/config) by the flag that
// sets them: the one table through which those messages come out naming flags. A value may
// hold the flag's value too ("layout random"). A key "command.Field" names the field in one
// subcommand, where its flag is spelt with the unit it counts per (see README.md,
// "Conventions").
var fieldFlags = map[string]string{
	"A":               "a",
	"Adaptive":        "adaptive",
	"Agents":          "agents",
	"B":               "b",
	"Band":            "band",
	"Batch":           "batch",
	"Bootstrap":       "bootstrap",
	"Compare":         "compare",
	"Dir":             "out",
	"Games":           "games",
	"Gauntlet":        "gauntlet",
	"L2":              "l2",
	"Ladder":          "ladder",
	"Params":          "params",
	"Prior":           "prior",
	"Race":            "race",
	"RandomLayouts":   "layout " + layoutRandom,
	"RandomOpening":   "random-opening",
	"RatingBootstrap": "rating-bootstrap",
	"RatingGames":     "rating-games-per-pairing",
	"RatingList":      "rating-list",
	"Replicates":      "replicates",
	"Resume":          "resume",
	"Seed":            "seed",
	"Tolerance":       "race-tolerance",
	"Top":             "top",
	"Vary":            "vary",

	// Counts per unit, named by their unit.
	"ladder.Games":     "games-per-step",
	"tournament.Games": "games-per-pairing",
	"variants.Games":   "games-per-cell",
	"layouts.Games":    "games-per-board",

	// One field, two meanings: a tournament's neighbour count (layouts: the fairness band).
	"tournament.Band": "neighbours",
}

// flagName is the config.Namer of the CLI: a field as its flag ("-rating-bootstrap"), followed by
// the placeholder of its value when the message shows one ("-random-opening N"). A field
// missing from fieldFlags keeps its Go name.
func flagName(field, arg string) string { return flagNamer("")(field, arg) }

// flagNamer is flagName in subcommand cmd: its own spelling of a field first.
func flagNamer(cmd string) config.Namer {
	return func(field, arg string) string {
		name := field
		if f, ok := fieldFlags[cmd+"."+field]; ok && cmd != "" {
			name = "-" + f
		} else if f, ok := fieldFlags[field]; ok {
			name = "-" + f
		}
		if arg != "" {
			name += " " + arg
		}
		return name
	}
}

// cliMessage is err's message as the CLI says it: configuration fields named by their flags.
func cliMessage(err error) string { return config.Rename(err, flagName) }

// cliError is an error whose message names flags where the library's names fields.
type cliError struct {
	msg string
	err error
}

func (e cliError) Error() string { return e.msg }
func (e cliError) Unwrap() error { return e.err }

// withFlagNames returns err, the outcome of subcommand cmd, with its message as the CLI says
// it (see flagNamer); errors.Is and errors.As still see err. A usage error made by usageErr is
// named anew in cmd.
func withFlagNames(err error, cmd string) error {
	if err == nil {
		return nil
	}
	if ue, ok := err.(usageError); ok && ue.cause != nil {
		return usageError{msg: config.Rename(ue.cause, flagNamer(cmd)), cause: ue.cause}
	}
	if msg := config.Rename(err, flagNamer(cmd)); msg != err.Error() {
		return cliError{msg, err}
	}
	return err
}

// usageErr makes err, a bad configuration found by library code, a usage error naming flags
// (as run names them in its subcommand: withFlagNames).
func usageErr(err error) error { return usageError{msg: cliMessage(err), cause: err} }
