package agents

import (
	"errors"
	"slices"
	"testing"
)

// ParseList canonicalises every spec, names the entry that does not parse, does not play the
// game (a *CheckError) or repeats an earlier one (with distinct), and allows repeats without it.
func TestParseList(t *testing.T) {
	got, err := ParseList([]string{"alphabeta:depth=2", "random"}, "katarenga", true)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := Parse("alphabeta:depth=2")
	if !slices.Equal(got, []string{a.Spec(), "random"}) {
		t.Errorf("specs %q", got)
	}
	var le *ListError
	if _, err := ParseList([]string{"random", "nosuchagent"}, "katarenga", true); !errors.As(err, &le) || le.Index != 1 || le.Repeats != -1 || le.Err == nil {
		t.Errorf("unknown agent: %v", err)
	}
	var ce *CheckError
	if _, err := ParseList([]string{"ext:cmd=/nonexistent/fairplay-bot"}, "baran", true); !errors.As(err, &le) || le.Index != 0 || !errors.As(err, &ce) {
		t.Errorf("an agent that cannot start: %v", err)
	}
	if _, err := ParseList([]string{"random", "greedy", "random"}, "baran", true); !errors.As(err, &le) || le.Index != 2 || le.Repeats != 0 {
		t.Errorf("a repeated agent: %v", err)
	} else if errors.As(err, &ce) {
		t.Errorf("a repeat is no check error: %v", err)
	}
	if got, err := ParseList([]string{"random", "random"}, "baran", false); err != nil || len(got) != 2 {
		t.Errorf("repeats allowed: %q %v", got, err)
	}
}

// ShortSpec drops the parameters at their defaults and leaves what it cannot read alone; the
// short spec parses to the same agent.
func TestShortSpec(t *testing.T) {
	// A default whose absence reads otherwise stays: under movetime a spec without margin has
	// auto, so the default 150 is kept there and dropped under a node budget.
	for _, c := range []struct{ spec, want string }{
		{"alphabeta:depth=2", "alphabeta:depth=2"},
		{"mcts:playouts=200", "mcts:playouts=200"},
		{"greedy", "greedy"},
		{"random", "random"},
		{"alphabeta", "alphabeta"},
		{"alphabeta:movetime=100ms,margin=150", "alphabeta:depth=64,movetime=100ms,margin=150"},
		{"alphabeta:movetime=100ms", "alphabeta:depth=64,movetime=100ms,margin=auto"},
		{"alphabeta:nodes=500,margin=150", "alphabeta:depth=64,nodes=500"},
		{"alphabeta:nodes=500,margin=auto", "alphabeta:depth=64,nodes=500"},
	} {
		a, err := Parse(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		short := ShortSpec(a.Spec())
		if short != c.want {
			t.Errorf("ShortSpec(%s) = %s, want %s", a.Spec(), short, c.want)
		}
		if s := ShortSpec(Expand(a)); s != c.want { // the expanded spec (net=auto shown) reads alike
			t.Errorf("ShortSpec(%s) = %s, want %s", Expand(a), s, c.want)
		}
		if b, err := Parse(short); err != nil || b.Spec() != a.Spec() {
			t.Errorf("%s parses to %v (%v), want %s", short, b, err, a.Spec())
		}
	}
	for _, odd := range []string{`ext:cmd="./bot, x"`, "nosuch:x=1", "alphabeta:nosuch=1", "alphabeta:depth"} {
		if got := ShortSpec(odd); got != odd {
			t.Errorf("ShortSpec(%s) = %s, want it unchanged", odd, got)
		}
	}
}
