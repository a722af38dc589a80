package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/report"
)

// The study index repeats its finished runs' warnings, each named by its run and linking to
// its page (and not the warnings a run's page itself repeats); with none it says so. The page
// is checked in a browser unless -short.
func TestStudyIndexWarnings(t *testing.T) {
	dir := t.TempDir()
	st := &Study{Name: "w", Runs: []StudyRun{{Name: "quiet", Command: "play"}, {Name: "noisy", Command: "play"}, {Name: "later", Command: "play"}}}
	page := func(run string, rep *report.Report) {
		t.Helper()
		os.MkdirAll(filepath.Join(dir, run), 0o755)
		if _, err := report.WriteReportHTML(filepath.Join(dir, run), rep); err != nil {
			t.Fatal(err)
		}
	}
	page("quiet", &report.Report{Kind: "play", Title: "quiet"})
	if err := WriteStudyIndex(dir, st, "w.json"); err != nil {
		t.Fatal(err)
	}
	index, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	if !strings.Contains(string(index), "No finished run has warnings.") {
		t.Errorf("index.html without run warnings does not say so:\n%s", index)
	}
	page("noisy", &report.Report{Kind: "play", Title: "noisy", Warnings: []string{"3 distinct games of 40 <repeated>", "the ply cap ended 12 games"},
		RunWarnings: []report.Link{{Text: "inner", Href: "inner/report.html", Note: "an inner page's warning"}}})
	if err := WriteStudyIndex(dir, st, "w.json"); err != nil {
		t.Fatal(err)
	}
	index, _ = os.ReadFile(filepath.Join(dir, "index.html"))
	s := string(index)
	for _, want := range []string{`<li><a href="noisy/report.html">noisy</a>: 3 distinct games of 40 &lt;repeated&gt;</li>`,
		`<li><a href="noisy/report.html">noisy</a>: the ply cap ended 12 games</li>`, "run later is not started"} {
		if !strings.Contains(s, want) {
			t.Errorf("index.html has no %q", want)
		}
	}
	if strings.Contains(s, "No finished run has warnings") || strings.Contains(s, "inner page") || strings.Contains(s, `href="quiet/report.html">quiet</a>:`) {
		t.Errorf("index.html repeats what it should not:\n%s", s)
	}
	checkReportPage(t, index)
}
