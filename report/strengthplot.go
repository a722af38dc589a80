package report

import (
	"math"

	"github.com/fairplay-lab/fairplay/stats"
	"github.com/fairplay-lab/fairplay/tally"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PlotStrengthTrend draws one metric's variant effects (variant minus baseline) against the
// level ratings: per variant the per-level effects with 95% error bars and the weighted
// least-squares line of strength_trend.csv (horizontal bars: the ratings' 95% intervals), and a
// dotted line at no effect. It writes
// strength_<metric>.png/.svg into dir; trends without points are skipped (no files when none
// has any).
func PlotStrengthTrend(dir, title, metric string, trends []tally.Trend) ([]string, error) {
	p := newPlot()
	p.Title.Text = title
	p.X.Label.Text = "level rating (Elo: round robin on the baseline rules, first level = 0, or a rating list's scale)"
	p.Y.Label.Text = metric + ": variant − baseline (95% interval)"
	p.Legend.Top, p.Legend.Left = true, true
	xmin, xmax := math.Inf(1), math.Inf(-1)
	drawn := 0
	for _, t := range trends {
		if t.Metric != metric || len(t.Points) == 0 {
			continue
		}
		vi := drawn
		col := plotutil.Color(vi)
		var pts plotter.XYs
		var errs plotter.YErrors
		var xerrs plotter.XErrors
		var sw, swx, swy float64
		for _, q := range t.Points {
			pts = append(pts, plotter.XY{X: q.Elo, Y: q.Effect})
			errs = append(errs, struct{ Low, High float64 }{stats.Z95 * q.SE, stats.Z95 * q.SE})
			xlo, xhi := q.Elo-q.EloLow, q.EloHigh-q.Elo
			if math.IsNaN(xlo) || math.IsNaN(xhi) {
				xlo, xhi = 0, 0
			}
			xerrs = append(xerrs, struct{ Low, High float64 }{xlo, xhi})
			xmin, xmax = math.Min(xmin, q.Elo), math.Max(xmax, q.Elo)
			w := 1 / (q.SE * q.SE)
			sw, swx, swy = sw+w, swx+w*q.Elo, swy+w*q.Effect
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		sc.Color, sc.Shape = col, draw.CircleGlyph{}
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{pts, errs})
		if err != nil {
			return nil, err
		}
		eb.Color = col
		xb, err := plotter.NewXErrorBars(struct {
			plotter.XYer
			plotter.XErrorer
		}{pts, xerrs})
		if err != nil {
			return nil, err
		}
		xb.Color = col
		p.Add(eb, xb, sc)
		label := t.Variant + " vs " + t.Baseline
		if !math.IsNaN(t.Slope) {
			// The fitted line passes through the weighted means.
			mx, my, b := swx/sw, swy/sw, t.Slope/100
			lo, hi := pts[0].X, pts[0].X
			for _, q := range pts {
				lo, hi = math.Min(lo, q.X), math.Max(hi, q.X)
			}
			l, err := plotter.NewLine(plotter.XYs{{X: lo, Y: my + b*(lo-mx)}, {X: hi, Y: my + b*(hi-mx)}})
			if err != nil {
				return nil, err
			}
			l.Color, l.Dashes = col, plotutil.Dashes(vi)
			p.Add(l)
			p.Legend.Add(label+" (WLS line)", l, sc)
		} else {
			p.Legend.Add(label, sc)
		}
		drawn++
	}
	if drawn == 0 {
		return nil, nil
	}
	zero, err := plotter.NewLine(plotter.XYs{{X: xmin, Y: 0}, {X: xmax, Y: 0}})
	if err != nil {
		return nil, err
	}
	zero.Dashes = []vg.Length{vg.Points(1), vg.Points(3)}
	p.Add(zero)
	pad := math.Max(20, 0.05*(xmax-xmin))
	p.X.Min, p.X.Max = xmin-pad, xmax+pad
	p.Y.Max += 0.25 * (p.Y.Max - p.Y.Min) // room for the legend
	return savePlot(p, dir, "strength_"+metric, 7*vg.Inch, 4.5*vg.Inch)
}
