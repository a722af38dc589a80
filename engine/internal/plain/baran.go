// Package plain holds deliberately simple second implementations of Baran and Katarenga,
// written from RULES.md with arrays, strings and maps and sharing no code with the fast
// bitboard engines. Tests compare the two move for move; benchmarks compare their speed.
package plain

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// BaranRules are Baran's switches, spelled out.
type BaranRules struct {
	Capture    string // huff, strict, free
	PerJump    bool
	FastRow4   bool
	NoMovePass bool
	PlyCap     int
}

// Baran is a Baran position on a 7×7 array indexed [q][r].
type Baran struct {
	Cell   [7][7]byte // 0 or one of K W F k w f
	Side   int        // 0 red, 1 black
	Huff   []string   // cell names
	Ply    int
	Passed bool
	R      BaranRules
}

var hexDirs = [6][2]int{{1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}, {1, -1}}

func cellName(q, r int) string { return string(rune('a'+q)) + string(rune('1'+r)) }

func onBoard(q, r int) bool { return q >= 0 && q < 7 && r >= 0 && r < 7 }

func isThrone(q, r int) bool { return (q == 0 && r == 0) || (q == 6 && r == 6) }

func owner(c byte) int {
	if c >= 'a' {
		return 1
	}
	return 0
}

func isWarrior(c byte) bool { return c != 0 && c != 'K' && c != 'k' }

// NewBaran sets up the start position.
func NewBaran(r BaranRules, first int) *Baran {
	b := &Baran{R: r, Side: first}
	for q := 0; q < 7; q++ {
		for rr := 0; rr < 7; rr++ {
			k := q + rr
			for p := 0; p < 2; p++ {
				dist := k
				if p == 1 {
					dist = 12 - k
				}
				var c byte
				switch {
				case dist == 0:
					c = 'K'
				case dist >= 1 && dist <= 4:
					c = 'W'
					if !r.FastRow4 && dist == 3 {
						c = 'F'
					}
					if r.FastRow4 && dist == 4 && !(p == 0 && q == 2 && rr == 2) && !(p == 1 && q == 4 && rr == 4) {
						c = 'F'
					}
				}
				if c != 0 {
					if p == 1 {
						c += 'a' - 'A'
					}
					b.Cell[q][rr] = c
				}
			}
		}
	}
	return b
}

// ParseBaran reads the position notation.
func ParseBaran(s string, r BaranRules) (*Baran, error) {
	f := strings.Fields(s)
	if len(f) != 4 {
		return nil, fmt.Errorf("want 4 fields")
	}
	b := &Baran{R: r}
	rows := strings.Split(f[0], "/")
	if len(rows) != 7 {
		return nil, fmt.Errorf("want 7 ranks")
	}
	for i, row := range rows {
		rr := 6 - i
		q := 0
		for _, ch := range row {
			if ch >= '1' && ch <= '7' {
				q += int(ch - '0')
			} else {
				if q > 6 {
					return nil, fmt.Errorf("rank too long")
				}
				b.Cell[q][rr] = byte(ch)
				q++
			}
		}
	}
	b.Side = map[string]int{"r": 0, "b": 1}[f[1]]
	if f[2] != "-" {
		b.Huff = strings.Split(f[2], ",")
	}
	b.Ply, _ = strconv.Atoi(f[3])
	return b, nil
}

// String prints the position notation.
func (b *Baran) String() string {
	var rows []string
	for rr := 6; rr >= 0; rr-- {
		row, n := "", 0
		for q := 0; q < 7; q++ {
			if b.Cell[q][rr] == 0 {
				n++
				continue
			}
			if n > 0 {
				row += strconv.Itoa(n)
				n = 0
			}
			row += string(b.Cell[q][rr])
		}
		if n > 0 {
			row += strconv.Itoa(n)
		}
		rows = append(rows, row)
	}
	h := "-"
	if len(b.Huff) > 0 {
		hs := append([]string(nil), b.Huff...)
		sort.Slice(hs, func(i, j int) bool { return cellIdx(hs[i]) < cellIdx(hs[j]) })
		h = strings.Join(hs, ",")
	}
	return fmt.Sprintf("%s %s %s %d", strings.Join(rows, "/"), []string{"r", "b"}[b.Side], h, b.Ply)
}

