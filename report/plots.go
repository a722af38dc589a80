package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strconv"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"
	"github.com/fairplay-lab/fairplay/tally"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// errPoints are points with asymmetric vertical error bars.
type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

// addErrLine adds series number si of a plot: its points joined by a line, with their error
// bars, in the series' colour and dashes, and a legend entry.
func addErrLine(p *plot.Plot, pts errPoints, si int, label string) error {
	col := plotutil.Color(si)
	lp, sc, err := plotter.NewLinePoints(pts.XYs)
	if err != nil {
		return err
	}
	lp.Color, lp.Dashes = col, plotutil.Dashes(si)
	sc.Color, sc.Shape = col, draw.CircleGlyph{}
	eb, err := plotter.NewYErrorBars(pts)
	if err != nil {
		return err
	}
	eb.Color = col
	p.Add(lp, sc, eb)
	p.Legend.Add(label, lp, sc)
	return nil
}

// savePlot writes p as name.png and name.svg in dir (each atomically: never a truncated plot
// under its final name) and returns the file names.
func savePlot(p *plot.Plot, dir, name string, w, h vg.Length) ([]string, error) {
	return saveDrawing(p.Draw, dir, name, w, h)
}

// saveDrawing is savePlot for a picture drawn by paint onto a canvas of w × h.
func saveDrawing(paint func(draw.Canvas), dir, name string, w, h vg.Length) ([]string, error) {
	var files []string
	for _, ext := range []string{".png", ".svg"} {
		f := filepath.Join(dir, name+ext)
		c, err := draw.NewFormattedCanvas(w, h, ext[1:])
		if err != nil {
			return files, fmt.Errorf("plot %s: %w", f, err)
		}
		paint(draw.New(c))
		var buf bytes.Buffer
		if _, err := c.WriteTo(&buf); err != nil {
			return files, fmt.Errorf("plot %s: %w", f, err)
		}
		if err := gamefile.WriteFileAtomic(f, buf.Bytes()); err != nil {
			return files, fmt.Errorf("plot %s: %w", f, err)
		}
		files = append(files, name+ext)
	}
	return files, nil
}

// newPlot starts a plot with the toolkit's defaults: legend rows set a little apart (gonum
// packs them edge to edge, and a swatch that fills its row then touches the next line).
func newPlot() *plot.Plot {
	p := plot.New()
	p.Legend.Padding = vg.Points(2)
	return p
}

// countTicks marks an axis of counts with whole numbers only (no 2.5 games).
type countTicks struct{}

// Ticks keeps the default ticks that fall on whole numbers, labelled without decimals.
func (countTicks) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for _, t := range (plot.DefaultTicks{}).Ticks(min, max) {
		if t.Value != math.Trunc(t.Value) {
			if t.Label == "" {
				out = append(out, plot.Tick{Value: t.Value}) // a minor tick may stay unlabelled
			}
			continue
		}
		if t.Label != "" {
			t.Label = strconv.FormatFloat(t.Value, 'f', 0, 64)
		}
		out = append(out, t)
	}
	return out
}

var barBlue = color.RGBA{R: 70, G: 110, B: 170, A: 255}

