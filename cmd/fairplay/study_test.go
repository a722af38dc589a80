package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/internal/reporttest"
)

// reportPages lists every report.html and index.html under dir.
func reportPages(t *testing.T, dir string) []string {
	t.Helper()
	var pages []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && (d.Name() == "report.html" || d.Name() == "index.html") {
			pages = append(pages, p)
		}
		return err
	})
	return pages
}

// TestStudyEndToEnd runs a study with one run of every kind and checks every page it wrote:
// valid, self-contained HTML with the plots of its kind; rendered in headless Chromium when
// one is installed (every plot decodes, no console message).
func TestStudyEndToEnd(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "study")
	study := filepath.Join("testdata", "study-small.json")
	out, stderr, err := runCmd(t, "study", "-out", dir, "-workers", "2", "-progress", "never", study)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(out, "study small: 8 runs in") || !strings.Contains(stderr, "run 8/8 tune") || !strings.Contains(out, "Spearman") {
		t.Errorf("output:\n%s\nstderr:\n%s", out, stderr)
	}
	// variants: 11 plots by variant; greedy wins every rating game, so there is no strength
	// trend and none of its 9 plots (TestVariantsRatingList renders a page with them).
	wantPlots := map[string]int{"index.html": 0, "play/report.html": 3, "sprt/report.html": 4, "ladder/report.html": 1,
		"variants/report.html": 11, "layouts/report.html": 4, "layouts-compared/report.html": 4, "tournament/report.html": 1, "tune/report.html": 1, "tune/sprt/report.html": 4}
	pages := reportPages(t, dir)
	bin := reporttest.FindBrowser()
	if testing.Short() {
		bin = "" // rendering every page takes a few seconds
	}
	seen := map[string]bool{}
	for _, p := range pages {
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		page, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		n, err := reporttest.CheckReportHTML(bytes.NewReader(page))
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		if want, ok := wantPlots[rel]; ok {
			seen[rel] = true
			if n != want {
				t.Errorf("%s: %d plots, want %d", rel, n, want)
			}
		}
		if bin == "" || !seen[rel] {
			continue
		}
		c, err := reporttest.CheckReportInBrowser(bin, page, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if p := c.Problems(n); len(p) > 0 {
			t.Errorf("%s in %s does not read right:\n%s", rel, bin, strings.Join(p, "\n"))
		}
	}
	for rel := range wantPlots {
		if !seen[rel] {
			t.Errorf("no %s", rel)
		}
	}
	if bin == "" {
		t.Log("no headless Chromium on PATH: pages not rendered (Debian: apt-get install chromium-headless-shell)")
	}
	index, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	for _, r := range []string{"play", "sprt", "ladder", "variants", "layouts", "layouts-compared", "tournament", "tune"} {
		if !strings.Contains(string(index), `href="`+r+`/report.html"`) {
			t.Errorf("index.html has no link to %s/report.html", r)
		}
	}
	if !strings.Contains(string(index), `<h2 id="warnings">Warnings</h2>`) {
		t.Error("index.html has no Warnings section (its runs' warnings, or a line saying there are none)")
	}
	// A second go at a finished study plays nothing.
	_, stderr, err = runCmd(t, "study", "-resume", dir, "-progress", "never", study)
	if err != nil || strings.Count(stderr, " is done") != 8 {
		t.Errorf("resume of a finished study: %v\n%s", err, stderr)
	}
}

