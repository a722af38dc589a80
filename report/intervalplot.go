package report

import (
	"fmt"
	"image/color"
	"math"

	"github.com/fairplay-lab/fairplay/stats"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PlotIntervals draws one estimate per label (a ladder step, an agent's rating) as a point
// with its 95% interval as an error bar, and a dashed reference line at ref. A one-sided bound
// (stats.IsBound: a perfect score's Elo) is drawn as a bound, never as a point with a finite
// bar: a tick at the bound, an arrow from it towards the open side, and the bound in words
// beside it ("≥ +183 (one-sided 95%)"). Other non-finite ends are clipped to the range drawn.
// It writes name.png and name.svg into dir. No intervals, or a label count other than the
// intervals', is an error: there is nothing to draw, or nothing to name each estimate by.
func PlotIntervals(dir, name, title, ylabel string, labels []string, ivs []stats.Interval, ref float64) ([]string, error) {
	if len(ivs) == 0 {
		return nil, fmt.Errorf("plot %s: no intervals to draw", name)
	}
	if len(labels) != len(ivs) {
		return nil, fmt.Errorf("plot %s: %d labels for %d intervals", name, len(labels), len(ivs))
	}
	p := newPlot()
	p.Title.Text = title
	p.Y.Label.Text = ylabel
	lo, hi := ref, ref
	up, down := false, false // some bound is open upwards, downwards
	for _, iv := range ivs {
		for _, v := range []float64{iv.Value, iv.Low, iv.High} {
			if v == v && v > -1e6 && v < 1e6 {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
		if stats.IsBound(iv) {
			up, down = up || math.IsNaN(iv.High), down || math.IsNaN(iv.Low)
		}
	}
	pad := max(0.1*(hi-lo), 1)
	padLo, padHi := pad, pad
	if up { // room for the arrows and their words
		padHi = max(pad, 0.3*(hi-lo))
	}
	if down {
		padLo = max(pad, 0.3*(hi-lo))
	}
	yMin, yMax := lo-padLo, hi+padHi
	clip := func(v float64) float64 {
		if v != v {
			return ref
		}
		return max(yMin, min(yMax, v))
	}
	blue := color.RGBA{R: 30, G: 60, B: 140, A: 255}
	var pts errPoints
	var bounds plotter.XYs
	var boundWords plotter.XYLabels
	for i, iv := range ivs {
		x := float64(i)
		if stats.IsBound(iv) {
			b, dir := iv.Low, 1.0
			if math.IsNaN(iv.Low) {
				b, dir = iv.High, -1
			}
			b = clip(b)
			room := padHi
			if dir < 0 {
				room = padLo
			}
			end := b + dir*0.6*room
			if err := addArrow(p, x, b, end, blue); err != nil {
				return nil, err
			}
			bounds = append(bounds, plotter.XY{X: x, Y: b})
			text := stats.FormatElo(iv)
			if iv.Method != stats.OneSidedMethod {
				text, _ = stats.FormatBound(iv, stats.FormatShort)
			}
			boundWords.XYs = append(boundWords.XYs, plotter.XY{X: x, Y: (b + end) / 2})
			boundWords.Labels = append(boundWords.Labels, "  "+text+"  ")
			continue
		}
		y, l, h := clip(iv.Value), clip(iv.Low), clip(iv.High)
		if math.IsNaN(iv.Low) || math.IsNaN(iv.High) {
			l, h = y, y // no interval: the point alone
		}
		pts.XYs = append(pts.XYs, plotter.XY{X: x, Y: y})
		pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{y - l, h - y})
	}
	refLine, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: ref}, {X: float64(len(ivs)) - 0.5, Y: ref}})
	if err != nil {
		return nil, err
	}
	refLine.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(refLine)
	if len(pts.XYs) > 0 {
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle.Shape = draw.CircleGlyph{}
		sc.GlyphStyle.Color = blue
		eb, err := plotter.NewYErrorBars(pts)
		if err != nil {
			return nil, err
		}
		eb.Color = blue
		p.Add(eb, sc)
	}
	if len(bounds) > 0 {
		tick, err := plotter.NewScatter(bounds)
		if err != nil {
			return nil, err
		}
		tick.GlyphStyle = draw.GlyphStyle{Shape: boundTick{}, Color: blue, Radius: vg.Points(5)}
		words, err := plotter.NewLabels(boundWords)
		if err != nil {
			return nil, err
		}
		for i, xy := range boundWords.XYs {
			words.TextStyle[i].Color = blue
			words.TextStyle[i].YAlign = draw.YCenter
			if xy.X > float64(len(ivs))/2 { // on the right half the words go left of the arrow, inside the plot
				words.TextStyle[i].XAlign = draw.XRight
			}
		}
		p.Add(tick, words)
	}
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.5, float64(len(ivs))-0.5
	p.Y.Min, p.Y.Max = yMin, yMax
	return savePlot(p, dir, name, 7*vg.Inch, 4.5*vg.Inch)
}

// addArrow draws a line at x from y0 to y1 with an arrowhead at y1: a bound's open side.
func addArrow(p *plot.Plot, x, y0, y1 float64, c color.Color) error {
	dir := arrowUp
	if y1 < y0 {
		dir = arrowDown
	}
	return addArrowXY(p, plotter.XY{X: x, Y: y0}, plotter.XY{X: x, Y: y1}, dir, c)
}

// addArrowXY draws a line from a to b with an arrowhead pointing dir at b.
func addArrowXY(p *plot.Plot, a, b plotter.XY, dir arrowHead, c color.Color) error {
	l, err := plotter.NewLine(plotter.XYs{a, b})
	if err != nil {
		return err
	}
	l.Color, l.Width = c, vg.Points(1)
	head, err := plotter.NewScatter(plotter.XYs{b})
	if err != nil {
		return err
	}
	head.GlyphStyle = draw.GlyphStyle{Shape: dir, Color: c, Radius: vg.Points(4)}
	p.Add(l, head)
	return nil
}

// arrowHead is a filled triangle pointing up, down, left or right: the open end of a bound.
type arrowHead int

// The directions of an arrowHead.
const (
	arrowUp arrowHead = iota
	arrowDown
	arrowLeft
	arrowRight
)

// DrawGlyph implements draw.GlyphDrawer.
func (a arrowHead) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	tip, back := vg.Point{Y: r}, vg.Point{X: 0.8 * r, Y: -0.6 * r} // pointing up
	switch a {
	case arrowDown:
		tip, back = vg.Point{Y: -r}, vg.Point{X: 0.8 * r, Y: 0.6 * r}
	case arrowRight:
		tip, back = vg.Point{X: r}, vg.Point{X: -0.6 * r, Y: 0.8 * r}
	case arrowLeft:
		tip, back = vg.Point{X: -r}, vg.Point{X: 0.6 * r, Y: 0.8 * r}
	}
	var path vg.Path
	path.Move(pt.Add(tip))
	if a == arrowUp || a == arrowDown {
		path.Line(vg.Point{X: pt.X - back.X, Y: pt.Y + back.Y})
	} else {
		path.Line(vg.Point{X: pt.X + back.X, Y: pt.Y - back.Y})
	}
	path.Line(pt.Add(back))
	path.Close()
	c.SetColor(sty.Color)
	c.Fill(path)
}

// boundTick is a short horizontal bar: where a one-sided bound lies.
type boundTick struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (boundTick) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.StrokeLine2(draw.LineStyle{Color: sty.Color, Width: vg.Points(2)}, pt.X-sty.Radius, pt.Y, pt.X+sty.Radius, pt.Y)
}
