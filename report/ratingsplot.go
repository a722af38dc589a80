package report

import (
	"image/color"
	"math"

	"github.com/fairplay-lab/fairplay/stats"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// xErrPoints are points with asymmetric horizontal error bars.
type xErrPoints struct {
	plotter.XYs
	plotter.XErrors
}

// PlotRatings draws the agents' Elo ratings (strongest at the top) with their 95% bootstrap
// intervals as horizontal bars, and a dashed line at the anchor's 0. A rating that perfect
// scores leave without a finite estimate (stats.Rating.Unbounded) has no bar: an arrow from
// its fitted value points to the side it is unbounded on, marked "set by the prior". It
// writes ratings.png and ratings.svg into dir.
func PlotRatings(t *stats.RatingTable, title, dir string) ([]string, error) {
	p := newPlot()
	p.Title.Text = title
	// Two lines: long agent labels narrow the data area, and the label in one line ran off
	// the right edge under it.
	p.X.Label.Text = "Elo (first agent = 0;\n95% bootstrap interval)"
	order := t.Order()
	n := len(order)
	var pts xErrPoints
	labels := make([]string, n)
	lo, hi := 0.0, 0.0
	for _, r := range t.Ratings {
		lo, hi = math.Min(lo, r.Elo), math.Max(hi, r.Elo)
		if r.Unbounded == 0 && !math.IsNaN(r.Low) {
			lo, hi = math.Min(lo, r.Low), math.Max(hi, r.High)
		}
	}
	arrow := 0.25 * math.Max(hi-lo, 50)
	blue := color.RGBA{R: 70, G: 110, B: 170, A: 255}
	var words plotter.XYLabels
	for k, i := range order {
		r := t.Ratings[i]
		y := float64(n - 1 - k) // strongest on top
		labels[n-1-k] = r.Agent
		if r.Unbounded != 0 {
			end, dir := r.Elo+arrow, arrowRight
			if r.Unbounded < 0 {
				end, dir = r.Elo-arrow, arrowLeft
			}
			if err := addArrowXY(p, plotter.XY{X: r.Elo, Y: y}, plotter.XY{X: end, Y: y}, dir, blue); err != nil {
				return nil, err
			}
			lo, hi = math.Min(lo, end), math.Max(hi, end)
			words.XYs = append(words.XYs, plotter.XY{X: r.Elo, Y: y})
			words.Labels = append(words.Labels, "set by the prior (perfect scores)")
		}
		l, h := r.Low, r.High
		if math.IsNaN(l) || math.IsNaN(h) || r.Unbounded != 0 {
			l, h = r.Elo, r.Elo
		}
		pts.XYs = append(pts.XYs, plotter.XY{X: r.Elo, Y: y})
		pts.XErrors = append(pts.XErrors, struct{ Low, High float64 }{r.Elo - l, h - r.Elo})
	}
	eb, err := plotter.NewXErrorBars(pts)
	if err != nil {
		return nil, err
	}
	eb.LineStyle.Width = vg.Points(1.5)
	sc, err := plotter.NewScatter(pts.XYs)
	if err != nil {
		return nil, err
	}
	sc.GlyphStyle.Shape = draw.CircleGlyph{}
	sc.GlyphStyle.Color = blue
	zero, err := plotter.NewLine(plotter.XYs{{X: 0, Y: -0.5}, {X: 0, Y: float64(n) - 0.5}})
	if err != nil {
		return nil, err
	}
	zero.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
	zero.Color = color.Gray{Y: 140}
	p.Add(zero, eb, sc)
	if len(words.XYs) > 0 {
		lab, err := plotter.NewLabels(words)
		if err != nil {
			return nil, err
		}
		for i := range words.XYs {
			lab.TextStyle[i].Color = blue
			lab.TextStyle[i].XAlign = draw.XCenter
			lab.TextStyle[i].Font.Size = vg.Points(9)
		}
		lab.Offset = vg.Point{Y: vg.Points(6)}
		p.Add(lab)
	}
	p.NominalY(labels...)
	pad := 0.05 * math.Max(hi-lo, 50)
	p.X.Min, p.X.Max = lo-pad, hi+pad
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
	return savePlot(p, dir, "ratings", 7*vg.Inch, vg.Length(1.5+0.35*float64(n))*vg.Inch)
}
