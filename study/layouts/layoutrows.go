package layouts

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"io"
	"math"
	"strconv"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"
)

// layoutRowsChunk is the number of layouts.csv rows formatted as one chunk, in parallel with
// other chunks, and written in order.
const layoutRowsChunk = 2048

// writeLayoutRows writes layouts.csv: one row per requested layout and seating. Chunks of rows
// are formatted on up to workers goroutines (the Beta quantiles of the shrunken intervals are
// most of the time) and written in order: the bytes do not depend on workers.
func writeLayoutRows(f io.Writer, sw *Sweep, spill *boardSpill, shrink gamefile.Shrink, workers int) error {
	bw := bufio.NewWriterSize(f, 1<<16)
	cw := csv.NewWriter(bw)
	cw.Write([]string{"layout_index", "layout", "grid", "mirror_class", "seating", "board_index", "n", "white_wins",
		"black_wins", "draws", "caps", "white_rate", "ci_low", "ci_high", "ci_method", "white_rate_eb", "eb_low", "eb_high", "p_value", "p_holm", "p_bh", "p_method", "mean_plies", "distinct_games"})
	cw.Flush()
	type part struct {
		buf   bytes.Buffer
		cw    *csv.Writer
		spill *boardSpill // a view: its own block cache
		eb    ebCache
	}
	nrows := sw.NumRows()
	chunks := (nrows + layoutRowsChunk - 1) / layoutRowsChunk
	parts := make([]part, max(1, min(workers, chunks)))
	for i := range parts {
		parts[i].cw, parts[i].spill = csv.NewWriter(&parts[i].buf), spill.view()
		parts[i].eb = ebCache{shrink: shrink, m: map[[2]int64]stats.Interval{}}
	}
	err := stats.FoldChunks(chunks, parts, func(p *part) { p.buf.Reset() }, func(c int, p *part) error {
		for k := c * layoutRowsChunk; k < min((c+1)*layoutRowsChunk, nrows); k++ {
			if err := writeLayoutRow(p.cw, sw, sw.Row(k), p.spill, &p.eb); err != nil {
				return err
			}
		}
		p.cw.Flush()
		return p.cw.Error()
	}, func(p *part) error {
		_, err := bw.Write(p.buf.Bytes())
		return err
	})
	if err != nil {
		return err
	}
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// ebCache remembers the shrunken intervals (gamefile.Shrink.Rate, two Beta quantiles) of the
// tallies met so far: boards of a fixed-n sweep share n, and their wins take at most n+1 values.
type ebCache struct {
	shrink gamefile.Shrink
	m      map[[2]int64]stats.Interval
}

// maxEBCache bounds an ebCache (an adaptive sweep's boards stop at many n).
const maxEBCache = 1 << 14

func (c *ebCache) rate(w, n int64) stats.Interval {
	if iv, ok := c.m[[2]int64{w, n}]; ok {
		return iv
	}
	iv := c.shrink.Rate(w, n)
	if len(c.m) < maxEBCache {
		c.m[[2]int64{w, n}] = iv
	}
	return iv
}

// writeLayoutRow writes row r of layouts.csv.
func writeLayoutRow(cw *csv.Writer, sw *Sweep, r SweepRow, spill *boardSpill, eb *ebCache) error {
	rec, err := spill.at(r.Board)
	if err != nil {
		return err
	}
	bc := rec.counts(r.Board)
	b := &bc
	if b.Key, b.Grid, err = spill.keyGrid(r.Board, &rec); err != nil {
		return err
	}
	ebr := eb.rate(b.WhiteWins, b.N)
	iv := sw.BandInterval(b.WhiteWins, b.N) // a sequential sweep's: the sequence it stopped on
	idx, name := "", ""
	if r.Layout.Index >= 0 {
		idx, name = strconv.Itoa(r.Layout.Index), r.Layout.Placement.String()
	}
	mc := ""
	if r.Mirror >= 0 {
		mc = strconv.Itoa(r.Mirror)
	}
	return cw.Write([]string{idx, name, b.Grid, mc, r.Seating, b.Key, i64(b.N), i64(b.WhiteWins), i64(b.BlackWins),
		i64(b.Draws), i64(b.Caps), f64(iv.Value), f64(iv.Low), f64(iv.High), iv.Method, f64(ebr.Value), f64(ebr.Low),
		f64(ebr.High), f64(rec.p), f64(rec.holm), f64(rec.bh), sw.pMethod(),
		f64(float64(b.PliesSum) / math.Max(1, float64(b.N))), i64(b.Distinct)})
}
