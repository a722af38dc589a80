package markdown

import "strings"

// Code quotes s as a Markdown code span that shows s exactly, whatever it holds (CommonMark 0.31,
// §6.1 "Code spans"): the fence is one backtick longer than the longest run of backticks in s,
// and a space pads both ends where s starts or ends with a backtick (which would join the
// fence), or starts and ends with a space (one of which a reader strips). Agent labels are the
// user's own text: `ext:` commands may hold backticks. Code("") is "", as no span is empty.
func Code(s string) string {
	if s == "" {
		return ""
	}
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	pad := ""
	if s[0] == '`' || s[len(s)-1] == '`' || (s[0] == ' ' && s[len(s)-1] == ' ' && strings.Trim(s, " ") != "") {
		pad = " "
	}
	return fence + pad + s + pad + fence
}

// CodeList is the code spans of ss joined by ", ".
func CodeList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = Code(s)
	}
	return strings.Join(q, ", ")
}

// Plain is the text a reader sees in one line of the toolkit's Markdown: code spans' contents
// as they stand (CommonMark §6.1: a run of n backticks opens a span that the next run of exactly
// n closes; unclosed, the backticks are text; one space is stripped from each end of a content
// that starts and ends with one and is not all spaces), and bold marks ("**") outside them
// dropped.
func Plain(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		switch {
		case s[i] == '`':
			n := run(s, i)
			if end := closing(s, i+n, n); end >= 0 {
				c := s[i+n : end]
				if len(c) >= 2 && c[0] == ' ' && c[len(c)-1] == ' ' && strings.Trim(c, " ") != "" {
					c = c[1 : len(c)-1]
				}
				b.WriteString(c)
				i = end + n
			} else {
				b.WriteString(s[i : i+n])
				i += n
			}
		case strings.HasPrefix(s[i:], "**"):
			i += 2
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}

// run is the length of the run of backticks at s[i].
func run(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] == '`' {
		n++
	}
	return n
}

// closing is the index of the next run of exactly n backticks at or after s[from], or -1.
func closing(s string, from, n int) int {
	for i := from; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		m := run(s, i)
		if m == n {
			return i
		}
		i += m
	}
	return -1
}

// escapePipes escapes each "|" of a cell as "\|", which a GitHub-flavoured table reads as a
// pipe inside the cell, code spans included (GFM spec 0.29, §4.10 "Tables").
func escapePipes(c string) string { return strings.ReplaceAll(c, "|", `\|`) }

// SplitRow splits a pipe-table line, as Table writes it, into its cells: at the pipes that are
// not escaped, with the outer pipes dropped, each cell trimmed and its escaped pipes ("\|")
// made plain again.
func SplitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	if strings.HasSuffix(line, "|") && !strings.HasSuffix(line, `\|`) {
		line = line[:len(line)-1]
	}
	var cells []string
	start := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			if i+1 < len(line) && line[i+1] == '|' {
				i++
			}
		case '|':
			cells = append(cells, line[start:i])
			start = i + 1
		}
	}
	cells = append(cells, line[start:])
	for i, c := range cells {
		cells[i] = strings.ReplaceAll(strings.TrimSpace(c), `\|`, "|")
	}
	return cells
}
