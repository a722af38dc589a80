package report

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// lineStyle gives series i of a plot its own colour and dash pattern together: colour i mod 7
// and dash pattern i mod 9 (plotutil's 7 dark colours and 9 patterns), a pair that no other
// of the first 63 series shares, so in grey print, or to a reader who tells colours apart
// badly, the dashes still tell the lines apart.
func lineStyle(i int) draw.LineStyle {
	return draw.LineStyle{Color: plotutil.DarkColors[i%len(plotutil.DarkColors)], Dashes: plotutil.Dashes(i), Width: vg.Points(1.5)}
}

// PlotTrajectory draws each tuned weight against the iteration, as its position within its
// bounds (0 = lower bound, 1 = upper) so weights of different scales share one axis; each
// weight has its own colour and line style (lineStyle), and the legend, which gives each
// weight's bounds, stands beside the plot, clear of the lines however many weights there are.
// values[k][i] is weight i after iteration k (row 0: the start). It writes name.png and
// name.svg into dir.
func PlotTrajectory(dir, name, title string, names []string, lo, hi []float64, values [][]float64) ([]string, error) {
	p := newPlot()
	p.Title.Text = title
	p.X.Label.Text = "SPSA iteration"
	p.Y.Label.Text = "weight within its bounds (0 = min, 1 = max)"
	p.Y.Min, p.Y.Max = 0, 1
	p.Legend.Top = true
	p.Legend.ThumbnailWidth = vg.Points(36) // long enough to show the dash pattern
	for i, n := range names {
		pts := make(plotter.XYs, len(values))
		for k, row := range values {
			pts[k] = plotter.XY{X: float64(k), Y: (row[i] - lo[i]) / (hi[i] - lo[i])}
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, err
		}
		l.LineStyle = lineStyle(i)
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("%s [%g, %g]", n, lo[i], hi[i]), l)
	}
	p.X.Min, p.X.Max = 0, float64(max(len(values)-1, 1))
	p.X.Tick.Marker = countTicks{}
	return saveWithLegendBeside(p, dir, name, 6*vg.Inch, 4.5*vg.Inch)
}

// saveWithLegendBeside saves p with its legend in a strip of its own right of the plot: the
// plot keeps w × h and the picture widens by the legend's width (and grows taller when the
// legend is taller than h).
func saveWithLegendBeside(p *plot.Plot, dir, name string, w, h vg.Length) ([]string, error) {
	r := p.Legend.Rectangle(draw.Canvas{})
	gap := vg.Points(12)
	strip := r.Max.X - r.Min.X + gap
	h = max(h, r.Max.Y-r.Min.Y+vg.Inch)
	p.Legend.XOffs = strip // from the plot's right edge into the strip
	return saveDrawing(func(c draw.Canvas) { p.Draw(draw.Crop(c, 0, -strip, 0, 0)) }, dir, name, w+strip, h)
}
