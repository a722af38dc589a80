package tally

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"
)

// SummaryJSON is summary.json: every statistic with its interval and method, the run's
// configuration and its counts, for programs that would rather not parse summary.csv.
type SummaryJSON struct {
	Title      string           `json:"title"`
	Status     string           `json:"status"`
	Config     json.RawMessage  `json:"config,omitempty"`
	Counts     map[string]int64 `json:"counts"`
	Statistics []StatJSON       `json:"statistics"`
	Findings   []string         `json:"findings,omitempty"`
	Warnings   []string         `json:"warnings,omitempty"`
}

// StatJSON is one statistic; absent bounds and non-finite values are null.
type StatJSON struct {
	Name   string   `json:"statistic"`
	Value  *float64 `json:"value"`
	Low    *float64 `json:"ci_low"`
	High   *float64 `json:"ci_high"`
	Method string   `json:"method"`
	N      int64    `json:"n"`
}

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// NewSummaryJSON builds summary.json from a summary and the run's manifest (nil: no config).
func NewSummaryJSON(title string, s *Summary, man *gamefile.Manifest) *SummaryJSON {
	sj := &SummaryJSON{Title: title, Counts: map[string]int64{
		"games": s.N, "first_wins": s.FirstWins, "second_wins": s.SecondWins, "draws": s.Draws,
		"caps": s.Caps, "forfeits": s.Forfeits, "pairs": s.Penta.Pairs()}}
	if man != nil {
		sj.Status, sj.Config = man.Status, man.Config
		sj.Counts["planned_games"] = man.Planned
	}
	for _, st := range s.Stats() {
		sj.Statistics = append(sj.Statistics, StatJSON{st.Name, finite(st.Value), finite(st.Low), finite(st.High), st.Method, st.N})
	}
	sj.Findings, sj.Warnings = PlayFindings(s, AVsB(man))
	return sj
}

// AVsB reports whether the match of a manifest is between two different agents (its
// configuration's "a" and "b" differ); false without a manifest.
func AVsB(man *gamefile.Manifest) bool {
	if man == nil {
		return false
	}
	var ab struct {
		A string `json:"a"`
		B string `json:"b"`
	}
	return json.Unmarshal(man.Config, &ab) == nil && ab.A != ab.B
}

// WriteSummaryJSON writes sj as summary.json in dir (atomically) and returns the file name.
func WriteSummaryJSON(dir string, sj *SummaryJSON) (string, error) {
	b, err := json.MarshalIndent(sj, "", "  ")
	if err != nil {
		return "", fmt.Errorf("summary.json: %w", err)
	}
	return "summary.json", gamefile.WriteFileAtomic(filepath.Join(dir, "summary.json"), append(b, '\n'))
}

// pct prints a rate as a percentage with its interval, rounded to what the interval supports:
// "44.6% [44.4%, 44.8%]".
func pct(iv stats.Interval) string {
	if math.IsNaN(iv.Value) {
		return "-"
	}
	v, lo, hi := stats.RoundCI(stats.Interval{Value: 100 * iv.Value, Low: 100 * iv.Low, High: 100 * iv.High})
	if math.IsNaN(iv.Low) {
		return v + "%"
	}
	return v + "% [" + lo + "%, " + hi + "%]"
}

// statByName returns the first statistic called name (the headline method), ok false if none.
func StatByName(rows []Stat, name string) (Stat, bool) {
	for _, st := range rows {
		if st.Name == name {
			return st, true
		}
	}
	return Stat{Interval: stats.Interval{Value: math.NaN(), Low: math.NaN(), High: math.NaN()}}, false
}

// PlayFindings states a match's headline results in words with their 95% intervals, taken
// from its statistics (so with the same methods as summary.csv) and rounded to what the
// intervals support, and the warnings a reader should see first: no games, caps, forfeits,
// repeated games, identical pairs. aVsB says the match is between two different agents: its
// finding on A against B then comes first (in self-play it is a check, and the first player's
// results lead).
func PlayFindings(s *Summary, aVsB bool) (findings, warnings []string) {
	if s.N == 0 {
		return nil, []string{"no games were played"}
	}
	rows := s.Stats()
	get := func(name string) Stat { st, _ := StatByName(rows, name); return st }
	fw, sw, dr := get("first_win_rate"), get("second_win_rate"), get("draw_rate")
	findings = append(findings, fmt.Sprintf("The first player won %s of %d games, the second %s; %s were drawn (95%% intervals, %s).",
		pct(fw.Interval), s.N, pct(sw.Interval), pct(dr.Interval), fw.Method))
	fs := get("first_score")
	verdict := "no first-player advantage can be told from these games"
	if fs.Low > 0.5 {
		verdict = "the first player is favoured"
	} else if fs.High < 0.5 {
		verdict = "the second player is favoured"
	}
	findings = append(findings, fmt.Sprintf("The first player's score (draws count ½) is %s (%s): %s.", ends(fs.Interval), fs.Method, verdict))
	if pairs := s.Penta.Pairs(); pairs > 0 {
		e := get("a_elo")
		ab := fmt.Sprintf("Agent A's Elo over agent B is %s from %d colour-swapped pairs (%s), LOS %.1f%%.",
			stats.FormatElo(e.Interval), pairs, e.Method, 100*s.Penta.LOS())
		if aVsB {
			findings = append([]string{ab}, findings...)
		} else {
			findings = append(findings, ab)
		}
	}
	d := get("duration_mean")
	findings = append(findings, fmt.Sprintf("Games last %s plies on average.", ends(d.Interval)))
	if dg, ok := StatByName(rows, "distinct_games"); ok {
		findings = append(findings, fmt.Sprintf("%.0f of the %d games examined are distinct move sequences.", dg.Value, dg.N))
		if w := s.DistinctWarning(); !w.IsZero() {
			warnings = append(warnings, strings.TrimPrefix(w.String(), "warning: "))
		}
	}
	if s.Caps > 0 {
		warnings = append(warnings, fmt.Sprintf("%d of %d games (%.1f%%) ended at the ply cap and count as draws.", s.Caps, s.N, 100*float64(s.Caps)/float64(s.N)))
	}
	if s.Forfeits > 0 {
		warnings = append(warnings, fmt.Sprintf("%d games were forfeited (an agent crashed, stalled or answered an illegal action).", s.Forfeits))
	}
	if p := s.Penta; p.Pairs() >= 20 {
		for _, c := range p {
			if d, n := s.Distinct(); c == p.Pairs() && d < n { // repeated games, not a perfect score alone
				warnings = append(warnings, "every pair scored the same: deterministic agents may repeat their games (start them from random openings).")
				break
			}
		}
	}
	return findings, warnings
}

// ends prints an estimate with its interval rounded to what the interval supports, "0.48
// [0.41, 0.54]", or says there is none (fewer than 2 pairs leave no variance estimate) rather
// than print "[NaN, NaN]".
func ends(iv stats.Interval) string {
	if math.IsNaN(iv.Low) || math.IsNaN(iv.High) {
		return stats.FormatShort(iv.Value) + " (no interval: fewer than 2 pairs)"
	}
	return stats.FormatCI(iv)
}
