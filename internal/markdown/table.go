// Package markdown writes the Markdown of the studies' report.md files: pipe tables, code spans
// that quote any label, and the plain text a reader sees of them (for the HTML pages).
package markdown

import (
	"fmt"
	"io"
	"strings"
)

// Table is a pipe table: a header row, an alignment row and the rows added. Cells are written
// as given (a caller quotes code with Code), each between "| " and " |", with their pipes
// escaped ("\|") so that a cell holding one stays one cell.
type Table struct {
	header []string
	right  []bool
	rows   [][]string
}

// NewTable starts a table with the given column names, every column left-aligned.
func NewTable(columns ...string) *Table {
	return &Table{header: columns, right: make([]bool, len(columns))}
}

// Right right-aligns the columns with the given indices (numbers, counts) and returns t.
func (t *Table) Right(cols ...int) *Table {
	for _, c := range cols {
		t.right[c] = true
	}
	return t
}

// Row adds a row; each cell is formatted with fmt.Sprint. A row may be shorter than the header
// (its missing cells are empty) but not longer.
func (t *Table) Row(cells ...any) {
	if len(cells) > len(t.header) {
		panic(fmt.Sprintf("markdown: a row of %d cells in a table of %d columns", len(cells), len(t.header)))
	}
	row := make([]string, len(t.header))
	for i, c := range cells {
		row[i] = fmt.Sprint(c)
	}
	t.rows = append(t.rows, row)
}

// Columns is the header; Rows the rows added (each as long as the header), as given (not
// escaped). For an HTML table of the same content.
func (t *Table) Columns() []string { return t.header }

// Rows returns the rows added.
func (t *Table) Rows() [][]string { return t.rows }

// PlainRows are the rows as a reader sees them (Plain of each cell: code spans' contents, no
// bold marks), for an HTML table.
func (t *Table) PlainRows() [][]string {
	out := make([][]string, len(t.rows))
	for i, r := range t.rows {
		out[i] = make([]string, len(r))
		for j, c := range r {
			out[i][j] = Plain(c)
		}
	}
	return out
}

// Len is the number of rows added.
func (t *Table) Len() int { return len(t.rows) }

// String is the table's text, each line ending in a newline.
func (t *Table) String() string {
	var b strings.Builder
	line := func(cells []string) {
		b.WriteByte('|')
		for _, c := range cells {
			b.WriteByte(' ')
			b.WriteString(escapePipes(c))
			b.WriteString(" |")
		}
		b.WriteByte('\n')
	}
	line(t.header)
	b.WriteByte('|')
	for _, r := range t.right {
		if r {
			b.WriteString("---:|")
		} else {
			b.WriteString("---|")
		}
	}
	b.WriteByte('\n')
	for _, r := range t.rows {
		line(r)
	}
	return b.String()
}

// WriteTo writes the table to w.
func (t *Table) WriteTo(w io.Writer) (int64, error) {
	n, err := io.WriteString(w, t.String())
	return int64(n), err
}
