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
	rep.Findings, rep.Warnings = tally.PlayFindings(s)
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

// renderInBrowser loads page in headless Chromium and returns "plots:decoded" and the console lines.
func renderInBrowser(t *testing.T, bin string, page []byte) (string, []string) {
	t.Helper()
	found, decoded, console, err := reporttest.CheckReportInBrowser(bin, page, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d:%d", found, decoded), console
}

func TestReportInBrowser(t *testing.T) {
	bin := browser(t)
	page := testReport(t, t.TempDir())
	plots, console := renderInBrowser(t, bin, page)
	if plots != "3:3" {
		t.Errorf("plots shown (found:decoded) %s, want 3:3", plots)
	}
	if len(console) > 0 {
		t.Errorf("console messages:\n%s", strings.Join(console, "\n"))
	}
	// The check must be able to fail: a broken plot and a blocked network image.
	broken := strings.Replace(string(page), dataURI.FindString(string(page)), "data:image/svg+xml;base64,bm90IGFuIFNWRw==", 1) // "not an SVG"
	broken = strings.Replace(broken, "<h1>", `<img src="https://example.invalid/x.png"><h1>`, 1)
	plots, console = renderInBrowser(t, bin, []byte(broken))
	if plots != "3:2" || len(console) == 0 {
		t.Errorf("a broken page passed: plots %s, console %q", plots, console)
	}
}
