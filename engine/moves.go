package engine

import (
	"fmt"
	"strings"
)

// ActionAppender is an optional fast path of a State: it appends FormatAction(a) to dst
// without allocating (used to write the moves column of games.csv).
type ActionAppender interface {
	AppendAction(dst []byte, a Action) []byte
}

// AppendAction appends the notation of a legal action of s to dst, through the State's
// ActionAppender when it has one.
func AppendAction(s State, dst []byte, a Action) []byte {
	if ap, ok := s.(ActionAppender); ok {
		return ap.AppendAction(dst, a)
	}
	return append(dst, s.FormatAction(a)...)
}

// ApplyMoves plays a move list, as recorded in the moves column of games.csv, on s: the game's
// actions in its action notation, separated by spaces. An action whose notation itself holds a
// space (a Baran removal, "xe5 c3-c4") is recognised because its first word alone is not an
// action: such a word is read together with the next one. It returns the number of actions
// applied; on an error, s holds the position before the offending action.
func ApplyMoves(s State, moves string) (int, error) {
	words := strings.Fields(moves)
	n := 0
	for i := 0; i < len(words); i++ {
		a, err := s.ParseAction(words[i])
		if err != nil && i+1 < len(words) {
			if a2, err2 := s.ParseAction(words[i] + " " + words[i+1]); err2 == nil {
				a, err = a2, nil
				i++
			}
		}
		if err != nil {
			return n, fmt.Errorf("move %d: %w", n+1, err)
		}
		s.Apply(a)
		n++
	}
	return n, nil
}
