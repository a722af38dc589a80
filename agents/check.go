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

// Check checks the weights file and the network for game before any game is played: a network
// of another game, or a built-in version the game does not have, is refused here.
func (a *AlphaBeta) Check(game string) error {
	if err := a.heuristicAgent.Check(game); err != nil {
		return err
	}
	return a.checkNet(game, a.Movetime > 0)
}

// Check checks the weights file and the network for game, as AlphaBeta's.
func (m *MCTS) Check(game string) error {
	if err := m.heuristicAgent.Check(game); err != nil {
		return err
	}
	return m.checkNet(game, m.Movetime > 0)
}

// checkNet loads the network the agent plays in game (timed: under a movetime budget); its
// error names the net value.
func (h *netAgent) checkNet(game string, timed bool) error {
	if _, err := h.evaluator(game, timed); err != nil {
		return fmt.Errorf("net=%s: %w", h.netSpec, err)
	}
	return nil
}
