package config

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

func flagNamer(field, arg string) string {
	n := "-" + strings.ToLower(field)
	if arg != "" {
		n += " " + arg
	}
	return n
}

func TestText(t *testing.T) {
	tx := Textf("vary with {RandomOpening N} or {Layouts}; {not a ref} {lower} 100%% of {Games}: %d", 3)
	if got, want := tx.String(), "vary with RandomOpening or Layouts; {not a ref} {lower} 100% of Games: 3"; got != want {
		t.Errorf("plain %q, want %q", got, want)
	}
	if got, want := tx.Render(flagNamer), "vary with -randomopening N or -layouts; {not a ref} {lower} 100% of -games: 3"; got != want {
		t.Errorf("rendered %q, want %q", got, want)
	}
	if got := Textf("open {").String(); got != "open {" {
		t.Errorf("unclosed brace: %q", got)
	}
	if got := fmt.Sprint(Textf("give {Seed}")); got != "give Seed" {
		t.Errorf("printed %q", got)
	}
}

func TestFieldError(t *testing.T) {
	inner := Errorf("Games", "3", "want an even number")
	e := Errorf("Ladder", "", "rating the levels ({RatingGames} 0 to skip): %v", inner)
	if got, want := e.Error(), "Ladder: rating the levels (RatingGames 0 to skip): Games 3: want an even number"; got != want {
		t.Errorf("plain %q, want %q", got, want)
	}
	wrapped := fmt.Errorf("variants: %w", e)
	if got, want := Rename(wrapped, flagNamer), "variants: -ladder: rating the levels (-ratinggames 0 to skip): -games 3: want an even number"; got != want {
		t.Errorf("renamed %q, want %q", got, want)
	}
	if !errors.Is(wrapped, inner) {
		t.Error("the cause is not in the chain")
	}
	cause := Errorf("", "", "writing x: %v (resume with {Resume})", io.ErrShortWrite)
	if !errors.Is(cause, io.ErrShortWrite) || Rename(cause, flagNamer) != "writing x: short write (resume with -resume)" {
		t.Errorf("%q", Rename(cause, flagNamer))
	}
	if got := Rename(io.EOF, flagNamer); got != "EOF" {
		t.Errorf("no field error: %q", got)
	}
	if got := Errorf("Top", "0", "").Render(flagNamer); got != "-top 0" {
		t.Errorf("no reason: %q", got)
	}
}
