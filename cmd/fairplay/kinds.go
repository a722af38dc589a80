package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/runner"
	"github.com/fairplay-lab/fairplay/study/layouts"
	"github.com/fairplay-lab/fairplay/study/tournament"
	"github.com/fairplay-lab/fairplay/study/tune"
	"github.com/fairplay-lab/fairplay/study/variants"
)

// runKind is one kind of run directory, named by its manifest's kind: the subcommand that makes
// and resumes it, and how its shards merge. Adding a kind of run is a row here.
type runKind struct {
	kind    string
	command string // the subcommand that makes it and takes -resume DIR (unless once)
	once    bool   // not resumable: an interrupted run is run again
	// merge joins the shards of a run (checked: one configuration, complete, each once, in
	// shard order) into out; nil where the kind does not shard.
	merge   func(ctx context.Context, m mergeJob) error
	csvOnly bool // its merged games files are CSV whatever -format says
}

// mergeJob is what fairplay merge hands a kind's merge.
type mergeJob struct {
	dirs           []string // the shard directories, in shard order
	out, format    string   // -out, and -format ("" for the first shard's format)
	codec          string   // -parquet-codec ("" for the first shard's codec)
	args           []string // merge's arguments, recorded in the manifest
	stdout, stderr io.Writer
}

// runKinds is set in init: the merges read manifests through kindOf, which reads the table.
var runKinds []runKind

func init() {
	runKinds = []runKind{
		{kind: runner.MatchKind, command: "play", merge: mergeMatch},
		{kind: layouts.SweepKind, command: "layouts", merge: mergeSweep, csvOnly: true},
		{kind: layouts.LayoutLadderKind, command: "layouts -ladder"},
		{kind: tournament.TournamentKind, command: "tournament", merge: mergeTournament, csvOnly: true},
		{kind: tournament.CombinedKind, command: "tournament -combine"},
		{kind: variants.VariantsKind, command: "variants"},
		{kind: variants.RaceKind, command: "variants -race", once: true},
		{kind: tune.TuneKind, command: "tune"},
	}
}

// kindOf finds the kind of run a manifest describes.
func kindOf(man *gamefile.Manifest) (runKind, error) {
	for _, k := range runKinds {
		if k.kind == man.Kind {
			return k, nil
		}
	}
	return runKind{}, fmt.Errorf("unknown kind of run %q (this fairplay knows %s)", man.Kind, kindNames())
}

// kindNames lists the known kinds, for messages.
func kindNames() string {
	var s []string
	for _, k := range runKinds {
		s = append(s, k.kind)
	}
	return strings.Join(s, ", ")
}

// readRunManifest reads dir's manifest for -resume, -report or merge (flag names the flag, for
// messages) and checks that the run is of the wanted kind ("" for any known kind).
// commandOf is the subcommand that makes and resumes the run of man: its kind's, except for a
// match that is a sequential test (sprt writes a match with an SPRT in its configuration).
func commandOf(man *gamefile.Manifest, k runKind) string {
	if k.kind == runner.MatchKind && isSPRT(man) {
		return "sprt"
	}
	return k.command
}

// runName names the run of man in messages: its kind, saying when a match is a sequential test.
func runName(man *gamefile.Manifest, k runKind) string {
	if k.kind == runner.MatchKind && isSPRT(man) {
		return "match (sequential test)"
	}
	return k.kind
}

func isSPRT(man *gamefile.Manifest) bool {
	var c struct {
		SPRT json.RawMessage `json:"sprt"`
	}
	return json.Unmarshal(man.Config, &c) == nil && len(c.SPRT) > 0 && string(c.SPRT) != "null"
}

func readRunManifest(flag, dir, want string) (*gamefile.Manifest, runKind, error) {
	man, err := gamefile.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, runKind{}, usagef("%s %s: %v", flag, dir, err)
	}
	k, err := kindOf(man)
	if err != nil {
		return nil, runKind{}, usagef("%s %s: %v", flag, dir, err)
	}
	if man.Shards < 1 || man.Shard < 0 || man.Shard >= man.Shards || len(man.ConfigSHA256) != 64 {
		return nil, k, usagef("%s %s: manifest.json is damaged (shard %d/%d, config hash %q)", flag, dir, man.Shard, man.Shards, man.ConfigSHA256)
	}
	if want != "" && k.kind != want {
		what := "makes and resumes"
		if k.once {
			what = "makes (it is not resumable: run it again)"
		}
		return nil, k, usagef("%s %s: it holds a %s run, which fairplay %s %s", flag, dir, runName(man, k), commandOf(man, k), what)
	}
	if err := man.CheckConfig(); err != nil {
		return nil, k, usagef("%s %s: %v", flag, dir, err)
	}
	if man.Completed < 0 || man.Completed > man.Planned {
		return nil, k, usagef("%s %s: manifest.json says %d of %d %s were played: %v", flag, dir, man.Completed, man.Planned, man.Unit, gamefile.ErrDamaged)
	}
	return man, k, nil
}
