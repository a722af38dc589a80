package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/agents/fingerprint"
)

var recordPublished = flag.Bool("record-published", false, "re-record docs/studies/published.json from the study files and today's agents (only after re-running the studies whose agents changed and updating their pages)")

// publishedPath is the record, from the repository root.
const publishedPath = "docs/studies/published.json"

// Under -short a recorded agent is played again on its game's first shortPositions
// positions only, and only when its recorded search work (nodes or playouts over all the
// positions) is at most shortWork: the costlier agents, up to half a minute each on a slow
// machine, and the whole fingerprints are checked by the full test.
const shortPositions = 8

var shortWork = map[string]int64{"nodes": 1_000_000, "playouts": 30_000}

// TestPublishedStudies: every study file under docs/studies has a record in
// docs/studies/published.json, naming the agents its runs name; each of those agents still
// plays as recorded (same expanded spec, files and fingerprint); every games file kept in the
// repository has its recorded size and SHA-256. A failure names the study, the pages that
// quote it and what to do.
func TestPublishedStudies(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	files, err := filepath.Glob("docs/studies/*.json")
	if err != nil {
		t.Fatal(err)
	}
	var studies []*Study
	var paths []string
	for _, f := range files {
		st, err := loadIfStudy(f)
		if err != nil {
			t.Fatal(err)
		}
		if st != nil {
			studies, paths = append(studies, st), append(paths, f)
		}
	}
	if len(studies) < 5 {
		t.Fatalf("found %d study files under docs/studies", len(studies))
	}
	if *recordPublished {
		writePublished(t, studies, paths)
		return
	}
	var rec PublishedRecord
	b, err := os.ReadFile(publishedPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatalf("%s: %v", publishedPath, err)
	}
	byFile := map[string]*PublishedStudy{}
	for i := range rec.Studies {
		byFile[rec.Studies[i].File] = &rec.Studies[i]
	}
	type check struct {
		ps  *PublishedStudy
		rec PublishedAgent
	}
	var checks []check
	for i, st := range studies {
		ps, ok := byFile[paths[i]]
		if !ok {
			t.Errorf("%s has no record in %s: record it (go test ./cmd/fairplay -run TestPublishedStudies -record-published) before a page quotes it", paths[i], publishedPath)
			continue
		}
		delete(byFile, paths[i])
		if docs := citingDocs(t, paths[i]); !slices.Equal(docs, ps.Docs) {
			t.Errorf("%s: cited by %v, the record says %v (re-record it)", paths[i], docs, ps.Docs)
		}
		named, err := studyAgents(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, r := range ps.Agents {
			want = append(want, r.Game+" "+r.Given)
		}
		var got []string
		for _, a := range named {
			got = append(got, a.game+" "+a.spec)
		}
		if g, w := uniqueSorted(got), uniqueSorted(want); !slices.Equal(g, w) {
			t.Errorf("%s (%s): its runs name the agents %q, the record %q: the study file changed since it was recorded; re-run it, update the pages, then re-record (-record-published)", paths[i], quotedBy(ps.Docs), g, w)
		}
		for _, r := range ps.Agents {
			// Agents without a fingerprint (time budgets, external programs) are checked too:
			// their expanded spec and the files they read (a network chosen by net=auto).
			if testing.Short() && r.Work > shortWork[r.WorkUnit] {
				continue
			}
			checks = append(checks, check{ps, r})
		}
		for _, e := range checkKeptGames(ps) {
			t.Error(e)
		}
	}
	for f := range byFile {
		t.Errorf("%s records %s, which is not a study file under docs/studies any more (re-record)", publishedPath, f)
	}
	// Play the recorded agents again, each once (several studies share agents).
	type key struct{ game, spec string }
	now := map[key]*fingerprint.Record{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for _, c := range checks {
		k := key{c.rec.Game, c.rec.Given}
		mu.Lock() // the players below write now as they finish
		_, seen := now[k]
		if !seen {
			now[k] = nil
		}
		mu.Unlock()
		if seen {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			play := fingerprint.Play
			if testing.Short() {
				play = func(game, spec string, workers int) (*fingerprint.Record, error) {
					return fingerprint.PlayFirst(game, spec, shortPositions, workers)
				}
			}
			r, err := play(k.game, k.spec, 1)
			if err != nil {
				t.Errorf("%s %s: %v", k.game, k.spec, err)
				return
			}
			mu.Lock()
			now[k] = r
			mu.Unlock()
		}()
	}
	wg.Wait()
	for _, c := range checks {
		r := now[key{c.rec.Game, c.rec.Given}]
		if r == nil {
			continue
		}
		if msg := playDiff(c.rec.Record, *r); msg != "" {
			t.Errorf("%s (%s): agent %s (%s) no longer plays as recorded at revision %.12s: %s.\nThe numbers those pages publish came from the recorded play. Either keep that play (give the study file's spec the parameter values it was recorded with: %s), or re-run the study (fairplay study -out OUT %s), update the pages from it, and re-record: go test ./cmd/fairplay -run TestPublishedStudies -record-published",
				c.ps.File, quotedBy(c.ps.Docs), c.rec.Given, c.rec.Game, c.ps.Revision, msg, agents.ShortSpec(c.rec.Expanded), c.ps.File)
		}
	}
	t.Logf("%d study files; %d recorded agents played again", len(studies), len(now))
}

// playDiff says how an agent's play now differs from its record ("" when it does not).
func playDiff(rec, now fingerprint.Record) string {
	var diffs []string
	if rec.Expanded != now.Expanded {
		diffs = append(diffs, fmt.Sprintf("its parameters are now %s (recorded %s)", now.Expanded, rec.Expanded))
	}
	if rec.Resolved != now.Resolved {
		diffs = append(diffs, fmt.Sprintf("its options now resolve to %s (recorded %s)", orNone(now.Resolved), orNone(rec.Resolved)))
	}
	if !maps.Equal(rec.Files, now.Files) {
		diffs = append(diffs, fmt.Sprintf("the files it reads are now %v (recorded %v)", now.Files, rec.Files))
	}
	if rec.Fingerprint != now.Fingerprint && (now.Fingerprint != "" || !slices.Equal(rec.Moves[:min(len(rec.Moves), len(now.Moves))], now.Moves)) {
		var changed []string
		for i := range min(len(rec.Moves), len(now.Moves)) {
			if rec.Moves[i] != now.Moves[i] {
				changed = append(changed, fmt.Sprintf("position %d: %s, recorded %s", i+1, now.Moves[i], rec.Moves[i]))
			}
		}
		d := fmt.Sprintf("fingerprint %s, recorded %s", orNoneYet(now.Fingerprint), rec.Fingerprint)
		if len(changed) > 0 {
			d += fmt.Sprintf("; it chooses other moves in %d of %d positions (%s)", len(changed), len(now.Moves), changed[0])
		}
		diffs = append(diffs, d)
	}
	return strings.Join(diffs, "; ")
}

// orNoneYet names the fingerprint of a partial play (under -short).
func orNoneYet(s string) string {
	if s == "" {
		return fmt.Sprintf("not computed (first %d positions played)", shortPositions)
	}
	return s
}

// checkKeptGames checks every games file of a study kept in the repository: under
// docs/studies/<study>/<run>/, at most maxKeptBytes, of the recorded size and SHA-256. It
// returns what is wrong.
func checkKeptGames(ps *PublishedStudy) []string {
	var errs []string
	if ps.Games.Files == nil && !strings.HasPrefix(ps.Games.NotKept, "not kept") {
		errs = append(errs, fmt.Sprintf("%s: games: want \"not kept\" or a list of files", ps.File))
	}
	for _, f := range ps.Games.Files {
		if len(f.SHA256) != 64 || f.Run == "" || f.File == "" {
			errs = append(errs, fmt.Sprintf("%s: games of run %q: want a run, a file and a SHA-256 (%+v)", ps.File, f.Run, f))
			continue
		}
		if !f.InRepo {
			continue
		}
		if dir := strings.TrimSuffix(ps.File, ".json") + "/" + f.Run + "/"; !strings.HasPrefix(f.File, dir) {
			errs = append(errs, fmt.Sprintf("%s: games of run %s kept at %s: keep them under %s", ps.File, f.Run, f.File, dir))
			continue
		}
		b, err := os.ReadFile(f.File)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: games of run %s: %v", ps.File, f.Run, err))
			continue
		}
		if sum := fmt.Sprintf("%x", sha256.Sum256(b)); sum != f.SHA256 || int64(len(b)) != f.Bytes {
			errs = append(errs, fmt.Sprintf("%s: %s has %d bytes, SHA-256 %s; the record says %d bytes, %s: the kept games were changed (restore them: git checkout %s)", ps.File, f.File, len(b), sum, f.Bytes, f.SHA256, f.File))
		}
		if len(b) > maxKeptBytes {
			errs = append(errs, fmt.Sprintf("%s: %s has %d bytes: keep files over %d bytes outside the repository (in_repo false, with their SHA-256)", ps.File, f.File, len(b), maxKeptBytes))
		}
	}
	return errs
}

// TestCheckKeptGames: a kept file of the recorded size and hash passes; a changed byte, a
// missing file, a file over the size bound or a malformed entry does not; "not kept" passes.
func TestCheckKeptGames(t *testing.T) {
	study := filepath.Join(t.TempDir(), "s")
	dir := filepath.Join(study, "r")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(dir, "games.csv.gz")
	data := []byte("game,moves\n0,a1-a2\n")
	if err := os.WriteFile(f, data, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := fmt.Sprintf("%x", sha256.Sum256(data))
	kept := func(file, sha string, n int64) *PublishedStudy {
		return &PublishedStudy{File: study + ".json", Games: KeptGames{Files: []KeptFile{{Run: "r", File: file, InRepo: true, Bytes: n, SHA256: sha}}}}
	}
	if errs := checkKeptGames(kept(f, sum, int64(len(data)))); len(errs) != 0 {
		t.Errorf("intact file: %v", errs)
	}
	if errs := checkKeptGames(&PublishedStudy{File: "s.json", Games: KeptGames{NotKept: "not kept"}}); len(errs) != 0 {
		t.Errorf("not kept: %v", errs)
	}
	big := filepath.Join(dir, "big.csv")
	bigData := make([]byte, maxKeptBytes+1)
	if err := os.WriteFile(big, bigData, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		ps   *PublishedStudy
		want string
	}{
		"changed":   {kept(f, strings.Repeat("0", 64), int64(len(data))), "the kept games were changed"},
		"size":      {kept(f, sum, 3), "the kept games were changed"},
		"missing":   {kept(filepath.Join(dir, "gone.csv"), sum, 3), "no such file"},
		"too large": {kept(big, fmt.Sprintf("%x", sha256.Sum256(bigData)), int64(len(bigData))), "keep files over"},
		"no hash":   {kept(f, "", 3), "want a run, a file and a SHA-256"},
		"no record": {&PublishedStudy{File: "s.json"}, "want \"not kept\""},
		"elsewhere": {kept(filepath.Join(study, "other.csv"), sum, 3), "keep them under"},
	} {
		errs := checkKeptGames(c.ps)
		if len(errs) == 0 || !strings.Contains(strings.Join(errs, "\n"), c.want) {
			t.Errorf("%s: %v, want an error with %q", name, errs, c.want)
		}
	}
	var k KeptGames
	if err := json.Unmarshal([]byte(`"kept somewhere"`), &k); err == nil {
		t.Error(`games "kept somewhere": no error`)
	}
}

// quotedBy names the pages that quote a study.
func quotedBy(docs []string) string {
	if len(docs) == 0 {
		return "quoted by no page"
	}
	return "quoted by " + strings.Join(docs, ", ")
}

// loadIfStudy reads a study file; nil for a JSON file that is not one (weights files).
func loadIfStudy(path string) (*Study, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var probe map[string]json.RawMessage
	if json.Unmarshal(b, &probe) != nil || probe["runs"] == nil {
		return nil, nil
	}
	return LoadStudy(path)
}

// citingDocs lists the pages (README.md, docs/*.md and docs/*/*.md) that link or name a study file.
func citingDocs(t *testing.T, study string) []string {
	t.Helper()
	pages, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	sub, err := filepath.Glob("docs/*/*.md") // docs/ratings/ and the like
	if err != nil {
		t.Fatal(err)
	}
	pages = append(append([]string{"README.md"}, pages...), sub...)
	re := regexp.MustCompile(`\bstudies/` + regexp.QuoteMeta(filepath.Base(study)))
	var out []string
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if re.Match(b) {
			out = append(out, p)
		}
	}
	return out
}

func uniqueSorted(s []string) []string {
	s = slices.Clone(s)
	sort.Strings(s)
	return slices.Compact(s)
}

// writePublished re-records every study (-record-published), keeping each study's note and
// kept games, and the revision of a study whose agents play as they did when it was recorded
// (the record of when they were fixed stands; only new or changed studies get HEAD).
func writePublished(t *testing.T, studies []*Study, paths []string) {
	var old PublishedRecord
	if b, err := os.ReadFile(publishedPath); err == nil {
		if err := json.Unmarshal(b, &old); err != nil {
			t.Fatal(err)
		}
	}
	rev, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	rec := PublishedRecord{About: old.About}
	for i, st := range studies {
		agents, err := recordStudyAgents(context.Background(), st, runtime.GOMAXPROCS(0))
		if err != nil {
			t.Fatal(err)
		}
		ps := PublishedStudy{File: paths[i], Docs: append([]string{}, citingDocs(t, paths[i])...), Revision: strings.TrimSpace(string(rev)), Agents: agents,
			Games: KeptGames{NotKept: "not kept"}}
		for _, o := range old.Studies {
			if o.File == ps.File {
				ps.Note, ps.Games = o.Note, o.Games
				if reflect.DeepEqual(o.Agents, ps.Agents) {
					ps.Revision = o.Revision // its agents play as recorded then: the record stands
				}
			}
		}
		rec.Studies = append(rec.Studies, ps)
	}
	// Notes are prose for people: written as typed (`<run>`, `&`), not HTML-escaped.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rec); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(publishedPath, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s: %d studies", publishedPath, len(rec.Studies))
}

// TestPlayDiff: a record differs from a replay in its parameters, its files or its moves
// (a partial replay, under -short, is compared on the moves it has).
func TestPlayDiff(t *testing.T) {
	rec, err := fingerprint.Play("katarenga", "greedy", 1)
	if err != nil {
		t.Fatal(err)
	}
	first, err := fingerprint.PlayFirst("katarenga", "greedy", 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	if d := playDiff(*rec, *rec); d != "" {
		t.Errorf("same play: %s", d)
	}
	if d := playDiff(*rec, *first); d != "" {
		t.Errorf("a prefix of the same play: %s", d)
	}
	moved := *rec
	moved.Moves = slices.Clone(rec.Moves)
	moved.Moves[2] = "x"
	moved.Fingerprint = "v1:other"
	if d := playDiff(moved, *first); !strings.Contains(d, "other moves in 1 of 4 positions (position 3:") {
		t.Errorf("a changed move: %q", d)
	}
	if d := playDiff(moved, *rec); !strings.Contains(d, "fingerprint "+rec.Fingerprint+", recorded v1:other") {
		t.Errorf("a changed fingerprint: %q", d)
	}
	files := *rec
	files.Files = map[string]string{"weights": "ab"}
	if d := playDiff(files, *rec); !strings.Contains(d, "the files it reads are now map[] (recorded map[weights:ab])") {
		t.Errorf("changed files: %q", d)
	}
	params := *rec
	params.Expanded = "greedy:weights=x"
	if d := playDiff(params, *rec); !strings.Contains(d, "its parameters are now greedy:weights= (recorded greedy:weights=x)") {
		t.Errorf("changed parameters: %q", d)
	}
}

// orNone names an empty resolved-options string.
func orNone(s string) string {
	if s == "" {
		return "(none recorded)"
	}
	return s
}
