package report

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// PlotTrajectory draws each tuned weight against the iteration, as its position within its
// bounds (0 = lower bound, 1 = upper) so weights of different scales share one axis; the legend
// gives each weight's bounds. values[k][i] is weight i after iteration k (row 0: the start).
// It writes name.png and name.svg into dir.
func PlotTrajectory(dir, name, title string, names []string, lo, hi []float64, values [][]float64) ([]string, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "SPSA iteration"
	p.Y.Label.Text = "weight within its bounds (0 = min, 1 = max)"
	p.Y.Min, p.Y.Max = 0, 1
	p.Legend.Top = true // on the right, beyond the last iteration: clear of the lines
	for i, n := range names {
		pts := make(plotter.XYs, len(values))
		for k, row := range values {
			pts[k] = plotter.XY{X: float64(k), Y: (row[i] - lo[i]) / (hi[i] - lo[i])}
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, err
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i / 7)
		l.Width = vg.Points(1.2)
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("%s [%g, %g]", n, lo[i], hi[i]), l)
	}
	last := float64(max(len(values)-1, 1))
	p.X.Min, p.X.Max = 0, last*1.55
	p.X.Tick.Marker = iterTicks{last}
	return savePlot(p, dir, name, 8*vg.Inch, 4.5*vg.Inch)
}

// iterTicks marks whole iterations up to the last one only (the axis runs on under the legend).
type iterTicks struct{ last float64 }

// Ticks returns countTicks' ticks up to the last iteration.
func (t iterTicks) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for _, tk := range (countTicks{}).Ticks(min, t.last) {
		if tk.Value <= t.last {
			out = append(out, tk)
		}
	}
	return out
}
