package report

import (
	"bytes"
	"embed"
	"encoding/base64"
	"encoding/csv"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
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
	Plots    []Figure
	Links    []Link // other pages (a study's runs)
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

var reportTmpl = template.Must(template.New("report.tmpl").ParseFS(reportFS, "report.tmpl"))

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
	"outcomes":          "Outcomes, each with its 95% interval (the method of summary.csv)",
	"lengths":           "Game lengths in plies (the ply cap marked when games reached it)",
	"running":           "The first player's score (draw = ½), wins and draws as games accumulate",
	"llr":               "The test's log-likelihood ratio after every pair, with its two stopping bounds",
	"trajectory":        "Each tuned weight within its bounds, iteration by iteration",
	"white_rates":       "White's win rate per board, with the fairness band",
	"after_choice":      "White's win rate once Black has chosen the better seating",
	"boards_fairest":    "The fairest boards",
	"boards_unbalanced": "The most unbalanced boards",
	"colour_effects":    "Where a square's colour helps White (log-odds effects, colour bar)",
	"ladder":            "Elo of the stronger agent over the weaker at each step (numbered as in the table of steps), with 95% intervals",
}

// plotCaption describes the plot in file name (".svg" stripped).
func plotCaption(name string) string {
	if c, ok := plotCaptions[name]; ok {
		return c
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
	if maxRows > 0 && rows > maxRows {
		t.Note = fmt.Sprintf("the first %d of %d rows; all are in %s", maxRows, rows, name)
	}
	r.Tables = append(r.Tables, t)
	return nil
}

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

// StatsTable is the statistics as a table: statistic, value, 95% interval, method, n.
func StatsTable(caption string, rows []tally.Stat) Table {
	t := Table{Caption: caption, Header: []string{"statistic", "value", "95% interval", "method", "n"}}
	for _, st := range rows {
		t.Rows = append(t.Rows, []string{st.Name, stats.FormatShort(st.Value), intervalText(st.Interval), st.Method, fmt.Sprint(st.N)})
	}
	return t
}

// intervalText is "[lo, hi]", or "" for a statistic without an interval.
func intervalText(iv stats.Interval) string {
	if iv.Low != iv.Low || iv.High != iv.High { // NaN
		return ""
	}
	return "[" + stats.FormatShort(iv.Low) + ", " + stats.FormatShort(iv.High) + "]"
}

// RenderReport writes the page of r to w.
func RenderReport(w io.Writer, r *Report) error {
	return reportTmpl.Execute(w, r)
}

// WriteReportHTML writes r as report.html in dir (atomically) and returns the file name.
func WriteReportHTML(dir string, r *Report) (string, error) {
	var b bytes.Buffer
	if err := RenderReport(&b, r); err != nil {
		return "", fmt.Errorf("report.html: %w", err)
	}
	return "report.html", gamefile.WriteFileAtomic(filepath.Join(dir, "report.html"), b.Bytes())
}
