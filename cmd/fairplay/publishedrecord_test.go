package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fairplay-lab/fairplay/agents/fingerprint"
)

// The published studies' record (docs/studies/published.json) pins what played in every
// study file under docs/studies: each agent's spec with every parameter and the fingerprint
// of its play, and the raw games where they are kept (docs/formats.md, "Published studies").
// TestPublishedStudies fails when an agent no longer plays as recorded, so that a page cannot
// go on quoting numbers the study file no longer produces.

// PublishedRecord is docs/studies/published.json.
type PublishedRecord struct {
	About   string           `json:"about"`
	Studies []PublishedStudy `json:"studies"`
}

// PublishedStudy is the record of one study file.
type PublishedStudy struct {
	File string   `json:"file"` // the study file, from the repository root
	Docs []string `json:"docs"` // the pages that cite it
	// Revision is the source revision whose agents were recorded.
	Revision string `json:"recorded_at_revision"`
	// Note says what is known of the published numbers' provenance (the revision they were
	// measured at, whether the recorded play is theirs).
	Note   string           `json:"note,omitempty"`
	Agents []PublishedAgent `json:"agents"`
	Games  KeptGames        `json:"games"`
}

// PublishedAgent is the record of one agent of a study: the spec as the study file gives it
// (what a re-run parses, with today's defaults) and what it played when recorded.
type PublishedAgent struct {
	Given string `json:"given"`
	fingerprint.Record
}

// KeptGames are the raw games of a study: the string "not kept", or one file per run.
type KeptGames struct {
	NotKept string
	Files   []KeptFile
}

// KeptFile is one run's games file: in the repository (File is its path from the repository
// root, at most maxKeptBytes) or elsewhere (InRepo false: File names it, and the SHA-256
// lets anyone check a copy).
type KeptFile struct {
	Run    string `json:"run"`
	File   string `json:"file"`
	InRepo bool   `json:"in_repo"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// maxKeptBytes bounds a games file kept in the repository; larger ones are kept elsewhere
// with their SHA-256 recorded.
const maxKeptBytes = 2 << 20

// MarshalJSON writes the string or the list.
func (k KeptGames) MarshalJSON() ([]byte, error) {
	if k.Files == nil {
		return json.Marshal(k.NotKept)
	}
	return json.Marshal(k.Files)
}

// UnmarshalJSON reads "not kept" (a string saying why may follow) or a list of files.
func (k *KeptGames) UnmarshalJSON(b []byte) error {
	if bytes.HasPrefix(bytes.TrimSpace(b), []byte(`"`)) {
		if err := json.Unmarshal(b, &k.NotKept); err != nil {
			return err
		}
		if !strings.HasPrefix(k.NotKept, "not kept") {
			return fmt.Errorf("games: %q: want \"not kept\" or a list of files", k.NotKept)
		}
		return nil
	}
	return json.Unmarshal(b, &k.Files)
}

// withAgents makes a context whose commands add the agents their arguments name to *into
// (at parsedOnly).
func withAgents(ctx context.Context, into *[]gameAgent) context.Context {
	return context.WithValue(ctx, agentsKey, into)
}

// studyAgents lists the distinct agents (game, spec as given) that a study's runs name, by
// parsing each run's arguments as the study would (nothing is played or written).
func studyAgents(ctx context.Context, st *Study) ([]gameAgent, error) {
	var all []gameAgent
	dir := filepath.Join(os.TempDir(), "fairplay-study-agents")
	for i, r := range st.Runs {
		runArgs := append([]string{r.Command, "-out", filepath.Join(dir, r.Name)}, studyArgs(r, dir)...)
		err := run(withAgents(withParseOnly(withStudyRun(ctx)), &all), runArgs, io.Discard, io.Discard)
		if !errors.Is(err, errParsed) {
			return nil, fmt.Errorf("study %s: run %d (%s): %v", st.Name, i+1, r.Name, err)
		}
	}
	var out []gameAgent
	for _, a := range all {
		a.spec = strings.ReplaceAll(a.spec, dir, "{study}")
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out, nil
}

// recordStudyAgents fingerprints a study's agents (fingerprint.Play), each spec as given once
// per game, in the order the runs name them. An agent that reads a file an earlier run of the
// study writes ({study} in its spec) is recorded by its spec alone.
func recordStudyAgents(ctx context.Context, st *Study, workers int) ([]PublishedAgent, error) {
	list, err := studyAgents(ctx, st)
	if err != nil {
		return nil, err
	}
	var out []PublishedAgent
	for _, a := range list {
		if strings.Contains(a.spec, "{study}") {
			out = append(out, PublishedAgent{Given: a.spec, Record: fingerprint.Record{Pin: fingerprint.Pin{Game: a.game, Spec: a.spec, Expanded: a.spec,
				Unpinned: "reads a file an earlier run of the study writes, so it has no fingerprint before the study runs"}}})
			continue
		}
		rec, err := fingerprint.Play(a.game, a.spec, workers)
		if err != nil {
			return nil, fmt.Errorf("study %s: agent %s: %w", st.Name, a.spec, err)
		}
		out = append(out, PublishedAgent{Given: a.spec, Record: *rec})
	}
	return out, nil
}