func cellIdx(c string) int { return int(c[0]-'a') + 7*int(c[1]-'1') }

func (b *Baran) clone() *Baran {
	c := *b
	c.Huff = append([]string(nil), b.Huff...)
	return &c
}

// BaranMove is one move's result: start, end and the captured cells (sorted names).
type BaranMove struct {
	From, To [2]int
	Capt     []string
}

func (b *Baran) isForward(d int) bool {
	if b.Side == 0 {
		return d == 0 || d == 1
	}
	return d == 3 || d == 4
}

// moves lists every move (not deduplicated) of the side to move, no removal.
func (b *Baran) moves() []BaranMove {
	var out []BaranMove
	for q := 0; q < 7; q++ {
		for r := 0; r < 7; r++ {
			c := b.Cell[q][r]
			if c == 0 || owner(c) != b.Side {
				continue
			}
			if c == 'K' || c == 'k' {
				out = append(out, b.kingMoves(q, r)...)
				continue
			}
			for _, d := range hexDirs {
				for k := 1; ; k++ {
					qq, rr := q+k*d[0], r+k*d[1]
					if !onBoard(qq, rr) || b.Cell[qq][rr] != 0 {
						break
					}
					if !isThrone(qq, rr) {
						out = append(out, BaranMove{From: [2]int{q, r}, To: [2]int{qq, rr}})
					}
					if c != 'F' && c != 'f' {
						break
					}
				}
			}
			out = append(out, b.chains(q, r)...)
		}
	}
	return out
}

func (b *Baran) kingMoves(q, r int) []BaranMove {
	var out []BaranMove
	enemyThrone := [2]int{6, 6}
	if b.Side == 1 {
		enemyThrone = [2]int{0, 0}
	}
	for _, d := range hexDirs {
		qq, rr := q+d[0], r+d[1]
		if !onBoard(qq, rr) {
			continue
		}
		if b.Cell[qq][rr] == 0 || [2]int{qq, rr} == enemyThrone {
			out = append(out, BaranMove{From: [2]int{q, r}, To: [2]int{qq, rr}})
			continue
		}
		if !isWarrior(b.Cell[qq][rr]) {
			continue
		}
		q2, r2 := qq+d[0], rr+d[1]
		if onBoard(q2, r2) && b.Cell[q2][r2] == 0 && [2]int{q2, r2} != enemyThrone {
			out = append(out, BaranMove{From: [2]int{q, r}, To: [2]int{q2, r2}})
		}
	}
	return out
}

// chains enumerates every chain of jumps of the warrior on (q, r), every prefix included.
func (b *Baran) chains(q, r int) []BaranMove {
	var out []BaranMove
	type jump struct {
		over [2]int
		dir  int
	}
	var rec func(cq, cr int, landed map[[2]int]bool, jumps []jump)
	rec = func(cq, cr int, landed map[[2]int]bool, jumps []jump) {
		for d, dd := range hexDirs {
			if len(jumps) > 0 {
				diff := (d - jumps[len(jumps)-1].dir + 6) % 6
				if diff != 0 && diff != 1 && diff != 5 {
					continue
				}
			}
			oq, or := cq+dd[0], cr+dd[1]
			tq, tr := oq+dd[0], or+dd[1]
			if !onBoard(tq, tr) || (oq == q && or == r) || !isWarrior(b.Cell[oq][or]) {
				continue
			}
			already := false
			for _, j := range jumps {
				if j.over == [2]int{oq, or} {
					already = true
				}
			}
			if already || isThrone(tq, tr) || landed[[2]int{tq, tr}] {
				continue
			}
			if b.Cell[tq][tr] != 0 && !(tq == q && tr == r) {
				continue
			}
			if tq == q && tr == r {
				continue // never back onto the start cell
			}
			js := append(append([]jump(nil), jumps...), jump{[2]int{oq, or}, d})
			l2 := map[[2]int]bool{}
			for k, v := range landed {
				l2[k] = v
			}
			l2[[2]int{tq, tr}] = true
			// what does this chain capture?
			ownJumped, allFwd := false, true
			var fwdEnemy []string
			for _, j := range js {
				if owner(b.Cell[j.over[0]][j.over[1]]) == b.Side {
					ownJumped = true
				}
				if b.isForward(j.dir) {
					if owner(b.Cell[j.over[0]][j.over[1]]) != b.Side {
						fwdEnemy = append(fwdEnemy, cellName(j.over[0], j.over[1]))
					}
				} else {
					allFwd = false
				}
			}
			var capt []string
			if !ownJumped && (b.R.PerJump || allFwd) {
				capt = fwdEnemy
			}
			sort.Strings(capt)
			out = append(out, BaranMove{From: [2]int{q, r}, To: [2]int{tq, tr}, Capt: capt})
			rec(tq, tr, l2, js)
		}
	}
	rec(q, r, map[[2]int]bool{{q, r}: true}, nil)
	return out
}

