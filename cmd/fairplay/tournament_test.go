package main

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/internal/reporttest"
)

func TestTournamentCLI(t *testing.T) {
	base := t.TempDir()
	whole := filepath.Join(base, "whole")
	args := []string{"tournament", "-game", "katarenga", "-agents", "random; greedy ;classic:depth=1", "-games-per-pairing", "10", "-seed", "3",
		"-bootstrap", "100", "-progress", "never"}
	out, _, err := runCmd(t, append(args, "-out", whole)...)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "tournament-report", strings.ReplaceAll(out, whole, "DIR"))
	ratings, err := os.ReadFile(filepath.Join(whole, "ratings.csv"))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "tournament-ratings.csv", string(ratings))
	page, err := os.Open(filepath.Join(whole, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if n, err := reporttest.CheckReportHTML(page); err != nil || n != 1 {
		t.Errorf("tournament report.html: %d plots, %v; want 1 plot and a self-contained page", n, err)
	}
	page.Close()
	// Two shards merged by fairplay merge give the same ratings.
	var parts []string
	for _, s := range []string{"1/2", "0/2"} {
		d := filepath.Join(base, "part"+s[:1])
		if _, _, err := runCmd(t, append(args, "-shard", s, "-out", d, "-workers", "1")...); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, d)
	}
	merged := filepath.Join(base, "merged")
	if out, _, err = runCmd(t, "merge", "-out", merged, parts[0], parts[1]); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "3 pairings merged from 2 shards") {
		t.Errorf("merge output:\n%s", out)
	}
	if got, _ := os.ReadFile(filepath.Join(merged, "ratings.csv")); string(got) != string(ratings) {
		t.Errorf("merged ratings differ:\n%s\nwant\n%s", got, ratings)
	}
	// Resuming a complete tournament plays nothing.
	if _, errOut, err := runCmd(t, "tournament", "-resume", whole); err != nil || !strings.Contains(errOut, "already complete") {
		t.Errorf("resume of a complete run: %v, %q", err, errOut)
	}
}

func TestTournamentCLIErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-agents", "random"}, "at least two"},
		{[]string{"-agents", "random;bogus:x=1"}, "agent 2"},
		{[]string{"-agents", "random;greedy", "-games-per-pairing", "0"}, "-games-per-pairing 0"},
		{[]string{"-agents", "random;greedy", "-prior", "-2"}, "-prior -2"},
		{[]string{"-agents", "random;greedy", "-neighbours", "-1"}, "-neighbours -1"},
		{[]string{"-agents", "random;greedy", "-bootstrap", "-1"}, "-bootstrap -1"},
		{[]string{"-agents", "random;greedy", "-random-opening", "-3"}, `invalid value "-3" for flag -random-opening`},
		{[]string{"-game", "chess", "-agents", "random;greedy"}, "chess"},
		{[]string{"-agents", "random;greedy", "-shard", "2/2"}, "-shard"},
		{[]string{"-agents", "random;greedy", "-resume", "x"}, "drop -agents"},
	} {
		_, _, err := runCmd(t, append([]string{"tournament"}, c.args...)...)
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err %v, want a usage error containing %q", c.args, err, c.want)
		}
	}
	if _, errOut, err := runCmd(t, "tournament", "-h"); !errors.Is(err, flag.ErrHelp) || !strings.Contains(errOut, "Examples:") {
		t.Errorf("-h: %v", err)
	}
}

func TestTournamentCombineCLI(t *testing.T) {
	base := t.TempDir()
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	for _, c := range [][]string{{a, "random;greedy"}, {b, "greedy;classic:depth=1"}} {
		if _, _, err := runCmd(t, "tournament", "-agents", c[1], "-games-per-pairing", "4", "-bootstrap", "20", "-progress", "never", "-out", c[0]); err != nil {
			t.Fatal(err)
		}
	}
	out, _, err := runCmd(t, "tournament", "-combine", "-out", filepath.Join(base, "c"), "-bootstrap", "20", a, b)
	if err != nil || !strings.Contains(out, "3 agents, 2 pairings") {
		t.Errorf("combine: %v\n%s", err, out)
	}
	// A match (fairplay play, here its games gzipped) counts as one pairing.
	m := filepath.Join(base, "m")
	if _, _, err := runCmd(t, "play", "-a", "classic:depth=1", "-b", "greedy", "-games", "4", "-format", "csv.gz", "-progress", "never", "-out", m); err != nil {
		t.Fatal(err)
	}
	out, _, err = runCmd(t, "tournament", "-combine", "-out", filepath.Join(base, "cm"), "-bootstrap", "20", a, m)
	if err != nil || !strings.Contains(out, "3 agents, 2 pairings from the tournaments and matches") {
		t.Errorf("combine with a match: %v\n%s", err, out)
	}
	// Refused as usage errors before -out is made: a sequential test, a match shard, a
	// tournament's own pairing beside it, a directory given twice, another game.
	seq, shard, baran := filepath.Join(base, "seq"), filepath.Join(base, "shard"), filepath.Join(base, "baran")
	for _, c := range [][]string{
		{"sprt", "-a", "classic:depth=1", "-b", "greedy", "-elo0", "0", "-elo1", "200", "-max-pairs", "2", "-out", seq},
		{"play", "-a", "classic:depth=1", "-b", "greedy", "-games", "4", "-shard", "0/2", "-out", shard},
		{"play", "-game", "baran", "-a", "random", "-b", "greedy", "-games", "2", "-out", baran},
	} {
		if _, _, err := runCmd(t, append(c, "-progress", "never")...); err != nil {
			t.Fatal(err)
		}
	}
	refused := filepath.Join(base, "refused")
	for _, c := range []struct {
		want string
		dirs []string
	}{
		{"sequential test", []string{a, seq}},
		{"is shard 0 of 2: merge its shards first", []string{a, shard}},
		{"replays the games of", []string{a, filepath.Join(a, "pairings", "1-2")}},
		{"given twice", []string{a, b, a}},
		{"with rules", []string{a, baran}},
	} {
		wantUsageError(t, c.want, append([]string{"tournament", "-combine", "-out", refused}, c.dirs...)...)
		if _, err := os.Stat(refused); err == nil {
			t.Fatalf("a refused -combine %v wrote %s", c.dirs, refused)
		}
	}
	for _, args := range [][]string{{"-combine"}, {"-combine", filepath.Join(base, "nosuch")}, {"-agents", "random;greedy", a}} {
		_, _, err := runCmd(t, append([]string{"tournament"}, args...)...)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: err %v, want a usage error", args, err)
		}
	}
}
