package tally

import (
	"fmt"
	"io"
	"strings"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"
)

// WriteRatingsCSV writes ratings.csv: agent, elo, ci_low, ci_high, games, score, in rating
// order (strongest first), with distinct_games when distinct is not nil (one count per agent,
// in the agents' order). A rating that perfect scores leave without a finite estimate
// (stats.Rating.Unbounded) has empty ci_low and ci_high (stats.Ratings gives it none): its elo
// is set by the prior, and a bootstrap of perfect scores does not vary it.
func WriteRatingsCSV(w io.Writer, t *stats.RatingTable, distinct []int64) error {
	return WriteRatingListCSV(w, t, distinct, nil)
}

// ListEntry is what a rating list adds to an agent's row of ratings.csv: which agent played
// (its spec with every parameter and the fingerprint of its play, so that an agent whose play
// changes is another entry) and the step to the agent rated next below it.
type ListEntry struct {
	Game        string
	Entry       string // the versioned name: the label, "@" and the fingerprint's first 12 hex digits
	Spec        string // every parameter (agents.Expand)
	Fingerprint string // "" for an agent that cannot be pinned (an external program)
	Anchor      bool
	Below       string  // the label of the agent rated next below ("" for the last)
	GamesBelow  int64   // games against it (0: never paired)
	Via         string  // never paired: a common opponent both scored 0.25–0.75 against ("" for none)
	ScoreBelow  float64 // the score in those games (NaN when never paired)
	GapBelow    float64 // the Elo gap to it (NaN for the last)
	GapHalf     float64 // the same gap fitted with half the prior (NaN without a prior)
	Sweep       bool    // the score is outside 0.25–0.75
	PriorSet    bool    // the gap moves by more than a tenth when the prior is halved
}

// WriteRatingListCSV is WriteRatingsCSV with, when list is not nil (one entry per agent, in
// the agents' order), the columns of a rating list after distinct_games: game, entry, spec,
// fingerprint, anchor, below, games_vs_below, score_vs_below, via, gap_below,
// gap_below_half_prior, sweep, prior_set (docs/formats.md).
func WriteRatingListCSV(w io.Writer, t *stats.RatingTable, distinct []int64, list []ListEntry) error {
	var b strings.Builder
	b.WriteString("agent,elo,ci_low,ci_high,games,score")
	if distinct != nil {
		b.WriteString(",distinct_games")
	}
	if list != nil {
		b.WriteString(",game,entry,spec,fingerprint,anchor,below,games_vs_below,score_vs_below,via,gap_below,gap_below_half_prior,sweep,prior_set")
	}
	b.WriteString("\n")
	for _, i := range t.Order() {
		r := t.Ratings[i]
		fmt.Fprintf(&b, "%s,%s,%s,%s,%d,%s", csvField(r.Agent), stats.FormatFloat(r.Elo), stats.FormatFloat(r.Low), stats.FormatFloat(r.High), r.Games, stats.FormatFloat(r.Score))
		if distinct != nil {
			fmt.Fprintf(&b, ",%d", distinct[i])
		}
		if list != nil {
			e := list[i]
			fmt.Fprintf(&b, ",%s,%s,%s,%s,%t,%s,%d,%s,%s,%s,%s,%t,%t", csvField(e.Game), csvField(e.Entry), csvField(e.Spec), csvField(e.Fingerprint),
				e.Anchor, csvField(e.Below), e.GamesBelow, stats.FormatFloat(e.ScoreBelow), csvField(e.Via), stats.FormatFloat(e.GapBelow), stats.FormatFloat(e.GapHalf), e.Sweep, e.PriorSet)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WritePairingsCSV writes pairings.csv: per pairing, the games, A's wins, draws and B's wins,
// A's score, the pentanomial pair counts, the pairing's own Elo difference with its 95%
// interval (pentanomial), and the score the fitted ratings expect.
func WritePairingsCSV(w io.Writer, names []string, res []stats.PairingResult, outcomes [][3]int64, t *stats.RatingTable) error {
	var b strings.Builder
	b.WriteString("a,b,games,a_wins,draws,b_wins,a_score,pairs_0,pairs_1,pairs_2,pairs_3,pairs_4,elo_diff,elo_low,elo_high,model_score\n")
	for k, p := range res {
		s, g := p.Points()
		e := p.Penta.Elo()
		fmt.Fprintf(&b, "%s,%s,%d,%d,%d,%d,%s", csvField(names[p.A]), csvField(names[p.B]), int64(g),
			outcomes[k][0], outcomes[k][1], outcomes[k][2], stats.FormatFloat(s/g))
		for _, c := range p.Penta {
			fmt.Fprintf(&b, ",%d", c)
		}
		fmt.Fprintf(&b, ",%s,%s,%s,%s\n", stats.FormatFloat(e.Value), stats.FormatFloat(e.Low), stats.FormatFloat(e.High),
			stats.FormatFloat(stats.Expected(t.Ratings[p.A].Elo, t.Ratings[p.B].Elo)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// csvField quotes a field as games.csv does (agent specs hold commas).
func csvField(s string) string { return string(gamefile.AppendCSVField(nil, s)) }
