package layouts

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/internal/extsort"
	"github.com/fairplay-lab/fairplay/stats"
)

// keyRate is a board's key, White's rate on it and its position.
type keyRate struct {
	key string
	v   float64
	i   int64
}

var keyRateCodec = extsort.Codec[keyRate]{
	Append: func(dst []byte, v keyRate) []byte {
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(v.v))
		dst = binary.LittleEndian.AppendUint64(dst, uint64(v.i))
		return append(dst, v.key...)
	},
	Decode: func(src []byte) (keyRate, error) {
		if len(src) < 16 {
			return keyRate{}, fmt.Errorf("a key record of %d bytes", len(src))
		}
		le := binary.LittleEndian
		return keyRate{string(src[16:]), math.Float64frombits(le.Uint64(src)), int64(le.Uint64(src[8:]))}, nil
	},
}

// matchRec is a board both sweeps played: its position in the other sweep, its index in this
// sweep (board), White's rate in this sweep (x) and in the other (y).
type matchRec struct {
	i, board int64
	x, y     float64
}

var matchCodec = extsort.Codec[matchRec]{
	Append: func(dst []byte, v matchRec) []byte {
		dst = binary.LittleEndian.AppendUint64(dst, uint64(v.i))
		dst = binary.LittleEndian.AppendUint64(dst, uint64(v.board))
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(v.x))
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(v.y))
	},
	Decode: func(src []byte) (matchRec, error) {
		if len(src) != 32 {
			return matchRec{}, fmt.Errorf("a match record of %d bytes", len(src))
		}
		le := binary.LittleEndian
		return matchRec{int64(le.Uint64(src)), int64(le.Uint64(src[8:])),
			math.Float64frombits(le.Uint64(src[16:])), math.Float64frombits(le.Uint64(src[24:]))}, nil
	},
}

func byKey(a, b keyRate) int {
	if c := cmp.Compare(a.key, b.key); c != 0 {
		return c
	}
	return cmp.Compare(a.i, b.i)
}

