package tournament

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/internal/markdown"
	"github.com/fairplay-lab/fairplay/report"
	"github.com/fairplay-lab/fairplay/stats"
	"github.com/fairplay-lab/fairplay/tally"
)

// writeTournamentReports fits the ratings and writes ratings.csv, pairings.csv, the plot and
// report.md into dir.
func writeTournamentReports(dir string, cfg TournamentConfig, out *TournamentOutcome) error {
	res, outcomes := out.Results()
	tab, err := stats.Ratings(cfg.Labels, res, stats.RatingOptions{Prior: cfg.Prior, Bootstrap: cfg.Bootstrap, Seed: cfg.Seed})
	if err != nil {
		return err
	}
	out.Table = tab
	if out.Steps, err = AdjacentSteps(tab, res); err != nil {
		return err
	}
	var b bytes.Buffer
	if err := tally.WriteRatingListCSV(&b, tab, out.Distinct, listEntries(cfg, out)); err != nil {
		return err
	}
	if err := gamefile.WriteFileAtomic(filepath.Join(dir, "ratings.csv"), b.Bytes()); err != nil {
		return err
	}
	b.Reset()
	if err := tally.WritePairingsCSV(&b, cfg.Labels, res, outcomes, tab); err != nil {
		return err
	}
	if err := gamefile.WriteFileAtomic(filepath.Join(dir, "pairings.csv"), b.Bytes()); err != nil {
		return err
	}
	title := cfg.Game + " ratings"
	if cfg.Games > 0 {
		title += fmt.Sprintf(" (%d games per pairing)", cfg.Games)
	}
	plots, err := report.PlotRatings(tab, title, dir)
	if err != nil {
		return err
	}
	out.Outputs = []string{"ratings.csv", "pairings.csv", "report.md"}
	if out.Curves = Curves(cfg.Agents, cfg.Labels, tab); len(out.Curves) > 0 {
		b.Reset()
		if err := tally.WriteCurveCSV(&b, out.Curves); err != nil {
			return err
		}
		if err := gamefile.WriteFileAtomic(filepath.Join(dir, "curve.csv"), b.Bytes()); err != nil {
			return err
		}
		out.Outputs = append(out.Outputs, "curve.csv")
		for _, key := range CurveKeys {
			files, err := report.PlotCurves(dir, "curve_"+key, cfg.Game+": strength curves", key, out.Curves)
			if err != nil {
				return err
			}
			plots = append(plots, files...)
		}
	}
	out.Report = tournamentReport(cfg, res, outcomes, out)
	if err := gamefile.WriteFileAtomic(filepath.Join(dir, "report.md"), []byte(out.Report)); err != nil {
		return err
	}
	out.Outputs = append(out.Outputs, plots...)
	page, err := writeTournamentPage(dir, cfg, out, plots)
	if err != nil {
		return err
	}
	out.Outputs = append(out.Outputs, page)
	return nil
}

// writeTournamentPage writes report.html of a tournament: the rating table in words, the ratings
// plot, ratings.csv, pairings.csv and report.md (set-up and method).
func writeTournamentPage(dir string, cfg TournamentConfig, out *TournamentOutcome, plots []string) (string, error) {
	cfgJSON, hash, err := gamefile.HashConfig(cfg)
	if err != nil {
		return "", err
	}
	rep := &report.Report{Kind: "tournament", Title: fmt.Sprintf("%s tournament: %d agents", cfg.Game, len(cfg.Labels)),
		Facts: []report.Fact{{Name: "configuration", Value: string(cfgJSON)}, {Name: "configuration sha256", Value: hash}}}
	if t := out.Table; t != nil {
		for _, i := range t.Order() { // strongest first, as in the table
			r := t.Ratings[i]
			rep.Findings = append(rep.Findings, fmt.Sprintf("%s: %s (%d games, score %.3f)", r.Agent, ratingText(r, cfg.Prior, i == 0), r.Games, r.Score))
		}
		for _, c := range out.Curves {
			rep.Findings = append(rep.Findings, curveFinding(c))
		}
		res, _ := out.Results()
		if k := PerfectScores(res); k > 0 {
			rep.Warnings = append(rep.Warnings, perfectScoreWarning(k))
		}
		if w := adjacentWarning(cfg.Labels, out.Steps); w != "" {
			rep.Warnings = append(rep.Warnings, markdown.Plain(w)) // plain text on the page
		}
	}
	if err := rep.AddPlots(dir, plots); err != nil {
		return "", err
	}
	csvs := []struct{ file, caption string }{{"ratings.csv", "Ratings (ratings.csv)"}, {"pairings.csv", "Pairings (pairings.csv)"}}
	if len(out.Curves) > 0 {
		csvs = append(csvs, struct{ file, caption string }{"curve.csv", "Strength curves: the Elo each step of a budget bought (curve.csv)"})
	}
	for _, f := range csvs {
		if err := rep.AddCSV(dir, f.file, f.caption, 200); err != nil {
			return "", err
		}
	}
	if err := rep.AddMarkdownFile(dir, "report.md", "Set-up, method and tables (report.md)"); err != nil {
		return "", err
	}
	return report.WriteReportHTML(dir, rep)
}

