package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// convention is one row of README.md's table of flag conventions.
type convention struct {
	flag     string
	cmds     []string          // the subcommands it lists
	defaults map[string]string // subcommand → default (as the flag's DefValue); "" key: the rest
	line     int
}

// readConventions parses the table under "### Conventions" in README.md: a flag (its first
// word), a meaning, the default and the subcommands. A default cell holds items separated by
// "; ", each a `value` or a description (a flag with an empty default; "all cores" is
// GOMAXPROCS), optionally ending in "(cmd, cmd)": the subcommands it is the default of; an item
// without them is the default of the rest.
func readConventions(t *testing.T) []convention {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	start := -1
	for i, l := range lines {
		if l == "### Conventions" {
			start = i
		}
	}
	if start < 0 {
		t.Fatal("README.md has no ### Conventions section")
	}
	var rows []convention
	inTable := false
	for i := start; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "|") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		cells := splitRow(l)
		if len(cells) != 4 {
			t.Fatalf("README.md:%d: %d cells, want flag | meaning | default | subcommands", i+1, len(cells))
		}
		if cells[0] == "flag" || strings.HasPrefix(cells[0], "---") {
			continue
		}
		name := regexp.MustCompile("^`-([a-z0-9-]+)").FindStringSubmatch(cells[0])
		if name == nil {
			t.Fatalf("README.md:%d: %q: want `-flag ...`", i+1, cells[0])
		}
		c := convention{flag: name[1], defaults: map[string]string{}, line: i + 1}
		for _, s := range strings.Split(cells[3], ",") {
			s = strings.Trim(strings.TrimSpace(s), "`")
			if _, ok := commands[s]; !ok {
				t.Errorf("README.md:%d: -%s: %q is not a subcommand", i+1, c.flag, s)
			}
			c.cmds = append(c.cmds, s)
		}
		for _, item := range strings.Split(cells[2], "; ") {
			var cmds []string
			if m := regexp.MustCompile(`\(([^()]*)\)$`).FindStringSubmatch(item); m != nil {
				all := true
				for _, s := range strings.Split(m[1], ",") {
					s = strings.TrimSpace(s)
					_, ok := commands[s]
					all = all && ok
					cmds = append(cmds, s)
				}
				if all {
					item = strings.TrimSpace(strings.TrimSuffix(item, m[0]))
				} else {
					cmds = nil
				}
			}
			value := ""
			if m := regexp.MustCompile("^`([^`]*)`").FindStringSubmatch(item); m != nil {
				value = m[1]
			} else if item == "all cores" {
				value = strconv.Itoa(runtime.GOMAXPROCS(0))
			}
			if cmds == nil {
				cmds = []string{""}
			}
			for _, cmd := range cmds {
				if _, dup := c.defaults[cmd]; dup {
					t.Errorf("README.md:%d: -%s: two defaults for %q", i+1, c.flag, cmd)
				}
				c.defaults[cmd] = value
			}
		}
		rows = append(rows, c)
	}
	return rows
}

// splitRow splits a Markdown table row into its trimmed cells ("\|" is a pipe in a cell).
func splitRow(l string) []string {
	l = strings.ReplaceAll(strings.Trim(l, "|"), `\|`, "\x00")
	var cells []string
	for _, c := range strings.Split(l, "|") {
		cells = append(cells, strings.ReplaceAll(strings.TrimSpace(c), "\x00", "|"))
	}
	return cells
}

// helpFlags runs cmd -h and returns its flags with their defaults as -h shows them: the
// "(default X)" of the usage, else the zero value of the flag's type (which -h leaves out).
func helpFlags(t *testing.T, cmd string) map[string]string {
	t.Helper()
	_, help, err := runCmd(t, cmd, "-h")
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("%s -h: %v", cmd, err)
	}
	flags := map[string]string{}
	var name string
	for _, l := range strings.Split(help, "\n") {
		if f, ok := strings.CutPrefix(l, "  -"); ok {
			words := strings.Fields(f)
			name = words[0]
			switch {
			case len(words) == 1:
				flags[name] = "false" // a bool
			case words[1] == "int" || words[1] == "uint" || words[1] == "float":
				flags[name] = "0"
			default:
				flags[name] = ""
			}
		}
		if m := regexp.MustCompile(`\(default "?([^")]*)"?\)$`).FindStringSubmatch(l); m != nil && name != "" {
			flags[name] = m[1]
		}
	}
	return flags
}

// Every subcommand's -h agrees with README.md's table of flag conventions (checkConventions).
func TestFlagConventions(t *testing.T) {
	rows := readConventions(t)
	if len(rows) < 20 {
		t.Fatalf("README.md's conventions table has %d rows", len(rows))
	}
	help := map[string]map[string]string{}
	for n := range commands {
		help[n] = helpFlags(t, n)
	}
	for _, e := range checkConventions(rows, help) {
		t.Error(e)
	}
}

