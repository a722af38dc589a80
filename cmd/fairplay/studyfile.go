package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/report"
	"github.com/fairplay-lab/fairplay/tally"
)

// Study is a study file: a named list of subcommand runs that go into one directory, so a
// published study is one file and one command (fairplay study FILE.json).
type Study struct {
	Name        string     `json:"name"`
	Description string     `json:"description,omitempty"`
	Runs        []StudyRun `json:"runs"`
}

// StudyRun is one subcommand run of a study: it writes into the study directory's Name
// subdirectory. Args are the subcommand's flags, without -out, -resume or shards; "{study}" in
// an argument stands for the study's directory (-compare {study}/sweep-all, or
// weights={study}/tune-k/tuned.json), so runs can use the outputs of earlier ones.
type StudyRun struct {
	Name    string   `json:"name"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
	Note    string   `json:"note,omitempty"` // what the run shows, for the index page
}

// StudyCommands are the subcommands a study may run: the ones that write a run directory
// with a report.html.
var StudyCommands = []string{"play", "layouts", "ladder", "variants", "sprt", "tune", "tournament"}

var studyName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// ParseStudy reads and checks a study file: known fields only, a name, at least one run, run
// names that are unique directory names, known subcommands, and no flag that picks the run's
// directory or shard (the study does).
func ParseStudy(data []byte) (*Study, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var st Study
	if err := dec.Decode(&st); err != nil {
		return nil, fmt.Errorf("study file: %w", err)
	}
	if !studyName.MatchString(st.Name) {
		return nil, fmt.Errorf("study file: name %q: want letters, digits, '.', '_' or '-'", st.Name)
	}
	if len(st.Runs) == 0 {
		return nil, fmt.Errorf("study %s: no runs", st.Name)
	}
	seen := map[string]bool{}
	for i, r := range st.Runs {
		where := fmt.Sprintf("study %s: run %d (%q)", st.Name, i+1, r.Name)
		if !studyName.MatchString(r.Name) {
			return nil, fmt.Errorf("%s: want a name of letters, digits, '.', '_' or '-'", where)
		}
		if seen[r.Name] {
			return nil, fmt.Errorf("%s: the name is used twice", where)
		}
		seen[r.Name] = true
		if !slices.Contains(StudyCommands, r.Command) {
			return nil, fmt.Errorf("%s: command %q: want one of %s", where, r.Command, strings.Join(StudyCommands, ", "))
		}
		for _, a := range r.Args {
			name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if strings.HasPrefix(a, "-") && slices.Contains([]string{"out", "resume", "shard", "shards", "report"}, name) && !(name == "report" && r.Command == "sprt") {
				return nil, fmt.Errorf("%s: %s: the study chooses each run's directory; drop it", where, a)
			}
		}
	}
	return &st, nil
}

// LoadStudy reads and checks the study file at path.
func LoadStudy(path string) (*Study, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	st, err := ParseStudy(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return st, nil
}

// StudyRunState is how far a study's run has got in its directory.
type StudyRunState int

// The states of a study's run.
const (
	RunNotStarted StudyRunState = iota // no directory, or an empty one
	RunPartial                         // a directory whose run did not finish
	RunDone                            // a finished run: its report.html exists, its manifest (if any) says complete
)

// RunState looks at a study run's directory.
func RunState(dir string) StudyRunState {
	if _, err := os.Stat(filepath.Join(dir, "report.html")); err == nil {
		man, err := gamefile.ReadManifest(filepath.Join(dir, "manifest.json"))
		if os.IsNotExist(err) || (err == nil && man.Status == "complete") {
			return RunDone
		}
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return RunPartial
	}
	return RunNotStarted
}

// StudyETA estimates the time left in a study from the runs finished so far in this session
// (their mean duration times the runs left): rough, as runs differ, and "-" before any finished.
func StudyETA(finished int, elapsed time.Duration, left int) string {
	if finished == 0 {
		return "-"
	}
	return (elapsed / time.Duration(finished) * time.Duration(left)).Round(time.Second).String()
}

// WriteStudyIndex writes index.html into dir: the study's description, one link per run to
// its report.html with the run's state, note and headline finding, and every finished run's
// warnings, each named by its run and linking to its page (or a line saying there are none).
func WriteStudyIndex(dir string, st *Study, file string) error {
	rep := &report.Report{Kind: "study", Title: "Study " + st.Name,
		Facts: []report.Fact{{Name: "study file", Value: file}, {Name: "command", Value: "fairplay study " + file}}}
	if st.Description != "" {
		rep.Findings = append(rep.Findings, st.Description)
	}
	t := report.Table{Caption: "Runs", Header: []string{"run", "command", "state"}}
	for _, r := range st.Runs {
		state := map[StudyRunState]string{RunNotStarted: "not started", RunPartial: "unfinished", RunDone: "done"}[RunState(filepath.Join(dir, r.Name))]
		t.Rows = append(t.Rows, []string{r.Name, gamefile.CommandLine(append([]string{"fairplay", r.Command}, r.Args...)), state})
		if state == "done" {
			note := r.Note
			if h := headline(filepath.Join(dir, r.Name)); h != "" {
				note = strings.TrimPrefix(note+": "+h, ": ")
			}
			rep.Links = append(rep.Links, report.Link{Text: r.Name, Href: r.Name + "/report.html", Note: note})
			if page, err := os.ReadFile(filepath.Join(dir, r.Name, "report.html")); err == nil {
				for _, w := range report.PageWarnings(page) {
					rep.RunWarnings = append(rep.RunWarnings, report.Link{Text: r.Name, Href: r.Name + "/report.html", Note: w})
				}
			}
		} else {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("run %s is %s (finish with fairplay study -resume %s %s)", r.Name, state, dir, file))
		}
	}
	rep.NoRunWarnings = "No finished run has warnings."
	rep.Tables = append(rep.Tables, t)
	_, err := writeNamedPage(dir, "index.html", rep)
	return err
}

// writeNamedPage renders rep into dir/name.
func writeNamedPage(dir, name string, rep *report.Report) (string, error) {
	var b bytes.Buffer
	if err := report.RenderReport(&b, rep); err != nil {
		return "", err
	}
	return name, gamefile.WriteFileAtomic(filepath.Join(dir, name), b.Bytes())
}

// headline is the first finding of the run in dir from its summary.json ("" without one).
func headline(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		return ""
	}
	var sj tally.SummaryJSON
	if json.Unmarshal(b, &sj) != nil || len(sj.Findings) == 0 {
		return ""
	}
	return sj.Findings[0]
}
