package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fairplay-lab/fairplay/internal/markdown"
)

// Section is a captioned part of a page read from a Markdown file (a run's report.md): its
// headings, paragraphs and tables as HTML, in order.
type Section struct {
	Caption string
	Blocks  []Block
}

// Block is one heading, paragraph or table of a Section (exactly one is set).
type Block struct {
	Heading, Text string
	Table         *Table
}

// AddMarkdownFile shows the Markdown file name (in dir), as the toolkit writes it (report.md:
// headings, paragraphs and pipe tables), as a section of HTML headings, paragraphs and tables.
func (r *Report) AddMarkdownFile(dir, name, caption string) error {
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return fmt.Errorf("report: text %s: %w", name, err)
	}
	r.Sections = append(r.Sections, Section{Caption: caption, Blocks: markdownBlocks(string(b))})
	return nil
}

// markdownBlocks splits the toolkit's Markdown into blocks: "#" lines are headings, runs of
// "|" lines are tables (header, separator, rows), and other runs of lines are paragraphs.
// Code quotes and bold marks are dropped: the page shows the words (markdown.Plain).
func markdownBlocks(md string) []Block {
	var out []Block
	var para []string
	var table *Table
	flush := func() {
		if len(para) > 0 {
			out = append(out, Block{Text: markdown.Plain(strings.Join(para, " "))})
			para = nil
		}
		if table != nil {
			out = append(out, Block{Table: table})
			table = nil
		}
	}
	for _, line := range strings.Split(md, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "":
			flush()
		case strings.HasPrefix(line, "#"):
			flush()
			out = append(out, Block{Heading: markdown.Plain(strings.TrimSpace(strings.TrimLeft(line, "#")))})
		case strings.HasPrefix(line, "|"):
			if len(para) > 0 {
				flush()
			}
			cells := markdown.SplitRow(line)
			for i, c := range cells {
				cells[i] = markdown.Plain(c)
			}
			switch {
			case table == nil:
				table = &Table{Header: cells}
			case strings.Trim(line, "|-: ") == "": // the separator row
			default:
				table.Rows = append(table.Rows, cells)
			}
		default:
			if table != nil {
				flush()
			}
			para = append(para, line)
		}
	}
	flush()
	return out
}
