package results

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// BoardResult is the tally of the games played on one board of a layout sweep: a row of
// boards.csv. White moves first on every board.
type BoardResult struct {
	Board                         int64  // position in the sweep's board list
	Key                           string // the layout index, or the colour grid of a custom board
	Grid                          string
	N                             int64
	WhiteWins, BlackWins, Draws   int64
	Caps, AWins, BWins, PliesSum  int64
	FirstMoveCaptures, CampsWhite int64
}

var boardColumns = []string{"board", "key", "grid", "n", "white_wins", "black_wins", "draws", "caps",
	"a_wins", "b_wins", "plies_sum", "first_move_captures", "camps_white"}

// BoardWriter writes boards.csv.
type BoardWriter struct{ w *csv.Writer }

// NewBoardWriter writes the header.
func NewBoardWriter(w io.Writer) *BoardWriter {
	bw := &BoardWriter{csv.NewWriter(w)}
	bw.w.Write(boardColumns)
	return bw
}

// Write writes one board.
func (b *BoardWriter) Write(r *BoardResult) error {
	f := func(v int64) string { return strconv.FormatInt(v, 10) }
	return b.w.Write([]string{f(r.Board), r.Key, r.Grid, f(r.N), f(r.WhiteWins), f(r.BlackWins), f(r.Draws),
		f(r.Caps), f(r.AWins), f(r.BWins), f(r.PliesSum), f(r.FirstMoveCaptures), f(r.CampsWhite)})
}

// Flush flushes and reports write errors.
func (b *BoardWriter) Flush() error {
	b.w.Flush()
	return b.w.Error()
}

// BoardReader reads boards.csv.
type BoardReader struct {
	r    *csv.Reader
	line int
}

// NewBoardReader checks the header.
func NewBoardReader(r io.Reader) (*BoardReader, error) {
	br := &BoardReader{r: csv.NewReader(r), line: 1}
	h, err := br.r.Read()
	if err != nil {
		return nil, fmt.Errorf("boards.csv header: %w", err)
	}
	if strings.Join(h, ",") != strings.Join(boardColumns, ",") {
		return nil, fmt.Errorf("boards.csv header %q: not a fairplay layout sweep", strings.Join(h, ","))
	}
	return br, nil
}

// Read returns the next board, or io.EOF.
func (b *BoardReader) Read() (*BoardResult, error) {
	row, err := b.r.Read()
	if err != nil {
		return nil, err
	}
	b.line++
	r := &BoardResult{Key: row[1], Grid: row[2]}
	dst := []*int64{&r.Board, nil, nil, &r.N, &r.WhiteWins, &r.BlackWins, &r.Draws, &r.Caps, &r.AWins, &r.BWins,
		&r.PliesSum, &r.FirstMoveCaptures, &r.CampsWhite}
	for i, d := range dst {
		if d == nil {
			continue
		}
		if *d, err = strconv.ParseInt(row[i], 10, 64); err != nil {
			return nil, fmt.Errorf("boards.csv line %d: column %s: %v", b.line, boardColumns[i], err)
		}
	}
	return r, nil
}

// WhiteRate returns White's win rate with its Wilson interval.
func (r *BoardResult) WhiteRate() Interval { return Wilson(r.WhiteWins, r.N, Z95) }

// PValue is the exact two-sided binomial p-value of White's wins among decisive games against
// one half.
func (r *BoardResult) PValue() float64 {
	return BinomTwoSided(r.WhiteWins, r.WhiteWins+r.BlackWins, 0.5)
}
