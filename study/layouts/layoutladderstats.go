package layouts

import (
	"math"
	"os"
	"path/filepath"
	"sort"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"
	"github.com/fairplay-lab/fairplay/tally"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/internal/config"
)

// LadderBootstrap is the number of bootstrap resamples (over layouts) for the rank
// correlations of a layout ladder and of a sweep compared with another (compare.csv).
const LadderBootstrap = 1000

// minIntervalLayouts is the fewest layouts whose rank correlations get a bootstrap interval:
// with fewer, a percentile interval over so few clusters is too narrow to mean anything.
const minIntervalLayouts = 10

// The rank correlations of a ladder's level, in the order measures computes them.
const (
	mPrev = iota
	mCompare
	mCeiling
	mPrevCorrected
	mCompareCorrected
	nMeasures
)

// The methods of the ladder's rank-correlation intervals: bootstrap percentile intervals over
// layouts (layoutClusters).
const (
	methodSpearman  = "spearman-bootstrap-layouts"
	methodCorrected = "spearman-reliability-corrected-bootstrap-layouts"
)

// LadderLevel is one row of ladder.csv: a level's rating, its sweep's headline figures and how
// its board ranking relates to the previous level's, to a reference sweep's and to its own
// replicate's.
type LadderLevel struct {
	Level                int // 0-based
	Agent                string
	Elo, EloLow, EloHigh float64 // NaN when not rated; no interval when EloPrior
	EloPrior             bool    // the rating has no finite estimate: set by the prior (stats.Rating.Unbounded)
	EloGroup             int     // the level's group of measured rating gaps (stats.Rating.Group; 0 for a rating list)
	Boards               int
	Games, Distinct      int64 // over all replicates
	// White is White's win rate pooled over boards and replicates, clustered by board.
	White stats.Interval
	SD    float64 // standard deviation of the boards' White rates (first replicate)
	// Prev, Compare and Ceiling are Spearman rank correlations of the boards' White rates
	// (first replicate) with the previous level's (first replicate), with the reference
	// sweep's, and with the level's second replicate (the noise ceiling); NaN where there is
	// none. Their intervals, as those of the corrected ones, are bootstrap percentile
	// intervals over layouts (a layout's seatings drawn together: layoutClusters).
	Prev, Compare, Ceiling stats.Interval
	// PrevCorrected and CompareCorrected divide Prev and Compare by the square root of the
	// product of the two measurements' reliabilities (replicate correlations; the reference's
	// split-half correlation stepped up by Spearman–Brown).
	PrevCorrected, CompareCorrected stats.Interval
	// Black's choice of seating, chosen on the selection half of each board's games and
	// measured on the held-out half, averaged over replicates: mean |White − ½| as dealt and
	// after the choice over Choices choices, and the benefit (dealt − chosen) with a normal
	// interval over choices.
	Choices        int
	Dealt, Chosen  float64
	Benefit        stats.Interval
	TopWhite       stats.Interval // the held-out top list's pooled held-out rate, clustered by board
	TopDistance    float64        // its mean held-out |White − ½|
	AllDistance    float64        // the same over every board
	TopInsideBand  int            // top-list boards whose held-out interval lies inside the band
	CompareMissing int            // boards the reference sweep did not play
	RatedAs        string         // the rating's agent: the level's label, or the rating list's entry
	whiteSE        float64        // White's pooled rate's cluster-robust standard error
}

// TopBoard is a row of fair-at-every-level.csv.
type TopBoard struct {
	Board          int
	Key, Layout    string
	SelectDistance float64          // max over levels and replicates of |selection-half White rate − ½|
	HeldOut        []stats.Interval // per level: held-out White rate over the replicates, Wilson
	InsideAll      bool             // every level's held-out interval lies inside the band
}

