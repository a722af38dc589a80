package gamefile

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fairplay-lab/fairplay/engine"
)

// Record is one finished game: a row of games.csv. It holds nothing that depends on the host or
// on timing, so a run's games.csv is a pure function of its configuration and seed.
type Record struct {
	Game        int64  // game index within the run
	Pair        int64  // colour-swapped pair: games 2p and 2p+1
	Seed        uint64 // the pair's seed (both games of a pair share their seed material)
	GameName    string
	Layout      string // Katarenga layout name, "" for Baran
	Rules       string
	FirstAgent  string // spec of the agent that moved first
	SecondAgent string
	FirstIs     string // "a" or "b": which of the run's agents moved first
	FirstColour string // the colour that moved first (red, black, white)
	Winner      string // "first", "second" or "draw"
	Reason      engine.Reason
	Plies       int
	LegalTotal  int64   // the sum over plies of the number of legal actions (branching); NotCounted if not counted
	Counters    []int64 // game-specific counters, named by the run's counter names
	// Forfeit says why the loser forfeited (Reason forfeit): timeout, exit, illegal,
	// protocol or error; "" for games not lost by forfeit.
	Forfeit string
	// Start is the start position in the game's position notation, "" when the game started
	// from the standard start position of its layout and rules.
	Start string
	// Moves lists the game's actions in the game's action notation, space separated, from the
	// start position to the end: the ground truth for replay and distinctness.
	Moves string
}

// NotCounted is Record.LegalTotal of a game whose legal actions were not counted (a run with
// NoBranching): games.csv leaves legal_actions_total empty, Parquet stores NULL, and the
// summaries report no branching_mean.
const NotCounted = -1

// WinnerAgent returns "a", "b" or "draw".
func (r *Record) WinnerAgent() string {
	switch r.Winner {
	case "first":
		return r.FirstIs
	case "second":
		if r.FirstIs == "a" {
			return "b"
		}
		return "a"
	}
	return "draw"
}

var baseColumns = []string{"game", "pair", "seed", "game_name", "layout", "rules", "first_agent",
	"second_agent", "first_is", "first_colour", "winner", "winner_agent", "reason", "plies", "legal_actions_total"}

// forfeitColumn follows the base columns (files written before it existed lack it and read
// back with Forfeit "").
const forfeitColumn = "forfeit_reason"

// tailColumns follow the counter columns (long text last keeps the file readable; files
// written before they existed lack them and read back with Start and Moves "").
var tailColumns = []string{"start_position", "moves"}

// Header returns the games.csv header for a game's counter names.
func Header(counters []string) []string {
	h := append(append(append([]string(nil), baseColumns...), forfeitColumn), counters...)
	return append(h, tailColumns...)
}

// CSVWriter writes records as games.csv rows. It writes exactly what encoding/csv.Writer
// (comma separator, "\n" line ends) would, but appends each row into a reused byte buffer
// with strconv.Append*, scanning a field for characters that need quoting with
// strings.IndexByte (vectorised) instead of a byte loop: the moves field is ~1 kB per game.
type CSVWriter struct {
	w   io.Writer
	buf []byte
	err error
}

// csvFlushAt is the buffered size at which rows are written through.
const csvFlushAt = 64 << 10

// NewCSVWriter writes the header and returns a writer for rows.
func NewCSVWriter(w io.Writer, counters []string) (*CSVWriter, error) {
	cw := &CSVWriter{w: w, buf: make([]byte, 0, csvFlushAt+4096)}
	for i, h := range Header(counters) {
		if i > 0 {
			cw.buf = append(cw.buf, ',')
		}
		cw.buf = AppendCSVField(cw.buf, h)
	}
	cw.buf = append(cw.buf, '\n')
	return cw, nil
}

