package gamefile

import (
	"strconv"
	"unsafe"
)

// memoFields is the number of short text fields a RowMemo remembers: game_name through
// reason, and forfeit_reason.
const memoFields = 11

// RowMemo remembers how the last rows wrote their short text fields (game name, layout, rules,
// agents, winner, reason, ...), which repeat from row to row: a field that is the same string
// as one of the last two in its column (the same bytes at the same address: Go strings do not
// change, and the memo's pointer keeps them from being freed) is copied as it was written,
// without the scan for characters that need quotes. Each of the runner's prepared buffers
// keeps one (a buffer is used by one worker at a time); it is not safe for concurrent use.
// Fields that are views into reused buffers (Moves, Counters) are not remembered.
type RowMemo struct {
	fields [memoFields]fieldMemo
	hits   int // fields copied from the memo (tests)
	// game and pair write the game and pair numbers, which the rows of a chunk take in turn
	// (each the last one or the next).
	game, pair decimal
}

// decimal writes a column of integers that mostly repeat or count up by one (the games of a
// chunk): it keeps the last value's digits and, for the next value, adds one to them in
// place, instead of formatting every value anew (strconv's digits were half of a random
// Katarenga game's row). Other values are formatted afresh.
type decimal struct {
	v      int64
	ok     bool // digits hold v
	start  int  // v's digits are digits[start:]
	digits [20]byte
}

func (d *decimal) append(b []byte, v int64) []byte {
	switch {
	case d.ok && v == d.v:
	case d.ok && v > 0 && v-1 == d.v:
		i := len(d.digits) - 1
		for ; i >= d.start && d.digits[i] == '9'; i-- {
			d.digits[i] = '0'
		}
		if i < d.start {
			d.start--
			d.digits[d.start] = '1'
		} else {
			d.digits[i]++
		}
		d.v = v
	case v < 0:
		d.ok = false
		return strconv.AppendInt(b, v, 10)
	default:
		i := len(d.digits)
		for x := v; ; x /= 10 {
			i--
			d.digits[i] = byte('0' + x%10)
			if x < 10 {
				break
			}
		}
		d.v, d.ok, d.start = v, true, i
	}
	return append(b, d.digits[d.start:]...)
}

// fieldMemo is one column's last two strings and their encodings.
type fieldMemo struct {
	slot [2]struct {
		p   *byte
		n   int
		enc []byte
	}
	last int // the slot written last
}

func (m *fieldMemo) append(b []byte, f string, hits *int) []byte {
	if f == "" {
		return b
	}
	p := unsafe.StringData(f)
	for k := range m.slot {
		if s := &m.slot[k]; s.p == p && s.n == len(f) {
			*hits++
			return append(b, s.enc...)
		}
	}
	start := len(b)
	b = AppendCSVField(b, f)
	m.last ^= 1
	s := &m.slot[m.last]
	s.p, s.n, s.enc = p, len(f), append(s.enc[:0], b[start:]...)
	return b
}
