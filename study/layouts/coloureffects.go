package layouts

import (
	"encoding/binary"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/fairplay-lab/fairplay/stats"
)

// ridge is the penalty on each colour coefficient of the colour-effect regression (a N(0, 1)
// prior on the log-odds effects).
const ridge = 1.0

// effectsMethod names the colour-effect fit.
const effectsMethod = "logistic-ridge1-symmetric-colours-quasibinomial-boards"

// colourEffects fits a logistic regression of White winning (decisive games per board) on
// square-colour indicators: an intercept and, per square, one indicator for each of the four
// colours, all four under the same ridge penalty, so the coding is symmetric in the colours (no
// colour is a baseline the penalty shrinks towards). The effects are centred per square (sum to
// zero over the four colours). Their standard errors come from the fit's covariance, scaled by
// the Pearson dispersion over boards when it exceeds 1 (quasi-binomial: games on one board are
// not independent draws when they share seeds or pairs, so the board is the cluster).
func colourEffects(rep *LayoutReport, rows *colourRows, workers int) error {
	const params = 1 + 4*64
	if rows.len() < 200 {
		return fmt.Errorf("%d boards with decisive games; the colour-effect fit needs at least 200", rows.len())
	}
	// The design is read from the spill in every pass (257 columns × every board would take
	// hundreds of megabytes for a full sweep; even the counts are not kept), in chunks of
	// colourChunkRows rows summed on workers goroutines and added in chunk order: the fit
	// depends on the chunk size, not on the workers.
	n := rows.len()
	chunks := (n + colourChunkRows - 1) / colourChunkRows
	scan := func(c int, visit func(r *stats.SparseRow, succ, trials float64)) error {
		buf := chunkBufs.Get().(*[]byte)
		defer chunkBufs.Put(buf)
		lo := c * colourChunkRows
		recs, err := rows.recs.readRange(int64(lo), int64(min(colourChunkRows, n-lo)), *buf)
		*buf = recs
		if err != nil {
			return fmt.Errorf("%w: %v", errSpill, err)
		}
		var r stats.SparseRow
		r.Cols, r.Vals = make([]int, 0, 65), make([]float64, 0, 65)
		for ; len(recs) > 0; recs = recs[colourRowSize:] {
			s, t := decodeColourRow(recs[:colourRowSize], &r)
			visit(&r, float64(s), float64(t))
		}
		return nil
	}
	// Each quarter shows one of 32 tile faces, so its colour indicators span at most 31
	// dimensions (and the four colours of a square sum to the intercept): the design is
	// rank-deficient and the ridge penalty picks the smallest effects consistent with the data.
	penalty := make([]float64, params)
	for j := 1; j < params; j++ {
		penalty[j] = ridge
	}
	fit, err := stats.LogisticChunks(params, chunks, workers, scan, penalty)
	if err != nil {
		return err
	}
	// Pearson dispersion: X² over the residual degrees of freedom, the boards less the rank of
	// the design (McCullagh & Nelder 1989, Generalized Linear Models, §4.5.2: φ̂ = X²/(n − p)
	// with p the number of identifiable parameters). The rank is that of the boards' design, not
	// the 193 of an intercept and 3 contrasts per square: a tile-placement sweep's quarters show
	// one of 32 tile faces each and its design has rank 61.
	type x2Sums struct {
		x2   float64
		gram []float64 // the upper triangle: integer counts, exact in any order
	}
	accs := make([]x2Sums, max(1, min(workers, chunks)))
	for i := range accs {
		accs[i].gram = make([]float64, params*params)
	}
	x2, gram := 0.0, make([]float64, params*params)
	err = stats.FoldChunks(chunks, accs, func(a *x2Sums) {
		a.x2 = 0
		clear(a.gram)
	}, func(c int, a *x2Sums) error {
		return scan(c, func(row *stats.SparseRow, succ, trials float64) {
			for k, i := range row.Cols { // the columns ascend, each at most once, all values 1
				g := a.gram[i*params:]
				for _, j := range row.Cols[k:] {
					g[j]++
				}
			}
			eta := 0.0
			for j, c := range row.Cols {
				eta += row.Vals[j] * fit.Beta[c]
			}
			p := 1 / (1 + math.Exp(-eta))
			if v := trials * p * (1 - p); v > 0 {
				a.x2 += (succ - trials*p) * (succ - trials*p) / v
			}
		})
	}, func(a *x2Sums) error {
		x2 += a.x2
		for i, v := range a.gram {
			gram[i] += v
		}
		return nil
	})
	if err != nil {
		return err
	}
	disp := 1.0
	rep.DesignRank = stats.GramRank(mat.NewSymDense(params, gram))
	if df := n - rep.DesignRank; df > 0 {
		disp = math.Max(1, x2/float64(df))
	}
	for sq := 0; sq < 64; sq++ {
		var beta [4]float64
		for c := range beta {
			beta[c] = fit.Beta[1+4*sq+c]
		}
		m := (beta[0] + beta[1] + beta[2] + beta[3]) / 4
		for col := 0; col < 4; col++ {
			rep.Effects[col][sq] = beta[col] - m
			// e_col = a·β_sq with a_j = [j == col] − ¼
			v := 0.0
			for i := 0; i < 4; i++ {
				for j := 0; j < 4; j++ {
					ai, aj := -0.25, -0.25
					if i == col {
						ai++
					}
					if j == col {
						aj++
					}
					v += ai * aj * fit.Cov.At(1+4*sq+i, 1+4*sq+j)
				}
			}
			rep.EffectSE[col][sq] = math.Sqrt(v * disp)
		}
	}
	rep.Dispersion = disp
	type eff struct {
		sq, col int
		z       float64
	}
	var all []eff
	for sq := 0; sq < 64; sq++ {
		for col := 0; col < 4; col++ {
			all = append(all, eff{sq, col, rep.Effects[col][sq] / rep.EffectSE[col][sq]})
		}
	}
	sort.Slice(all, func(i, j int) bool { return math.Abs(all[i].z) > math.Abs(all[j].z) })
	describe := func(e eff) string {
		side := "White"
		if e.z < 0 {
			side = "Black"
		}
		return fmt.Sprintf("%s on %c%c helps %s (log-odds %+.3f ± %.3f, z = %+.1f)",
			[]string{"red", "yellow", "green", "blue"}[e.col], 'a'+e.sq%8, '1'+e.sq/8, side,
			rep.Effects[e.col][e.sq], rep.EffectSE[e.col][e.sq], e.z)
	}
	// Only effects that hold over the family of all 256 count as findings (Bonferroni, two-sided).
	for _, e := range all[:8] {
		if p := math.Erfc(math.Abs(e.z)/math.Sqrt2) * float64(len(all)); p < 0.05 {
			rep.TopEffects = append(rep.TopEffects, describe(e))
		}
	}
	if len(rep.TopEffects) == 0 {
		rep.TopEffects = []string{fmt.Sprintf("none distinguishable from zero (Bonferroni over %d effects); the largest: %s", len(all), describe(all[0]))}
	}
	return nil
}