// LadderStats are a finished ladder's findings.
type LadderStats struct {
	Levels             []LadderLevel
	Top                []TopBoard
	CompareReliability float64 // the reference sweep's split-half reliability (Spearman–Brown); NaN without
	CompareBoards      int     // boards in common with the reference
	Resamples          int     // bootstrap resamples with every correlation defined (of LadderBootstrap)
	// WhiteTrend and BenefitTrend are, when the levels are rated, the weighted least-squares
	// slopes per 100 Elo of White's edge (pooled rate − ½, its cluster-robust standard error)
	// and of Black's choice benefit on the level ratings (tally.FitTrend: weights 1/se², the
	// ratings' own uncertainty not propagated); Levels 0 without ratings.
	WhiteTrend, BenefitTrend tally.TrendFit
}

// compareBoards is a reference sweep's boards.csv by key.
type compareBoards struct {
	byKey map[string]gamefile.BoardResult
}

func readCompare(dir string) (*compareBoards, error) {
	f, err := os.Open(filepath.Join(dir, "boards.csv"))
	if err != nil {
		return nil, config.Errorf("Compare", dir, "%v (want the directory of a layouts sweep)", err)
	}
	defer f.Close()
	br, err := gamefile.NewBoardReader(f)
	if err != nil {
		return nil, config.Errorf("Compare", dir, "%v", err)
	}
	c := &compareBoards{byKey: map[string]gamefile.BoardResult{}}
	for b, err := range br.All() {
		if err != nil {
			return nil, config.Errorf("Compare", dir, "%v", err)
		}
		c.byKey[b.Key] = *b
	}
	return c, nil
}

// CheckLadderCompare makes sure dir holds a sweep's boards.csv that a ladder can compare with (Compare).
func CheckLadderCompare(dir string) error {
	_, err := readCompare(dir)
	return err
}

func rateOf(b gamefile.BoardResult) float64 { return float64(b.WhiteWins) / math.Max(1, float64(b.N)) }

// spearmanValue is the rank correlation alone (NaN when undefined).
func spearmanValue(x, y []float64) float64 { return stats.Spearman(x, y).Value }

