package report

import (
	"image/color"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// PlotLLR draws a sequential test's log-likelihood ratio after every pair (llr[i]: after pair
// i+1) with its two stopping bounds: the test accepts H1 when the line reaches the upper one and
// H0 at the lower one. It writes name.png and name.svg into dir.
func PlotLLR(dir, name, title string, llr []float64, lower, upper float64) ([]string, error) {
	p := newPlot()
	p.Title.Text = title
	p.X.Label.Text = "colour-swapped pairs played"
	p.Y.Label.Text = "log-likelihood ratio"
	pts := make(plotter.XYs, 0, len(llr)+1)
	pts = append(pts, plotter.XY{})
	for i, v := range llr {
		if v == v { // skip NaN
			pts = append(pts, plotter.XY{X: float64(i + 1), Y: v})
		}
	}
	end := max(float64(len(llr)), 1)
	line, err := plotter.NewLine(pts)
	if err != nil {
		return nil, err
	}
	line.Color = color.RGBA{R: 30, G: 60, B: 140, A: 255}
	line.Width = vg.Points(1.2)
	p.Add(line)
	for _, b := range []struct {
		y     float64
		label string
		col   color.RGBA
	}{{upper, "upper bound: accept H1", color.RGBA{R: 0, G: 130, B: 60, A: 255}},
		{lower, "lower bound: accept H0", color.RGBA{R: 180, G: 40, B: 40, A: 255}}} {
		l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: b.y}, {X: end, Y: b.y}})
		if err != nil {
			return nil, err
		}
		l.Color = b.col
		l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		p.Add(l)
		p.Legend.Add(b.label, l)
	}
	p.Legend.Add("LLR", line)
	p.Legend.Top, p.Legend.Left = true, true
	// Room above the upper bound for the legend, below the lower one for symmetry.
	lo, hi := min(lower, p.Y.Min), max(upper, p.Y.Max)
	p.Y.Min, p.Y.Max = lo-0.1*(hi-lo), hi+0.45*(hi-lo)
	p.X.Min, p.X.Max = 0, end
	return savePlot(p, dir, name, 7*vg.Inch, 4.5*vg.Inch)
}
