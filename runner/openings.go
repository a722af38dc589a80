package runner

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// AllPlies is ReadOpenings' plies for playing every move of every line.
const AllPlies = -1

// ReadOpenings reads an openings file: one start position per line in the game's position
// notation (Katarenga positions carry their board), optionally followed by the word "moves"
// and actions in the game's notation (as the moves column of games.csv holds them), which are
// played from it: at most plies of them (AllPlies: all), as cutechess's plies=N cuts a book's
// lines. Blank lines and lines starting with # are skipped. Every position and move is checked
// under gm's rules, and a line must not end the game; an error names its line. It returns the
// start positions, after the moves played, in canonical notation.
func ReadOpenings(gm *games.Game, r io.Reader, plies int) ([]string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var out []string
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		st, err := bookLine(gm, text, plies)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		out = append(out, strings.TrimSpace(st.String()))
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no positions")
	}
	return out, nil
}

// bookLine is the position of one line of an openings file: its position, then at most plies
// of its moves.
func bookLine(gm *games.Game, text string, plies int) (engine.State, error) {
	words := strings.Fields(text)
	pos, moves := words, []string(nil)
	for i, w := range words {
		if w == "moves" {
			pos, moves = words[:i], words[i+1:]
			break
		}
	}
	if len(pos) == 0 {
		return nil, fmt.Errorf("%q: no position before \"moves\"", text)
	}
	st, err := gm.ParsePosition(strings.Join(pos, " "))
	if err != nil {
		return nil, err
	}
	for k := 1; len(moves) > 0 && (plies == AllPlies || k <= plies); k++ {
		if s := st.Status(); s.Over {
			return nil, fmt.Errorf("move %d: the game is over (%s)", k, s.Reason)
		}
		a, _, rest, err := engine.NextAction(st, moves)
		if err != nil {
			return nil, fmt.Errorf("move %d: %w", k, err)
		}
		st.Apply(a)
		moves = rest
	}
	if s := st.Status(); s.Over {
		return nil, fmt.Errorf("%q: the game is already over (%s)", text, s.Reason)
	}
	return st, nil
}

// ShuffleOpenings puts openings in an order drawn from the master seed (fastchess's
// order=random: the book shuffled once, then taken in turn), on a stream of its own: no game's
// seed material is drawn from it.
func ShuffleOpenings(openings []string, seed uint64) {
	r := engine.NewRand(engine.Derive(seed, shuffleStream))
	for i := len(openings) - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		openings[i], openings[j] = openings[j], openings[i]
	}
}

// shuffleStream derives the openings' order from the master seed: far above any pair index,
// which derive the pairs' seeds.
const shuffleStream = 1<<63 | 0x6f70656e696e6773

// ParseOpenings parses a match's openings (positions already checked by ReadOpenings, or given
// in a configuration) under gm's rules.
func ParseOpenings(gm *games.Game, positions []string) ([]engine.State, error) {
	var out []engine.State
	for i, p := range positions {
		st, err := openingState(gm, p)
		if err != nil {
			return nil, fmt.Errorf("opening %d: %w", i+1, err)
		}
		out = append(out, st)
	}
	return out, nil
}

// openingState parses one start position and refuses one where the game is over.
func openingState(gm *games.Game, text string) (engine.State, error) {
	st, err := gm.ParsePosition(text)
	if err != nil {
		return nil, err
	}
	if s := st.Status(); s.Over {
		return nil, fmt.Errorf("%q: the game is already over (%s)", text, s.Reason)
	}
	return st, nil
}

// boardName is the Katarenga board of a position by its layout name (def for other games).
func boardName(s engine.State, def string) string {
	if k, ok := s.(*katarenga.State); ok {
		return k.Board().Layout.Name()
	}
	return def
}
