package layouts

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/report"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/internal/extsort"
	"github.com/fairplay-lab/fairplay/stats"
	"github.com/fairplay-lab/fairplay/tally"
)

// LayoutReport holds the headline findings of a sweep.
type LayoutReport struct {
	Boards           int
	Games            int64
	Pooled           stats.Interval // White's win rate over all games (clustered by board)
	Distinct         int64          // distinct games, summed over boards
	MeanRate, SDRate float64        // over boards
	// Spread is how far the boards' true rates spread beyond their games' noise, with the test
	// of whether they differ at all (nil: fewer than 4 boards, White won every game or none, or
	// a paired sweep whose design effect is not estimated).
	Spread              *gamefile.Spread
	InBand, OutOfBand   int // boards whose interval lies inside / outside the band
	SignificantBH       int // boards with BH q < 0.05 against one half
	Choices             int
	ImbalanceDealt      float64 // mean |White rate − ½| as dealt, over choices (held-out half)
	ImbalanceChosen     float64 // the same after Black's best choice of seating, chosen on the selection half, measured on the held-out half
	InSample            float64 // ImbalanceChosen measured on the same games it was chosen on (the optimistic figure)
	BlackPicksRotated   int
	Fairest, Unbalanced []string
	Race                *RaceSummary // a race's answers (nil: not a race)
	// FairestNoise and UnbalancedNoise say that a list's ranking is within noise: the held-out
	// 95% interval of a listed board's distance from ½ overlaps that of a board left off the
	// list, so the list could as well hold that board (rankedApart).
	FairestNoise, UnbalancedNoise bool
	// Comparison ranks the sweep against Sweep.CompareTo (nil without one).
	Comparison        *Comparison
	EffectsFitted     bool
	Effects, EffectSE [4][64]float64
	TopEffects        []string
	Dispersion        float64 // the colour-effect fit's Pearson dispersion over boards (at least 1)
	DesignRank        int     // the rank of the colour-effect design (its residual df are the boards less it)
	// PairDeff is the design effect the empirical-Bayes rates of a paired sweep (a ≠ b) count
	// a board's games with, and PairDeffEstimated whether it was estimated from the boards'
	// halves (Sweep.ebShrink; without, no board is shrunk); 1 in self-play.
	PairDeff          float64
	PairDeffEstimated bool
}

// f64 prints a CSV number; NaN (no estimate) is an empty field, never "NaN".
func f64(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', 8, 64)
}

func i64(x int64) string { return strconv.FormatInt(x, 10) }

// WriteLayoutReports derives layouts.csv, choices.csv, colour_effects.csv and the plots from the
// boards of a whole sweep (boards[i] is board i).
func WriteLayoutReports(dir string, sw *Sweep, boards []gamefile.BoardResult) (*LayoutReport, []string, error) {
	i := 0
	return WriteLayoutReportsFrom(dir, sw, func() (*gamefile.BoardResult, error) {
		if i == len(boards) {
			return nil, io.EOF
		}
		i++
		return &boards[i-1], nil
	})
}

// WriteLayoutReportsStore is WriteLayoutReports from a compact store of the boards.
func WriteLayoutReportsStore(dir string, sw *Sweep, store *tally.BoardStore) (*LayoutReport, []string, error) {
	i := 0
	return WriteLayoutReportsFrom(dir, sw, func() (*gamefile.BoardResult, error) {
		if i == store.Len() {
			return nil, io.EOF
		}
		b := store.At(i)
		i++
		return &b, nil
	})
}

// WriteLayoutReportsFile is WriteLayoutReports from a sweep's boards.csv.
func WriteLayoutReportsFile(dir string, sw *Sweep, boardsCSV string) (*LayoutReport, []string, error) {
	src, err := openBoards(boardsCSV)
	if err != nil {
		return nil, nil, err
	}
	defer src.Close()
	rep, files, err := WriteLayoutReportsFrom(dir, sw, src.Read)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", boardsCSV, err)
	}
	return rep, files, nil
}