// PlotOutcomes draws the outcome rates (first wins, second wins, draws other than caps, caps,
// forfeits) with their 95% intervals as in summary.csv (the headline method), each labelled
// with its value and interval rounded to what the interval supports; the scale
// ends a little above the largest interval, so that small rates keep visible intervals.
func PlotOutcomes(s *tally.Summary, title, dir string) ([]string, error) {
	p := newPlot()
	p.Title.Text = title
	labels := []string{"first wins", "second wins", "draws (no cap)", "caps", "forfeits"}
	names := []string{"first_win_rate", "second_win_rate", "drawishness", "cap_rate", "forfeit_rate"}
	rows := s.Stats()
	first, _ := tally.StatByName(rows, names[0])
	p.Y.Label.Text = fmt.Sprintf("share of %d games (95%% CI: %s)", s.N, first.Method)
	vals := make(plotter.Values, len(names))
	pts := errPoints{XYs: make(plotter.XYs, len(names)), YErrors: make(plotter.YErrors, len(names))}
	var text plotter.XYLabels
	top := 0.0
	for i, name := range names {
		st, _ := tally.StatByName(rows, name)
		iv := st.Interval
		if math.IsNaN(iv.Value) || math.IsNaN(iv.Low) { // no games
			iv = stats.Interval{}
		}
		vals[i] = iv.Value
		pts.XYs[i] = plotter.XY{X: float64(i), Y: iv.Value}
		pts.YErrors[i].Low, pts.YErrors[i].High = iv.Value-iv.Low, iv.High-iv.Value
		top = math.Max(top, iv.High)
		text.XYs = append(text.XYs, plotter.XY{X: float64(i), Y: iv.High})
		v, lo, hi := stats.RoundCI(stats.Interval{Value: 100 * iv.Value, Low: 100 * iv.Low, High: 100 * iv.High})
		text.Labels = append(text.Labels, fmt.Sprintf("%s%%\n[%s, %s]", v, lo, hi))
	}
	if top == 0 {
		top = 1
	}
	bars, err := plotter.NewBarChart(vals, vg.Points(40))
	if err != nil {
		return nil, err
	}
	bars.Color = barBlue
	eb, err := plotter.NewYErrorBars(pts)
	if err != nil {
		return nil, err
	}
	lab, err := plotter.NewLabels(text)
	if err != nil {
		return nil, err
	}
	for i := range lab.TextStyle {
		lab.TextStyle[i].XAlign, lab.TextStyle[i].YAlign = -0.5, 0
		lab.Offset = vg.Point{Y: vg.Points(3)}
	}
	p.Add(bars, eb, lab)
	p.NominalX(labels...)
	p.Y.Min, p.Y.Max = 0, math.Min(1, top*1.3)
	return savePlot(p, dir, "outcomes", 6*vg.Inch, 4*vg.Inch)
}

// PlotLengths draws the histogram of game lengths in plies, in bins of a whole number of
// plies (no comb of empty bins), with the ply cap marked when games reached it.
func PlotLengths(s *tally.Summary, title, dir string) ([]string, error) {
	p := newPlot()
	p.Title.Text = title
	p.X.Label.Text = "game length (plies)"
	p.Y.Label.Text = "games"
	p.Y.Tick.Marker = countTicks{}
	width := max(1, int(math.Ceil(float64(len(s.Lengths))/60)))
	h := &plotter.Histogram{Width: float64(width), FillColor: barBlue, LineStyle: plotter.DefaultLineStyle}
	h.LineStyle.Width = vg.Points(0.3)
	maxY := 0.0
	for k, c := range s.Lengths {
		if c == 0 {
			continue
		}
		b := k / width
		for len(h.Bins) <= b {
			lo := float64(len(h.Bins)*width) - 0.5
			h.Bins = append(h.Bins, plotter.HistogramBin{Min: lo, Max: lo + float64(width)})
		}
		h.Bins[b].Weight += float64(c)
		maxY = math.Max(maxY, h.Bins[b].Weight)
	}
	if len(h.Bins) == 0 {
		h.Bins = []plotter.HistogramBin{{Min: -0.5, Max: 0.5}}
	}
	p.Add(h)
	p.Y.Min = 0
	if s.CapPlies > 0 && s.Caps > 0 {
		cap, err := plotter.NewLine(plotter.XYs{{X: float64(s.CapPlies), Y: 0}, {X: float64(s.CapPlies), Y: maxY * 1.05}})
		if err != nil {
			return nil, err
		}
		cap.Color = color.RGBA{R: 200, A: 255}
		cap.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		cap.Width = vg.Points(1.5)
		p.Add(cap)
		p.Legend.Add(fmt.Sprintf("ply cap %d: %d games (%.1f%%) ended there", s.CapPlies, s.Caps, 100*float64(s.Caps)/float64(s.N)), cap)
		p.Legend.Top, p.Legend.Left = true, true
		p.Y.Max = maxY * 1.25
		p.X.Max = math.Max(p.X.Max, float64(s.CapPlies)+float64(width))
	}
	if len(h.Bins) > 0 && width > 1 {
		p.X.Label.Text = fmt.Sprintf("game length (plies, bins of %d)", width)
	}
	return savePlot(p, dir, "lengths", 6*vg.Inch, 4*vg.Inch)
}

