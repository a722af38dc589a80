package tally

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"

	"github.com/fairplay-lab/fairplay/engine"
)

// Summary accumulates statistics over records given in game order, in memory that does not
// grow with the number of games (the length histogram grows only with the longest game, the
// running series is thinned to at most maxPoints points).
type Summary struct {
	Counters []string

	N                     int64
	FirstWins, SecondWins int64
	Draws, Caps, Forfeits int64
	AWins, BWins          int64
	// ForfeitsBy[0] counts agent a's forfeits, [1] agent b's, by reason (ForfeitReasons order).
	ForfeitsBy                 [2][len(ForfeitReasons)]int64
	Reasons                    [8]int64
	pliesSum, pliesSq          float64
	legalSum, legalSq, crossXY float64
	uncounted                  int64 // games whose legal actions were not counted (NotCounted)
	counterSum, counterSq      []float64
	totals                     []sideTotal
	Lengths                    []int64 // Lengths[k]: games of k plies
	CapPlies                   int     // the length of games ended by the ply cap (0: none was)
	Penta                      stats.Penta
	pendingPair                int64 // the pair of the first game whose partner has not come yet (-1: none)
	pendingScore               int   // that game's aScore
	clusters                   clustered

	// Running first-player results, for the convergence plot.
	Running []RunningPoint
	stride  int64
}

// sideTotal adds up a counter kept per side (captures_red + captures_black) for each game.
type sideTotal struct {
	name    string // the shared prefix, e.g. "captures"
	idx     []int  // the per-side counters
	sum, sq float64
}

// sideTotals groups counter names that differ only by a colour suffix, in first-seen order.
func sideTotals(counters []string) []sideTotal {
	var out []sideTotal
	for i, c := range counters {
		for _, suf := range []string{"_red", "_black", "_white"} {
			prefix, ok := strings.CutSuffix(c, suf)
			if !ok {
				continue
			}
			k := slices.IndexFunc(out, func(t sideTotal) bool { return t.name == prefix })
			if k < 0 {
				out = append(out, sideTotal{name: prefix})
				k = len(out) - 1
			}
			out[k].idx = append(out[k].idx, i)
		}
	}
	return slices.DeleteFunc(out, func(t sideTotal) bool { return len(t.idx) < 2 })
}

// RunningPoint is the first player's tally after N games.
type RunningPoint struct{ N, FirstWins, SecondWins, Draws int64 }

const maxPoints = 2000

// NewSummary starts an empty summary for a game's counter names.
func NewSummary(counters []string) *Summary {
	t := sideTotals(counters)
	return &Summary{Counters: counters, counterSum: make([]float64, len(counters)),
		counterSq: make([]float64, len(counters)), totals: t, stride: 1, pendingPair: -1, clusters: newClustered(len(counters), len(t))}
}

// ForfeitReasons are the values of Record.Forfeit, in the order of the summary rows.
var ForfeitReasons = [...]string{"timeout", "exit", "illegal", "protocol", "error"}

// Add adds one finished game. Games must come in increasing index order.
func (s *Summary) Add(r *gamefile.Record) { s.add(r, 0, false) }

// AddHashed is Add for a game whose DistinctHash h was computed already (by the worker that
// played it, off the single goroutine that feeds the summary): the same result as Add(r).
func (s *Summary) AddHashed(r *gamefile.Record, h uint64) { s.add(r, h, true) }

