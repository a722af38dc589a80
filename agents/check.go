package agents

import (
	"fmt"
	"os/exec"
	"sync"
)

// Check loads and validates the agent's weights file for game (readable, one JSON object of
// known weight names with finite values inside their bounds). The result is cached with the
// weights, so checking costs one file read per game.
func (h *heuristicAgent) Check(game string) error {
	_, err := h.weights(game, nil) // errors name the file
	return err
}

// extChecks remembers the programs that answered "ready" for a game, so that a command that
// builds many matches with one bot starts it once.
var extChecks sync.Map // key: spec + "\x00" + game

// Check makes sure the program resolves to an executable file, then starts it once for game
// and expects "ready" within the timeout (in persistent mode also "pong" to a "ping" after
// "newgame"); the program is then told to quit (its process group is killed).
func (e *External) Check(game string) error {
	key := e.spec + "\x00" + game
	if _, ok := extChecks.Load(key); ok {
		return nil
	}
	if _, err := exec.LookPath(e.Cmd[0]); err != nil {
		return fmt.Errorf("agent ext: cmd=%s: %v", e.Cmd[0], err)
	}
	b := &botProc{timeout: e.Timeout}
	defer b.close()
	if err := b.start(e.Cmd, game, e.version()); err != nil {
		return fmt.Errorf("agent ext: cmd=%s did not answer ready for %s: %w", e.Cmd[0], game, err)
	}
	if err := e.persistOK(b); err != nil {
		return fmt.Errorf("agent ext: cmd=%s for %s: %w", e.Cmd[0], game, err)
	}
	if b.persistent {
		if err := b.newGame(); err != nil {
			return fmt.Errorf("agent ext: cmd=%s did not answer pong after newgame for %s: %w", e.Cmd[0], game, err)
		}
	}
	extChecks.Store(key, true)
	return nil
}