// csvNeedsQuotes is encoding/csv's fieldNeedsQuotes for the comma separator. Short fields (the
// agents, colours, winner: a dozen per row) are scanned in one byte loop; long ones (rules,
// moves) with strings.IndexByte, which is vectorised but costs a call per character sought.
func csvNeedsQuotes(f string) bool {
	if f == "" {
		return false
	}
	if f == `\.` {
		return true
	}
	if len(f) <= csvShortField {
		for i := 0; i < len(f); i++ {
			if c := f[i]; c == ',' || c == '"' || c == '\n' || c == '\r' {
				return true
			}
		}
	} else if strings.IndexByte(f, ',') >= 0 || strings.IndexByte(f, '"') >= 0 ||
		strings.IndexByte(f, '\n') >= 0 || strings.IndexByte(f, '\r') >= 0 {
		return true
	}
	if c := f[0]; c < utf8.RuneSelf { // unicode.IsSpace's ASCII cases
		return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
	}
	r, _ := utf8.DecodeRuneInString(f)
	return unicode.IsSpace(r)
}

// csvShortField is the longest field csvNeedsQuotes scans with a byte loop.
const csvShortField = 32

// appendCSVField appends one field as encoding/csv writes it (UseCRLF false).
func AppendCSVField(b []byte, f string) []byte {
	if !csvNeedsQuotes(f) {
		return append(b, f...)
	}
	b = append(b, '"')
	for {
		i := strings.IndexByte(f, '"')
		if i < 0 {
			break
		}
		b = append(b, f[:i+1]...)
		b = append(b, '"')
		f = f[i+1:]
	}
	b = append(b, f...)
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

// Write writes one record.
func (c *CSVWriter) Write(r *Record) error {
	if c.err != nil {
		return c.err
	}
	c.buf = AppendCSVRow(c.buf, r)
	if len(c.buf) >= csvFlushAt {
		return c.write()
	}
	return nil
}

// WriteRows writes rows made by AppendCSVRow (whole rows, in game order), as Write would have
// written their records: a worker can encode its games' rows, and the single writer only
// copies bytes. Large batches go straight through without a copy into the buffer.
func (c *CSVWriter) WriteRows(rows []byte) error {
	if c.err != nil {
		return c.err
	}
	if len(c.buf)+len(rows) < csvFlushAt {
		c.buf = append(c.buf, rows...)
		return nil
	}
	if err := c.write(); err != nil {
		return err
	}
	if len(rows) >= csvFlushAt/2 {
		_, c.err = c.w.Write(rows)
		return c.err
	}
	c.buf = append(c.buf, rows...)
	return nil
}

// AppendCSVRow appends r as one games.csv row (its line end included) to b: the bytes
// CSVWriter.Write writes for it. It uses no shared state, so workers can call it in parallel.
func AppendCSVRow(b []byte, r *Record) []byte { return appendCSVRow(b, r, false, nil) }

// AppendCSVRowNotation is AppendCSVRow for a record whose Moves is engine notation: actions
// written by the games' engine.Fast AppendAction (square and cell names, '-', ':', 'x', "pass"),
// space separated, as a match records them. Such text never holds a comma, quote, CR or LF
// nor starts with a space, so CSV never quotes it, and the ~1 kB field is copied without the
// scan for those characters: the same bytes as AppendCSVRow
// (runner.TestNotationNeedsNoQuotes checks it for both games).
func AppendCSVRowNotation(b []byte, r *Record) []byte { return appendCSVRow(b, r, true, nil) }

// AppendCSVRowNotation is the package's AppendCSVRowNotation, remembering how it wrote the
// record's short text fields (RowMemo).
func (m *RowMemo) AppendCSVRowNotation(b []byte, r *Record) []byte {
	return appendCSVRow(b, r, true, m)
}

// appendCSVRow appends r's row; m, when not nil, remembers the short text fields' encodings.
func appendCSVRow(b []byte, r *Record, notation bool, m *RowMemo) []byte {
	if m != nil {
		b = m.game.append(b, r.Game)
		b = append(b, ',')
		b = m.pair.append(b, r.Pair)
	} else {
		b = strconv.AppendInt(b, r.Game, 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, r.Pair, 10)
	}
	var seed [16]byte // %016x
	for i := range seed {
		seed[i] = hexDigits[r.Seed>>(60-4*i)&15]
	}
	b = append(b, ',')
	b = append(b, seed[:]...)
	b = append(b, ',')
	for i, f := range [leadFields]string{r.GameName, r.Layout} {
		if m != nil {
			b = m.lead[i].append(b, f, &m.hits)
		} else {
			b = AppendCSVField(b, f)
		}
		b = append(b, ',')
	}
	if m != nil {
		b = m.head.append(b, r, &m.hits)
	} else {
		b = appendHead(b, r)
	}
	for i, f := range [resultFields]string{r.Winner, r.WinnerAgent(), r.Reason.String()} {
		b = append(b, ',')
		if m != nil {
			b = m.result[i].append(b, f, &m.hits)
		} else {
			b = AppendCSVField(b, f)
		}
	}
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(r.Plies), 10)
	b = append(b, ',')
	if r.LegalTotal != NotCounted {
		b = strconv.AppendInt(b, r.LegalTotal, 10)
	}
	b = append(b, ',')
	if m != nil {
		b = m.forfeit.append(b, r.Forfeit, &m.hits)
	} else {
		b = AppendCSVField(b, r.Forfeit)
	}
	for _, v := range r.Counters {
		if 0 <= v && v < 10 { // most counters of most games: one digit, without strconv's call
			b = append(b, ',', byte('0'+v))
		} else {
			b = append(b, ',')
			b = strconv.AppendInt(b, v, 10)
		}
	}
	b = append(b, ',')
	b = AppendCSVField(b, r.Start)
	b = append(b, ',')
	if notation {
		b = append(b, r.Moves...)
	} else {
		b = AppendCSVField(b, r.Moves)
	}
	return append(b, '\n')
}