func (s *Summary) add(r *gamefile.Record, h uint64, hashed bool) {
	s.N++
	switch r.Winner {
	case "first":
		s.FirstWins++
	case "second":
		s.SecondWins++
	default:
		s.Draws++
	}
	switch r.WinnerAgent() {
	case "a":
		s.AWins++
	case "b":
		s.BWins++
	}
	if int(r.Reason) < len(s.Reasons) {
		s.Reasons[r.Reason]++
	}
	if r.Reason == engine.Cap {
		s.Caps++
		s.CapPlies = r.Plies
	}
	if r.Reason == engine.Forfeit {
		s.Forfeits++
		loser := 0 // agent a
		if r.WinnerAgent() == "a" {
			loser = 1
		}
		k := len(ForfeitReasons) - 1 // "error" for anything unknown
		for i, name := range ForfeitReasons {
			if r.Forfeit == name {
				k = i
			}
		}
		s.ForfeitsBy[loser][k]++
	}
	if r.LegalTotal == gamefile.NotCounted {
		s.uncounted++
	}
	p, l := float64(r.Plies), float64(max(r.LegalTotal, 0))
	s.pliesSum += p
	s.pliesSq += p * p
	s.legalSum += l
	s.legalSq += l * l
	s.crossXY += p * l
	for len(s.Lengths) <= r.Plies {
		s.Lengths = append(s.Lengths, 0)
	}
	s.Lengths[r.Plies]++
	for i, v := range r.Counters {
		if i < len(s.counterSum) {
			s.counterSum[i] += float64(v)
			s.counterSq[i] += float64(v) * float64(v)
		}
	}
	totals := s.clusters.totalsBuf[:0]
	for k := range s.totals {
		t := &s.totals[k]
		v := 0.0
		for _, i := range t.idx {
			if i < len(r.Counters) {
				v += float64(r.Counters[i])
			}
		}
		t.sum += v
		t.sq += v * v
		totals = append(totals, v)
	}
	s.clusters.totalsBuf = totals
	s.clusters.add(r, totals, h, hashed)
	s.addPair(r)
	if s.N%s.stride == 0 {
		s.Running = append(s.Running, RunningPoint{s.N, s.FirstWins, s.SecondWins, s.Draws})
		if len(s.Running) >= maxPoints {
			kept := s.Running[:0]
			for i, pt := range s.Running {
				if i%2 == 1 {
					kept = append(kept, pt)
				}
			}
			s.Running = kept
			s.stride *= 2
		}
	}
}

func aScore(r *gamefile.Record) int {
	switch r.WinnerAgent() {
	case "a":
		return 2
	case "b":
		return 0
	}
	return 1
}

func (s *Summary) addPair(r *gamefile.Record) {
	if r.Game%2 == 0 {
		s.pendingPair, s.pendingScore = r.Pair, aScore(r)
		return
	}
	if s.pendingPair >= 0 && s.pendingPair == r.Pair {
		s.Penta[s.pendingScore+aScore(r)]++
	}
	s.pendingPair = -1
}

// Stat is one row of summary.csv.
type Stat struct {
	Name string
	stats.Interval
	N int64 // the sample size behind it
}