// tournamentReport is report.md: the set-up, the method, the rating table and the pairings.
func tournamentReport(cfg TournamentConfig, res []stats.PairingResult, outcomes [][3]int64, out *TournamentOutcome) string {
	tab := out.Table
	var b strings.Builder
	kind := "round robin"
	if cfg.Gauntlet {
		kind = "gauntlet (the first agent against each other)"
	} else if cfg.Band > 0 {
		kind = fmt.Sprintf("band (each agent against the next %d of the list)", cfg.Band)
	}
	if cfg.Kind == CombinedKind {
		from, in := counted(len(cfg.Sources), "tournament", "tournaments"), "the tournaments"
		if cfg.Matches > 0 {
			from = counted(len(cfg.Sources)-cfg.Matches, "tournament", "tournaments") + " and " + counted(cfg.Matches, "match", "matches")
			in = "the tournaments and matches"
			if cfg.Matches == len(cfg.Sources) {
				from, in = counted(cfg.Matches, "match", "matches"), "the matches"
			}
		}
		fmt.Fprintf(&b, "## %s ratings from %s\n\n%d agents, %d pairings from %s in %s (see their report.md for their set-up), rules `%s`",
			cfg.Game, from, len(cfg.Agents), len(res), in, markdown.CodeList(cfg.Sources), report.RulesText(cfg.Rules))
	} else {
		fmt.Fprintf(&b, "## %s tournament: %s\n\n%d agents, %d pairings, %d games per pairing in colour-swapped pairs, seed %d, rules `%s`",
			cfg.Game, kind, len(cfg.Agents), len(res), cfg.Games, cfg.Seed, report.RulesText(cfg.Rules))
	}
	if cfg.RandomLayouts {
		b.WriteString(", a random tile placement per pair")
	} else if cfg.Layout != "" {
		fmt.Fprintf(&b, ", layout %s", cfg.Layout)
	}
	if cfg.RandomOpening > 0 {
		fmt.Fprintf(&b, ", first %d plies random", cfg.RandomOpening)
	}
	b.WriteString(".\n\nRatings: joint maximum likelihood, Bradley–Terry on the logistic Elo scale with a draw as half a win (Ordo's model), anchored at ")
	fmt.Fprintf(&b, "%s = 0", markdown.Code(cfg.Labels[0]))
	if cfg.Prior > 0 {
		fmt.Fprintf(&b, ", with %g virtual draw(s) added to every pairing", cfg.Prior)
	}
	if cfg.Bootstrap > 0 {
		fmt.Fprintf(&b, "; 95%% intervals: bootstrap percentiles over %d resamples of the colour-swapped pairs within each pairing (seed %d)", cfg.Bootstrap, cfg.Seed)
		if tab.Failed > 0 {
			fmt.Fprintf(&b, ", %d resamples without finite ratings left out", tab.Failed)
		}
	}
	b.WriteString(".\n")
	if k := PerfectScores(res); k > 0 {
		fmt.Fprintf(&b, "\nWarning: %s\n", perfectScoreWarning(k))
	}
	if w := adjacentWarning(cfg.Labels, out.Steps); w != "" {
		fmt.Fprintf(&b, "\nWarning: %s\n", w)
	}
	var games int64
	for _, p := range res {
		games += 2 * p.Penta.Pairs()
	}
	fmt.Fprintf(&b, "\n%d games, %d distinct (same start, layout, first colour and moves counted once).\n", games, out.DistinctTotal)
	rt := markdown.NewTable("rank", "agent", "Elo", "95% interval", "games", "distinct games", "score").Right(0, 2, 4, 5, 6)
	for k, i := range tab.Order() {
		r := tab.Ratings[i]
		elo := fmt.Sprintf("%+.0f", r.Elo)
		if r.Unbounded != 0 {
			elo += " (prior)"
		}
		rt.Row(k+1, markdown.Code(r.Agent), elo, ratingInterval(r), r.Games, out.Distinct[i], fmt.Sprintf("%.3f", r.Score))
	}
	b.WriteString("\n" + rt.String())
	pt := markdown.NewTable("A", "B", "games", "A wins / draws / B wins", "A score", "model score", "Elo A−B (pairing alone)").Right(2, 4, 5)
	for k, p := range res {
		e := p.Penta.Elo()
		s, _ := p.Penta.ScoreVar()
		pt.Row(markdown.Code(cfg.Labels[p.A]), markdown.Code(cfg.Labels[p.B]), 2*p.Penta.Pairs(),
			fmt.Sprintf("%d / %d / %d", outcomes[k][0], outcomes[k][1], outcomes[k][2]), fmt.Sprintf("%.3f", s),
			fmt.Sprintf("%.3f", stats.Expected(tab.Ratings[p.A].Elo, tab.Ratings[p.B].Elo)),
			stats.FormatElo(e))
	}
	b.WriteString("\n" + pt.String())
	fmt.Fprintf(&b, "\nSteps between agents next to each other in the ratings (a step is measured when the two played each other and the upper scored %g–%g, or both scored so against a common opponent, and the gap moves by at most %.0f%% (or %g Elo) when the prior is halved):\n\n", SweepLow, SweepHigh, 100*PriorShare, PriorFloor)
	b.WriteString(adjacentTable(cfg.Labels, out.Steps))
	if len(out.Curves) > 0 {
		b.WriteString("\n" + curveSection(out.Curves))
	}
	return b.String()
}

