package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"time"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/runner"
)

func runStudy(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("study", "[-out DIR | -resume DIR] [-workers W] [-progress auto|always|never] [-dry-run] [-no-reuse] [-allow-programs] FILE.json",
		"fairplay study -out variant-studies docs/studies/variant-studies.json   # every run, then variant-studies/index.html",
		"fairplay study -dry-run docs/studies/variant-studies.json                # list the commands without running them",
		"fairplay study -resume variant-studies docs/studies/variant-studies.json # finish an interrupted study")
	out := fs.String("out", "", "the study's directory (default: a new one named after the study)")
	resume := fs.String("resume", "", "finish the study in this directory: done runs are kept, unfinished ones resumed")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel workers for every run (results do not depend on it)")
	progress := fs.String("progress", "auto", "progress display on stderr: auto, always, never")
	dry := fs.Bool("dry-run", false, "print each run's command line and stop")
	noReuse := fs.Bool("no-reuse", false, "play every match, also one that another run of the study already played with the same configuration, seed, agents and executable (by default its games are copied, and its manifest says reused_from)")
	allow := fs.Bool("allow-programs", false, "run the external programs (ext:cmd=...) the study file names; without it such a study is refused (-dry-run lists them)")
	fs.SetOutput(stderr)
	var files []string
	for { // flags may come before and after the file
		if err := fs.Parse(args); err != nil {
			return flagErr(err)
		}
		if fs.NArg() == 0 {
			break
		}
		files, args = append(files, fs.Arg(0)), fs.Args()[1:]
	}
	if len(files) != 1 {
		return usagef("study: want one study file, got %d (%s)", len(files), strings.Join(files, " "))
	}
	file := files[0]
	st, err := LoadStudy(file)
	if err != nil {
		return usageErr(err)
	}
	if err := checkWorkers(*workers); err != nil {
		return err
	}
	if *out != "" && *resume != "" {
		return usagef("give -out or -resume, not both")
	}
	dir := *resume
	// Every run's arguments are parsed before the first run (a typo in the last run would
	// otherwise end the study after the others ran), and the programs the study would start
	// are listed: a study file passed between people runs none unless -allow-programs says so.
	d := orDefault(dir, *out, "DIR")
	for i, r := range st.Runs {
		runArgs := append([]string{r.Command, "-out", filepath.Join(d, r.Name)}, studyArgs(r, d)...)
		err := run(withParseOnly(withStudyRun(ctx)), runArgs, io.Discard, io.Discard)
		switch {
		case errors.Is(err, errParsed):
		case errors.Is(err, flag.ErrHelp):
			return usagef("study %s: run %d (%s): -h is not a run", st.Name, i+1, r.Name)
		default:
			return usagef("study %s: run %d (%s): %v", st.Name, i+1, r.Name, err)
		}
	}
	programs := studyPrograms(st)
	if *dry {
		for _, r := range st.Runs {
			fmt.Fprintln(stdout, gamefile.CommandLine(append(append([]string{"fairplay", r.Command}, studyArgs(r, d)...), "-out", filepath.Join(d, r.Name))))
		}
		for _, p := range programs {
			fmt.Fprintf(stdout, "program: %s\n", p)
		}
		return nil
	}
	if len(programs) > 0 && !*allow {
		return usagef("study %s starts external programs, which run with your rights: %s; read the study file, then give -allow-programs to run them (-dry-run lists them)", st.Name, strings.Join(programs, "; "))
	}
	ctx = withStudyRun(ctx)
	if dir == "" {
		if dir, err = outDir(*out, "study-"+st.Name); err != nil {
			return err
		}
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		if err := gamefile.WriteFileAtomic(filepath.Join(dir, "study.json"), data); err != nil {
			return err
		}
	} else if _, err := os.Stat(dir); err != nil {
		return usagef("-resume %s: %v", dir, err)
	} else if err := gamefile.CheckNoLinks(dir); err != nil {
		return usagef("-resume %s: %v", dir, err)
	} else if prev, err := LoadStudy(filepath.Join(dir, "study.json")); err != nil {
		return usagef("-resume %s: %v (not a study directory?)", dir, err)
	} else if !reflect.DeepEqual(prev, st) {
		return usagef("-resume %s: %s differs from the study the directory was started with (%s/study.json); runs already done would be taken for its runs", dir, file, dir)
	}
	if !*noReuse {
		ctx = runner.WithReuse(ctx, dir)
	}
	fmt.Fprintf(stderr, "fairplay study: %s, %d runs -> %s\n", st.Name, len(st.Runs), dir)
	t0, finished := time.Now(), 0
	for i, r := range st.Runs {
		sub := filepath.Join(dir, r.Name)
		state := RunState(sub)
		if state == RunDone {
			fmt.Fprintf(stderr, "study %s: run %d/%d %s is done\n", st.Name, i+1, len(st.Runs), r.Name)
			continue
		}
		fmt.Fprintf(stderr, "study %s: run %d/%d %s: %s (study elapsed %s, ETA %s)\n", st.Name, i+1, len(st.Runs), r.Name,
			gamefile.CommandLine(append([]string{"fairplay", r.Command}, r.Args...)), time.Since(t0).Round(time.Second), StudyETA(finished, time.Since(t0), len(st.Runs)-i))
		// The study's own flags come first, so that a run's arguments may end with positional
		// ones (tournament -combine DIR...).
		runArgs := []string{r.Command, "-out", sub}
		if state == RunPartial {
			runArgs = []string{r.Command, "-resume", sub}
		}
		runArgs = append(runArgs, "-workers", fmt.Sprint(*workers), "-progress", *progress)
		if state != RunPartial {
			runArgs = append(runArgs, studyArgs(r, dir)...)
		}
		err := run(ctx, runArgs, stdout, stderr)
		if ierr := WriteStudyIndex(dir, st, file); ierr != nil && err == nil {
			err = ierr
		}
		switch {
		case errors.Is(err, errInterrupted):
			fmt.Fprintf(stderr, "interrupted: finish with: fairplay study -resume %s %s\n", dir, file)
			return err
		case errors.Is(err, flag.ErrHelp):
			return usagef("study %s: run %s: -h is not a run", st.Name, r.Name)
		case err != nil:
			var ue usageError
			if errors.As(err, &ue) {
				return usagef("study %s: run %s: %v", st.Name, r.Name, err)
			}
			return fmt.Errorf("study %s: run %s: %w", st.Name, r.Name, err)
		}
		finished++
	}
	if err := WriteStudyIndex(dir, st, file); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "study %s: %d runs in %s; index: %s\n", st.Name, len(st.Runs), dir, filepath.Join(dir, "index.html"))
	return nil
}

// orDefault returns the first non-empty string.
func orDefault(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// studyArgs are a run's arguments with "{study}" replaced by the study's directory.
func studyArgs(r StudyRun, dir string) []string {
	out := make([]string, len(r.Args))
	for i, a := range r.Args {
		out[i] = strings.ReplaceAll(a, "{study}", dir)
	}
	return out
}

// studyPrograms lists the external programs a study's runs would start (every ext agent's
// cmd), as "run NAME: PROGRAM".
func studyPrograms(st *Study) []string {
	var out []string
	for _, r := range st.Runs {
		for _, a := range r.Args {
			for _, spec := range strings.Split(a, "ext:")[1:] {
				spec, _, _ = strings.Cut(spec, ";") // the next agent of a list
				spec, _, _ = strings.Cut(spec, ">") // the weaker side of a ladder step
				cmd := "(no cmd=)"
				for _, kv := range strings.Split(spec, ",") {
					if v, ok := strings.CutPrefix(kv, "cmd="); ok {
						cmd = v
					}
				}
				out = append(out, fmt.Sprintf("run %s: %s", r.Name, cmd))
			}
		}
	}
	return out
}