func (m BaranMove) key(rem string) string {
	return rem + "|" + cellName(m.From[0], m.From[1]) + "|" + cellName(m.To[0], m.To[1]) + "|" + strings.Join(m.Capt, ",")
}

// over reports an end by throne or cap (the no-move end is decided by the caller).
func (b *Baran) throneWin() int {
	if b.Cell[6][6] == 'K' {
		return 0
	}
	if b.Cell[0][0] == 'k' {
		return 1
	}
	return -1
}

// Actions returns the distinct legal actions as sorted keys "rem|from|to|capt".
func (b *Baran) Actions() []string {
	if b.throneWin() >= 0 || b.Ply >= b.R.PlyCap {
		return nil
	}
	set := map[string]bool{}
	rems := append([]string{""}, b.Huff...)
	for _, rem := range rems {
		pos := b
		if rem != "" {
			pos = b.clone()
			pos.Cell[rem[0]-'a'][rem[1]-'1'] = 0
		}
		ms := pos.moves()
		hasCapt := false
		for _, m := range ms {
			if len(m.Capt) > 0 {
				hasCapt = true
			}
		}
		for _, m := range ms {
			if b.R.Capture == "strict" && hasCapt && len(m.Capt) == 0 {
				continue
			}
			set[m.key(rem)] = true
		}
	}
	var out []string
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	if len(out) == 0 && b.R.NoMovePass && !b.Passed {
		out = []string{"pass"}
	}
	return out
}

// Status returns "" while the game goes on, else "winner reason" with winner r, b or draw.
func (b *Baran) Status() string {
	if w := b.throneWin(); w >= 0 {
		return []string{"r", "b"}[w] + " throne"
	}
	if len(b.actionsIgnoringCap()) == 0 {
		if !b.R.NoMovePass {
			return []string{"b", "r"}[b.Side] + " no-move"
		}
		if b.Passed {
			return "draw no-move"
		}
	}
	if b.Ply >= b.R.PlyCap {
		return "draw cap"
	}
	return ""
}

func (b *Baran) actionsIgnoringCap() []string {
	c := b.clone()
	c.R.PlyCap = 1 << 30
	c.R.NoMovePass = false
	return c.Actions()
}

// Apply plays an action key from Actions.
func (b *Baran) Apply(key string) {
	b.Ply++
	if key == "pass" {
		b.Passed = true
		b.Huff = nil
		b.Side = 1 - b.Side
		return
	}
	b.Passed = false
	f := strings.Split(key, "|")
	if f[0] != "" {
		b.Cell[f[0][0]-'a'][f[0][1]-'1'] = 0
	}
	b.Huff = nil
	fq, fr := int(f[1][0]-'a'), int(f[1][1]-'1')
	tq, tr := int(f[2][0]-'a'), int(f[2][1]-'1')
	if f[3] == "" && b.R.Capture == "huff" {
		// which warriors could have captured (after the removal)?
		for _, m := range b.moves() {
			if len(m.Capt) > 0 {
				at := cellName(m.From[0], m.From[1])
				if m.From == [2]int{fq, fr} {
					at = cellName(tq, tr)
				}
				dup := false
				for _, h := range b.Huff {
					dup = dup || h == at
				}
				if !dup {
					b.Huff = append(b.Huff, at)
				}
			}
		}
	}
	piece := b.Cell[fq][fr]
	b.Cell[fq][fr] = 0
	b.Cell[tq][tr] = piece
	if f[3] != "" {
		for _, c := range strings.Split(f[3], ",") {
			b.Cell[c[0]-'a'][c[1]-'1'] = 0
		}
	}
	b.Side = 1 - b.Side
}
