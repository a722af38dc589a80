package katarenga

import "testing"

const startPos = "rybgrygb/grgbgyry/yybrbbgr/bgryyrbg/rgbyrgby/yygryybr/bbrgbgrg/grybgryb BBBBBBBB/8/8/8/8/8/8/WWWWWWWW w ---- 0"

func FuzzParsePosition(f *testing.F) {
	f.Add(startPos)
	f.Add("rybgrygb/grgbgyry/yybrbbgr/bgryyrbg/rgbyrgby/yygryybr/bbrgbgrg/grybgryb 1W6/8/8/8/8/8/8/1B6 b B-W- 17")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePosition(s, DefaultRules, nil)
		if err != nil {
			return
		}
		out := p.String()
		q, err := ParsePosition(out, DefaultRules, nil)
		if err != nil {
			t.Fatalf("%q printed as %q which does not re-parse: %v", s, out, err)
		}
		if q.String() != out || q.Hash() != p.Hash() {
			t.Fatalf("%q: round trip %q -> %q", s, out, q.String())
		}
		p.Legal(nil)
		p.Status()
	})
}

func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"a1-a2", "b1-b7", "c8-a9", "pass", "a1-", "z9-a1"} {
		f.Add(startPos, s)
	}
	f.Fuzz(func(t *testing.T, pos, act string) {
		p, err := ParsePosition(pos, DefaultRules, nil)
		if err != nil {
			return
		}
		a, err := p.ParseAction(act)
		if err != nil {
			return
		}
		if b, err := p.ParseAction(p.FormatAction(a)); err != nil || b != a {
			t.Fatalf("%q does not round-trip: %v", act, err)
		}
	})
}

func FuzzParseLayout(f *testing.F) {
	for _, s := range []string{"0", "98303", "A00-B00-C00-D00", "C13-A02-D10-B01", "rybgrygb/grgbgyry/yybrbbgr/bgryyrbg/rgbyrgby/yygryybr/bbrgbgrg/grybgryb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := DefaultTiles.ParseLayout(s)
		if err != nil {
			return
		}
		for _, form := range []string{l.Grid.String(), l.Name()} {
			m, err := DefaultTiles.ParseLayout(form)
			if err != nil || m.Grid != l.Grid || m.Index != l.Index {
				t.Fatalf("%q: %q does not round-trip (%v)", s, form, err)
			}
		}
	})
}

func FuzzParseTiles(f *testing.F) {
	f.Add(DefaultTiles.String())
	f.Fuzz(func(t *testing.T, s string) {
		ts, err := ParseTiles(s)
		if err != nil {
			return
		}
		if again, err := ParseTiles(ts.String()); err != nil || again != ts {
			t.Fatalf("tile set does not round-trip: %v", err)
		}
	})
}

func FuzzParseRules(f *testing.F) {
	f.Add("first-move-capture=banned")
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRules(s)
		if err != nil {
			return
		}
		if r2, err := ParseRules(r.String()); err != nil || r2 != r {
			t.Fatalf("%q does not round-trip", s)
		}
	})
}
