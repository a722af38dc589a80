package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/internal/markdown"
	"github.com/fairplay-lab/fairplay/runner"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/report"
	"github.com/fairplay-lab/fairplay/stats"

	"github.com/fairplay-lab/fairplay/engine/games"
)

// defaultLadder lists the strength steps checked by `fairplay ladder`: stronger>weaker.
const defaultLadder = "greedy>random;alphabeta:depth=2>greedy;alphabeta:depth=4>alphabeta:depth=2;mcts:playouts=1000>mcts:playouts=100"

func runLadder(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("ladder", "-game G [-steps 'A>B;C>D'] [-games-per-step N] [-layout L] [-random-opening K] [-seed S] [-workers W] [-out DIR]",
		"fairplay ladder -game katarenga -games-per-step 200 -out ladder-katarenga",
		"fairplay ladder -game baran -steps 'alphabeta:depth=2>greedy' -games-per-step 100")
	var gf gameFlags
	gf.register(fs, layoutRandom, false)
	gf.layout.aliasRandomLayouts(fs)
	steps := fs.String("steps", defaultLadder, "strength steps stronger>weaker, separated by ';'")
	n := fs.Int64("games-per-step", 200, "games per step, in colour-swapped pairs (rounded up to even)")
	deprecate(fs, "games", "games-per-step")
	var opening openingFlag
	registerOpening(fs, &opening)
	var rf runFlags
	rf.register(fs)
	if err := rf.parseUnsharded(fs, args, stderr, "-shard: a ladder runs whole (shard a step with fairplay play -a A -b B -shard i/M)"); err != nil {
		return err
	}
	if err := parsedOnly(ctx, gf.game, *steps); err != nil {
		return err
	}
	if rf.resume != "" {
		return usagef("-resume: resume a step with fairplay play -resume DIR/step-K")
	}
	if *n <= 0 {
		return usagef("-games-per-step %d: want a positive number", *n)
	}
	layout, random, err := gf.board(false)
	if err != nil {
		return err
	}
	tiles, err := gf.tilesText()
	if err != nil {
		return err
	}
	ts, err := tilesFor(tiles)
	if err != nil {
		return usagef("-tiles: %v", err)
	}
	gm, err := games.New(gf.game, gf.rules, layout, ts)
	if err != nil {
		return usageErr(err)
	}
	var pairs [][2]string
	stepList, err := splitList("steps", *steps, ";", false)
	if err != nil {
		return err
	}
	for _, st := range stepList {
		a, b, ok := strings.Cut(strings.TrimSpace(st), ">")
		if !ok {
			return usagef("-steps: %q: want stronger>weaker", st)
		}
		pairs = append(pairs, [2]string{strings.TrimSpace(a), strings.TrimSpace(b)})
	}
	var matches []*runner.Match
	for _, p := range pairs {
		m, err := runner.NewMatch(runner.MatchConfig{Game: gf.game, Rules: gf.rules, Layout: layout, Tiles: tiles,
			A: p[0], B: p[1], Games: *n + *n%2, Seed: rf.seed, RandomOpening: opening.count(random), RandomLayouts: random}, gm)
		if err == nil {
			err = m.Check()
		}
		if err != nil {
			return usageErr(err)
		}
		matches = append(matches, m)
	}
	dir, err := outDir(rf.out, "ladder-"+gf.game)
	if err != nil {
		return err
	}
	table := markdown.NewTable("step", "stronger (A)", "weaker (B)", "games", "distinct", "A wins / draws / B wins", "pairs 0-½-1-1½-2", "A score", "Elo A−B [95% CI]", "LOS", "holds").Right(3, 4, 7, 9)
	rep := &report.Report{Kind: "ladder", Title: fmt.Sprintf("%s strength ladder, %d games per step\nrules: %s", gf.game, *n+*n%2, gm.Rules()),
		Facts: []report.Fact{{Name: "command", Value: gamefile.CommandLine(append([]string{"fairplay", "ladder"}, args...))}, {Name: "seed", Value: fmt.Sprint(rf.seed)}}}
	var labels []string
	var elos []stats.Interval
	for k, m := range matches {
		sub := filepath.Join(dir, fmt.Sprintf("step-%d", k+1))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "step %d: %s vs %s, %d games\n", k+1, agents.ShortSpec(m.Cfg.A), agents.ShortSpec(m.Cfg.B), m.Cfg.Games)
		out, err := runner.RunMatch(ctx, m, runner.Session{Dir: sub, Workers: rf.workers, Progress: newProgress(ctx, rf.progress, stderr),
			Stderr: stderr, Args: append([]string{"fairplay", "ladder"}, args...), Shard: runner.Shard{Index: 0, Count: 1}})
		if err != nil {
			return err
		}
		if out.Interrupted {
			return errInterrupted
		}
		s := out.Summary
		if w := s.DistinctWarning(); !w.IsZero() {
			fmt.Fprintf(stderr, "step %d: %s\n", k+1, w.Render(flagName))
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("step %d: %s", k+1, strings.TrimPrefix(w.Render(flagName), "warning: ")))
		}
		distinct, _ := s.Distinct()
		e := s.Penta.Elo()
		sc, _ := s.Penta.ScoreVar()
		los := s.Penta.LOS()
		holds := "no" // LOS alone is 1 from one won pair: the exact sign test must agree
		if los > 0.99 && s.Penta.SignP() < 0.01 {
			holds = "yes"
		}
		labels, elos = append(labels, fmt.Sprintf("step %d", k+1)), append(elos, e)
		elo := stats.FormatElo(e) + " (95%)"
		if stats.IsBound(e) {
			elo = stats.FormatElo(e) + ": every pair went one way, so a bound and no estimate"
		}
		rep.Findings = append(rep.Findings, fmt.Sprintf("Step %d, %s over %s: Elo %s; %d pairs, LOS %.4f: the step %s.",
			k+1, pairs[k][0], pairs[k][1], elo, s.Penta.Pairs(), los, map[string]string{"yes": "holds", "no": "does not hold (LOS ≤ 0.99 or sign-test p ≥ 0.01)"}[holds]))
		rep.Links = append(rep.Links, report.Link{Text: fmt.Sprintf("step %d: %s vs %s", k+1, pairs[k][0], pairs[k][1]), Href: fmt.Sprintf("step-%d/report.html", k+1)})
		table.Row(k+1, markdown.Code(pairs[k][0]), markdown.Code(pairs[k][1]), s.N, distinct, fmt.Sprintf("%d / %d / %d", s.AWins, s.N-s.AWins-s.BWins, s.BWins),
			fmt.Sprintf("%d-%d-%d-%d-%d", s.Penta[0], s.Penta[1], s.Penta[2], s.Penta[3], s.Penta[4]), fmt.Sprintf("%.3f", sc), stats.FormatElo(e), fmt.Sprintf("%.4f", los), holds)
	}
	if err := gamefile.WriteFileAtomic(filepath.Join(dir, "ladder.md"), []byte(table.String())); err != nil {
		return err
	}
	files, err := report.PlotIntervals(dir, "ladder", rep.Title, "Elo of the stronger over the weaker (95% interval)", labels, elos, 0)
	if err != nil {
		return err
	}
	if err := rep.AddPlots(dir, files); err != nil {
		return err
	}
	rep.Tables = append(rep.Tables, report.Table{Caption: "Steps (ladder.md)", Header: table.Columns(), Rows: table.PlainRows()})
	if _, err := report.WriteReportHTML(dir, rep); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s ladder (%s), seed %d, results in %s\n\n%s", gf.game, gm.Rules(), rf.seed, dir, table.String())
	return nil
}
