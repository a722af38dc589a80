package main

import "github.com/fairplay-lab/fairplay/internal/config"

// fieldFlags names the configuration fields that library errors and advice refer to (fields
// of runner.Session and of the studies' configurations, see internal/config) by the flag that
// sets them: the one table through which those messages come out naming flags.
var fieldFlags = map[string]string{
	"A":               "a",
	"Adaptive":        "adaptive",
	"Agents":          "agents",
	"B":               "b",
	"Band":            "band",
	"Bootstrap":       "bootstrap",
	"Compare":         "compare",
	"Dir":             "out",
	"Games":           "games",
	"Gauntlet":        "gauntlet",
	"L2":              "l2",
	"Ladder":          "ladder",
	"Params":          "params",
	"Prior":           "prior",
	"RandomLayouts":   "random-layouts",
	"RandomOpening":   "random-opening",
	"RatingBootstrap": "rating-bootstrap",
	"RatingGames":     "rating-games",
	"Replicates":      "replicates",
	"Resume":          "resume",
	"Seed":            "seed",
	"Top":             "top",
	"Vary":            "vary",
}

// flagName is the config.Namer of the CLI: a field as its flag ("-rating-games"), followed by
// the placeholder of its value when the message shows one ("-random-opening N"). A field
// missing from fieldFlags keeps its Go name.
func flagName(field, arg string) string {
	name := field
	if f, ok := fieldFlags[field]; ok {
		name = "-" + f
	}
	if arg != "" {
		name += " " + arg
	}
	return name
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

// withFlagNames returns err with its message as the CLI says it (see cliMessage); errors.Is and
// errors.As still see err.
func withFlagNames(err error) error {
	if err == nil {
		return nil
	}
	if msg := cliMessage(err); msg != err.Error() {
		return cliError{msg, err}
	}
	return err
}

// usageErr makes err, a bad configuration found by library code, a usage error naming flags.
func usageErr(err error) error { return usageError{cliMessage(err)} }
