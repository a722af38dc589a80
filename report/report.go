package report

import (
	"bytes"
	"embed"
	"encoding/base64"
	"encoding/csv"
	"fmt"
	"html"
	"html/template"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"
	"github.com/fairplay-lab/fairplay/tally"
)

// Report is one self-contained HTML page about a run (report.html): what was run, the headline
// findings in words, warnings, tables, preformatted text reports and plots. Plots are embedded
// as SVG data URIs, so the page fetches nothing.
type Report struct {
	Kind     string // play, variants, layouts, ladder, sprt, tune, study
	Title    string
	Facts    []Fact   // what was run
	Findings []string // headline findings in words, with their intervals
	Warnings []string
	Tables   []Table
	Texts    []Text
	Sections []Section // Markdown files (report.md) as HTML, after the texts
	Plots    []Figure
	Links    []Link // other pages (a study's runs)
	// RunWarnings repeat other pages' warnings (a study index: its runs'), each named by its
	// page (Text) and linking to it (Href), the warning as Note. NoRunWarnings is the line shown
	// in the Warnings section when there are none to repeat ("": no line).
	RunWarnings   []Link
	NoRunWarnings string
}

// Fact is one name/value line of what was run.
type Fact struct{ Name, Value string }

// Table is a captioned table of text cells; Note says what was left out.
type Table struct {
	Caption string
	Header  []string
	Rows    [][]string
	Note    string
}

// Text is a captioned preformatted text (a run's own text report).
type Text struct{ Caption, Body string }

// Figure is a captioned plot: File names the SVG file beside the report, Src embeds it.
type Figure struct {
	Caption string
	File    string
	Src     template.URL
}

// Link points to another page, relative to the report.
type Link struct{ Text, Href, Note string }

//go:embed report.tmpl
var reportFS embed.FS

var reportTmpl = template.Must(template.New("report.tmpl").Funcs(template.FuncMap{"num": isNumeric, "word": isWord,
	"lines": func(s string) []string { return strings.Split(s, "\n") }, "oneline": func(s string) string { return strings.ReplaceAll(s, "\n", "; ") }}).ParseFS(reportFS, "report.tmpl"))

// AddPlot embeds the SVG file name (in dir) as a figure; a .png name is taken as its .svg twin.
func (r *Report) AddPlot(dir, name, caption string) error {
	name = strings.TrimSuffix(name, ".png")
	if !strings.HasSuffix(name, ".svg") {
		name += ".svg"
	}
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return fmt.Errorf("report: plot %s: %w", name, err)
	}
	src := template.URL("data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(b))
	r.Plots = append(r.Plots, Figure{Caption: caption, File: name, Src: src})
	return nil
}

// plotCaptions describe the toolkit's plots by file name (without .svg).
var plotCaptions = map[string]string{
	"outcomes":                     "Outcomes, each with its 95% interval (the method of summary.csv)",
	"lengths":                      "Game lengths in plies (the ply cap marked when games reached it)",
	"running":                      "The first player's score (draw = ½), wins and draws as games accumulate",
	"llr":                          "The test's log-likelihood ratio after every pair, with its two stopping bounds",
	"trajectory":                   "Each tuned weight within its bounds, iteration by iteration",
	"white_rates":                  "White's win rate per board, with the fairness band",
	"after_choice":                 "White's win rate once Black has chosen the better seating",
	"boards_fairest":               "The fairest boards",
	"boards_unbalanced":            "The most unbalanced boards",
	"colour_effects":               "Where a square's colour helps White (log-odds effects, colour bar)",
	"ladder_rank_correlation":      "Rank correlations of the boards' White rates against level strength: with the previous level, the reference sweep and between replicates (the noise ceiling), with 95% intervals",
	"ladder_corrected_correlation": "Rank correlations corrected for the noise of both measurements (1: the same ranking), with 95% bootstrap intervals",
	"ladder_choice_benefit":        "Black's choice of seating against level strength: its held-out benefit with its 95% interval",
	"ladder_white_rate":            "White's win rate against level strength: all boards, and the boards chosen as fairest at every level (held-out half)",
	"ladder":                       "Elo of the stronger agent over the weaker at each step (numbered as in the table of steps), with 95% intervals; a step won (or lost) in every pair has only a one-sided bound, drawn as an arrow from it",
}