// ladderStats derives the findings from the sweeps ([level][replicate]), the level ratings
// (nil when not rated) and the reference sweep (nil without one).
func ladderStats(cfg LayoutLadderConfig, sw *Sweep, levels [][]*LayoutsOutcome, ratings []stats.Rating, ref *compareBoards) *LadderStats {
	st := &LadderStats{CompareReliability: math.NaN()}
	nb := sw.NumBoards()
	L, R := len(levels), cfg.Replicates
	rates := make([][][]float64, L) // [level][replicate][board]
	for l := range levels {
		for r := 0; r < R; r++ {
			v := make([]float64, nb)
			for i := range v {
				v[i] = rateOf(levels[l][r].Boards.Counts(i))
			}
			rates[l] = append(rates[l], v)
		}
	}
	// The reference sweep on the boards it shares with the ladder.
	var common []int
	var refRate, refSel, refHeld []float64
	if ref != nil {
		for i := 0; i < nb; i++ {
			if b, ok := ref.byKey[levels[0][0].Boards.Key(i)]; ok && b.N > 0 {
				common = append(common, i)
				refRate = append(refRate, rateOf(b))
				refSel = append(refSel, b.SelectRate())
				refHeld = append(refHeld, b.HeldOut().Value)
			}
		}
		st.CompareBoards = len(common)
	}
	sb := func(r float64) float64 { return 2 * r / (1 + r) } // Spearman–Brown: two halves → whole
	if len(common) >= 4 && !math.IsNaN(refHeld[0]) {
		st.CompareReliability = sb(spearmanValue(refSel, refHeld))
	}
	all := make([]int, nb)
	for i := range all {
		all[i] = i
	}
	// The rank correlations of every level on the boards idx (refIdx: positions in common of
	// the reference's boards among them; nil when too few): plain with the previous level, the
	// reference and the replicate, and corrected for the noise of both sides.
	measures := func(idx, refIdx []int) [][nMeasures]float64 {
		out := make([][nMeasures]float64, L)
		rel := make([]float64, L)
		for l := 0; l < L; l++ {
			rel[l] = math.NaN()
			if R >= 2 {
				rel[l] = spearmanValue(pickK(rates[l][0], idx), pickK(rates[l][1], idx))
			}
		}
		relRef := math.NaN()
		if refIdx != nil {
			relRef = sb(spearmanValue(pickK(refSel, refIdx), pickK(refHeld, refIdx)))
		}
		for l := 0; l < L; l++ {
			m := &out[l]
			for k := range m {
				m[k] = math.NaN()
			}
			m[mCeiling] = rel[l]
			if l > 0 {
				m[mPrev] = spearmanValue(pickK(rates[l][0], idx), pickK(rates[l-1][0], idx))
				m[mPrevCorrected] = m[mPrev] / math.Sqrt(rel[l]*rel[l-1])
			}
			if refIdx != nil {
				x := make([]float64, len(refIdx))
				y := make([]float64, len(refIdx))
				for k, j := range refIdx {
					x[k], y[k] = refRate[j], rates[l][0][common[j]]
				}
				m[mCompare] = spearmanValue(x, y)
				m[mCompareCorrected] = m[mCompare] / math.Sqrt(rel[l]*relRef)
			}
		}
		return out
	}
	var refAll []int
	if len(common) >= 4 {
		refAll = make([]int, len(common))
		for k := range refAll {
			refAll[k] = k
		}
	}
	est := measures(all, refAll)
	// Bootstrap over layouts: a layout's boards (its two seatings, its symmetric placements)
	// are drawn together; the reference's common boards go along, by board.
	pos := make([]int, nb) // board → its index in common, or −1
	for i := range pos {
		pos[i] = -1
	}
	for k, i := range common {
		pos[i] = k
	}
	flat := func(m [][nMeasures]float64, out []float64) {
		for l := range m {
			copy(out[l*nMeasures:], m[l][:])
		}
	}
	estFlat := make([]float64, L*nMeasures)
	flat(est, estFlat)
	clusters := layoutClusters(sw)
	var idx, refIdx []int
	boot, resamples := bootstrapLayouts(len(clusters), engine.Derive(cfg.Sweep.Seed, 0x4c414444), estFlat, // "LADD"
		func(drawn []int, out []float64) {
			idx = clusterMembers(idx, clusters, drawn)
			refIdx = refIdx[:0]
			for _, i := range idx {
				if refAll != nil && pos[i] >= 0 {
					refIdx = append(refIdx, pos[i])
				}
			}
			ri := refIdx
			if refAll == nil || len(refIdx) < 4 {
				ri = nil
			}
			flat(measures(idx, ri), out)
		})
	st.Resamples = resamples
	top := ladderTopBoards(cfg, sw, levels)
	st.Top = top
	for l := range levels {
		lv := LadderLevel{Level: l, Agent: cfg.Labels[l], Elo: math.NaN(), EloLow: math.NaN(), EloHigh: math.NaN(), Boards: nb}
		if ratings != nil {
			lv.Elo, lv.EloLow, lv.EloHigh, lv.EloPrior, lv.EloGroup = ratings[l].Elo, ratings[l].Low, ratings[l].High, ratings[l].Unbounded != 0, ratings[l].Group
			lv.RatedAs = ratings[l].Agent
		}
		var pooled stats.ClusterRatio
		for i := 0; i < nb; i++ {
			var w, n int64
			for r := 0; r < R; r++ {
				b := levels[l][r].Boards.Counts(i)
				w, n = w+b.WhiteWins, n+b.N
			}
			if n > 0 {
				pooled.Add(float64(w), float64(n))
			}
		}
		lv.White = pooled.Rate()
		lv.White.Method = "cluster-robust-boards"
		lv.whiteSE = pooled.SE()
		for r := 0; r < R; r++ {
			lv.Games += levels[l][r].Report.Games
			lv.Distinct += levels[l][r].Report.Distinct
		}
		lv.SD = levels[l][0].Report.SDRate
		iv := func(k int, method string) stats.Interval {
			return percentileInterval(est[l][k], boot[l*nMeasures+k], method)
		}
		lv.Prev, lv.Compare, lv.Ceiling = iv(mPrev, methodSpearman), iv(mCompare, methodSpearman), iv(mCeiling, methodSpearman)
		lv.PrevCorrected, lv.CompareCorrected = iv(mPrevCorrected, methodCorrected), iv(mCompareCorrected, methodCorrected)
		if len(common) >= 4 {
			lv.CompareMissing = nb - len(common)
		}
		choiceBenefit(&lv, cfg, sw, levels[l])
		var tp stats.ClusterRatio
		for _, t := range top {
			var w, n int64
			for r := 0; r < R; r++ {
				b := levels[l][r].Boards.Counts(t.Board)
				w, n = w+b.WhiteWins-b.WhiteWinsSelect, n+b.N-b.NSelect
			}
			if n > 0 {
				tp.Add(float64(w), float64(n))
				lv.TopDistance += math.Abs(float64(w)/float64(n) - 0.5)
			}
			if iv := t.HeldOut[l]; iv.Low >= cfg.Sweep.BandLow && iv.High <= cfg.Sweep.BandHigh {
				lv.TopInsideBand++
			}
		}
		lv.TopWhite = tp.Rate()
		lv.TopWhite.Method = "cluster-robust-boards-held-out"
		lv.TopDistance /= math.Max(1, float64(len(top)))
		for i := 0; i < nb; i++ {
			var w, n int64
			for r := 0; r < R; r++ {
				b := levels[l][r].Boards.Counts(i)
				w, n = w+b.WhiteWins-b.WhiteWinsSelect, n+b.N-b.NSelect
			}
			lv.AllDistance += math.Abs(float64(w)/math.Max(1, float64(n)) - 0.5)
		}
		lv.AllDistance /= math.Max(1, float64(nb))
		st.Levels = append(st.Levels, lv)
	}
	if ratings != nil {
		st.WhiteTrend, st.BenefitTrend = levelTrends(st.Levels)
	}
	return st
}

