package main

import (
	"context"
	"errors"
	"os"
)

// A study runs its runs through run with a context that says so: a run of a study takes no
// shard from the environment (a study inside a Slurm array job would otherwise shard every one
// of its runs), and the study's check before its first run parses each run's arguments and
// stops there (parsedOnly).

type ctxKey int

const (
	studyRunKey ctxKey = iota
	parseOnlyKey
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

// parsedOnly returns errParsed under withParseOnly, nil otherwise.
func parsedOnly(ctx context.Context) error {
	if ctx.Value(parseOnlyKey) != nil {
		return errParsed
	}
	return nil
}

// shardEnv is where a command reads the shard variables (JOB_COMPLETION_INDEX, SLURM_ARRAY_*):
// the environment, or nothing in a study's run.
func shardEnv(ctx context.Context) func(string) string {
	if ctx.Value(studyRunKey) != nil {
		return func(string) string { return "" }
	}
	return os.Getenv
}