// plotCaption describes the plot in file name (".svg" stripped).
func plotCaption(name string) string {
	if c, ok := plotCaptions[name]; ok {
		return c
	}
	if k, ok := strings.CutPrefix(name, "curve_"); ok {
		scale := "doubling scale"
		if k == "depth" {
			scale = "plies"
		}
		return "Strength curves: each family's Elo against its " + k + " (" + scale + "), with 95% bootstrap intervals"
	}
	if m, ok := strings.CutPrefix(name, "variants_"); ok {
		return m + " against agent strength, one line and 95% band per variant"
	}
	return name
}

// AddPlots embeds every SVG among files (output names relative to dir) with its caption.
func (r *Report) AddPlots(dir string, files []string) error {
	for _, f := range files {
		if strings.HasSuffix(f, ".svg") {
			if err := r.AddPlot(dir, f, plotCaption(strings.TrimSuffix(f, ".svg"))); err != nil {
				return err
			}
		}
	}
	return nil
}

// AddCSV shows the CSV file name (in dir) as a table of at most maxRows rows (0: all).
func (r *Report) AddCSV(dir, name, caption string, maxRows int) error {
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		return fmt.Errorf("report: table %s: %w", name, err)
	}
	defer f.Close()
	cr := csv.NewReader(f)
	cr.FieldsPerRecord = -1
	t := Table{Caption: caption}
	rows := 0
	for rec, err := range gamefile.All(cr.Read) {
		if err != nil {
			return fmt.Errorf("report: table %s: %w", name, err)
		}
		if t.Header == nil {
			t.Header = rec
			continue
		}
		rows++
		if maxRows == 0 || rows <= maxRows {
			t.Rows = append(t.Rows, rec)
		}
	}
	roundColumns(t.Header, t.Rows)
	t.Note = "Numbers rounded to what their intervals support; " + name + " holds every digit."
	if maxRows > 0 && rows > maxRows {
		t.Note = fmt.Sprintf("The first %d of %d rows, numbers rounded to what their intervals support; %s holds every row, with every digit.", maxRows, rows, name)
	}
	r.Tables = append(r.Tables, t)
	return nil
}

// roundColumns rounds a CSV table's numbers in place for people: an estimate followed by its
// interval's ends (columns whose names say low and high: ci_low, ci_high; elo_low, elo_high)
// to what the interval supports (stats.RoundCI), a one-sided bound (no estimate, one end) as
// "≥ x" or "≤ x", a p-value (a column p_... or ..._p_value) to two significant digits, and any
// other fractional number to four. Whole numbers and text stay.
func roundColumns(header []string, rows [][]string) {
	kind := make([]byte, len(header)) // 'v': an estimate, its ends next; 'p': a p-value
	for i, h := range header {
		switch {
		case i+2 < len(header) && strings.Contains(header[i+1], "low") && strings.Contains(header[i+2], "high") &&
			!strings.Contains(h, "low") && !strings.Contains(h, "high"):
			kind[i] = 'v'
		case strings.HasPrefix(h, "p_") || strings.HasSuffix(h, "p_value"):
			kind[i] = 'p'
		}
	}
	num := func(c string) (float64, bool) {
		x, err := strconv.ParseFloat(c, 64)
		return x, err == nil
	}
	for _, row := range rows {
		for i := 0; i < len(row); i++ {
			x, ok := num(row[i])
			if kind[i] == 'v' && i+2 < len(row) {
				lo, okl := num(row[i+1])
				hi, okh := num(row[i+2])
				if okl && okh {
					if !ok {
						x = math.NaN()
					}
					v, l, h := stats.RoundCI(stats.Interval{Value: x, Low: lo, High: hi})
					if ok {
						row[i] = v
					}
					row[i+1], row[i+2] = l, h
					i += 2
					continue
				}
				if !ok && okl != okh { // no estimate and one end: a one-sided bound, said so
					if okl {
						row[i+1] = "≥ " + strconv.FormatFloat(lo, 'g', 4, 64)
					} else {
						row[i+2] = "≤ " + strconv.FormatFloat(hi, 'g', 4, 64)
					}
					i += 2
					continue
				} // else: each number is rounded alone, below
			}
			switch {
			case !ok || math.IsInf(x, 0):
			case kind[i] == 'p':
				row[i] = stats.FormatPValue(x) // 0: a p-value that underflowed
				if x >= 1e-300 {
					row[i] = strconv.FormatFloat(x, 'g', 2, 64)
				}
			case !strings.ContainsAny(row[i], ".eE"): // a whole number
			default:
				row[i] = strconv.FormatFloat(x, 'g', 4, 64)
			}
		}
	}
}

