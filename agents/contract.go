package agents

import "errors"

// ErrStopped is returned by Choose when the player's stop function reported true before it had
// chosen: the game is abandoned (not recorded, replayed on resume), not forfeited.
var ErrStopped = errors.New("search stopped")

// Stopper is implemented by players whose Choose can take long (searches). The runner calls
// SetStop once after NewPlayer; the player polls stop often enough to return within about
// 100 ms of it turning true, and then returns ErrStopped.
type Stopper interface{ SetStop(stop func() bool) }

// Checker is implemented by agents that can check their configuration for a game before any
// game is played: weights files load and are valid, external programs start and answer.
type Checker interface{ Check(game string) error }

// Check checks agent a for game: a.Check(game) when a is a Checker, else nil.
func Check(a Agent, game string) error {
	if c, ok := a.(Checker); ok {
		return c.Check(game)
	}
	return nil
}

// Releaser is implemented by agents that keep resources between games (the idle processes of
// persistent external bots). Release frees them once no game of the agent is in progress; the
// agent stays usable.
type Releaser interface{ Release() }

// Release releases a's resources kept between games (a.Release() when a is a Releaser).
func Release(a Agent) {
	if r, ok := a.(Releaser); ok {
		r.Release()
	}
}
