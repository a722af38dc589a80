package results

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// errPoints are points with asymmetric vertical error bars.
type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

// savePlot writes p as name.png and name.svg in dir (each atomically: never a truncated plot
// under its final name) and returns the file names.
func savePlot(p *plot.Plot, dir, name string, w, h vg.Length) ([]string, error) {
	var files []string
	for _, ext := range []string{".png", ".svg"} {
		f := filepath.Join(dir, name+ext)
		wt, err := p.WriterTo(w, h, ext[1:])
		if err != nil {
			return files, fmt.Errorf("plot %s: %w", f, err)
		}
		var buf bytes.Buffer
		if _, err := wt.WriteTo(&buf); err != nil {
			return files, fmt.Errorf("plot %s: %w", f, err)
		}
		if err := WriteFileAtomic(f, buf.Bytes()); err != nil {
			return files, fmt.Errorf("plot %s: %w", f, err)
		}
		files = append(files, name+ext)
	}
	return files, nil
}

// finite replaces NaN (a rate of no games) by 0 so that plots of empty runs draw.
func finite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// PlotOutcomes draws the outcome rates (first wins, second wins, draws other than caps, caps,
// forfeits) with 95% Wilson error bars.
func PlotOutcomes(s *Summary, title, dir string) ([]string, error) {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = "share of games (95% Wilson interval)"
	p.Y.Min, p.Y.Max = 0, 1
	labels := []string{"first wins", "second wins", "draws (no cap)", "caps", "forfeits"}
	counts := []int64{s.FirstWins, s.SecondWins, s.Draws - s.Caps, s.Caps, s.Forfeits}
	vals := make(plotter.Values, len(counts))
	pts := errPoints{XYs: make(plotter.XYs, len(counts)), YErrors: make(plotter.YErrors, len(counts))}
	for i, c := range counts {
		iv := Wilson(c, s.N, Z95)
		v := finite(iv.Value)
		vals[i] = v
		pts.XYs[i] = plotter.XY{X: float64(i), Y: v}
		pts.YErrors[i].Low, pts.YErrors[i].High = finite(v-iv.Low), finite(iv.High-v)
	}
	bars, err := plotter.NewBarChart(vals, vg.Points(40))
	if err != nil {
		return nil, err
	}
	bars.Color = color.RGBA{R: 70, G: 110, B: 170, A: 255}
	eb, err := plotter.NewYErrorBars(pts)
	if err != nil {
		return nil, err
	}
	p.Add(bars, eb)
	p.NominalX(labels...)
	return savePlot(p, dir, "outcomes", 6*vg.Inch, 4*vg.Inch)
}

// PlotLengths draws the histogram of game lengths in plies.
func PlotLengths(s *Summary, title, dir string) ([]string, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "game length (plies)"
	p.Y.Label.Text = "games"
	maxLen := len(s.Lengths)
	bins := 50
	if maxLen < bins {
		bins = maxLen
	}
	if bins < 1 {
		bins = 1
	}
	width := math.Ceil(float64(maxLen) / float64(bins))
	if width < 1 {
		width = 1
	}
	xys := make(plotter.XYs, 0, len(s.Lengths))
	for k, c := range s.Lengths {
		if c > 0 {
			xys = append(xys, plotter.XY{X: float64(k), Y: float64(c)})
		}
	}
	if len(xys) == 0 {
		xys = append(xys, plotter.XY{})
	}
	h, err := plotter.NewHistogram(xys, bins)
	if err != nil {
		return nil, err
	}
	h.FillColor = color.RGBA{R: 70, G: 110, B: 170, A: 255}
	p.Add(h)
	return savePlot(p, dir, "lengths", 6*vg.Inch, 4*vg.Inch)
}

// PlotRunning draws the first player's win rate as games accumulate, with its 95% Wilson band
// and the 50% line.
func PlotRunning(s *Summary, title, dir string) ([]string, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "games played"
	p.Y.Label.Text = "first player's win rate (95% Wilson band)"
	line := make(plotter.XYs, 0, len(s.Running))
	var upper, lower plotter.XYs
	for _, pt := range s.Running {
		if pt.N == 0 {
			continue
		}
		iv := Wilson(pt.FirstWins, pt.N, Z95)
		line = append(line, plotter.XY{X: float64(pt.N), Y: iv.Value})
		upper = append(upper, plotter.XY{X: float64(pt.N), Y: iv.High})
		lower = append(lower, plotter.XY{X: float64(pt.N), Y: iv.Low})
	}
	if len(line) == 0 {
		line = append(line, plotter.XY{})
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
	}
	l, err := plotter.NewLine(line)
	if err != nil {
		return nil, err
	}
	l.Color = color.RGBA{R: 30, G: 60, B: 140, A: 255}
	half, _ := plotter.NewLine(plotter.XYs{{X: line[0].X, Y: 0.5}, {X: line[len(line)-1].X, Y: 0.5}})
	half.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(l, half)
	p.Y.Min, p.Y.Max = 0, 1
	if line[0].X >= 1 && line[len(line)-1].X > 10 {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
		p.X.Label.Text = "games played (log scale)"
	}
	return savePlot(p, dir, "running", 6*vg.Inch, 4*vg.Inch)
}
