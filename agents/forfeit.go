package agents

import (
	"errors"
	"fmt"
)

// Forfeit reasons: why a player lost by forfeit (the games.csv column forfeit_reason).
const (
	ForfeitTimeout  = "timeout"  // no answer within the time limit
	ForfeitExit     = "exit"     // the program exited or closed its output
	ForfeitIllegal  = "illegal"  // the answer is not one of the legal actions
	ForfeitProtocol = "protocol" // the answer breaks the protocol (wrong word, oversized or binary line)
	ForfeitOther    = "error"    // anything else (a player that could not be made, a failed write)
)

// ForfeitError is an error of Choose that says why the player forfeits.
type ForfeitError struct {
	Reason string // one of the Forfeit* constants
	Err    error
}

func (e *ForfeitError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *ForfeitError) Unwrap() error { return e.Err }

func forfeitf(reason, format string, a ...any) error {
	return &ForfeitError{Reason: reason, Err: fmt.Errorf(format, a...)}
}

// ForfeitReason returns the reason a Choose or NewPlayer error forfeits a game: the Reason of
// a *ForfeitError in its chain, else ForfeitOther.
func ForfeitReason(err error) string {
	var fe *ForfeitError
	if errors.As(err, &fe) && fe.Reason != "" {
		return fe.Reason
	}
	return ForfeitOther
}