// checkConventions compares the table's rows with the subcommands' flags and defaults (help:
// subcommand → flag → default): each subcommand the table lists for a flag has the flag with
// the stated default, and every other subcommand that has the flag has the table's default
// for the rest (a flag only some list is refused elsewhere, or means something else: it must be
// listed).
func checkConventions(rows []convention, help map[string]map[string]string) []string {
	var errs []string
	fail := func(c convention, format string, a ...any) {
		errs = append(errs, fmt.Sprintf("README.md:%d: -%s: ", c.line, c.flag)+fmt.Sprintf(format, a...))
	}
	var names []string
	for n := range help {
		names = append(names, n)
	}
	sort.Strings(names)
	seen := map[string]bool{}
	for _, c := range rows {
		if seen[c.flag] {
			fail(c, "in the table twice")
		}
		seen[c.flag] = true
		listed := map[string]bool{}
		for _, cmd := range c.cmds {
			listed[cmd] = true
			want, ok := c.defaults[cmd]
			if !ok {
				want, ok = c.defaults[""]
			}
			got, has := help[cmd][c.flag]
			switch {
			case !has:
				fail(c, "fairplay %s -h has no such flag", cmd)
			case !ok:
				fail(c, "no default given for %s", cmd)
			case got != want:
				fail(c, "fairplay %s -h says the default is %q, the table %q", cmd, got, want)
			}
		}
		for cmd := range c.defaults {
			if cmd != "" && !listed[cmd] {
				fail(c, "a default for %s, which the row does not list", cmd)
			}
		}
		for _, cmd := range names {
			got, has := help[cmd][c.flag]
			if !has || listed[cmd] {
				continue
			}
			if want, ok := c.defaults[""]; !ok || got != want {
				fail(c, "fairplay %s has it (default %q), the table does not list it", cmd, got)
			}
		}
	}
	return errs
}

// The check sees a subcommand drift from the table: a default changed, a flag renamed, a flag
// that a subcommand gains with another default.
func TestFlagConventionsSeeDrift(t *testing.T) {
	rows := readConventions(t)
	help := map[string]map[string]string{}
	for n := range commands {
		help[n] = helpFlags(t, n)
	}
	if errs := checkConventions(rows, help); len(errs) > 0 {
		t.Fatalf("the table and -h disagree already: %v", errs)
	}
	copyHelp := func(edit func(map[string]map[string]string)) map[string]map[string]string {
		out := map[string]map[string]string{}
		for n, f := range help {
			out[n] = map[string]string{}
			for k, v := range f {
				out[n][k] = v
			}
		}
		edit(out)
		return out
	}
	for _, c := range []struct {
		name string
		edit func(map[string]map[string]string)
		want string
	}{
		{"sprt's old default", func(h map[string]map[string]string) { h["sprt"]["random-opening"] = "4" }, `fairplay sprt -h says the default is "4", the table "auto"`},
		{"tournament's old -games", func(h map[string]map[string]string) {
			delete(h["tournament"], "games-per-pairing")
			h["tournament"]["games"] = "100"
		}, "fairplay tournament has it (default \"100\"), the table does not list it"},
		{"a renamed flag", func(h map[string]map[string]string) { delete(h["replay"], "index") }, "fairplay replay -h has no such flag"},
		{"a new -seed elsewhere", func(h map[string]map[string]string) { h["plan"]["seed"] = "7" }, "fairplay plan has it (default \"7\")"},
		// plan's -band has no default on purpose (giving it selects the sequential plan): the
		// table's "none (plan)" is checked, so plan taking layouts' default would be seen.
		{"plan's -band with layouts' default", func(h map[string]map[string]string) { h["plan"]["band"] = "0.45,0.55" }, `fairplay plan -h says the default is "0.45,0.55", the table ""`},
	} {
		found := false
		for _, e := range checkConventions(rows, copyHelp(c.edit)) {
			found = found || strings.Contains(e, c.want)
		}
		if !found {
			t.Errorf("%s: not seen (want an error with %q)", c.name, c.want)
		}
	}
}

// Every subcommand's -h is written for users: no flag's text names a source file, and none
// states its default twice (a "(default: …)" of its own before the flag package's "(default …)").
func TestHelpForUsers(t *testing.T) {
	srcFile := regexp.MustCompile(`\b[a-z0-9_]+\.go\b`)
	for n := range commands {
		_, help, err := runCmd(t, n, "-h")
		if !errors.Is(err, flag.ErrHelp) {
			t.Fatalf("%s -h: %v", n, err)
		}
		for _, l := range strings.Split(help, "\n") {
			if m := srcFile.FindString(l); m != "" {
				t.Errorf("fairplay %s -h names the source file %s: %q", n, m, l)
			}
			if strings.Count(l, "(default") > 1 {
				t.Errorf("fairplay %s -h states a default twice: %q", n, l)
			}
		}
	}
}
