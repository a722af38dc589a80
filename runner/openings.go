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

// ReadOpenings reads an openings file: one start position per line in the game's position
// notation (Katarenga positions carry their board); blank lines and lines starting with # are
// skipped. Every position is checked under gm's rules; an error names its line. It returns the
// positions in canonical notation.
func ReadOpenings(gm *games.Game, r io.Reader) ([]string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var out []string
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		st, err := openingState(gm, text)
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