// Stats returns every statistic with its interval and method. Rates, means and tests treat
// the two games of a colour-swapped pair as one cluster (method cluster-robust-pairs, never
// narrower than the independent-games interval); the rows whose name ends in _iid assume
// independent games and are kept for comparison. It sorts the distinct-games log in place, so,
// like Add, it must not run concurrently with any other use of the summary.
func (s *Summary) Stats() []Stat {
	n := s.N
	c := s.clusters.flushed()
	var out []Stat
	add := func(name string, iv stats.Interval, size int64) { out = append(out, Stat{name, iv, size}) }
	count := func(name string, v int64) {
		add(name, stats.Interval{Value: float64(v), Low: math.NaN(), High: math.NaN(), Method: "count"}, n)
	}
	count("games", n)
	count("pairs", c.rates[indFirst].K)
	add("distinct_games", stats.Interval{Value: float64(c.distinct()), Low: math.NaN(), High: math.NaN(), Method: MethodDistinct}, c.examined)
	count("first_wins", s.FirstWins)
	count("second_wins", s.SecondWins)
	count("draws", s.Draws)
	count("caps", s.Caps)
	count("forfeits", s.Forfeits)
	for i, ag := range []string{"a", "b"} {
		var total int64
		for _, c := range s.ForfeitsBy[i] {
			total += c
		}
		count("forfeits_"+ag, total)
		for k, c := range s.ForfeitsBy[i] {
			if c > 0 {
				count("forfeits_"+ag+"_"+ForfeitReasons[k], c)
			}
		}
	}
	add("first_win_rate", c.rates[indFirst].Rate(), n)
	add("first_win_rate_wilson_iid", stats.Wilson(s.FirstWins, n, stats.Z95), n)
	add("first_win_rate_clopper_pearson_iid", stats.ClopperPearson(s.FirstWins, n, 0.05), n)
	add("second_win_rate", c.rates[indSecond].Rate(), n)
	add("draw_rate", c.rates[indDraw].Rate(), n)
	decisive := s.FirstWins + s.SecondWins
	add("first_win_share_of_decisive", c.share.Rate(), decisive)
	add("first_win_p_value", c.shareTest(), decisive)
	add("first_win_p_value_exact_iid", stats.Interval{Value: stats.BinomTwoSided(s.FirstWins, decisive, 0.5), Low: math.NaN(), High: math.NaN(), Method: "exact-binomial-two-sided-vs-0.5-decisive-games"}, decisive)
	fs := s.firstScore()
	fsc := c.score.Mean((fs.High-fs.Value)/stats.Z95).Clip(0, 1) // a score lies in [0, 1]
	add("first_score", fsc, n)
	add("first_player_advantage", stats.Interval{Value: fsc.Value - 0.5, Low: fsc.Low - 0.5, High: fsc.High - 0.5, Method: "first_score-0.5 " + fsc.Method}, n)
	add("balance", s.balance(c), n)
	add("completion", c.rates[indComplete].Rate(), n)
	add("drawishness", c.rates[indDrawish].Rate(), n)
	add("cap_rate", c.rates[indCap].Rate(), n)
	add("forfeit_rate", c.rates[indForfeit].Rate(), n)
	for _, r := range reasonsOf(s.game()) {
		add("reason_"+r.String()+"_rate", c.rates[indReason0+int(r-engine.Throne)].Rate(), n)
	}
	add("duration_mean", nonNegative(c.plies.Mean(naiveSE(s.pliesSum, s.pliesSq, n))), n)
	add("duration_sd", c.sd.Interval(stats.SampleSD(s.pliesSum, s.pliesSq, n)), n)
	if s.uncounted == 0 {
		add("branching_mean", c.branching.Mean(0), n)
	} else { // not known: a blank value, not a mean over the counted games alone
		add("branching_mean", stats.Interval{Value: math.NaN(), Low: math.NaN(), High: math.NaN(), Method: MethodNotCounted}, n-s.uncounted)
	}
	for i, name := range s.Counters {
		add(name+"_mean", nonNegative(c.counters[i].Mean(naiveSE(s.counterSum[i], s.counterSq[i], n))), n)
	}
	for i, t := range s.totals {
		add(t.name+"_mean", nonNegative(c.totals[i].Mean(naiveSE(t.sum, t.sq, n))), n)
	}
	if pairs := s.Penta.Pairs(); pairs > 0 {
		for i, c := range s.Penta {
			add(fmt.Sprintf("pairs_a_score_%s", []string{"0", "0.5", "1", "1.5", "2"}[i]), stats.Interval{Value: float64(c), Low: math.NaN(), High: math.NaN(), Method: "count"}, pairs)
		}
		sc, v := s.Penta.ScoreVar()
		se := math.Sqrt(v / float64(pairs))
		score := stats.Interval{Value: sc, Low: sc - stats.Z95*se, High: sc + stats.Z95*se, Method: "pentanomial"}.Clip(0, 1)
		if iv, ok := s.Penta.PerfectScore(); ok { // the normal interval would be [1, 1]
			score = iv
		} else if iv, ok := s.Penta.EqualPairs(); ok { // or [½, ½] when every pair split
			score = iv
		}
		add("a_score", score, pairs)
		add("a_elo", s.Penta.Elo(), pairs)
		add("a_nelo", s.Penta.NElo(), pairs)
		add("a_los", stats.Interval{Value: s.Penta.LOS(), Low: math.NaN(), High: math.NaN(), Method: "pentanomial-normal"}, pairs)
	}
	return out
}

// nonNegative cuts a mean's interval at 0: the mean of counts or lengths cannot be negative, and
// a normal interval reaching below 0 (rare events over few games) has that part outside the
// parameter space. Truncating it to the parameter space keeps its coverage (the true mean is
// never in the part removed) and only removes impossible values (Mandelkern 2002, "Setting
// confidence intervals for bounded parameters", Statistical Science 17(2)).
func nonNegative(iv stats.Interval) stats.Interval {
	if iv.Low < 0 {
		iv.Low = 0
	}
	return iv
}

// naiveSE is the standard error of a mean that treats the n values as independent.
func naiveSE(sum, sumSq float64, n int64) float64 {
	if n < 2 {
		return 0
	}
	return stats.SampleSD(sum, sumSq, n) / math.Sqrt(float64(n))
}

