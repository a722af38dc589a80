package gamefile

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/fairplay-lab/fairplay/stats"

	"gonum.org/v1/gonum/stat/distuv"
)

// BoardResult is the tally of the games played on one board of a layout sweep: a row of
// boards.csv. White moves first on every board.
type BoardResult struct {
	Board                         int64  // position in the sweep's board list
	Key                           string // the layout index, or the colour grid of a custom board
	Grid                          string
	N                             int64
	WhiteWins, BlackWins, Draws   int64
	Caps, AWins, BWins, PliesSum  int64
	FirstMoveCaptures, CampsWhite int64
	// The selection half: the games of even pairs (game j with (j/2) even). Selections ("the
	// fairest boards", Black's choice) are made on it and measured on the other half.
	NSelect, WhiteWinsSelect int64
	Distinct                 int64 // distinct games (move lists) on the board
}

var boardColumns = []string{"board", "key", "grid", "n", "white_wins", "black_wins", "draws", "caps",
	"a_wins", "b_wins", "plies_sum", "first_move_captures", "camps_white", "n_select", "white_wins_select", "distinct_games"}

// oldBoardColumns is the header of sweeps written before the selection half was recorded.
var oldBoardColumns = boardColumns[:13]

// BoardWriter writes boards.csv.
type BoardWriter struct{ w *csv.Writer }

// NewBoardWriter writes the header.
func NewBoardWriter(w io.Writer) *BoardWriter {
	bw := &BoardWriter{csv.NewWriter(w)}
	bw.w.Write(boardColumns)
	return bw
}

// Write writes one board.
func (b *BoardWriter) Write(r *BoardResult) error {
	f := func(v int64) string { return strconv.FormatInt(v, 10) }
	return b.w.Write([]string{f(r.Board), r.Key, r.Grid, f(r.N), f(r.WhiteWins), f(r.BlackWins), f(r.Draws),
		f(r.Caps), f(r.AWins), f(r.BWins), f(r.PliesSum), f(r.FirstMoveCaptures), f(r.CampsWhite), f(r.NSelect),
		f(r.WhiteWinsSelect), f(r.Distinct)})
}

// Flush flushes and reports write errors.
func (b *BoardWriter) Flush() error {
	b.w.Flush()
	return b.w.Error()
}

// BoardReader reads boards.csv.
type BoardReader struct {
	r    *csv.Reader
	end  rowEnds
	line int
}

// NewBoardReader checks the header.
func NewBoardReader(r io.Reader) (*BoardReader, error) {
	br := &BoardReader{line: 1}
	br.r = br.end.reader(r)
	h, err := br.r.Read()
	if err != nil {
		return nil, fmt.Errorf("boards.csv header: %w", err)
	}
	if j := strings.Join(h, ","); j != strings.Join(boardColumns, ",") && j != strings.Join(oldBoardColumns, ",") {
		return nil, fmt.Errorf("boards.csv header: not a fairplay layout sweep (its first line is not %s)", strings.Join(boardColumns[:min(3, len(boardColumns))], ",")+",...")
	}
	return br, nil
}

// Read returns the next board, or io.EOF.
func (b *BoardReader) Read() (*BoardResult, error) {
	row, err := b.r.Read()
	if err != nil {
		return nil, err
	}
	b.line++
	if b.end.torn() { // a row cut inside its last number would read as a smaller one
		return nil, fmt.Errorf("boards.csv line %d: %w", b.line, errTornRow)
	}
	r := &BoardResult{Key: row[1], Grid: row[2]}
	dst := []*int64{&r.Board, nil, nil, &r.N, &r.WhiteWins, &r.BlackWins, &r.Draws, &r.Caps, &r.AWins, &r.BWins,
		&r.PliesSum, &r.FirstMoveCaptures, &r.CampsWhite, &r.NSelect, &r.WhiteWinsSelect, &r.Distinct}
	for i, d := range dst[:len(row)] {
		if d == nil {
			continue
		}
		if *d, err = strconv.ParseInt(row[i], 10, 64); err != nil {
			return nil, fmt.Errorf("boards.csv line %d: column %s: %v", b.line, boardColumns[i], err)
		}
	}
	return r, nil
}

// WhiteRate returns White's win rate with its Wilson interval.
func (r *BoardResult) WhiteRate() stats.Interval { return stats.Wilson(r.WhiteWins, r.N, stats.Z95) }

// HeldOut returns White's win rate on the games outside the selection half, with its Wilson
// interval (the board's games are independent self-play draws or colour-swapped pairs, which
// the halves keep whole). Without a recorded selection half it is the whole board's rate.
func (r *BoardResult) HeldOut() stats.Interval {
	if r.NSelect == 0 {
		return r.WhiteRate()
	}
	return stats.Wilson(r.WhiteWins-r.WhiteWinsSelect, r.N-r.NSelect, stats.Z95)
}

// SelectRate is White's win rate on the selection half (the whole board without one).
func (r *BoardResult) SelectRate() float64 {
	if r.NSelect == 0 {
		return float64(r.WhiteWins) / float64(max(r.N, 1))
	}
	return float64(r.WhiteWinsSelect) / float64(r.NSelect)
}