// PlotRunning draws, as games accumulate, the first player's score (wins 1, draws ½) with its
// 95% band against the 50% line, and the shares of first-player wins and of draws: with many
// draws (Baran) the win rate alone sits far below ½ whoever is favoured.
func PlotRunning(s *tally.Summary, title, dir string) ([]string, error) {
	p := newPlot()
	p.Title.Text = title
	p.X.Label.Text = "games played"
	p.Y.Label.Text = "share of games"
	var score, upper, lower, wins, draws plotter.XYs
	for _, pt := range s.Running {
		if pt.N == 0 {
			continue
		}
		n := float64(pt.N)
		w, d := float64(pt.FirstWins)/n, float64(pt.Draws)/n
		sc := w + d/2
		se := math.Sqrt(math.Max(w+d/4-sc*sc, 0) / n)
		x := float64(pt.N)
		score = append(score, plotter.XY{X: x, Y: sc})
		upper = append(upper, plotter.XY{X: x, Y: math.Min(1, sc+stats.Z95*se)})
		lower = append(lower, plotter.XY{X: x, Y: math.Max(0, sc-stats.Z95*se)})
		wins = append(wins, plotter.XY{X: x, Y: w})
		draws = append(draws, plotter.XY{X: x, Y: d})
	}
	if len(score) == 0 {
		score, wins, draws = plotter.XYs{{}}, plotter.XYs{{}}, plotter.XYs{{}}
	}
	if len(upper) > 1 {
		poly := append(plotter.XYs{}, upper...)
		for i := len(lower) - 1; i >= 0; i-- {
			poly = append(poly, lower[i])
		}
		band, err := plotter.NewPolygon(poly)
		if err != nil {
			return nil, err
		}
		band.Color = color.RGBA{R: 170, G: 190, B: 230, A: 255}
		band.LineStyle.Width = 0
		p.Add(band)
		p.Legend.Add("95% interval of the score (games taken as independent)", band)
	}
	half, err := plotter.NewLine(plotter.XYs{{X: score[0].X, Y: 0.5}, {X: score[len(score)-1].X, Y: 0.5}})
	if err != nil {
		return nil, err
	}
	half.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(half)
	for _, l := range []struct {
		xys   plotter.XYs
		label string
		col   color.RGBA
		width float64
	}{{score, "first player's score (draw = ½)", color.RGBA{R: 30, G: 60, B: 140, A: 255}, 1.5},
		{wins, "first player's wins", color.RGBA{R: 0, G: 130, B: 60, A: 255}, 0.8},
		{draws, "draws", color.RGBA{R: 150, G: 150, B: 150, A: 255}, 0.8}} {
		line, err := plotter.NewLine(l.xys)
		if err != nil {
			return nil, err
		}
		line.Color, line.Width = l.col, vg.Points(l.width)
		p.Add(line)
		p.Legend.Add(l.label, line)
	}
	p.Legend.Top, p.Legend.Left = true, true
	p.Y.Min, p.Y.Max = 0, 1.4 // the legend sits above 1
	p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 0.25, Label: "0.25"}, {Value: 0.5, Label: "0.5"}, {Value: 0.75, Label: "0.75"}, {Value: 1, Label: "1"}})
	if score[0].X >= 1 && score[len(score)-1].X > 10 {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
		p.X.Label.Text = "games played (log scale)"
	} else {
		p.X.Tick.Marker = countTicks{}
	}
	return savePlot(p, dir, "running", 6*vg.Inch, 4*vg.Inch)
}