// numericCell matches a cell that reads as a number, an interval or a bound (right-aligned).
var numericCell = regexp.MustCompile(`^[\[≥≤<]?\s*[-+−]?[0-9.][0-9.,eE+\-−\s/%\[\]½]*$`)

// isNumeric reports whether a table cell reads as a number (see numericCell): right-aligned and
// kept on one line.
func isNumeric(cell string) bool { return numericCell.MatchString(cell) }

// isWord reports whether a table cell is one word (a layout "A12-C00-B00-D10", an agent spec):
// kept on one line, not broken at its hyphens.
func isWord(cell string) bool { return cell != "" && !strings.ContainsAny(cell, " \t\n") }

// AddTextFile shows the text file name (in dir) preformatted, when it exists.
func (r *Report) AddTextFile(dir, name, caption string) error {
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return fmt.Errorf("report: text %s: %w", name, err)
	}
	r.Texts = append(r.Texts, Text{Caption: caption, Body: string(b)})
	return nil
}

// ManifestFacts lists what a manifest says was run, leaving out host- and time-dependent facts.
func ManifestFacts(m *gamefile.Manifest) []Fact {
	facts := []Fact{{"command", m.Command}, {"status", m.Status},
		{m.Unit, fmt.Sprintf("%d of %d", m.Completed, m.Planned)}, {"seed", m.Seed}}
	if m.Shards > 1 {
		facts = append(facts, Fact{"shard", fmt.Sprintf("%d of %d (games %d to %d)", m.Shard, m.Shards, m.FirstGame, m.EndGame-1)})
	}
	facts = append(facts, Fact{"configuration", string(m.Config)}, Fact{"configuration sha256", m.ConfigSHA256},
		Fact{"fairplay", m.ToolVersion + ", revision " + m.VCSRevision})
	return facts
}

// StatsTable is the statistics as a table: statistic, value, 95% interval, method, n; values
// rounded to what their intervals support and bounds shown as bounds (tally.StatText; the
// CSV keeps every digit).
func StatsTable(caption string, rows []tally.Stat) Table {
	t := Table{Caption: caption, Header: []string{"statistic", "value", "95% interval", "method", "n"}}
	for _, st := range rows {
		v, iv := tally.StatText(st)
		t.Rows = append(t.Rows, []string{st.Name, v, iv, st.Method, fmt.Sprint(st.N)})
	}
	return t
}

// RenderReport writes the page of r to w.
func RenderReport(w io.Writer, r *Report) error {
	return reportTmpl.Execute(w, r)
}

// PageWarnings reads the warnings of a page that RenderReport wrote (its Warnings list, not
// the warnings it repeats from other pages), as plain text; none when it has none.
func PageWarnings(page []byte) []string {
	s := string(page)
	start := strings.Index(s, `<ul class="warnings">`)
	if start < 0 {
		return nil
	}
	s = s[start:]
	s = s[:strings.Index(s+"</ul>", "</ul>")]
	var out []string
	for _, item := range strings.Split(s, "<li>")[1:] {
		item, _, _ = strings.Cut(item, "</li>")
		if strings.HasPrefix(item, "<a ") { // a repeated warning: another page's
			break
		}
		out = append(out, html.UnescapeString(item))
	}
	return out
}

// WriteReportHTML writes r as report.html in dir (atomically) and returns the file name.
func WriteReportHTML(dir string, r *Report) (string, error) {
	var b bytes.Buffer
	if err := RenderReport(&b, r); err != nil {
		return "", fmt.Errorf("report.html: %w", err)
	}
	return "report.html", gamefile.WriteFileAtomic(filepath.Join(dir, "report.html"), b.Bytes())
}