// TestPlayReportGolden pins the words of a play report: findings, warnings, the statistics
// table and what was run (plots and the revision masked).
func TestPlayReportGolden(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if _, stderr, err := runCmd(t, "play", "-game", "baran", "-games", "40", "-out", dir, "-progress", "never"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	s := regexp.MustCompile(`data:image/svg[^"]*`).ReplaceAllString(string(page), "PLOT")
	s = regexp.MustCompile(`revision [^<]*`).ReplaceAllString(s, "revision REV")
	s = strings.ReplaceAll(s, dir, "DIR")
	golden(t, "play-report.html", s)
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sj struct {
		Status string `json:"status"`
		Config struct {
			Game string `json:"game"`
		} `json:"config"`
		Counts     map[string]int64 `json:"counts"`
		Statistics []struct {
			Name   string   `json:"statistic"`
			Value  *float64 `json:"value"`
			Low    *float64 `json:"ci_low"`
			Method string   `json:"method"`
			N      int64    `json:"n"`
		} `json:"statistics"`
	}
	if err := json.Unmarshal(b, &sj); err != nil {
		t.Fatal(err)
	}
	if sj.Status != "complete" || sj.Config.Game != "baran" || sj.Counts["games"] != 40 || len(sj.Statistics) < 20 {
		t.Errorf("summary.json: %+v", sj)
	}
	for _, st := range sj.Statistics {
		switch {
		case st.Name == "games" && (st.Value == nil || *st.Value != 40 || st.Low != nil):
			t.Errorf("games: %+v (a count has no interval: null)", st)
		case st.Name == "first_score" && (st.Low == nil || st.Method == "" || st.N != 40):
			t.Errorf("first_score: %+v", st)
		}
	}
}

func TestStudyBadFiles(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ body, want string }{
		{`{"name": "x", "runs": []}`, "no runs"},
		{`{"name": "x", "runs": [{"name": "a", "command": "perft", "args": []}]}`, `command "perft"`},
		{`{"name": "x", "runs": [{"name": "a", "command": "play", "args": ["-out", "y"]}]}`, "-out: the study chooses"},
		{`{"name": "x", "runs": [{"name": "a", "command": "play"}, {"name": "a", "command": "play"}]}`, "used twice"},
		{`{"name": "x", "runs": [{"name": "../a", "command": "play"}]}`, `run 1 ("../a")`},
		{`{"name": "x", "rusn": []}`, `unknown field "rusn"`},
		{`{"name": "x", "runs": [{"name": "a", "command": "play", "args": ["-games", "-3"]}]}`, "run a: -games -3"},
	} {
		path := filepath.Join(dir, "s.json")
		os.WriteFile(path, []byte(c.body), 0o644)
		_, _, err := runCmd(t, "study", "-out", filepath.Join(dir, "out"), "-progress", "never", path)
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want a usage error with %q", c.body, err, c.want)
		}
		os.RemoveAll(filepath.Join(dir, "out"))
	}
}

// The published study files parse, and -dry-run lists their commands with {study} filled in.
func TestDocsStudies(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "docs", "studies", "*.json"))
	n := 0
	for _, f := range files {
		if st, err := loadIfStudy(f); err != nil {
			t.Fatal(err)
		} else if st == nil {
			continue // weights or the published studies' record, not studies
		}
		n++
		out, _, err := runCmd(t, "study", "-dry-run", f, "-out", "OUT") // flags after the file too
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if strings.Contains(out, "{study}") || !strings.Contains(out, "-out OUT/") {
			t.Errorf("%s: dry run:\n%s", f, out)
		}
	}
	if n < 4 {
		t.Errorf("%d study files in docs/studies, want the 4 published ones", n)
	}
}

