package report

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/tally"

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
	var c tally.RateCounts
	for _, r := range rates {
		c.Add(r)
	}
	return PlotRateCounts(&c, bandLow, bandHigh, title, xlabel, dir, name)
}

// PlotRateCounts is PlotRates from rates aggregated as they came (RateCounts), so that a
// histogram of millions of boards needs no slice of them.
func PlotRateCounts(c *tally.RateCounts, bandLow, bandHigh float64, title, xlabel, dir, name string) ([]string, error) {
	p := newPlot()
	p.Title.Text = wrapTitle(title, titleWidth)
	p.X.Label.Text = xlabel
	p.Y.Label.Text = "boards"
	mean := c.Mean()
	vals, count := c.Values(), c.Of
	if c.Len() == 0 {
		mean, vals, count = 0, []float64{0.5}, func(float64) float64 { return 1 }
	}
	h, err := tally.AlignedHistCounts(vals, count, 40)
	if err != nil {
		return nil, err
	}
	h.FillColor = color.RGBA{R: 70, G: 110, B: 170, A: 255}
	p.Y.Tick.Marker = countTicks{}
	maxY := 0.0
	for _, b := range h.Bins {
		maxY = math.Max(maxY, b.Weight)
	}
	band, err := shadedBand(bandLow, bandHigh, 0, maxY*1.05, false)
	if err != nil {
		return nil, err
	}
	ml, _ := plotter.NewLine(plotter.XYs{{X: mean, Y: 0}, {X: mean, Y: maxY * 1.05}})
	ml.Color = color.RGBA{R: 200, A: 255}
	ml.Width = vg.Points(1.5)
	p.Add(band, h, ml)
	p.Legend.Add(fmt.Sprintf("mean %.3f", mean), ml)
	p.Legend.Add(fmt.Sprintf("fairness band %.2f-%.2f", bandLow, bandHigh), band)
	p.Legend.Top = true
	p.Y.Min, p.Y.Max = 0, maxY*1.3 // room for the legend above the bars
	return savePlot(p, dir, name, 6*vg.Inch, 4*vg.Inch)
}

// alignedHist bins values that are multiples of a common step (rates k/n of boards with n
// games each) into bins of a whole number of steps centred on the multiples, so that no bin
// catches one value more than its neighbours (a comb); other values get target equal bins.
func alignedHist(vals plotter.Values, target int) (*plotter.Histogram, error) {
	var c tally.RateCounts
	for _, v := range vals {
		c.Add(v)
	}
	return tally.AlignedHistCounts(c.Values(), c.Of, target)
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
	// Thin lines between squares, thick ones around the four 4×4 tiles and the board.
	thin := draw.LineStyle{Color: color.RGBA{R: 255, G: 255, B: 255, A: 160}, Width: vg.Points(0.4)}
	thick := draw.LineStyle{Color: color.Black, Width: vg.Points(1.6)}
	for k := 0; k <= 8; k++ {
		st := thin
		if k%4 == 0 {
			st = thick
		}
		x, y := tx(float64(k)), ty(float64(k))
		c.StrokeLine2(st, x, ty(0), x, ty(8))
		c.StrokeLine2(st, tx(0), y, tx(8), y)
	}
}

// wrapCaption breaks a caption longer than width at its last '/' or ' ' before width, so that
// long layout names (random colour grids) do not run into their neighbours.
func wrapCaption(s string, width int) string { return wrapAt(s, width, "/ ") }

// titleWidth is the most characters a line of a histogram's title holds at its 12-point font
// in the 6-inch plot (longer lines ran off both edges: agent specs with every parameter).
const titleWidth = 72

// wrapTitle breaks each line of a plot title longer than width after its last ' ' or ','
// before width (agent specs have no spaces, only commas).
func wrapTitle(s string, width int) string { return wrapAt(s, width, " ,") }

// wrapAt breaks each line of s longer than width after the last of seps before width (or at
// width when there is none), keeping every character; the result is trimmed of outer space.
func wrapAt(s string, width int, seps string) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		for len(line) > width {
			cut := strings.LastIndexAny(line[:width], seps)
			if cut <= 0 {
				cut = width - 1
			}
			out = append(out, line[:cut+1])
			line = line[cut+1:]
		}
		out = append(out, line)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// saveTiles renders plots in rows×cols tiles as name.png and name.svg.
func saveTiles(plots [][]*plot.Plot, dir, name, title string, w, h vg.Length) ([]string, error) {
	rows, cols := len(plots), len(plots[0])
	titleStyle := plot.New().Title.TextStyle
	padTop := vg.Millimeter * 2
	if title != "" {
		padTop += titleStyle.Height(title) + vg.Millimeter*3
	}
	t := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 3, PadY: vg.Millimeter * 6,
		PadTop: padTop, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
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
		if title != "" {
			ts := titleStyle
			ts.XAlign, ts.YAlign = draw.XCenter, draw.YTop
			dc.FillText(ts, vg.Point{X: w / 2, Y: h - vg.Millimeter*2}, title)
		}
		canvases := plot.Align(plots, t, dc)
		for r := range plots {
			for c := range plots[r] {
				if plots[r][c] != nil {
					plots[r][c].Draw(canvases[r][c])
				}
			}
		}
		if err := gamefile.WriteAtomic(filepath.Join(dir, name+ext), writeTo); err != nil {
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
		p := newPlot()
		if i < len(grids) {
			p.Add(boardPlotter{grids[i]})
			p.Title.Text = wrapCaption(captions[i], 36)
		}
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 8, 0, 8
		p.HideAxes()
		plots[i/3][i%3] = p
	}
	return saveTiles(plots, dir, name, title, 9*vg.Inch, 7.2*vg.Inch)
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
	plots := [][]*plot.Plot{make([]*plot.Plot, 3), make([]*plot.Plot, 3)}
	pal := moreland.SmoothBlueRed()
	pal.SetMin(-maxAbs)
	pal.SetMax(maxAbs)
	bar := newPlot()
	bar.Add(&plotter.ColorBar{ColorMap: pal, Vertical: true})
	bar.HideX()
	bar.Y.Label.Text = "log-odds effect on White winning"
	bar.Title.Text = "colour scale\n(red helps White,\nblue helps Black)"
	plots[0][2] = bar
	key := newPlot()
	key.HideAxes()
	key.Title.Text = "Effects are relative to\nthe mean of the four colours\non each square; their z values\nare in colour_effects.csv"
	plots[1][2] = key
	for k := 0; k < 4; k++ {
		p := newPlot()
		hm := plotter.NewHeatMap(effectGrid(effects[k]), pal.Palette(64))
		hm.Min, hm.Max = -maxAbs, maxAbs
		p.Add(hm)
		p.Title.Text = names[k]
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 8, 0, 8
		p.X.Tick.Marker = fileTicks{}
		p.Y.Tick.Marker = rankTicks{}
		plots[k/2][k%2] = p
	}
	return saveTiles(plots, dir, name, fmt.Sprintf("%s\n(log-odds for White, colour scale ±%.3f)", title, maxAbs), 11*vg.Inch, 8*vg.Inch)
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
