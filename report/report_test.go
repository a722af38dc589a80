package report

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/internal/markdown"
	"github.com/fairplay-lab/fairplay/internal/reporttest"
	"github.com/fairplay-lab/fairplay/tally"

	"github.com/fairplay-lab/fairplay/engine"
)

var updateReport = flag.Bool("update-report", false, "rewrite report/testdata/report.golden.html")

// testSummary is a summary of 40 synthetic games: 20 first wins, 14 second wins, 6 caps.
func testSummary() *tally.Summary {
	s := tally.NewSummary(nil)
	for i := int64(0); i < 40; i++ {
		r := &gamefile.Record{Game: i, Pair: i / 2, FirstIs: []string{"a", "b"}[i%2], Winner: "first", Reason: engine.Throne, Plies: 20 + int(i%7), LegalTotal: 100}
		switch {
		case i%10 < 2:
			r.Winner, r.Reason, r.Plies = "draw", engine.Cap, 60
		case i%10 < 5:
			r.Winner = "second"
		case i%10 == 5 && i < 20:
			r.Winner = "second"
		}
		s.Add(r)
	}
	return s
}

// testReport renders a play report of testSummary with its three plots into dir.
func testReport(t *testing.T, dir string) []byte {
	t.Helper()
	s := testSummary()
	rep := &Report{Kind: "play", Title: "baran: random vs random <test>",
		Facts: []Fact{{"command", "fairplay play -game baran -games 40"}, {"seed", "1"}}}
	rep.Findings, rep.Warnings = tally.PlayFindings(s, false)
	for _, plot := range []func(*tally.Summary, string, string) ([]string, error){PlotOutcomes, PlotLengths, PlotRunning} {
		files, err := plot(s, rep.Title, dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := rep.AddPlots(dir, files); err != nil {
			t.Fatal(err)
		}
	}
	rep.Tables = append(rep.Tables, StatsTable("Every statistic", s.Stats()))
	rep.Texts = append(rep.Texts, Text{"Notes", "a <pre> body & more"})
	var b bytes.Buffer
	if err := RenderReport(&b, rep); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// dataURI matches an embedded plot, whose bytes depend on the plotting library's version.
// html/template writes + as &#43; in attributes.
var dataURI = regexp.MustCompile(`data:image/svg(?:\+|&#43;)xml;base64,(?:[A-Za-z0-9/=]|\+|&#43;)+`)

func TestReportGolden(t *testing.T) {
	page := testReport(t, t.TempDir())
	got := dataURI.ReplaceAll(page, []byte("data:image/svg+xml;base64,PLOT"))
	golden := filepath.Join("testdata", "report.golden.html")
	if *updateReport {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("report differs from %s (refresh with go test ./results -run TestReportGolden -update-report and inspect the diff):\n%s", golden, got)
	}
}

func TestReportSelfContained(t *testing.T) {
	page := testReport(t, t.TempDir())
	n, err := reporttest.CheckReportHTML(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("%d plots, want 3", n)
	}
	if !strings.Contains(string(page), "baran: random vs random &lt;test&gt;") {
		t.Error("the title is not escaped")
	}
	for _, bad := range []string{
		`<html><head><title>x</title></head><body><h1>x</h1><img src="https://example.com/a.svg"></body></html>`,
		`<html><head><title>x</title><link rel="stylesheet" href="a.css"></head><body><h1>x</h1></body></html>`,
		`<html><head><title>x</title></head><body><h1>x</h1><script>1</script></body></html>`,
		`<html><head><title>x</title></head><body><h1>x</h1><a href="http://example.com">x</a></body></html>`,
		`<html><head></head><body><h1>x</h1></body></html>`,
	} {
		if _, err := reporttest.CheckReportHTML(strings.NewReader(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

// browser returns the headless Chromium on PATH, or skips.
func browser(t *testing.T) string {
	bin := reporttest.FindBrowser()
	if bin == "" {
		t.Skip("no headless Chromium on PATH (Debian: apt-get install chromium-headless-shell)")
	}
	return bin
}

// renderInBrowser loads page in headless Chromium and returns what the browser check found.
func renderInBrowser(t *testing.T, bin string, page []byte) reporttest.BrowserCheck {
	t.Helper()
	c, err := reporttest.CheckReportInBrowser(bin, page, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestReportInBrowser(t *testing.T) {
	bin := browser(t)
	page := testReport(t, t.TempDir())
	if p := renderInBrowser(t, bin, page).Problems(3); len(p) > 0 {
		t.Errorf("the page does not read right:\n%s", strings.Join(p, "\n"))
	}
	// The check must be able to fail: a broken plot and a blocked network image.
	broken := strings.Replace(string(page), dataURI.FindString(string(page)), "data:image/svg+xml;base64,bm90IGFuIFNWRw==", 1) // "not an SVG"
	broken = strings.Replace(broken, "<h1>", `<img src="https://example.invalid/x.png"><h1>`, 1)
	c := renderInBrowser(t, bin, []byte(broken))
	if c.Plots != 3 || c.Shown != 2 || len(c.Console) == 0 {
		t.Errorf("a broken page passed: plots %d:%d, console %q", c.Plots, c.Shown, c.Console)
	}
}

// The browser check fails on clipped text and on content wider than its box or the page, and
// lets a wide table scroll inside its box (the report's div.table) and a wide <pre>. (The
// report's own style breaks a long word in text, so the first page turns that off.)
func TestReportInBrowserOverflow(t *testing.T) {
	bin := browser(t)
	long := strings.Repeat("rybgyrgb/", 40) // one unbreakable word, some 2,900 px wide
	for _, c := range []struct {
		name, body string
		want       []string // substrings of the overflow lines, one line each
	}{
		{"a long word in a paragraph that may not break it", `<p class="finding" style="overflow-wrap: normal">` + long + `</p>`, []string{`p.finding "rybg`, "the page:"}},
		{"clipped text, and a wide table and <pre> in their scroll boxes",
			`<div class="clip" style="width: 10em; overflow: hidden; white-space: nowrap">a heading far too long for its narrow box, clipped</div>` +
				`<div class="table"><table><tr><td>` + long + `</td></tr></table></div><pre>` + long + `</pre>`,
			[]string{`div.clip "a heading far too long`}},
	} {
		page := strings.Replace(string(testReport(t, t.TempDir())), "<h1>", c.body+"<h1>", 1)
		got := renderInBrowser(t, bin, []byte(page)).Overflow
		if len(got) != len(c.want) {
			t.Errorf("%s: overflow %q, want %d lines like %q", c.name, got, len(c.want), c.want)
			continue
		}
		for i, w := range c.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: overflow line %q, want %q in it", c.name, got[i], w)
			}
		}
	}
}

// A run's report.md becomes headings, paragraphs and HTML tables: no raw Markdown on the page.
func TestMarkdownBlocks(t *testing.T) {
	md := "## baran: capture\n\nRules: `published defaults`.\nA second line.\n\n### first_win_rate\n\n| level | capture=huff |\n|---|---:|\n| `random` | 0.15 [0.05, 0.36] |\n\nNone.\n"
	got := markdownBlocks(md)
	want := []Block{{Heading: "baran: capture"}, {Text: "Rules: published defaults. A second line."}, {Heading: "first_win_rate"},
		{Table: &Table{Header: []string{"level", "capture=huff"}, Rows: [][]string{{"random", "0.15 [0.05, 0.36]"}}}}, {Text: "None."}}
	if fmt.Sprintf("%+v", deref(got)) != fmt.Sprintf("%+v", deref(want)) {
		t.Errorf("blocks\n%+v\nwant\n%+v", deref(got), deref(want))
	}
}

// A label holding a pipe or backticks stays one cell, shown as it is.
func TestMarkdownBlocksCodeCells(t *testing.T) {
	tab := markdown.NewTable("agent", "n")
	tab.Row(markdown.Code("ext:./bot `x` | tee"), 3)
	got := markdownBlocks(tab.String())
	if len(got) != 1 || got[0].Table == nil || len(got[0].Table.Rows) != 1 {
		t.Fatalf("blocks %+v", deref(got))
	}
	if row := got[0].Table.Rows[0]; len(row) != 2 || row[0] != "ext:./bot `x` | tee" || row[1] != "3" {
		t.Errorf("row %q", row)
	}
}

func deref(bs []Block) []any {
	var out []any
	for _, b := range bs {
		if b.Table != nil {
			out = append(out, *b.Table)
		} else {
			out = append(out, b)
		}
	}
	return out
}

// A CSV shown as a table keeps its digits in the file and rounds them on the page: an estimate
// and its ends to what the interval supports, a p-value to two digits (0 as "<1e-300"), other
// fractions to four digits, a one-sided bound as one; whole numbers and text as they are.
func TestRoundColumns(t *testing.T) {
	h := []string{"agent", "elo", "ci_low", "ci_high", "games", "p_holm", "white_rate_as_dealt", "ci_low_as_dealt", "ci_high_as_dealt", "score"}
	rows := [][]string{{"greedy", "417.7254466", "380.12", "455.9", "20", "3.03e-06", "0.75", "0.30064184", "0.95441274", "0.123456"},
		{"random", "681.1280412", "", "", "20", "0", "0.5", "", "", "0.5"},
		{"alphabeta", "", "", "-34.4034", "20", "1", "", "0.3", "", "1"}}
	roundColumns(h, rows)
	want := [][]string{{"greedy", "418", "380", "456", "20", "3e-06", "0.8", "0.3", "1.0", "0.1235"},
		{"random", "681.1", "", "", "20", "<1e-300", "0.5", "", "", "0.5"},
		{"alphabeta", "", "", "≤ -34.4", "20", "1", "", "≥ 0.3", "", "1"}}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("rounded\n%q\nwant\n%q", rows, want)
	}
}