// listEntries are ratings.csv's rating-list columns: each agent's spec with every parameter
// and fingerprint from the manifest's pins (out.Pins, matched by canonical spec), its
// versioned entry name, and the step to the agent rated next below.
func listEntries(cfg TournamentConfig, out *TournamentOutcome) []tally.ListEntry {
	list := make([]tally.ListEntry, len(cfg.Agents))
	for i, spec := range cfg.Agents {
		e := tally.ListEntry{Game: cfg.Game, Entry: cfg.Labels[i], Anchor: i == 0, ScoreBelow: math.NaN(), GapBelow: math.NaN(), GapHalf: math.NaN()}
		for _, p := range out.Pins {
			if p.Spec == spec && p.Game == cfg.Game {
				e.Spec, e.Fingerprint = p.Expanded, p.Fingerprint
			}
		}
		if fp, ok := strings.CutPrefix(e.Fingerprint, "v1:"); ok && len(fp) >= 12 {
			e.Entry += "@" + fp[:12]
		}
		list[i] = e
	}
	for _, s := range out.Steps {
		e := &list[s.Upper]
		e.Below, e.GamesBelow, e.ScoreBelow, e.GapBelow, e.GapHalf = cfg.Labels[s.Lower], s.Games, s.Score, s.Gap, s.GapHalfPrior
		e.Sweep, e.PriorSet = s.Sweep, s.PriorSet
		if s.Via >= 0 {
			e.Via = cfg.Labels[s.Via]
		}
	}
	return list
}

// PerfectScoreWarning is the reports' sentence on k > 0 pairings that ended with a perfect
// score: the ratings those gaps set come from the prior; a rating with no finite estimate gets no
// interval (ratingInterval), and a bootstrap, which cannot vary a perfect score, gives the
// others intervals that leave out the uncertainty of those gaps.
func PerfectScoreWarning(k int) string {
	return fmt.Sprintf("%d rating pairing(s) ended with a perfect score: those gaps are set by the prior (lower bounds), not measured; a rating with no finite estimate is marked as set by the prior and has no interval, and the intervals of the others leave out the uncertainty of those gaps.", k)
}

// PerfectScores counts the pairings one side won (or lost) entirely.
func PerfectScores(res []stats.PairingResult) int {
	k := 0
	for _, p := range res {
		if n := p.Penta.Pairs(); n > 0 && (p.Penta[0] == n || p.Penta[4] == n) {
			k++
		}
	}
	return k
}

// ratingInterval is a rating's bootstrap interval, "" without a bootstrap, and none for a
// rating with no finite estimate (a bootstrap of perfect scores does not vary).
func ratingInterval(r stats.Rating) string {
	switch {
	case r.Unbounded != 0:
		return "none (perfect scores)"
	case math.IsNaN(r.Low):
		return ""
	}
	return fmt.Sprintf("[%+.0f, %+.0f]", r.Low, r.High)
}

// unboundedWords says why a rating with no finite estimate has none.
func unboundedWords(side int) string {
	if side > 0 {
		return "every game between its side of the table and the anchor's went its side's way, so its gap above the anchor has no finite estimate"
	}
	return "every game between its side of the table and the anchor's went the anchor's way, so its gap below the anchor has no finite estimate"
}

// ratingText states a rating in words: "+418 Elo [+380, +455] (95% bootstrap over pairs)"; for
// a rating that perfect scores leave without a finite estimate, the value the prior sets and
// that it is no measurement; for the anchor, that it is the anchor.
func ratingText(r stats.Rating, prior float64, anchor bool) string {
	if anchor {
		return "0 Elo: the anchor, every rating is relative to it"
	}
	if r.Unbounded != 0 {
		return fmt.Sprintf("%+.0f Elo, set by the prior (%g virtual draw(s) per pairing), not measured: %s, and has no interval", r.Elo, prior, unboundedWords(r.Unbounded))
	}
	if math.IsNaN(r.Low) {
		return fmt.Sprintf("%+.0f Elo (no bootstrap: no interval)", r.Elo)
	}
	return fmt.Sprintf("%+.0f Elo [%+.0f, %+.0f] (95%% bootstrap over pairs)", r.Elo, r.Low, r.High)
}

// perfectScoreWarning is the warning of a tournament with k pairings won or lost entirely.
func perfectScoreWarning(k int) string {
	return fmt.Sprintf("%d pairing(s) ended with a perfect score: a rating gap across one has no finite estimate; the fit's value for it is set by the prior, and the bootstrap, which cannot vary a perfect score, gives it no honest interval (such ratings are marked; the pairing's own Elo is a one-sided bound).", k)
}

// counted is n and the noun for n: "1 match", "2 matches".
func counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
