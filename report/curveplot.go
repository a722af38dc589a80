package report

import (
	"math"
	"slices"
	"strconv"

	"github.com/fairplay-lab/fairplay/tally"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// curveAxis names a budget key's axis.
var curveAxis = map[string]string{
	"movetime": "time a move (ms, doubling scale)",
	"nodes":    "nodes a move (doubling scale)",
	"playouts": "playouts a move (doubling scale)",
	"depth":    "search depth (plies)",
}

// PlotCurves draws strength curves of one budget key: per family, its ratings (Elo, the
// tournament's anchor = 0) against the budget on a log2 axis (depth: plies, linear), joined by a line, with 95%
// bootstrap intervals as error bars (none for a rating set by the prior); families are
// shifted slightly apart along x. It writes name.png and name.svg into dir; no files when no
// curve has the key.
func PlotCurves(dir, name, title, key string, curves []tally.Curve) ([]string, error) {
	p := newPlot()
	p.Title.Text = title
	p.X.Label.Text = curveAxis[key]
	p.Y.Label.Text = "Elo (the tournament's first agent = 0; 95% bootstrap interval)"
	p.Legend.Top, p.Legend.Left = true, true
	var budgets []float64
	var drawn []tally.Curve
	for _, c := range curves {
		if c.Key == key && len(c.Points) > 0 {
			drawn = append(drawn, c)
		}
	}
	if len(drawn) == 0 {
		return nil, nil
	}
	for si, c := range drawn {
		var pts errPoints
		shift := 0.04 * (float64(si) - float64(len(drawn)-1)/2) // in doublings (plies for depth)
		for _, pt := range c.Points {
			x := axisX(key, pt.Budget)
			budgets = append(budgets, pt.Budget)
			lo, hi := pt.Elo.Value-pt.Elo.Low, pt.Elo.High-pt.Elo.Value
			if math.IsNaN(lo) || math.IsNaN(hi) {
				lo, hi = 0, 0 // set by the prior, or no bootstrap: the CSV says so
			}
			pts.XYs = append(pts.XYs, plotter.XY{X: x + shift, Y: pt.Elo.Value})
			pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{lo, hi})
		}
		if err := addErrLine(p, pts, si, c.Family); err != nil {
			return nil, err
		}
	}
	slices.Sort(budgets)
	budgets = slices.Compact(budgets)
	p.X.Tick.Marker = budgetTicks{key, budgets}
	lo, hi := axisX(key, budgets[0]), axisX(key, budgets[len(budgets)-1])
	p.X.Min, p.X.Max = lo-0.3, hi+0.3
	p.Y.Max += 0.3 * (p.Y.Max - p.Y.Min) // room for the legend
	return savePlot(p, dir, name, 7*vg.Inch, 4.5*vg.Inch)
}

// axisX places a budget on the x axis: log2 of it, except depth (plies as they are).
func axisX(key string, budget float64) float64 {
	if key == "depth" {
		return budget
	}
	return math.Log2(budget)
}

// budgetTicks labels the x axis at the budgets played.
type budgetTicks struct {
	key     string
	budgets []float64
}

// Ticks puts one labelled tick at each budget within [min, max].
func (b budgetTicks) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for _, v := range b.budgets {
		if x := axisX(b.key, v); x >= min && x <= max {
			out = append(out, plot.Tick{Value: x, Label: strconv.FormatFloat(v, 'g', 6, 64)})
		}
	}
	return out
}
