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
