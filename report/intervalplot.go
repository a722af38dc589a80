package report

import (
	"image/color"

	"github.com/fairplay-lab/fairplay/stats"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PlotIntervals draws one estimate per label (a ladder step, an agent's rating) as a point
// with its 95% interval as an error bar, and a dashed reference line at ref. Non-finite
// bounds (a perfect score's infinite Elo) are clipped to the finite range drawn. It writes
// name.png and name.svg into dir.
func PlotIntervals(dir, name, title, ylabel string, labels []string, ivs []stats.Interval, ref float64) ([]string, error) {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = ylabel
	lo, hi := ref, ref
	for _, iv := range ivs {
		for _, v := range []float64{iv.Value, iv.Low, iv.High} {
			if v == v && v > -1e6 && v < 1e6 {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	pad := max(0.1*(hi-lo), 1)
	clip := func(v float64) float64 {
		if v != v {
			return ref
		}
		return max(lo-pad, min(hi+pad, v))
	}
	pts := errPoints{XYs: make(plotter.XYs, len(ivs)), YErrors: make(plotter.YErrors, len(ivs))}
	for i, iv := range ivs {
		y, l, h := clip(iv.Value), clip(iv.Low), clip(iv.High)
		if iv.Method == stats.OneSidedMethod { // a bound, no estimate: the point at the bound, the bar to the edge
			if iv.Low == iv.Low {
				y, h = l, hi+pad
			} else {
				y, l = h, lo-pad
			}
		}
		pts.XYs[i] = plotter.XY{X: float64(i), Y: y}
		pts.YErrors[i].Low, pts.YErrors[i].High = y-l, h-y
	}
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, err
	}
	sc.GlyphStyle.Shape = draw.CircleGlyph{}
	sc.GlyphStyle.Color = color.RGBA{R: 30, G: 60, B: 140, A: 255}
	eb, err := plotter.NewYErrorBars(pts)
	if err != nil {
		return nil, err
	}
	eb.Color = sc.GlyphStyle.Color
	refLine, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: ref}, {X: float64(len(ivs)) - 0.5, Y: ref}})
	if err != nil {
		return nil, err
	}
	refLine.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(refLine, eb, sc)
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.5, float64(len(ivs))-0.5
	p.Y.Min, p.Y.Max = lo-pad, hi+pad
	return savePlot(p, dir, name, 7*vg.Inch, 4.5*vg.Inch)
}
