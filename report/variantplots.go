package report

import (
	"image/color"
	"math"
	"slices"

	"github.com/fairplay-lab/fairplay/tally"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PlotVariantMetric draws one metric against agent strength (the ladder levels, weakest
// first, on the x axis), one line per variant with its 95% interval as a translucent band, in
// the manner of the AlphaZero chess-variants balance study. It writes
// variants_<metric>.png/.svg into dir.
func PlotVariantMetric(dir, title, metric string, levels []string, cells []tally.VariantCell) ([]string, error) {
	p := newPlot()
	p.Title.Text = title
	p.X.Label.Text = "agent strength (ladder level)"
	p.Y.Label.Text = metric + " (95% interval band)"
	p.Legend.Top, p.Legend.Left = true, true
	var variants []string
	for _, c := range cells {
		if !slices.Contains(variants, c.Variant) {
			variants = append(variants, c.Variant)
		}
	}
	for vi, v := range variants {
		var line plotter.XYs
		var lo, hi []plotter.XY
		for _, c := range cells {
			if c.Variant != v {
				continue
			}
			for _, m := range tally.CellMetrics(c.Summary) {
				if m.Name != metric || m.Value != m.Value { // skip NaN
					continue
				}
				x := float64(c.Level)
				line = append(line, plotter.XY{X: x, Y: m.Value})
				lo = append(lo, plotter.XY{X: x, Y: m.Low})
				hi = append(hi, plotter.XY{X: x, Y: m.High})
			}
		}
		if len(line) == 0 {
			continue
		}
		col := plotutil.Color(vi)
		// The band is drawn over each run of consecutive levels whose interval has both ends (a
		// cell of one pair has none): a NaN vertex would fail the whole plot.
		for start := 0; start < len(line); {
			end := start
			for end < len(line) && finite(lo[end].Y) && finite(hi[end].Y) {
				end++
			}
			if end-start > 1 {
				ring := append(plotter.XYs(nil), lo[start:end]...)
				for i := end - 1; i >= start; i-- {
					ring = append(ring, hi[i])
				}
				band, err := plotter.NewPolygon(ring)
				if err != nil {
					return nil, err
				}
				r, g, b, _ := col.RGBA()
				band.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 50}
				band.LineStyle.Width = 0
				p.Add(band)
			}
			start = end + 1
		}
		l, pts, err := plotter.NewLinePoints(line)
		if err != nil {
			return nil, err
		}
		l.Color, pts.Color = col, col
		l.Dashes = plotutil.Dashes(vi)
		pts.Shape = draw.CircleGlyph{}
		p.Add(l, pts)
		p.Legend.Add(v, l, pts)
	}
	p.NominalX(levels...)
	p.X.Min, p.X.Max = -0.3, float64(len(levels))-0.7
	p.Y.Max += 0.25 * (p.Y.Max - p.Y.Min) // room for the legend above the lines
	return savePlot(p, dir, "variants_"+metric, 7*vg.Inch, 4.5*vg.Inch)
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
