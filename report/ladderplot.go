package report

import (
	"math"

	"github.com/fairplay-lab/fairplay/stats"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// RatingSeries is one series of PlotAgainstRating: an estimate with its 95% interval at each of
// several level ratings (points with a non-finite value or rating are left out).
type RatingSeries struct {
	Label  string
	Elo    []float64
	Values []stats.Interval
}

// PlotAgainstRating draws estimates against the level rating: per series its points joined by
// a line, with their (possibly asymmetric) 95% intervals as error bars, and a dotted line at
// ref; series are shifted slightly apart along x. Levels without a rating are drawn at their level number when rating is false (the x
// axis then says so). It writes name.png and name.svg into dir; no files when no series has a
// point.
func PlotAgainstRating(dir, name, title, ylabel string, rated bool, series []RatingSeries, ref float64) ([]string, error) {
	p := newPlot()
	p.Title.Text = title
	p.X.Label.Text = "level rating (Elo: the run's round robin, first level = 0, or a rating list's scale)"
	if !rated {
		p.X.Label.Text = "level (not rated)"
	}
	p.Y.Label.Text = ylabel
	p.Legend.Top, p.Legend.Left = true, true
	xmin, xmax := math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for _, x := range s.Elo {
			if !math.IsNaN(x) && !math.IsInf(x, 0) {
				xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
			}
		}
	}
	// Series are drawn side by side (shifted by 1.5% of the range each) so that their
	// intervals at one level do not hide each other.
	shift := 0.015 * math.Max(xmax-xmin, 1)
	drawn := 0
	for si, s := range series {
		var pts errPoints
		for k, iv := range s.Values {
			x := s.Elo[k]
			if math.IsNaN(iv.Value) || math.IsInf(iv.Value, 0) || math.IsNaN(x) || math.IsInf(x, 0) {
				continue
			}
			x += (float64(si) - float64(len(series)-1)/2) * shift
			lo, hi := iv.Value-iv.Low, iv.High-iv.Value
			if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
				lo, hi = 0, 0 // an unbounded interval (a reliability of 0) has no bar to draw; the CSV has it
			}
			pts.XYs = append(pts.XYs, plotter.XY{X: x, Y: iv.Value})
			pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{lo, hi})
		}
		if len(pts.XYs) == 0 {
			continue
		}
		if err := addErrLine(p, pts, si, s.Label); err != nil {
			return nil, err
		}
		drawn++
	}
	if drawn == 0 {
		return nil, nil
	}
	line, err := plotter.NewLine(plotter.XYs{{X: xmin, Y: ref}, {X: xmax, Y: ref}})
	if err != nil {
		return nil, err
	}
	line.Dashes = []vg.Length{vg.Points(1), vg.Points(3)}
	p.Add(line)
	pad := math.Max(0.08*(xmax-xmin), 0.3)
	if rated {
		pad = math.Max(pad, 20)
	}
	p.X.Min, p.X.Max = xmin-pad, xmax+pad
	p.Y.Max += 0.3 * (p.Y.Max - p.Y.Min) // room for the legend
	return savePlot(p, dir, name, 7*vg.Inch, 4.5*vg.Inch)
}
