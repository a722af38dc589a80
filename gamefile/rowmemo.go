package gamefile

import "unsafe"

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
