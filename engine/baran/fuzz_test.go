package baran

import (
	"testing"
)

// print(parse(s)) is canonical: it re-parses to a position that prints the same.
func FuzzParsePosition(f *testing.F) {
	f.Add(startFEN)
	f.Add(capturePos)
	f.Add("6k/7/7/2w4/2W4/7/K6 b c3 7")
	f.Add("6K/7/7/7/7/7/7 b - 11")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePosition(s, DefaultRules)
		if err != nil {
			return
		}
		out := p.String()
		q, err := ParsePosition(out, DefaultRules)
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

// Any text is either rejected or a legal action that prints and re-parses to itself.
func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"c3-c4", "d1:d3", "b3:d3:d5", "xe5 c3-c4", "pass", "a1-g7", "x"} {
		f.Add(startFEN, s)
	}
	f.Add("6k/7/7/2w4/2W4/7/K6 b c3 7", "xc3 c4-b4")
	f.Fuzz(func(t *testing.T, pos, act string) {
		p, err := ParsePosition(pos, DefaultRules)
		if err != nil {
			return
		}
		a, err := p.ParseAction(act)
		if err != nil {
			return
		}
		txt := p.FormatAction(a)
		b, err := p.ParseAction(txt)
		if err != nil || b != a {
			t.Fatalf("%q parsed, printed as %q, re-parsed %v %v", act, txt, b == a, err)
		}
	})
}

func FuzzParseRules(f *testing.F) {
	f.Add("capture=strict,ply-cap=10")
	f.Add("fast-row=4")
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRules(s)
		if err != nil {
			return
		}
		r2, err := ParseRules(r.String())
		if err != nil || r2 != r {
			t.Fatalf("%q -> %q does not round-trip", s, r.String())
		}
	})
}
