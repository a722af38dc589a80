package gamefile

import (
	"strconv"
	"unsafe"
)

// The short text fields of a row: the lead, game_name and layout (a run of random layouts
// names a new layout every game); the head, rules through first_colour, which a run's games
// repeat but for the colour swap of a pair's two games; and the result, winner, winner_agent
// and reason, each taking a few values.
const (
	leadFields   = 2
	headFields   = 5
	resultFields = 3
)

// RowMemo remembers how the last rows wrote their short text fields (game name, layout, rules,
// agents, winner, reason, ...), which repeat from row to row: fields that are the same strings
// as remembered ones (the same bytes at the same address: Go strings do not change, and the
// memo's pointers keep them from being freed) are copied as they were written, without the
// scan for characters that need quotes. The head's five fields are remembered together, as
// the last two heads (a pair's two games), so a row copies them in one piece; the other fields
// each as their column's last memoSlots values. Each of the runner's prepared buffers keeps
// one (a buffer is used by one worker at a time); it is not safe for concurrent use. Fields
// that are views into reused buffers (Moves, Counters) are not remembered.
type RowMemo struct {
	lead    [leadFields]fieldMemo
	head    headMemo
	result  [resultFields]fieldMemo
	forfeit fieldMemo
	hits    int // heads and fields copied from the memo (tests)
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

// strKey identifies a string by its bytes' address and length.
type strKey struct {
	p *byte
	n int
}

func keyOf(s string) strKey { return strKey{unsafe.StringData(s), len(s)} }

// headMemo is the last two heads and their encodings (comma separated, no leading comma).
type headMemo struct {
	slot [2]struct {
		key [headFields]strKey
		enc []byte // nil: the slot is empty
	}
	last int // the slot written last
}

func (m *headMemo) append(b []byte, r *Record, hits *int) []byte {
	key := [headFields]strKey{keyOf(r.Rules), keyOf(r.FirstAgent), keyOf(r.SecondAgent), keyOf(r.FirstIs),
		keyOf(r.FirstColour)}
	for k := range m.slot {
		if s := &m.slot[k]; s.enc != nil && s.key == key {
			*hits++
			return append(b, s.enc...)
		}
	}
	start := len(b)
	b = appendHead(b, r)
	m.last ^= 1
	s := &m.slot[m.last]
	s.key, s.enc = key, append(s.enc[:0], b[start:]...)
	return b
}

// memoSlots is the values a fieldMemo remembers: the winners (first, second, draw) and most
// games' end reasons.
const memoSlots = 4

// fieldMemo is one column's last memoSlots strings and their encodings.
type fieldMemo struct {
	slot [memoSlots]struct {
		key strKey
		enc []byte
	}
	next int // the slot written next
}

func (m *fieldMemo) append(b []byte, f string, hits *int) []byte {
	if f == "" {
		return b
	}
	key := keyOf(f)
	for k := range m.slot {
		if s := &m.slot[k]; s.key == key {
			*hits++
			return append(b, s.enc...)
		}
	}
	start := len(b)
	b = AppendCSVField(b, f)
	s := &m.slot[m.next]
	m.next = (m.next + 1) % memoSlots
	s.key, s.enc = key, append(s.enc[:0], b[start:]...)
	return b
}
