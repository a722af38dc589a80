package main

import (
	"context"
	"errors"
	"os"
	"strings"
)

// A study runs its runs through run with a context that says so: a run of a study takes no
// shard from the environment (a study inside a Slurm array job would otherwise shard every one
// of its runs), and the study's check before its first run parses each run's arguments and
// stops there (parsedOnly).

type ctxKey int

const (
	studyRunKey ctxKey = iota
	parseOnlyKey
	agentsKey
)

// withStudyRun marks ctx as a study's run.
func withStudyRun(ctx context.Context) context.Context {
	return context.WithValue(ctx, studyRunKey, true)
}

// withParseOnly marks ctx as a check of a run's arguments: the command stops once they are
// parsed (parsedOnly), before it starts a program or writes anything.
func withParseOnly(ctx context.Context) context.Context {
	return context.WithValue(ctx, parseOnlyKey, true)
}

// errParsed is what a command returns under withParseOnly once its arguments parsed.
var errParsed = errors.New("arguments parsed")

// parsedOnly returns errParsed under withParseOnly, nil otherwise. A command passes the game
// and the agent specs its arguments name (lists separated by ';', ladder steps by '>'), which
// a context made by withAgents collects.
func parsedOnly(ctx context.Context, game string, specs ...string) error {
	if c, ok := ctx.Value(agentsKey).(*[]gameAgent); ok {
		for _, list := range specs {
			for _, item := range strings.Split(list, ";") {
				for _, spec := range strings.Split(item, ">") {
					if spec = strings.TrimSpace(spec); spec != "" {
						*c = append(*c, gameAgent{game, spec})
					}
				}
			}
		}
	}
	if ctx.Value(parseOnlyKey) != nil {
		return errParsed
	}
	return nil
}

// gameAgent is an agent spec as a run's arguments give it, with the game it plays (collected
// under a context that holds a *[]gameAgent at agentsKey: the published studies' test).
type gameAgent struct{ game, spec string }

// shardEnv is where a command reads the shard variables (JOB_COMPLETION_INDEX, SLURM_ARRAY_*):
// the environment, or nothing in a study's run.
func shardEnv(ctx context.Context) func(string) string {
	if ctx.Value(studyRunKey) != nil {
		return func(string) string { return "" }
	}
	return os.Getenv
}