// sortBoardRates sorts a boards.csv's boards with games by key, with White's rate: for the
// other sweep of a comparison (other set) each with its position among them, for this sweep
// with its board index. A board without games has no rate, so it is in no comparison (it
// would enter as White never winning).
func sortBoardRates(path, tmp string, other bool, runLen int) (*extsort.ExternalSorter[keyRate], error) {
	src, err := openBoards(path)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	s := newSorter(runLen, nil, tmp, byKey, keyRateCodec)
	n := int64(0)
	for b, err := range gamefile.All(src.Read) {
		if err == nil && b.N > 0 {
			i := b.Board
			if other {
				i = n
			}
			err = s.Add(keyRate{b.Key, float64(b.WhiteWins) / math.Max(1, float64(b.N)), i})
			n++
		}
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return s, nil
}

// joinKeys walks two key-sorted streams of distinct keys together and calls each for every
// key both hold (a from the first, b from the second), in key order.
func joinKeys(as, bs *extsort.ExternalSorter[keyRate], each func(a, b keyRate) error) error {
	a, err := as.Sort()
	if err != nil {
		return err
	}
	b, err := bs.Sort()
	if err != nil {
		return err
	}
	ha, erra := a.Next()
	for hb, err := range b.All() {
		if err != nil {
			return err
		}
		for erra == nil && ha.key < hb.key {
			ha, erra = a.Next()
		}
		if erra != nil && erra != io.EOF {
			return erra
		}
		if erra == nil && ha.key == hb.key {
			if err := each(ha, hb); err != nil {
				return err
			}
		}
	}
	return nil
}

// CompareSweeps returns the rank correlation of White's rate on the boards of sweep sw (its
// boards.csv thisCSV) and of another sweep (its boards.csv otherCSV), over the boards both
// played (matched by key; the other sweep's boards without games are left out), and how many
// boards that is. Its interval is the bootstrap percentile interval over sw's layouts (a
// layout's seatings and symmetric placements resampled together, as a ladder's correlations
// are: spearmanByLayout), empty with fewer than minIntervalLayouts layouts among the common
// boards (Comparison.Layouts); its draws come from sw's seed, so the result is reproducible.
// The join goes through external sorts in a temporary directory in tmp; the matched pairs,
// which the bootstrap resamples, are held in memory (about 32 bytes a common board, and 4 a
// board of sw for its layouts).
func CompareSweeps(sw *Sweep, thisCSV, otherCSV, tmp string) (Comparison, error) {
	layout, n := boardLayouts(sw)
	return compareSweeps(thisCSV, otherCSV, tmp, layout, n, engine.Derive(sw.Cfg.Seed, 0x434d5052), sw.runLen()) // "CMPR"
}

// compareSweeps is CompareSweeps with the layouts of this sweep's boards (boardLayouts: n
// layouts), the bootstrap's seed and external sorts of runLen records (tests make it tiny).
func compareSweeps(thisCSV, otherCSV, tmp string, boardLayout []int32, n int, seed uint64, runLen int) (Comparison, error) {
	dir, err := os.MkdirTemp(tmp, ".compare-spill-")
	if err != nil {
		return Comparison{}, err
	}
	defer os.RemoveAll(dir)
	mine, err := sortBoardRates(thisCSV, dir, false, runLen)
	if err != nil {
		return Comparison{}, err
	}
	defer mine.Close()
	other, err := sortBoardRates(otherCSV, dir, true, runLen)
	if err != nil {
		return Comparison{}, err
	}
	defer other.Close()
	// The matches, put back in the other sweep's order (the order Spearman sees the pairs in).
	matched := newSorter(runLen, nil, dir, func(p, q matchRec) int { return cmp.Compare(p.i, q.i) }, matchCodec)
	defer matched.Close()
	matches := 0
	if err := joinKeys(mine, other, func(a, b keyRate) error { matches++; return matched.Add(matchRec{b.i, a.i, a.v, b.v}) }); err != nil {
		return Comparison{}, err
	}
	ms, err := matched.Sort()
	if err != nil {
		return Comparison{}, err
	}
	x, y, layout := make([]float64, 0, matches), make([]float64, 0, matches), make([]int32, 0, matches)
	for m, err := range ms.All() {
		if err != nil {
			return Comparison{}, err
		}
		if m.board < 0 || m.board >= int64(len(boardLayout)) {
			return Comparison{}, fmt.Errorf("%s: board %d is not one of the sweep's %d boards", thisCSV, m.board, len(boardLayout))
		}
		x, y, layout = append(x, m.x), append(y, m.y), append(layout, boardLayout[m.board])
	}
	used := numberUsed(layout, n)
	diff := pairedDiffByLayout(x, y, layout, used)
	if used < minIntervalLayouts { // a cluster-robust variance from a handful of clusters is far too small
		diff.Low, diff.High = math.NaN(), math.NaN()
	}
	return Comparison{Boards: int64(len(x)), Layouts: used, Spearman: spearmanByLayout(spearmanValue(x, y), x, y, layout, used, seed),
		Diff: diff}, nil
}

// MethodDiffByLayout names Comparison.Diff's interval.
const MethodDiffByLayout = "paired-by-board-cluster-robust-layouts"

// pairedDiffByLayout is the mean over the common boards of White's rate in this sweep minus
// White's rate in the other (x − y, board by board), with a normal 95% interval whose standard
// error treats each layout's boards as one cluster (layout: a board's layout among n): the
// cluster-robust variance of a ratio estimator (stats.ClusterRatio) with a layout's summed
// differences over its number of boards. With two boards in every layout it is the sample
// variance of the layouts' summed differences times L/B² (L layouts, B boards). The mean is
// unweighted: it is the difference of the two sweeps' pooled rates when each sweep plays every
// board the same number of games. Empty interval with fewer than two layouts.
func pairedDiffByLayout(x, y []float64, layout []int32, n int) stats.Interval {
	if len(x) == 0 {
		return stats.Interval{Value: math.NaN(), Low: math.NaN(), High: math.NaN(), Method: MethodDiffByLayout}
	}
	sum, boards := make([]float64, n), make([]float64, n)
	for i, c := range layout {
		sum[c] += x[i] - y[i]
		boards[c]++
	}
	var cr stats.ClusterRatio
	for c := range sum {
		if boards[c] > 0 {
			cr.Add(sum[c], boards[c])
		}
	}
	iv := cr.Mean(0)
	iv.Method = MethodDiffByLayout
	return iv
}

// SharedBoards counts the boards of sw that another sweep (its boards.csv) played: the boards
// a comparison of the two would rank, known before sw plays a game (ErrNoSharedBoards when
// there are none). The join goes through external sorts in tmp, as CompareSweeps's.
func SharedBoards(sw *Sweep, otherCSV, tmp string) (int64, error) {
	dir, err := os.MkdirTemp(tmp, ".compare-spill-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	mine := newSorter(sw.runLen(), nil, dir, byKey, keyRateCodec)
	defer mine.Close()
	for i := range sw.NumBoards() {
		if err := mine.Add(keyRate{key: boardKey(sw.Board(i)), i: int64(i)}); err != nil {
			return 0, err
		}
	}
	other, err := sortBoardRates(otherCSV, dir, true, sw.runLen())
	if err != nil {
		return 0, err
	}
	defer other.Close()
	var n int64
	err = joinKeys(mine, other, func(keyRate, keyRate) error { n++; return nil })
	if err == nil && n == 0 {
		err = ErrNoSharedBoards
	}
	return n, err
}

// ErrNoSharedBoards is SharedBoards's error for two sweeps that share no board.
var ErrNoSharedBoards = errors.New("the two sweeps share no board: a rank correlation needs boards both played")

// Comparison is a sweep ranked against another (compare.csv): the rank correlation of White's
// rate over the boards both played, its interval a bootstrap over the layouts of those boards,
// and the change of White's rate on them, paired by board.
type Comparison struct {
	Other    string // the other sweep's directory, as given
	Boards   int64  // boards both played
	Layouts  int    // the layouts those boards belong to (clusters of the bootstrap)
	Spearman stats.Interval
	// Diff is White's rate in this sweep minus that in the other, averaged over the common
	// boards, with a normal interval clustered by layout (pairedDiffByLayout).
	Diff stats.Interval
}

// WriteComparison writes compare.csv in dir: other, common_boards, spearman, ci_low, ci_high,
// method, white_diff, diff_low, diff_high, diff_method (docs/formats.md).
func WriteComparison(dir string, c Comparison) error {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"other", "common_boards", "spearman", "ci_low", "ci_high", "method", "white_diff", "diff_low", "diff_high", "diff_method"})
	w.Write([]string{c.Other, i64(c.Boards), f64(c.Spearman.Value), f64(c.Spearman.Low), f64(c.Spearman.High), c.Spearman.Method,
		f64(c.Diff.Value), f64(c.Diff.Low), f64(c.Diff.High), c.Diff.Method})
	w.Flush()
	return gamefile.WriteFileAtomic(filepath.Join(dir, "compare.csv"), b.Bytes())
}

