package markdown

import (
	"strings"
	"testing"
)

// Spans as CommonMark 0.31 section 6.1 has them (a longer fence around a backtick, a space
// padding a content that starts or ends with one), and Plain reads each back.
func TestCode(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"alphabeta:depth=3", "`alphabeta:depth=3`"},
		{"ext:echo `date`", "`` ext:echo `date` ``"},
		{"a``b", "```a``b```"},
		{"`x", "`` `x ``"},
		{" a ", "`  a  `"},
		{" ", "` `"},
		{"", ""},
	} {
		if got := Code(c.in); got != c.want {
			t.Errorf("Code(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := Plain(Code(c.in)); got != c.in {
			t.Errorf("Plain(Code(%q)) = %q", c.in, got)
		}
	}
	if got := CodeList([]string{"a", "b`c"}); got != "`a`, ``b`c``" {
		t.Errorf("CodeList = %q", got)
	}
}

// Plain against cases of the spec's section 6.1: a one-backtick span, a two-backtick span
// holding a backtick (one padding space stripped at each end), a span holding only two
// backticks, inner spaces kept, an unclosed three-backtick run that stays text, and bold marks
// dropped outside spans but not inside.
func TestPlain(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"`foo`", "foo"},
		{"`` foo ` bar ``", "foo ` bar"},
		{"` `` `", "``"},
		{"`foo   bar`", "foo   bar"},
		{"```foo``", "```foo``"},
		{"**bold** and `**code**`", "bold and **code**"},
		{"`  `", "  "},
	} {
		if got := Plain(c.in); got != c.want {
			t.Errorf("Plain(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A table whose cells hold pipes and backticks splits back into the same cells.
func TestTablePipesRoundTrip(t *testing.T) {
	cells := []string{Code("ext:./bot | tee log"), "a|b", "", Code("x`y")}
	tab := NewTable("agent", "b", "c", "d")
	tab.Row(cells[0], cells[1], cells[2], cells[3])
	lines := strings.Split(strings.TrimSpace(tab.String()), "\n")
	if lines[2] != "| `ext:./bot \\| tee log` | a\\|b |  | ``x`y`` |" {
		t.Errorf("row written as %q", lines[2])
	}
	got := SplitRow(lines[2])
	if strings.Join(got, "\x00") != strings.Join(cells, "\x00") {
		t.Errorf("SplitRow = %q, want %q", got, cells)
	}
	if p := Plain(got[0]); p != "ext:./bot | tee log" {
		t.Errorf("Plain = %q", p)
	}
	if r := tab.Rows()[0][1]; r != "a|b" {
		t.Errorf("Rows keeps the cell as given: %q", r)
	}
}

// Any trimmed one-line cell survives Table and SplitRow, and any one-line label survives Code and
// Plain.
func FuzzCodeRoundTrip(f *testing.F) {
	for _, s := range []string{"a", "`", "a | b", "``x`", " y ", `\|`, "**", "a\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, "\n\r") {
			return // cells and labels are one line
		}
		if got := Plain(Code(s)); got != s {
			t.Errorf("Plain(Code(%q)) = %q", s, got)
		}
		c := strings.TrimSpace(s) // a cell is written trimmed
		tab := NewTable("x", "y")
		tab.Row(c, "z")
		row := strings.Split(strings.TrimSpace(tab.String()), "\n")[2]
		if got := SplitRow(row); len(got) != 2 || got[0] != c || got[1] != "z" {
			t.Errorf("cell %q came back as %q", c, got)
		}
	})
}