// levelTrends fits White's edge and Black's choice benefit on the level ratings (the levels
// tally.TrendLevels keeps: rated, with rating gaps to each other that the games measure, not
// the prior; and a positive standard error).
func levelTrends(levels []LadderLevel) (white, benefit tally.TrendFit) {
	var w, b []tally.TrendPoint
	measured := tally.TrendLevels(ladderLevels(levels))
	for i, lv := range levels {
		if !measured[i] {
			continue // a distance the prior sets (perfect scores) is no measured position on the axis
		}
		p := tally.TrendPoint{Level: lv.Level, Elo: lv.Elo, EloLow: lv.EloLow, EloHigh: lv.EloHigh, Searching: true}
		if lv.whiteSE > 0 {
			p.Effect, p.SE = lv.White.Value-0.5, lv.whiteSE
			w = append(w, p)
		}
		if se := (lv.Benefit.High - lv.Benefit.Low) / (2 * stats.Z95); se > 0 {
			p.Effect, p.SE = lv.Benefit.Value, se
			b = append(b, p)
		}
	}
	return tally.FitTrend(w), tally.FitTrend(b)
}

// ladderLevels is the ladder's levels as a strength trend sees them.
func ladderLevels(levels []LadderLevel) []tally.LevelRating {
	out := make([]tally.LevelRating, len(levels))
	for i, lv := range levels {
		out[i] = tally.LevelRating{Label: lv.Agent, Elo: lv.Elo, Group: lv.EloGroup}
	}
	return out
}

func pickK(v []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for k, i := range idx {
		out[k] = v[i]
	}
	return out
}

