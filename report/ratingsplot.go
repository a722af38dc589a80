package report

import (
	"image/color"
	"math"

	"github.com/fairplay-lab/fairplay/stats"

	"gonum.org/v1/plot"
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
// intervals as horizontal bars, and a dashed line at the anchor's 0. It writes ratings.png and
// ratings.svg into dir.
func PlotRatings(t *stats.RatingTable, title, dir string) ([]string, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "Elo (first agent = 0; 95% bootstrap interval)"
	order := t.Order()
	n := len(order)
	pts := xErrPoints{XYs: make(plotter.XYs, n), XErrors: make(plotter.XErrors, n)}
	labels := make([]string, n)
	lo, hi := 0.0, 0.0
	for k, i := range order {
		r := t.Ratings[i]
		y := float64(n - 1 - k) // strongest on top
		labels[n-1-k] = r.Agent
		pts.XYs[k] = plotter.XY{X: r.Elo, Y: y}
		l, h := r.Low, r.High
		if math.IsNaN(l) || math.IsNaN(h) {
			l, h = r.Elo, r.Elo
		}
		pts.XErrors[k].Low, pts.XErrors[k].High = r.Elo-l, h-r.Elo
		lo, hi = math.Min(lo, l), math.Max(hi, h)
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
	sc.GlyphStyle.Color = color.RGBA{R: 70, G: 110, B: 170, A: 255}
	zero, err := plotter.NewLine(plotter.XYs{{X: 0, Y: -0.5}, {X: 0, Y: float64(n) - 0.5}})
	if err != nil {
		return nil, err
	}
	zero.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
	zero.Color = color.Gray{Y: 140}
	p.Add(zero, eb, sc)
	p.NominalY(labels...)
	pad := 0.05 * math.Max(hi-lo, 50)
	p.X.Min, p.X.Max = lo-pad, hi+pad
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
	return savePlot(p, dir, "ratings", 7*vg.Inch, vg.Length(1.5+0.35*float64(n))*vg.Inch)
}
