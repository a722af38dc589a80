package report

import (
	"fmt"
	"image/color"
	"strings"

	"github.com/fairplay-lab/fairplay/stats"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// RaceArm is one candidate of a race as drawn: its label, its games, its score with the
// interval (confidence sequence) it stopped on, and its answer.
type RaceArm struct {
	Label string
	N     int64
	Score stats.Interval
	State stats.ArmState
}

// raceStyles mark each answer of a race: a colour and a glyph.
var raceStyles = map[stats.ArmState]struct {
	col   color.RGBA
	shape draw.GlyphDrawer
}{
	stats.Inside:     {color.RGBA{R: 0, G: 130, B: 60, A: 255}, draw.CircleGlyph{}},
	stats.Fairest:    {color.RGBA{R: 0, G: 130, B: 60, A: 255}, draw.CircleGlyph{}},
	stats.Below:      {color.RGBA{R: 180, G: 40, B: 40, A: 255}, draw.TriangleGlyph{}},
	stats.Above:      {color.RGBA{R: 180, G: 40, B: 40, A: 255}, draw.BoxGlyph{}},
	stats.Eliminated: {color.RGBA{R: 180, G: 40, B: 40, A: 255}, draw.CrossGlyph{}},
	stats.Racing:     {color.RGBA{R: 120, G: 120, B: 120, A: 255}, draw.RingGlyph{}},
}

// PlotRace draws a race's candidates (the settings of one level): each one's score with the
// interval it stopped on as an error bar, coloured and shaped by its answer, its games in its
// label, a dashed line at 0.5 and, for a fair race (race stats.RaceFair), the band shaded.
// The rate axis is zoomed to the data (within 0-1). It writes name.png and name.svg into dir.
func PlotRace(dir, name, title, race string, bandLow, bandHigh float64, arms []RaceArm) ([]string, error) {
	p := newPlot()
	p.Title.Text = title
	p.Y.Label.Text = "first player's score (draw = ½), interval where it stopped"
	lo, hi := 0.5, 0.5
	if race == stats.RaceFair {
		lo, hi = min(lo, bandLow), max(hi, bandHigh)
	}
	for _, a := range arms {
		for _, v := range []float64{a.Score.Value, a.Score.Low, a.Score.High} {
			if finite(v) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	span := max(hi-lo, 0.02)
	yMin, yMax := max(0, lo-0.08*span), min(1, hi+0.35*span) // room for the legend above
	xMax := float64(len(arms)) - 0.5
	if race == stats.RaceFair {
		band, err := shadedBand(bandLow, bandHigh, -0.5, xMax, true)
		if err != nil {
			return nil, err
		}
		p.Add(band)
		p.Legend.Add(fmt.Sprintf("fairness band %.2f-%.2f", bandLow, bandHigh), band)
	}
	half, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: 0.5}, {X: xMax, Y: 0.5}})
	if err != nil {
		return nil, err
	}
	half.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(half)
	labels := make([]string, len(arms))
	for _, st := range []stats.ArmState{stats.Inside, stats.Fairest, stats.Below, stats.Above, stats.Eliminated, stats.Racing} {
		var pts errPoints
		for i, a := range arms {
			labels[i] = strings.ReplaceAll(a.Label, ",", "\n") + fmt.Sprintf("\nn=%d", a.N) // a switch a line
			if a.State != st || !finite(a.Score.Value) {
				continue
			}
			l, h := a.Score.Low, a.Score.High
			if !finite(l) || !finite(h) {
				l, h = a.Score.Value, a.Score.Value
			}
			pts.XYs = append(pts.XYs, plotter.XY{X: float64(i), Y: a.Score.Value})
			pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{a.Score.Value - l, h - a.Score.Value})
		}
		if len(pts.XYs) == 0 {
			continue
		}
		s := raceStyles[st]
		eb, err := plotter.NewYErrorBars(pts)
		if err != nil {
			return nil, err
		}
		eb.Color, eb.Width = s.col, vg.Points(1.2)
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Shape: s.shape, Color: s.col, Radius: vg.Points(3.5)}
		p.Add(eb, sc)
		p.Legend.Add(st.String(), sc)
	}
	p.Legend.Top = true
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.5, xMax
	p.Y.Min, p.Y.Max = yMin, yMax
	return savePlot(p, dir, name, vg.Length(max(7, 1.6*float64(len(arms))))*vg.Inch, 4.5*vg.Inch)
}

// shadedBand is a light green rectangle over [low, high] on one axis and [from, to] on the
// other: a fairness band, horizontal (across x, between y = low and high) or vertical.
func shadedBand(low, high, from, to float64, horizontal bool) (*plotter.Polygon, error) {
	ring := plotter.XYs{{X: low, Y: from}, {X: high, Y: from}, {X: high, Y: to}, {X: low, Y: to}}
	if horizontal {
		for i := range ring {
			ring[i].X, ring[i].Y = ring[i].Y, ring[i].X
		}
	}
	band, err := plotter.NewPolygon(ring)
	if err != nil {
		return nil, err
	}
	band.Color = color.RGBA{R: 200, G: 230, B: 200, A: 255}
	band.LineStyle.Width = 0
	return band, nil
}
