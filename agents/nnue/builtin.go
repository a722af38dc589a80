package nnue

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// The networks shipped with the toolkit (docs/agents.md, "Learned evaluation", says how each
// was made). A game's networks are numbered from 1, and a number once shipped keeps its file
// for good, so that a spec naming it keeps its meaning: version 1 is nets/<game>.nnue
// (net=builtin), version v ≥ 2 nets/<game>-<v>.nnue (net=builtin<v>).
//
//go:embed nets/*.nnue
var nets embed.FS

type builtinKey struct {
	game    string
	version int
}

var (
	builtinMu sync.Mutex
	builtins  = map[builtinKey]*Net{}
)

// builtinFile is the embedded file of version v of a game's shipped network.
func builtinFile(game string, v int) string {
	if v == 1 {
		return "nets/" + game + ".nnue"
	}
	return "nets/" + game + "-" + strconv.Itoa(v) + ".nnue"
}

// builtinBytes is the content of version v of a game's shipped network.
func builtinBytes(game string, v int) ([]byte, error) {
	if v < 1 {
		return nil, fmt.Errorf("built-in network version %d: want 1 or more", v)
	}
	b, err := nets.ReadFile(builtinFile(game, v))
	if err != nil {
		if v == 1 {
			return nil, fmt.Errorf("no built-in network for game %q", game)
		}
		return nil, fmt.Errorf("no built-in network %d for game %q (it has 1..%d)", v, game, LatestBuiltin(game))
	}
	return b, nil
}

// Builtin returns the first shipped network of a game, net=builtin (loaded once, shared
// read-only).
func Builtin(game string) (*Net, error) {
	return BuiltinVersion(game, 1)
}

// BuiltinVersion returns version v of a game's shipped network (loaded once, shared read-only).
func BuiltinVersion(game string, v int) (*Net, error) {
	builtinMu.Lock()
	defer builtinMu.Unlock()
	k := builtinKey{game, v}
	if n, ok := builtins[k]; ok {
		return n, nil
	}
	b, err := builtinBytes(game, v)
	if err != nil {
		return nil, err
	}
	n, err := Unmarshal(b)
	if err != nil {
		return nil, fmt.Errorf("built-in network %d for %s: %w", v, game, err)
	}
	if n.Game != game {
		return nil, fmt.Errorf("built-in network %d for %s is a %s network", v, game, n.Game)
	}
	builtins[k] = n
	return n, nil
}

// LatestBuiltin is the highest version of a game's shipped networks (0: none).
func LatestBuiltin(game string) int {
	v := 0
	for {
		if _, err := nets.Open(builtinFile(game, v+1)); err != nil {
			return v
		}
		v++
	}
}

// BuiltinExists reports whether some game has a shipped network of version v.
func BuiltinExists(v int) bool {
	entries, _ := nets.ReadDir("nets")
	for _, e := range entries {
		if v >= 1 && (v == 1 || strings.HasSuffix(e.Name(), "-"+strconv.Itoa(v)+".nnue")) {
			return true
		}
	}
	return false
}

// BuiltinSHA256 is the SHA-256, in hex, of the first shipped network file of a game
// (net=builtin): what a run records of it, whose content the spec does not name.
func BuiltinSHA256(game string) (string, error) {
	return BuiltinVersionSHA256(game, 1)
}

// BuiltinVersionSHA256 is the SHA-256, in hex, of version v of a game's shipped network file.
func BuiltinVersionSHA256(game string, v int) (string, error) {
	b, err := builtinBytes(game, v)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}