// choiceBenefit sets a level's Black's-choice figures: per choice (the first requested layout
// of each set of symmetric placements) and replicate, Black picks the seating with the lower
// White rate on the selection half; the benefit is |dealt − ½| − |chosen − ½| on the held-out
// half, averaged over replicates; its interval is the normal one over choices.
func choiceBenefit(lv *LadderLevel, cfg LayoutLadderConfig, sw *Sweep, reps []*LayoutsOutcome) {
	seen := map[string]bool{}
	var sum, sq float64
	for k := 0; k+1 < sw.NumRows(); k += 2 {
		dealt, rot := sw.Row(k), sw.Row(k+1)
		if seen[dealt.Choice] {
			continue
		}
		seen[dealt.Choice] = true
		var d, c, ok float64
		for _, o := range reps {
			bd, br := o.Boards.Counts(dealt.Board), o.Boards.Counts(rot.Board)
			a, b := bd.HeldOut(), br.HeldOut()
			if bd.NSelect == 0 || br.NSelect == 0 || math.IsNaN(a.Value) || math.IsNaN(b.Value) {
				continue
			}
			v := a.Value
			if br.SelectRate() < bd.SelectRate() {
				v = b.Value
			}
			d += math.Abs(a.Value - 0.5)
			c += math.Abs(v - 0.5)
			ok++
		}
		if ok == 0 {
			continue
		}
		d, c = d/ok, c/ok
		lv.Choices++
		lv.Dealt += d
		lv.Chosen += c
		sum += d - c
		sq += (d - c) * (d - c)
	}
	lv.Benefit = stats.Interval{Value: math.NaN(), Low: math.NaN(), High: math.NaN(), Method: "held-out-half-normal-over-choices"}
	if n := float64(lv.Choices); n > 0 {
		lv.Dealt /= n
		lv.Chosen /= n
		m := sum / n
		lv.Benefit.Value = m
		if n > 1 {
			se := math.Sqrt(math.Max(0, sq-n*m*m) / (n - 1) / n)
			lv.Benefit.Low, lv.Benefit.High = m-stats.Z95*se, m+stats.Z95*se
		}
	}
}

// topBoards is the held-out top list: the boards whose selection-half White rate is closest to
// ½ at the worst of all levels and replicates (ties by board order), with their held-out rates
// per level.
func ladderTopBoards(cfg LayoutLadderConfig, sw *Sweep, levels [][]*LayoutsOutcome) []TopBoard {
	nb := sw.NumBoards()
	type cand struct {
		i int
		d float64
	}
	var cs []cand
	for i := 0; i < nb; i++ {
		d, ok := 0.0, true
		for l := range levels {
			for _, o := range levels[l] {
				b := o.Boards.Counts(i)
				if b.NSelect == 0 || b.N == b.NSelect {
					ok = false
				}
				d = math.Max(d, math.Abs(b.SelectRate()-0.5))
			}
		}
		if ok {
			cs = append(cs, cand{i, d})
		}
	}
	sort.SliceStable(cs, func(a, b int) bool { return cs[a].d < cs[b].d })
	var out []TopBoard
	for _, c := range cs[:min(cfg.Top, len(cs))] {
		t := TopBoard{Board: c.i, Key: levels[0][0].Boards.Key(c.i), SelectDistance: c.d, InsideAll: true}
		if lay := sw.Board(c.i); lay.Index >= 0 {
			t.Layout = lay.Placement.String()
		}
		for l := range levels {
			var w, n int64
			for _, o := range levels[l] {
				b := o.Boards.Counts(c.i)
				w, n = w+b.WhiteWins-b.WhiteWinsSelect, n+b.N-b.NSelect
			}
			iv := stats.Wilson(w, n, stats.Z95)
			t.HeldOut = append(t.HeldOut, iv)
			if !(iv.Low >= cfg.Sweep.BandLow && iv.High <= cfg.Sweep.BandHigh) {
				t.InsideAll = false
			}
		}
		out = append(out, t)
	}
	return out
}