// appendHead appends r's fields rules through first_colour (comma separated, without a
// leading comma).
func appendHead(b []byte, r *Record) []byte {
	for i, f := range [headFields]string{r.Rules, r.FirstAgent, r.SecondAgent, r.FirstIs, r.FirstColour} {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendCSVField(b, f)
	}
	return b
}

// write writes the buffered rows through.
func (c *CSVWriter) write() error {
	if c.err != nil {
		return c.err
	}
	if len(c.buf) > 0 {
		_, c.err = c.w.Write(c.buf)
		c.buf = c.buf[:0]
	}
	return c.err
}

// Flush writes the buffered rows through and reports any write error.
func (c *CSVWriter) Flush() error { return c.write() }

// CSVReader reads games.csv rows back into records (for resume and merge).
type CSVReader struct {
	r        *csv.Reader
	end      rowEnds
	Counters []string
	line     int
	forfeit  int // the forfeit_reason column, -1 when absent
	first    int // the first counter column
	start    int // column of start_position, -1 if absent
	moves    int // column of moves, -1 if absent
}

// NewCSVReader reads and checks the header.
func NewCSVReader(r io.Reader) (*CSVReader, error) {
	cr := &CSVReader{}
	cr.r = cr.end.reader(r)
	cr.r.ReuseRecord = true
	h, err := cr.r.Read()
	if err != nil {
		return nil, fmt.Errorf("games.csv header: %w", err)
	}
	if len(h) < len(baseColumns) || strings.Join(h[:len(baseColumns)], ",") != strings.Join(baseColumns, ",") {
		return nil, fmt.Errorf("games.csv header: not a fairplay games file (its first line does not start with %s)", strings.Join(baseColumns[:3], ","))
	}
	cr.forfeit, cr.first = -1, len(baseColumns)
	if len(h) > len(baseColumns) && h[len(baseColumns)] == forfeitColumn {
		cr.forfeit, cr.first = len(baseColumns), len(baseColumns)+1
	}
	cr.start, cr.moves = -1, -1
	end := len(h)
	for i := cr.first; i < len(h); i++ {
		switch h[i] {
		case "start_position":
			cr.start, end = i, min(end, i)
		case "moves":
			cr.moves, end = i, min(end, i)
		}
	}
	if (cr.start >= 0) != (cr.moves >= 0) || (cr.start >= 0 && (cr.start != len(h)-2 || cr.moves != len(h)-1)) {
		return nil, fmt.Errorf("games.csv header: start_position and moves must be the last two columns")
	}
	cr.Counters = append([]string(nil), h[cr.first:end]...)
	cr.line = 1
	return cr, nil
}