// firstScore is the first player's mean score (draw ½) with a normal interval from the
// trinomial variance.
func (s *Summary) firstScore() stats.Interval {
	n := float64(s.N)
	if n == 0 {
		return stats.Interval{Value: math.NaN(), Low: math.NaN(), High: math.NaN(), Method: "trinomial-normal"}
	}
	w, d := float64(s.FirstWins)/n, float64(s.Draws)/n
	m := w + d/2
	v := w + d/4 - m*m
	se := math.Sqrt(math.Max(v, 0) / n)
	return stats.Interval{Value: m, Low: m - stats.Z95*se, High: m + stats.Z95*se, Method: "trinomial-normal"}
}

// balance is Ludii's Balance for two players, 1 − |P(first wins) − P(second wins)|, with an
// interval from the difference's standard error (the larger of the pair-clustered and the
// multinomial delta-method one); the upper end is 1 when the difference's interval contains 0.
func (s *Summary) balance(c *clustered) stats.Interval {
	n := float64(s.N)
	if n == 0 {
		return stats.Interval{Value: math.NaN(), Low: math.NaN(), High: math.NaN(), Method: stats.MethodClusterPairs}
	}
	p1, p2 := float64(s.FirstWins)/n, float64(s.SecondWins)/n
	d := p1 - p2
	se := math.Sqrt(math.Max(p1+p2-d*d, 0) / n)
	if cs := c.diff.SE(); cs > se {
		se = cs
	}
	lo, hi := d-stats.Z95*se, d+stats.Z95*se
	var bl, bh float64
	switch {
	case lo > 0:
		bl, bh = 1-hi, 1-lo
	case hi < 0:
		bl, bh = 1+lo, 1+hi
	default:
		bl, bh = 1-math.Max(-lo, hi), 1
	}
	return stats.Interval{Value: 1 - math.Abs(d), Low: math.Max(0, bl), High: math.Min(1, bh), Method: stats.MethodClusterPairs}
}

// MethodNotCounted is the method of branching_mean when the games' legal actions were not
// counted (MatchConfig.NoBranching): its value and interval are blank.
const MethodNotCounted = "not-counted"

// WriteSummaryCSV writes summary.csv: statistic, value, ci_low, ci_high, method, n. Every value
// is a number (FormatFloat): a p-value that underflowed is 0 here, and "<1e-300" only in text.
func WriteSummaryCSV(w io.Writer, rows []Stat) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"statistic", "value", "ci_low", "ci_high", "method", "n"})
	for _, st := range rows {
		cw.Write([]string{st.Name, stats.FormatFloat(st.Value), stats.FormatFloat(st.Low), stats.FormatFloat(st.High), st.Method, strconv.FormatInt(st.N, 10)})
	}
	cw.Flush()
	return cw.Error()
}

// WriteTable prints the headline statistics as an aligned text table.
func WriteTable(w io.Writer, rows []Stat) {
	fmt.Fprintf(w, "%-34s %12s  %-25s %s\n", "statistic", "value", "95% interval", "method")
	for _, st := range rows {
		if st.Method == "count" && st.Name != "games" && st.Name != "pairs" {
			continue
		}
		v, iv := StatText(st)
		fmt.Fprintf(w, "%-34s %12s  %-25s %s\n", st.Name, v, iv, st.Method)
	}
}

func isPValue(name string) bool { return strings.Contains(name, "p_value") }

// StatText prints a statistic for people (terminal tables, reports; summary.csv keeps every
// digit): its value and "[low, high]" rounded to what the interval supports (stats.RoundCI),
// a one-sided bound as "≥ x" with "one-sided 95%" in place of the interval, a p-value below
// 1e-300 as "<1e-300", and "" for an interval it does not have.
func StatText(st Stat) (value, interval string) {
	if b, ok := stats.FormatBound(st.Interval, stats.FormatShort); ok {
		if st.Method == stats.OneSidedMethod { // an Elo bound: whole Elo
			b = stats.FormatElo(st.Interval)
		}
		bound, _, _ := strings.Cut(b, " (")
		return bound, "one-sided 95%"
	}
	if math.IsNaN(st.Low) && math.IsNaN(st.High) {
		if isPValue(st.Name) && st.Value < 1e-300 {
			return stats.FormatPValue(st.Value), ""
		}
		return stats.FormatShort(st.Value), ""
	}
	v, lo, hi := stats.RoundCI(st.Interval)
	return v, "[" + lo + ", " + hi + "]"
}