// TestStudyTournamentCombine runs tournaments and a -combine of them from one study file: the
// study's own flags go before a run's arguments, so positional directories work.
func TestStudyTournamentCombine(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "tiny.json")
	study := `{"name":"tiny","runs":[
 {"name":"t1","command":"tournament","args":["-game","katarenga","-agents","random;greedy","-games-per-pairing","4","-bootstrap","20"]},
 {"name":"t2","command":"tournament","args":["-game","katarenga","-agents","greedy;alphabeta:depth=1","-games-per-pairing","4","-bootstrap","20","-seed","3"]},
 {"name":"all","command":"tournament","args":["-combine","-bootstrap","20","{study}/t1","{study}/t2"]}]}`
	if err := os.WriteFile(file, []byte(study), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "out")
	if _, stderr, err := runCmd(t, "study", "-out", dir, "-progress", "never", file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	ratings, err := os.ReadFile(filepath.Join(dir, "all", "ratings.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, agent := range []string{"random", "greedy", "alphabeta:depth=1"} {
		if !strings.Contains(string(ratings), agent) {
			t.Errorf("combined ratings.csv lacks %s:\n%s", agent, ratings)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "all", "report.html")); err != nil {
		t.Error(err)
	}
	// Resuming with another study file is refused: its runs would be taken as done.
	other := filepath.Join(tmp, "other.json")
	if err := os.WriteFile(other, []byte(strings.Replace(study, `"-games-per-pairing","4"`, `"-games-per-pairing","6"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runCmd(t, "study", "-resume", dir, "-progress", "never", other)
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "differs") {
		t.Errorf("resume with another study file: %v", err)
	}
}

// TestStudyReusesMatches: a study's run that repeats a match another of its runs played (here
// a play run twice, and a variants run whose baseline cells are another's) copies its games
// (the manifest says from where) and ends with the files a replay writes; -no-reuse plays it.
func TestStudyReusesMatches(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	file := filepath.Join(tmp, "reuse.json")
	vary := func(v string) string {
		return `["-game", "baran", "-vary", "` + v + `", "-ladder", "greedy;alphabeta:depth=1", "-games-per-cell", "6", "-rating-games-per-pairing", "0", "-seed", "5"]`
	}
	play := `["-game", "baran", "-a", "alphabeta:depth=1", "-b", "greedy", "-games", "8", "-seed", "3"]`
	study := `{"name": "reuse", "description": "repeated matches", "runs": [
		{"name": "one", "command": "play", "args": ` + play + `},
		{"name": "two", "command": "play", "args": ` + play + `},
		{"name": "capture", "command": "variants", "args": ` + vary("capture=huff,strict") + `},
		{"name": "row", "command": "variants", "args": ` + vary("fast-row=3,4") + `}]}`
	if err := os.WriteFile(file, []byte(study), 0o644); err != nil {
		t.Fatal(err)
	}
	reused := func(dir string) string {
		t.Helper()
		var m struct {
			ReusedFrom string `json:"reused_from"`
		}
		data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		return filepath.ToSlash(m.ReusedFrom)
	}
	games := func(dir string) string {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(dir, "games.csv"))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	with, without := filepath.Join(tmp, "with"), filepath.Join(tmp, "without")
	if _, stderr, err := runCmd(t, "study", "-out", with, "-workers", "2", "-progress", "never", file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	} else if !strings.Contains(stderr, "its games are copied, not played again") {
		t.Errorf("stderr does not say what was reused:\n%s", stderr)
	}
	if _, stderr, err := runCmd(t, "study", "-out", without, "-no-reuse", "-workers", "2", "-progress", "never", file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	want := map[string]string{"one": "", "two": "../one", "capture/cells/1-1": "", "row/cells/1-1": "../../../capture/cells/1-1",
		"row/cells/2-1": "../../../capture/cells/2-1", "row/cells/1-2": "", "row/cells/2-2": ""}
	for sub, from := range want {
		if got := reused(filepath.Join(with, sub)); got != from {
			t.Errorf("%s: reused_from %q, want %q", sub, got, from)
		}
		if got := reused(filepath.Join(without, sub)); got != "" {
			t.Errorf("-no-reuse: %s reused %q", sub, got)
		}
		if games(filepath.Join(with, sub)) != games(filepath.Join(without, sub)) {
			t.Errorf("%s: the games differ from those played", sub)
		}
	}
	for _, f := range []string{"variants.csv", "differences.csv"} {
		a, _ := os.ReadFile(filepath.Join(with, "row", f))
		b, _ := os.ReadFile(filepath.Join(without, "row", f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("row/%s differs from the replayed study's (%d and %d bytes)", f, len(a), len(b))
		}
	}
}