// PValue is the exact two-sided binomial p-value of White's wins among decisive games against
// one half.
func (r *BoardResult) PValue() float64 {
	return stats.BinomTwoSided(r.WhiteWins, r.WhiteWins+r.BlackWins, 0.5)
}

// MethodEB names the empirical-Bayes shrunken board rates.
const MethodEB = "beta-binomial-eb-moments-morris-cap"

// ShrinkRates returns each board's White win rate shrunk towards the mean over boards by
// empirical Bayes: a Beta(α, β) prior for the boards' true rates, fitted by the method of
// moments (mean μ = Σw/Σn; between-board variance τ² = var(p̂) − mean(μ(1−μ)/n);
// α + β = μ(1−μ)/τ² − 1), and the Beta(α + w, β + n − w) posterior's mean with its central
// 95% interval (Efron & Morris 1975; Kleinman 1973 for the moments). Rankings by these rates
// do not reward a board for its sampling luck.
//
// The prior's weight α + β is capped so that the shrinkage factor B = (α+β)/(α+β+n) of a board
// of the harmonic-mean size n̄ is at most (k−3)/(k−1) for k boards — Morris's truncation of
// the James–Stein shrinkage (C. Morris 1983, "Parametric empirical Bayes inference: theory and
// applications", JASA 78(381), §3), i.e. α + β ≤ n̄(k−3)/2. An estimate τ² ≤ 0 (frequent with
// few games a board, whatever the true spread) used to give a prior of weight 1e9 and intervals
// 6e-5 wide: it now gets the cap, whose intervals keep the uncertainty of the pooled rate and
// of the spread. With fewer than 4 boards nothing is shrunk (each board's Wilson interval).
func ShrinkRates(boards []BoardResult) []stats.Interval {
	out := make([]stats.Interval, len(boards))
	sh := FitShrink(len(boards), func(i int) (int64, int64) { return boards[i].WhiteWins, boards[i].N })
	for i := range boards {
		out[i] = sh.Rate(boards[i].WhiteWins, boards[i].N)
	}
	return out
}

// Shrink is the fitted Beta prior of ShrinkRates.
type Shrink struct {
	a0, b0 float64
	k      float64 // boards
	none   bool    // too few boards: each board keeps its own rate
	deff   float64 // design effect: a board of n games counts as n/deff trials (FitDeff)
}

// FitShrink fits ShrinkRates' prior to n boards, board i having w of n games won by White.
func FitShrink(nb int, board func(i int) (w, n int64)) Shrink {
	var f ShrinkFitter
	for i := 0; i < nb; i++ {
		f.First(board(i))
	}
	for i := 0; i < nb; i++ {
		f.Second(board(i))
	}
	return f.Fit()
}

// ShrinkFitter fits ShrinkRates' prior in two passes over boards streamed in order (from
// disk: no slice of them is needed): First for every board, then Second for every board in
// the same order, then Fit. The result is FitShrink's, bit for bit.
type ShrinkFitter struct {
	w, n, k, mean float64
	inv           float64 // Σ 1/n over boards
	ss, noise     float64
	chi           float64 // Pearson's homogeneity statistic at design effect 1
}

// First adds a board (w of n games won by White) to the first pass: the pooled rate and the
// mean rate.
func (f *ShrinkFitter) First(w, n int64) {
	if n > 0 {
		f.w += float64(w)
		f.n += float64(n)
		f.k++
		f.mean += float64(w) / float64(n)
		f.inv += 1 / float64(n)
	}
}

func (f *ShrinkFitter) none() bool { return f.k < 4 || f.n == 0 }

// Second adds a board to the second pass: the spread of the rates and the sampling noise.
func (f *ShrinkFitter) Second(w, n int64) {
	if n <= 0 || f.none() {
		return
	}
	mu, mean := f.w/f.n, f.mean/f.k
	p := float64(w) / float64(n)
	f.ss += (p - mean) * (p - mean)
	f.noise += mu * (1 - mu) / float64(n)
	if mu > 0 && mu < 1 {
		f.chi += float64(n) * (p - mu) * (p - mu) / (mu * (1 - mu))
	}
}

// Spread is how far the boards' true rates spread once their games' noise is taken out, and
// whether they differ at all beyond that noise.
type Spread struct {
	// SD is the boards' true rates' standard deviation by the method of moments: the variance
	// of the rates over boards (divisor k − 1) less their mean sampling variance μ(1−μ)/n·deff,
	// 0 when the noise explains it all. A point estimate (Kleinman 1973's moments, without
	// Morris's k − 3, which suits the shrinkage factor but overstates the spread by (k−1)/(k−3)).
	SD float64
	// Chi2 is Pearson's homogeneity statistic of the k boards' counts, Σ n_i(p̂_i − μ)²/(μ(1−μ)),
	// the χ² of the k×2 table of White's wins and non-wins, divided by deff; DF = k − 1 and P
	// its upper tail (Cochran 1954, "Some methods for strengthening the common χ² tests",
	// Biometrics 10(4), §3, the binomial dispersion test): a small P says the boards' rates
	// differ beyond their games' noise.
	Chi2 float64
	DF   int
	P    float64
}