// WriteLayoutReportsFrom derives the reports from the boards of a whole sweep, read in order
// (board 0 first) from next until io.EOF. Memory does not grow with the number of boards: the
// boards go to a spill directory in dir (removed afterwards) and the reports are derived in
// passes over it (see layoutspill.go).
func WriteLayoutReportsFrom(dir string, sw *Sweep, next func() (*gamefile.BoardResult, error)) (*LayoutReport, []string, error) {
	tmp, err := os.MkdirTemp(dir, ".report-spill-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(tmp)
	spill, err := newBoardSpill(sw, tmp)
	if err != nil {
		return nil, nil, err
	}
	defer spill.close()
	rep := &LayoutReport{}
	rate := func(b *boardRec) float64 { return float64(b.white) / math.Max(1, float64(b.n)) }
	var white, total int64
	var pooled stats.ClusterRatio
	var fit gamefile.ShrinkFitter
	var deff stats.PairDeff
	var rates tally.RateCounts
	byP := newSorter(sw.runLen(), sw.reportWrap, tmp, extsort.ByValue, extsort.IndexedValueCodec)
	defer byP.Close()
	// The fairest and most unbalanced boards: ranked by |rate − ½| on the selection half (then
	// index), their rates reported on the held-out half.
	fairest, worst := extremeBoards(6) // disjoint once every board is in
	effects, err := newColourRows(tmp)
	if err != nil {
		return nil, nil, err
	}
	defer effects.close()
	// Pass 1: the boards into the spill; totals, the first pass of the shrinkage fit, the
	// p-values to sort, the histogram of rates, the extreme boards and the fit's rows.
	for r, err := range gamefile.All(next) {
		if err != nil {
			return nil, nil, err
		}
		i := int(spill.recs.n)
		b, err := spill.add(r)
		if err != nil {
			return nil, nil, err
		}
		if err := byP.Add(extsort.IndexedValue{V: b.p, I: int64(i)}); err != nil {
			return nil, nil, err
		}
		white += b.white
		total += b.n
		rep.Distinct += b.distinct
		if b.n > 0 {
			pooled.Add(float64(b.white), float64(b.n))
		}
		c := b.counts(i)
		iv := sw.BandInterval(c.WhiteWins, c.N) // the interval the adaptive sweep stopped on
		if iv.Low >= sw.Cfg.BandLow && iv.High <= sw.Cfg.BandHigh {
			rep.InBand++
		} else if iv.High < sw.Cfg.BandLow || iv.Low > sw.Cfg.BandHigh {
			rep.OutOfBand++
		}
		rep.MeanRate += rate(&b)
		rates.Add(rate(&b))
		fit.First(b.white, b.n)
		deff.Add(c.WhiteWinsSelect, c.NSelect, c.WhiteWins, c.N)
		sel := math.Abs(c.SelectRate() - 0.5)
		fairest.add(sel, int32(i))
		worst.add(sel, int32(i))
		if b.white+b.black > 0 {
			if err := effects.add(b.white, b.white+b.black, r.Grid); err != nil {
				return nil, nil, err
			}
		}
	}
	if err := spill.finish(); err != nil {
		return nil, nil, err
	}
	nb := int(spill.recs.n)
	if nb != sw.NumBoards() {
		return nil, nil, fmt.Errorf("%d boards, the sweep has %d", nb, sw.NumBoards())
	}
	rep.Boards = nb
	rep.Games = total
	rep.Pooled = pooled.Rate()
	rep.Pooled.Method = "cluster-robust-boards"
	// Pass 2: the spread of the rates around their mean, the second pass of the shrinkage fit.
	if nb > 0 {
		rep.MeanRate /= float64(nb)
	}
	disjoint(&fairest, &worst, 6, nb)
	fairList, worstList := newRankedApart(fairest.i, true), newRankedApart(worst.i, false)
	for i := 0; i < nb; i++ {
		b, err := spill.at(i)
		if err != nil {
			return nil, nil, err
		}
		r := rate(&b)
		rep.SDRate += (r - rep.MeanRate) * (r - rep.MeanRate)
		fit.Second(b.white, b.n)
		c := b.counts(i)
		iv, _ := sw.heldOut(&c)
		fairList.add(i, iv)
		worstList.add(i, iv)
	}
	rep.FairestNoise, rep.UnbalancedNoise = !fairList.apart(), !worstList.apart()
	if nb > 0 {
		rep.SDRate = math.Sqrt(rep.SDRate / math.Max(1, float64(nb-1)))
	}
	shrink, pd, estimated := sw.ebShrink(&fit, &deff)
	rep.PairDeff, rep.PairDeffEstimated = pd, estimated
	if !sw.paired() || estimated { // a paired sweep's noise needs its design effect
		if sp, ok := fit.SpreadDeff(pd); ok {
			rep.Spread = &sp
		}
	}
	if rep.SignificantBH, err = adjustP(spill, byP); err != nil {
		return nil, nil, err
	}
	byP.Close()
	files, err := sw.raceReport(dir, spill, rep)
	if err != nil {
		return nil, nil, err
	}
	err = tally.WriteAtomicFunc(filepath.Join(dir, "layouts.csv"), func(f io.Writer) error {
		return writeLayoutRows(f, sw, spill, shrink, sw.reportWorkers())
	})
	if err != nil {
		return nil, nil, err
	}
	files = append(files, "layouts.csv")
	values, err := writeChoices(dir, sw, spill, rep)
	if err != nil {
		return nil, nil, err
	}
	files = append(files, "choices.csv")

	title := fmt.Sprintf("Katarenga, %s vs %s", agents.ShortSpec(sw.Cfg.A), agents.ShortSpec(sw.Cfg.B))
	rulesLine := "\nrules: " + report.RulesText(sw.Cfg.Rules)
	out, err := report.PlotRateCounts(&rates, sw.Cfg.BandLow, sw.Cfg.BandHigh, title+": White's win rate by board"+rulesLine, "White's win rate", dir, "white_rates")
	if err != nil {
		return nil, nil, err
	}
	files = append(files, out...)
	out, err = report.PlotRateCounts(values, sw.Cfg.BandLow, sw.Cfg.BandHigh, title+": after Black's best seating"+rulesLine, "White's win rate after Black chooses", dir, "after_choice")
	if err != nil {
		return nil, nil, err
	}
	files = append(files, out...)

	pick := func(idx []int32) ([]string, []string, []string, error) {
		var grids, caps, desc []string
		for _, i := range idx {
			bc, err := spill.result(int(i))
			if err != nil {
				return nil, nil, nil, err
			}
			b := &bc
			iv, inSample := sw.heldOut(b)
			grids = append(grids, b.Grid)
			caps = append(caps, fmt.Sprintf("layout %s: White %s", b.Key, stats.FormatCI(iv)))
			if inSample {
				desc = append(desc, fmt.Sprintf("%s (White %s on all its games, in sample: too few to hold out, n=%d)", b.Key, stats.FormatCI(iv), b.N))
			} else {
				desc = append(desc, fmt.Sprintf("%s (White %s held out, n=%d)", b.Key, stats.FormatCI(iv), b.N-b.NSelect))
			}
		}
		return grids, caps, desc, nil
	}
	g, c, d, err := pick(fairest.i)
	if err != nil {
		return nil, nil, err
	}
	rep.Fairest = d
	if out, err = report.PlotBoards(g, c, "The fairest boards", dir, "boards_fairest"); err != nil {
		return nil, nil, err
	}
	files = append(files, out...)
	if g, c, d, err = pick(worst.i); err != nil {
		return nil, nil, err
	}
	rep.Unbalanced = d
	if out, err = report.PlotBoards(g, c, "The most unbalanced boards", dir, "boards_unbalanced"); err != nil {
		return nil, nil, err
	}
	files = append(files, out...)

	if err := effects.finish(); err != nil {
		return nil, nil, err
	}
	if err := colourEffects(rep, effects, sw.reportWorkers()); err == nil {
		rep.EffectsFitted = true
		var eb bytes.Buffer
		cw := csv.NewWriter(&eb)
		cw.Write([]string{"square", "colour", "effect", "se", "z", "method"})
		for col := 0; col < 4; col++ {
			for sq := 0; sq < 64; sq++ {
				e, se := rep.Effects[col][sq], rep.EffectSE[col][sq]
				cw.Write([]string{string(rune('a'+sq%8)) + string(rune('1'+sq/8)), string("rygb"[col]), f64(e), f64(se), f64(e / se), effectsMethod})
			}
		}
		cw.Flush()
		if err := gamefile.WriteFileAtomic(filepath.Join(dir, "colour_effects.csv"), eb.Bytes()); err != nil {
			return nil, nil, err
		}
		files = append(files, "colour_effects.csv")
		if out, err = report.PlotColourEffects(rep.Effects, "Where a square's colour helps White: "+title+rulesLine, dir, "colour_effects"); err != nil {
			return nil, nil, err
		}
		files = append(files, out...)
	} else if errors.Is(err, errSpill) {
		return nil, nil, err
	} else {
		rep.TopEffects = []string{"not fitted: " + err.Error()}
	}
	if sw.CompareTo != "" {
		c, err := CompareSweeps(sw, filepath.Join(dir, "boards.csv"), filepath.Join(sw.CompareTo, "boards.csv"), dir)
		if err != nil {
			return nil, nil, fmt.Errorf("comparing with %s: %w", sw.CompareTo, err)
		}
		c.Other = sw.CompareTo
		if c.Boards == 0 {
			return nil, nil, fmt.Errorf("comparing with %s: %w", sw.CompareTo, ErrNoSharedBoards)
		}
		if err := WriteComparison(dir, c); err != nil {
			return nil, nil, err
		}
		rep.Comparison = &c
		files = append(files, "compare.csv")
	}
	page, err := writeLayoutsPage(dir, sw, rep, files)
	if err != nil {
		return nil, nil, err
	}
	return rep, append(files, page), nil
}

// writeChoices writes choices.csv: one row per choice of Black, from its first requested
// layout. Black's pick is made on the selection half of each board's games and its value
// measured on the other half, so the reported benefit is not inflated by the selection
// (in-sample figure kept apart for comparison). It returns the values for the histogram.
func writeChoices(dir string, sw *Sweep, spill *boardSpill, rep *LayoutReport) (*tally.RateCounts, error) {
	first, err := firstOfChoices(sw, spill.dir)
	if err != nil {
		return nil, err
	}
	var values tally.RateCounts
	err = tally.WriteAtomicFunc(filepath.Join(dir, "choices.csv"), func(f io.Writer) error {
		bw := bufio.NewWriterSize(f, 1<<16)
		cw := csv.NewWriter(bw)
		cw.Write([]string{"choice", "layout_index", "layout", "white_rate_as_dealt", "ci_low_as_dealt", "ci_high_as_dealt",
			"white_rate_rotated", "ci_low_rotated", "ci_high_rotated", "black_picks", "value", "value_ci_low", "value_ci_high",
			"difference", "difference_ci_low", "difference_ci_high", "picked_on", "measured_on", "ci_method", "difference_method"})
		for k := 0; k+1 < sw.NumRows(); k += 2 {
			if !first.Has(int64(k / 2)) {
				continue
			}
			dealt, rot := sw.Row(k), sw.Row(k+1)
			bdr, err := spill.at(dealt.Board)
			if err != nil {
				return err
			}
			brr, err := spill.at(rot.Board)
			if err != nil {
				return err
			}
			bdc, brc := bdr.counts(dealt.Board), brr.counts(rot.Board)
			bd, br := &bdc, &brc
			a, inA := sw.heldOut(bd)
			b, inB := sw.heldOut(br)
			pick, v := "as_dealt", a
			if br.SelectRate() < bd.SelectRate() {
				pick, v = "rotated", b
				rep.BlackPicksRotated++
			}
			inSample := math.Min(bd.WhiteRate().Value, br.WhiteRate().Value)  // chosen and measured on all games
			if !inA && !inB && !math.IsNaN(a.Value) && !math.IsNaN(b.Value) { // boards too short for a held-out half are not counted
				values.Add(v.Value)
				rep.ImbalanceDealt += math.Abs(a.Value - 0.5)
				rep.ImbalanceChosen += math.Abs(v.Value - 0.5)
				rep.InSample += math.Abs(inSample - 0.5)
			}
			diff := sw.difference(bd, br)
			idx, name := "", ""
			if dealt.Layout.Index >= 0 {
				idx, name = strconv.Itoa(dealt.Layout.Index), dealt.Layout.Placement.String()
			}
			picked, measured := "selection-half", "held-out-half"
			if inA || inB {
				picked, measured = "all-games", "all-games-in-sample"
			}
			cw.Write([]string{dealt.Choice, idx, name, f64(a.Value), f64(a.Low), f64(a.High), f64(b.Value), f64(b.Low), f64(b.High),
				pick, f64(v.Value), f64(v.Low), f64(v.High), f64(diff.Value), f64(diff.Low), f64(diff.High), picked, measured, a.Method, diff.Method})
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
		return bw.Flush()
	})
	if err != nil {
		return nil, err
	}
	rep.Choices = values.Len()
	if rep.Choices > 0 {
		rep.ImbalanceDealt /= float64(rep.Choices)
		rep.ImbalanceChosen /= float64(rep.Choices)
		rep.InSample /= float64(rep.Choices)
	}
	return &values, nil
}
