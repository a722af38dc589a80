package nnue

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"sync"
)

// The networks shipped with the toolkit, one per game (docs/agents.md, "Learned evaluation",
// says how each was made).
//
//go:embed nets/*.nnue
var nets embed.FS

var (
	builtinMu sync.Mutex
	builtins  = map[string]*Net{}
)

// Builtin returns the shipped network of a game (loaded once, shared read-only).
func Builtin(game string) (*Net, error) {
	builtinMu.Lock()
	defer builtinMu.Unlock()
	if n, ok := builtins[game]; ok {
		return n, nil
	}
	b, err := nets.ReadFile("nets/" + game + ".nnue")
	if err != nil {
		return nil, fmt.Errorf("no built-in network for game %q", game)
	}
	n, err := Unmarshal(b)
	if err != nil {
		return nil, fmt.Errorf("built-in network for %s: %w", game, err)
	}
	builtins[game] = n
	return n, nil
}

// BuiltinSHA256 is the SHA-256, in hex, of the shipped network file of a game: what a run
// records of net=builtin, whose content the spec does not name.
func BuiltinSHA256(game string) (string, error) {
	b, err := nets.ReadFile("nets/" + game + ".nnue")
	if err != nil {
		return "", fmt.Errorf("no built-in network for game %q", game)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}
