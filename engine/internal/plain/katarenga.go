package plain

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// KataRules are Katarenga's switches, spelled out.
type KataRules struct {
	FirstMoveCaptureBanned bool
	NoMovePass             bool
	PlyCap                 int
}

// Kata is a Katarenga position on arrays indexed [file][rank].
type Kata struct {
	Colour [8][8]byte // r y g b
	Pawn   [8][8]byte // 0, 'W', 'B'
	Camps  [4]byte    // a0 h0 a9 h9: '-', 'W' or 'B'
	Side   int        // 0 white, 1 black
	Ply    int
	Passed bool
	R      KataRules
}

// ParseKata reads the position notation.
func ParseKata(s string, r KataRules) (*Kata, error) {
	f := strings.Fields(s)
	if len(f) != 5 {
		return nil, fmt.Errorf("want 5 fields")
	}
	k := &Kata{R: r}
	for i, row := range strings.Split(f[0], "/") {
		for file := 0; file < 8 && file < len(row); file++ {
			k.Colour[file][7-i] = row[file]
		}
	}
	for i, row := range strings.Split(f[1], "/") {
		file := 0
		for _, ch := range row {
			if ch >= '1' && ch <= '8' {
				file += int(ch - '0')
			} else {
				if file > 7 {
					return nil, fmt.Errorf("rank too long")
				}
				k.Pawn[file][7-i] = byte(ch)
				file++
			}
		}
	}
	k.Side = map[string]int{"w": 0, "b": 1}[f[2]]
	copy(k.Camps[:], f[3])
	k.Ply, _ = strconv.Atoi(f[4])
	return k, nil
}

// String prints the position notation.
func (k *Kata) String() string {
	var cols, rows []string
	for rank := 7; rank >= 0; rank-- {
		c, row, n := "", "", 0
		for file := 0; file < 8; file++ {
			c += string(k.Colour[file][rank])
			if k.Pawn[file][rank] == 0 {
				n++
				continue
			}
			if n > 0 {
				row += strconv.Itoa(n)
				n = 0
			}
			row += string(k.Pawn[file][rank])
		}
		if n > 0 {
			row += strconv.Itoa(n)
		}
		cols, rows = append(cols, c), append(rows, row)
	}
	return fmt.Sprintf("%s %s %s %s %d", strings.Join(cols, "/"), strings.Join(rows, "/"),
		[]string{"w", "b"}[k.Side], string(k.Camps[:]), k.Ply)
}

func sq(file, rank int) string { return string(rune('a'+file)) + string(rune('1'+rank)) }

func (k *Kata) me() byte  { return "WB"[k.Side] }
func (k *Kata) foe() byte { return "BW"[k.Side] }

// moves lists the legal moves "from-to" of the side to move, ignoring end conditions.
func (k *Kata) moves() []string {
	set := map[string]bool{}
	noCapt := k.R.FirstMoveCaptureBanned && k.Ply < 2
	for f := 0; f < 8; f++ {
		for r := 0; r < 8; r++ {
			if k.Pawn[f][r] != k.me() {
				continue
			}
			try := func(tf, tr int) bool { // returns whether a slide may continue
				if tf < 0 || tf > 7 || tr < 0 || tr > 7 {
					return false
				}
				switch k.Pawn[tf][tr] {
				case k.me():
					return false
				case k.foe():
					if !noCapt {
						set[sq(f, r)+"-"+sq(tf, tr)] = true
					}
					return false
				}
				set[sq(f, r)+"-"+sq(tf, tr)] = true
				return true
			}
			switch k.Colour[f][r] {
			case 'b':
				for df := -1; df <= 1; df++ {
					for dr := -1; dr <= 1; dr++ {
						if df != 0 || dr != 0 {
							try(f+df, r+dr)
						}
					}
				}
			case 'g':
				for _, j := range [][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}} {
					try(f+j[0], r+j[1])
				}
			case 'r', 'y':
				ds := [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
				if k.Colour[f][r] == 'y' {
					ds = [][2]int{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}}
				}
				for _, d := range ds {
					for n := 1; ; n++ {
						tf, tr := f+n*d[0], r+n*d[1]
						if !try(tf, tr) || k.Colour[tf][tr] == k.Colour[f][r] {
							break
						}
					}
				}
			}
			// camps
			if (k.Side == 0 && r == 7) || (k.Side == 1 && r == 0) {
				names := []string{"a9", "h9"}
				idx := []int{2, 3}
				if k.Side == 1 {
					names, idx = []string{"a0", "h0"}, []int{0, 1}
				}
				for i := range names {
					if k.Camps[idx[i]] == '-' {
						set[sq(f, r)+"-"+names[i]] = true
					}
				}
			}
		}
	}
	var out []string
	for m := range set {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

func (k *Kata) count(p byte) int {
	n := 0
	for f := 0; f < 8; f++ {
		for r := 0; r < 8; r++ {
			if k.Pawn[f][r] == p {
				n++
			}
		}
	}
	for _, c := range k.Camps {
		if c == p {
			n++
		}
	}
	return n
}

// Status returns "" while the game goes on, else "winner reason" (w, b or draw).
func (k *Kata) Status() string {
	mover, other := 1-k.Side, k.Side
	names := []string{"w", "b"}
	campsOf := func(p int) bool {
		if p == 0 {
			return k.Camps[2] == 'W' && k.Camps[3] == 'W'
		}
		return k.Camps[0] == 'B' && k.Camps[1] == 'B'
	}
	for _, p := range []int{mover, other} {
		if campsOf(p) {
			return names[p] + " camps"
		}
	}
	for _, p := range []int{other, mover} {
		if k.count("WB"[p]) < 2 {
			return names[1-p] + " material"
		}
	}
	if k.Ply >= k.R.PlyCap {
		return "draw cap"
	}
	if len(k.moves()) == 0 {
		if !k.R.NoMovePass {
			return names[mover] + " no-move"
		}
		if k.Passed {
			return "draw no-move"
		}
	}
	return ""
}

// Actions lists the legal actions, sorted; nil when the game is over.
func (k *Kata) Actions() []string {
	if st := k.Status(); st != "" {
		return nil
	}
	m := k.moves()
	if len(m) == 0 {
		return []string{"pass"}
	}
	return m
}

// Apply plays an action from Actions.
func (k *Kata) Apply(a string) {
	k.Ply++
	defer func() { k.Side = 1 - k.Side }()
	if a == "pass" {
		k.Passed = true
		return
	}
	k.Passed = false
	from, to, _ := strings.Cut(a, "-")
	ff, fr := int(from[0]-'a'), int(from[1]-'1')
	k.Pawn[ff][fr] = 0
	switch to {
	case "a0":
		k.Camps[0] = 'B'
	case "h0":
		k.Camps[1] = 'B'
	case "a9":
		k.Camps[2] = 'W'
	case "h9":
		k.Camps[3] = 'W'
	default:
		k.Pawn[to[0]-'a'][to[1]-'1'] = k.me()
	}
}