// Finding states a comparison in words, rounded to what its interval supports (to 2 decimals
// without one, as the ladder's correlations, saying why there is none).
func (c Comparison) Finding() string {
	v, why := fmtIv(c.Spearman, 2), ""
	switch {
	case math.IsNaN(c.Spearman.Value) || !math.IsNaN(c.Spearman.Low):
	case c.Layouts < minIntervalLayouts:
		why = fmt.Sprintf("; no interval: %d layouts, fewer than %d", c.Layouts, minIntervalLayouts)
	default:
		why = fmt.Sprintf("; no interval: fewer than 100 of %d resamples define the correlation", LadderBootstrap)
	}
	f := fmt.Sprintf("rank correlation of White's rate with the sweep in %s over %d common boards (%d layouts): Spearman %s (%s%s)",
		c.Other, c.Boards, c.Layouts, v, c.Spearman.Method, why)
	if d := c.Diff; !math.IsNaN(d.Value) {
		iv, why := "", fmt.Sprintf("; no interval: %d layouts, fewer than %d", c.Layouts, minIntervalLayouts)
		if !math.IsNaN(d.Low) {
			iv, why = fmt.Sprintf(" [%+.3f, %+.3f]", d.Low, d.High), ""
		}
		f += fmt.Sprintf("; White's rate in this sweep minus that in %s on those boards: %+.3f%s (%s%s)", c.Other, d.Value, iv, d.Method, why)
	}
	return f
}