// rowEnds checks that a CSV file's last row ends with a newline, as every writer of ours ends
// its rows: a file cut inside its last row (a truncated copy) would otherwise read as a row of
// shorter values. It sits between the file and csv.Reader (reader).
type rowEnds struct {
	in   *bufio.Reader // what the csv.Reader reads (its own buffer), over src
	src  io.Reader
	last byte // the last byte read from src
}

var errTornRow = errors.New("the file ends inside this row (a truncated file?)")

// reader returns a csv.Reader of r whose rows e checks.
func (e *rowEnds) reader(r io.Reader) *csv.Reader {
	e.src = r
	e.in = bufio.NewReader(e) // csv.NewReader reads it as it is, with no buffer of its own
	return csv.NewReader(e.in)
}

func (e *rowEnds) Read(p []byte) (int, error) {
	n, err := e.src.Read(p)
	if n > 0 {
		e.last = p[n-1]
	}
	return n, err
}

// torn reports, after a row was read, that it was the file's last and no newline ended it.
func (e *rowEnds) torn() bool {
	if e.in.Buffered() > 0 {
		return false
	}
	_, err := e.in.Peek(1)
	return err == io.EOF && e.last != '\n'
}

// Read returns the next record, or io.EOF.
func (c *CSVReader) Read() (*Record, error) {
	row, err := c.r.Read()
	if err != nil {
		return nil, err
	}
	c.line++
	if c.end.torn() { // a row cut inside its moves would read as a game of fewer moves
		return nil, fmt.Errorf("games.csv line %d: %w", c.line, errTornRow)
	}
	bad := func(col string, e error) error {
		return fmt.Errorf("games.csv line %d: column %s: %v", c.line, col, e)
	}
	r := &Record{GameName: row[3], Layout: row[4], Rules: row[5], FirstAgent: row[6], SecondAgent: row[7],
		FirstIs: row[8], FirstColour: row[9], Winner: row[10]}
	if r.Game, err = strconv.ParseInt(row[0], 10, 64); err != nil {
		return nil, bad("game", err)
	}
	if r.Pair, err = strconv.ParseInt(row[1], 10, 64); err != nil {
		return nil, bad("pair", err)
	}
	if r.Seed, err = strconv.ParseUint(row[2], 16, 64); err != nil {
		return nil, bad("seed", err)
	}
	if r.Reason, err = engine.ParseReason(row[12]); err != nil {
		return nil, bad("reason", err)
	}
	if r.Plies, err = strconv.Atoi(row[13]); err != nil {
		return nil, bad("plies", err)
	}
	r.LegalTotal = NotCounted
	if row[14] != "" {
		if r.LegalTotal, err = strconv.ParseInt(row[14], 10, 64); err != nil {
			return nil, bad("legal_actions_total", err)
		}
	}
	if r.Winner != "first" && r.Winner != "second" && r.Winner != "draw" {
		return nil, bad("winner", fmt.Errorf("%q is not first, second or draw", r.Winner))
	}
	if c.forfeit >= 0 {
		r.Forfeit = row[c.forfeit]
		if (r.Forfeit != "") != (r.Reason == engine.Forfeit) {
			return nil, bad(forfeitColumn, fmt.Errorf("%q does not go with reason %s", r.Forfeit, r.Reason))
		}
	}
	for i := c.first; i < c.first+len(c.Counters); i++ {
		v, err := strconv.ParseInt(row[i], 10, 64)
		if err != nil {
			return nil, bad(c.Counters[i-c.first], err)
		}
		r.Counters = append(r.Counters, v)
	}
	if c.moves >= 0 {
		r.Start, r.Moves = row[c.start], row[c.moves]
	}
	return r, nil
}
