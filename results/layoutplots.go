package results

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// squareColours are the drawing colours of Katarenga's r, y, g, b squares.
var squareColours = map[byte]color.Color{
	'r': color.RGBA{R: 200, G: 50, B: 50, A: 255}, 'y': color.RGBA{R: 235, G: 200, B: 40, A: 255},
	'g': color.RGBA{R: 60, G: 150, B: 70, A: 255}, 'b': color.RGBA{R: 50, G: 90, B: 190, A: 255},
}

// PlotRates draws the histogram of rates (one per board or choice) with their mean and the
// fairness band, as name.png and name.svg.
func PlotRates(rates []float64, bandLow, bandHigh float64, title, xlabel, dir, name string) ([]string, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = "boards"
	vals := make(plotter.Values, len(rates))
	mean := 0.0
	for i, r := range rates {
		vals[i] = r
		mean += r
	}
	if len(rates) == 0 {
		vals = plotter.Values{0.5}
	} else {
		mean /= float64(len(rates))
	}
	h, err := plotter.NewHist(vals, 40)
	if err != nil {
		return nil, err
	}
	h.FillColor = color.RGBA{R: 70, G: 110, B: 170, A: 255}
	maxY := 0.0
	for _, b := range h.Bins {
		maxY = math.Max(maxY, b.Weight)
	}
	band, _ := plotter.NewPolygon(plotter.XYs{{X: bandLow, Y: 0}, {X: bandHigh, Y: 0}, {X: bandHigh, Y: maxY * 1.05}, {X: bandLow, Y: maxY * 1.05}})
	band.Color = color.RGBA{R: 200, G: 230, B: 200, A: 255}
	band.LineStyle.Width = 0
	ml, _ := plotter.NewLine(plotter.XYs{{X: mean, Y: 0}, {X: mean, Y: maxY * 1.05}})
	ml.Color = color.RGBA{R: 200, A: 255}
	ml.Width = vg.Points(1.5)
	p.Add(band, h, ml)
	p.Legend.Add(fmt.Sprintf("mean %.3f", mean), ml)
	p.Legend.Add(fmt.Sprintf("fairness band %.2f-%.2f", bandLow, bandHigh), band)
	p.Legend.Top = true
	return savePlot(p, dir, name, 6*vg.Inch, 4*vg.Inch)
}

// boardPlotter draws a colour grid (rank 8 on top) as 8×8 unit squares.
type boardPlotter struct{ grid string }

func (b boardPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	for i := 0; i < 64 && i+i/8 < len(b.grid); i++ {
		rank, file := 7-i/8, i%8
		col := squareColours[b.grid[i+i/8]]
		x0, y0 := tx(float64(file)), ty(float64(rank))
		x1, y1 := tx(float64(file+1)), ty(float64(rank+1))
		c.FillPolygon(col, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
	}
}

// saveTiles renders plots in rows×cols tiles as name.png and name.svg.
func saveTiles(plots [][]*plot.Plot, dir, name string, w, h vg.Length) ([]string, error) {
	rows, cols := len(plots), len(plots[0])
	t := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 3, PadY: vg.Millimeter * 3,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	var files []string
	for _, ext := range []string{".png", ".svg"} {
		var canvas vg.CanvasSizer
		var writeTo func(*os.File) error
		if ext == ".png" {
			img := vgimg.New(w, h)
			canvas = img
			writeTo = func(f *os.File) error { _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); return err }
		} else {
			svg := vgsvg.New(w, h)
			canvas = svg
			writeTo = func(f *os.File) error { _, err := svg.WriteTo(f); return err }
		}
		dc := draw.New(canvas)
		canvases := plot.Align(plots, t, dc)
		for r := range plots {
			for c := range plots[r] {
				if plots[r][c] != nil {
					plots[r][c].Draw(canvases[r][c])
				}
			}
		}
		if err := writeAtomic(filepath.Join(dir, name+ext), writeTo); err != nil {
			return files, err
		}
		files = append(files, name+ext)
	}
	return files, nil
}

// PlotBoards draws up to six boards (colour grids) with their captions in a 2×3 picture.
func PlotBoards(grids, captions []string, title, dir, name string) ([]string, error) {
	plots := [][]*plot.Plot{make([]*plot.Plot, 3), make([]*plot.Plot, 3)}
	for i := 0; i < 6; i++ {
		p := plot.New()
		if i < len(grids) {
			p.Add(boardPlotter{grids[i]})
			p.Title.Text = captions[i]
		}
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 8, 0, 8
		p.HideAxes()
		if i == 0 {
			p.Title.Text = title + "\n" + p.Title.Text
		}
		plots[i/3][i%3] = p
	}
	return saveTiles(plots, dir, name, 9*vg.Inch, 6.6*vg.Inch)
}

// effectGrid adapts 64 values (square index file+8·rank) to plotter.GridXYZ.
type effectGrid [64]float64

func (g effectGrid) Dims() (int, int)   { return 8, 8 }
func (g effectGrid) Z(c, r int) float64 { return g[r*8+c] }
func (g effectGrid) X(c int) float64    { return float64(c) + 0.5 }
func (g effectGrid) Y(r int) float64    { return float64(r) + 0.5 }

// PlotColourEffects draws four 8×8 heatmaps, one per square colour: the log-odds effect on
// White winning of that colour on each square (red: helps White, blue: helps Black).
func PlotColourEffects(effects [4][64]float64, title, dir, name string) ([]string, error) {
	maxAbs := 1e-9
	for _, e := range effects {
		for _, v := range e {
			maxAbs = math.Max(maxAbs, math.Abs(v))
		}
	}
	names := []string{"red squares", "yellow squares", "green squares", "blue squares"}
	plots := [][]*plot.Plot{make([]*plot.Plot, 2), make([]*plot.Plot, 2)}
	for k := 0; k < 4; k++ {
		p := plot.New()
		pal := moreland.SmoothBlueRed()
		pal.SetMin(-maxAbs)
		pal.SetMax(maxAbs)
		hm := plotter.NewHeatMap(effectGrid(effects[k]), pal.Palette(64))
		hm.Min, hm.Max = -maxAbs, maxAbs
		p.Add(hm)
		p.Title.Text = names[k]
		if k == 0 {
			p.Title.Text = fmt.Sprintf("%s\n(log-odds for White, colour scale ±%.3f; red helps White)\n%s", title, maxAbs, names[k])
		}
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 8, 0, 8
		p.X.Tick.Marker = fileTicks{}
		p.Y.Tick.Marker = rankTicks{}
		plots[k/2][k%2] = p
	}
	return saveTiles(plots, dir, name, 8*vg.Inch, 8.4*vg.Inch)
}

type fileTicks struct{}

func (fileTicks) Ticks(min, max float64) []plot.Tick {
	var t []plot.Tick
	for f := 0; f < 8; f++ {
		t = append(t, plot.Tick{Value: float64(f) + 0.5, Label: string(rune('a' + f))})
	}
	return t
}

type rankTicks struct{}

func (rankTicks) Ticks(min, max float64) []plot.Tick {
	var t []plot.Tick
	for r := 0; r < 8; r++ {
		t = append(t, plot.Tick{Value: float64(r) + 0.5, Label: string(rune('1' + r))})
	}
	return t
}