// colourRows are the rows of the colour-effect fit on disk: per board with decisive games,
// White's wins, the decisive games and the colour of each square (2 bits, and a mask of the
// squares whose letter is not a colour).
type colourRows struct {
	recs *recordFile
}

const colourRowSize = 8 + 8 + 16 + 8

func newColourRows(dir string) (*colourRows, error) {
	f, err := createRecordFile(filepath.Join(dir, "colour-rows.bin"), colourRowSize)
	if err != nil {
		return nil, err
	}
	return &colourRows{f}, nil
}

// add appends a board: succ of trials decisive games won by White, on grid (a grid string,
// rank 8 first).
func (c *colourRows) add(succ, trials int64, grid string) error {
	var rec [colourRowSize]byte
	le := binary.LittleEndian
	le.PutUint64(rec[0:], uint64(succ))
	le.PutUint64(rec[8:], uint64(trials))
	var bad uint64
	for sq := 0; sq < 64; sq++ {
		rank, file := sq/8, sq%8
		pos := (7-rank)*9 + file
		k := -1
		if pos < len(grid) {
			k = strings.IndexByte("rygb", grid[pos])
		}
		if k < 0 {
			bad |= 1 << sq
			continue
		}
		rec[16+sq/4] |= byte(k) << (2 * (sq % 4))
	}
	le.PutUint64(rec[32:], bad)
	return c.recs.append(rec[:])
}

func (c *colourRows) finish() error { return c.recs.finish() }

func (c *colourRows) close() { c.recs.close() }

func (c *colourRows) len() int { return int(c.recs.n) }

// decodeColourRow decodes a row's record: White's wins and the decisive games, and into r the
// design row (the intercept, then for each square with a colour the column 1 + 4·square +
// colour, ascending).
func decodeColourRow(rec []byte, r *stats.SparseRow) (succ, trials int64) {
	le := binary.LittleEndian
	bad := le.Uint64(rec[32:])
	r.Cols, r.Vals = append(r.Cols[:0], 0), append(r.Vals[:0], 1)
	for sq := 0; sq < 64; sq++ {
		if bad&(1<<sq) == 0 {
			c := int(rec[16+sq/4]>>(2*(sq%4))) & 3
			r.Cols, r.Vals = append(r.Cols, 1+4*sq+c), append(r.Vals, 1)
		}
	}
	return int64(le.Uint64(rec[0:])), int64(le.Uint64(rec[8:]))
}

// colourChunkRows is the number of rows of the colour-effect fit read and summed as one chunk.
// The fit's sums are added chunk by chunk, so it depends on this size (not on the workers);
// chunks of 2,048 rows (80 kB) keep the adding of the chunks' 257×257 sums to a few percent
// of a pass.
const colourChunkRows = 2048

// chunkBufs holds the buffers that chunks of the colour-effect fit's rows are read into.
var chunkBufs = sync.Pool{New: func() any { return new([]byte) }}