// SpreadDeff returns the Spread of the boards after both passes, their games counted at
// design effect deff (1 for independent games); ok is false with fewer than 4 boards, or when
// White won every game or none.
func (f *ShrinkFitter) SpreadDeff(deff float64) (sp Spread, ok bool) {
	mu := f.w / math.Max(f.n, 1)
	if f.none() || mu <= 0 || mu >= 1 {
		return Spread{}, false
	}
	sp.SD = math.Sqrt(math.Max(0, f.ss/(f.k-1)-f.noise*deff/f.k))
	sp.Chi2, sp.DF = f.chi/deff, int(f.k)-1
	sp.P = distuv.ChiSquared{K: f.k - 1}.Survival(sp.Chi2)
	return sp, true
}

// Moments returns, after both passes, the mean of the boards' true rates (the pooled rate) and
// their variance between boards by the method of moments (the spread of the rates less their
// sampling noise, Morris's k−3; 0 when the noise explains it all); ok is false with fewer than 4
// boards.
func (f *ShrinkFitter) Moments() (mu, tau2 float64, ok bool) { return f.MomentsDeff(1) }

// MomentsDeff is Moments with the sampling noise of boards at design effect deff (FitDeff).
func (f *ShrinkFitter) MomentsDeff(deff float64) (mu, tau2 float64, ok bool) {
	if f.none() {
		return 0, 0, false
	}
	return f.w / f.n, math.Max(0, f.ss/(f.k-3)-f.noise*deff/f.k), true
}

// Fit returns the prior after both passes.
func (f *ShrinkFitter) Fit() Shrink { return f.FitDeff(1) }

// FitDeff is Fit for boards whose games are not independent trials: a board of n games counts
// as n/deff trials (the effective sample size of Kish's design effect; Rao & Scott 1992,
// Biometrics 48(2), for the binomial likelihood at the counts divided by it), in the sampling
// noise the spread between boards is corrected by, in Morris's cap and in each board's
// posterior. Games played in colour-swapped pairs have deff 1 + ρ for a correlation ρ within a
// pair (stats.PairDeff estimates it). deff 1 is Fit, bit for bit.
func (f *ShrinkFitter) FitDeff(deff float64) Shrink {
	if f.none() {
		return Shrink{none: true, deff: deff}
	}
	mu, k := f.w/f.n, f.k
	tau2 := f.ss/(k-3) - f.noise*deff/k   // Morris's k−3: B̂ = (k−3)V/S
	m := k / (f.inv * deff) * (k - 3) / 2 // α + β at Morris's cap B ≤ (k−3)/(k−1), n̄ the harmonic mean
	if tau2 > 0 && mu > 0 && mu < 1 {
		m = math.Min(m, math.Max(mu*(1-mu)/tau2-1, 1e-3))
	}
	return Shrink{a0: math.Max(mu*m, 1e-9), b0: math.Max((1-mu)*m, 1e-9), k: k, deff: deff}
}

// NoShrink leaves every board its own rate, with the Wilson interval at the effective n/deff:
// for boards whose design effect is not known well enough to shrink them by.
func NoShrink(deff float64) Shrink { return Shrink{none: true, deff: deff} }

// Rate is the shrunken rate of a board with w of n games won by White.
func (s Shrink) Rate(w, n int64) stats.Interval {
	deff := s.deff
	if deff == 0 {
		deff = 1 // a zero Shrink
	}
	if s.none && deff == 1 {
		iv := stats.Wilson(w, n, stats.Z95)
		iv.Method = MethodEB
		return iv
	}
	if s.none {
		return stats.WilsonDeff(w, n, deff, stats.Z95, MethodEB)
	}
	a, bb := s.a0+float64(w)/deff, s.b0+float64(n-w)/deff
	mean := a / (a + bb)
	// Morris's (1983, eq. 3.7) variance for the plug-in prior: V(1 − (k−1)/k·B) for the
	// estimated mean, plus 2/(k−3)·B²(p̂ − μ)² for the estimated shrinkage, V = μ(1−μ)/n,
	// B = (α+β)/(α+β+n), n the effective n/deff; the interval is the Beta with the posterior mean
	// and that variance.
	mu, m, nf := s.a0/(s.a0+s.b0), s.a0+s.b0, float64(n)/deff
	if nf > 0 && mu > 0 && mu < 1 {
		v, b, d := mu*(1-mu)/nf, m/(m+nf), float64(w)/float64(n)-mu
		v = v*(1-(s.k-1)/s.k*b) + 2/(s.k-3)*b*b*d*d
		if c := mean*(1-mean)/v - 1; c > 0 && mean > 0 && mean < 1 {
			a, bb = mean*c, (1-mean)*c
		}
	}
	post := distuv.Beta{Alpha: a, Beta: bb}
	return stats.Interval{Value: mean, Low: post.Quantile(0.025), High: post.Quantile(0.975), Method: MethodEB}
}
