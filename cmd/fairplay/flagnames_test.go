package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/internal/config"
)

// TestFieldFlagsAreFlags: every flag of the field → flag table is a flag of some subcommand
// (of its subcommand, for a "command.Field" key), as its -h lists it.
func TestFieldFlagsAreFlags(t *testing.T) {
	flags := map[string]bool{} // "flag" and "command.flag"
	for name := range commands {
		_, help, _ := runCmd(t, name, "-h")
		for _, line := range strings.Split(help, "\n") {
			if f, ok := strings.CutPrefix(line, "  -"); ok {
				flags[strings.Fields(f)[0]] = true
				flags[name+"."+strings.Fields(f)[0]] = true
			}
		}
	}
	for field, flag := range fieldFlags {
		flag, _, _ = strings.Cut(flag, " ") // "layout random": the flag and its value
		if cmd, _, ok := strings.Cut(field, "."); ok {
			flag = cmd + "." + flag
		}
		if !flags[flag] {
			t.Errorf("field %s: no subcommand has a flag -%s", field, flag)
		}
	}
}

// TestFieldFlagsCoverLibrary: every field that library code names in an error or advice
// (config.Errorf's field, a {Field} reference in a message) has its flag in the table.
func TestFieldFlagsCoverLibrary(t *testing.T) {
	fieldArg := regexp.MustCompile(`config\.Errorf\("([A-Za-z0-9]+)"`)
	ref := regexp.MustCompile(`"[^"\n]*\{([A-Z][A-Za-z0-9_]*)( [A-Za-z]+)?\}[^"\n]*"`)
	refs := regexp.MustCompile(`\{([A-Z][A-Za-z0-9_]*)( [A-Za-z]+)?\}`)
	seen := 0
	const root = "../.."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path != root && d.IsDir() && (d.Name() == "cmd" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			if err == nil {
				err = filepath.SkipDir
			}
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(b), "fairplay/internal/config\"") {
			return err
		}
		var fields []string
		for _, m := range fieldArg.FindAllStringSubmatch(string(b), -1) {
			fields = append(fields, m[1])
		}
		for _, lit := range ref.FindAllString(string(b), -1) {
			for _, m := range refs.FindAllStringSubmatch(lit, -1) {
				fields = append(fields, m[1])
			}
		}
		for _, f := range fields {
			seen++
			if _, ok := fieldFlags[f]; !ok {
				t.Errorf("%s: field %s has no flag in fieldFlags", path, f)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 20 {
		t.Errorf("found only %d field names in library messages", seen)
	}
}

// TestLibraryMessagesNameFlags: errors and advice of library code, which name configuration
// fields, reach the CLI's user naming flags.
func TestLibraryMessagesNameFlags(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	wantUsageError(t, "exists and is not empty (give -resume to finish it, or another -out)", "play", "-games", "2", "-out", dir)
	wantUsageError(t, "-neighbours 1: want 0 (every pairing) or a positive count, and not with -gauntlet",
		"tournament", "-agents", "random;greedy", "-neighbours", "1", "-gauntlet", "-out", filepath.Join(dir, "t"))
	// One field, two flags: Band is tournament's -neighbours and layouts' -band.
	if got := withFlagNames(config.Errorf("Band", "0.6", "want LOW,HIGH"), "layouts").Error(); got != "-band 0.6: want LOW,HIGH" {
		t.Errorf("layouts' Band: %q", got)
	}
	cause := errors.New("no space left on device")
	e := fmt.Errorf("run: %w", config.Errorf("", "", "writing games.csv: %v (then resume with {Resume} %s)", cause, "DIR"))
	if got := withFlagNames(e, "play"); got.Error() != "run: writing games.csv: no space left on device (then resume with -resume DIR)" || !errors.Is(got, cause) {
		t.Errorf("%v", got)
	}
	w := config.Textf("vary the games with random openings ({RandomOpening N})")
	if got := w.Render(flagName); got != "vary the games with random openings (-random-opening N)" {
		t.Errorf("advice %q", got)
	}
}
