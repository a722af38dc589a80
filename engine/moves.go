package engine

import (
	"fmt"
	"strings"
)

// AppendAction appends the notation of a legal action of s to dst, through the State's Fast
// path when it has one.
func AppendAction(s State, dst []byte, a Action) []byte {
	if ap, ok := s.(Fast); ok {
		return ap.AppendAction(dst, a)
	}
	return append(dst, s.FormatAction(a)...)
}

// ApplyMoves plays a move list, as recorded in the moves column of games.csv, on s: the game's
// actions in its action notation, separated by spaces (read by NextAction). It returns the
// number of actions applied; on an error, s holds the position before the offending action.
func ApplyMoves(s State, moves string) (int, error) {
	words := strings.Fields(moves)
	n := 0
	for len(words) > 0 {
		a, _, rest, err := NextAction(s, words)
		if err != nil {
			return n, fmt.Errorf("move %d: %w", n+1, err)
		}
		s.Apply(a)
		words = rest
		n++
	}
	return n, nil
}

// NextAction reads the next action of a move record from its words (non-empty) in the position
// s: one word, or two when the action's notation itself holds a space (a Baran removal,
// "xe5 c3-c4"), recognised because its first word alone is not an action. It returns the
// action, its text and the words after it.
func NextAction(s State, words []string) (Action, string, []string, error) {
	a, err := s.ParseAction(words[0])
	if err == nil {
		return a, words[0], words[1:], nil
	}
	if len(words) > 1 {
		if a2, err2 := s.ParseAction(words[0] + " " + words[1]); err2 == nil {
			return a2, words[0] + " " + words[1], words[2:], nil
		}
	}
	return a, "", nil, err
}
