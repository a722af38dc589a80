package agents

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/fairplay-lab/fairplay/agents/nnue"
)

// Expand returns the agent's spec with every parameter of its kind, in declaration order: the
// canonical spec (Spec) with the parameters it leaves out at their defaults (Kind.Late) filled
// in. A parameter added later with a default is then visible in a recorded spec, so two
// records that differ in it show the difference; a quiet one (Kind.Quiet) only when given.
func Expand(a Agent) string {
	name, rest, _ := strings.Cut(a.Spec(), ":")
	k, ok := kinds[name]
	if !ok || len(k.Params) == 0 {
		return a.Spec()
	}
	given := map[string]string{}
	if rest != "" {
		for _, item := range strings.Split(rest, ",") {
			n, v, _ := strings.Cut(item, "=")
			given[n] = v
		}
	}
	parts := make([]string, 0, len(k.Params))
	for _, d := range k.Params {
		v, ok := given[d.Name]
		if !ok {
			if slices.Contains(k.Quiet, d.Name) {
				continue
			}
			v = d.Default
		}
		parts = append(parts, d.Name+"="+v)
	}
	return name + ":" + strings.Join(parts, ",")
}

// Inputs returns the SHA-256 (hex) of each file agent a reads when it plays game whose content
// its spec does not pin: the weights file (key "weights") and the network (key "net": a network
// file, or the built-in network that net=builtin<v> names or net=auto chooses). Nil when it
// reads none (the built-in heuristic weights are part of the program).
func Inputs(a Agent, game string) (map[string]string, error) {
	var h *heuristicAgent
	var n *netAgent
	timed := false
	switch x := a.(type) {
	case *AlphaBeta:
		h, n, timed = &x.heuristicAgent, &x.netAgent, x.Movetime > 0
	case *MCTS:
		h, n, timed = &x.heuristicAgent, &x.netAgent, x.Movetime > 0
	case *Classic:
		h = &x.heuristicAgent
	case *Greedy:
		h = &x.heuristicAgent
	default:
		return nil, nil
	}
	out := map[string]string{}
	if h.weightsFile != "" {
		sum, err := fileSHA256(h.weightsFile)
		if err != nil {
			return nil, fmt.Errorf("weights file: %w", err)
		}
		out["weights"] = sum
	}
	if n != nil {
		switch v := n.builtin(game, timed); {
		case v != 0:
			sum, err := nnue.BuiltinVersionSHA256(game, v)
			if err != nil {
				return nil, err
			}
			out["net"] = sum
		case n.netSpec != "" && n.netSpec != "none" && n.netSpec != "auto":
			sum, err := fileSHA256(n.netSpec)
			if err != nil {
				return nil, fmt.Errorf("network file: %w", err)
			}
			out["net"] = sum
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// fileSHA256 is the SHA-256 of a file's content, in hex.
func fileSHA256(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// Resolved returns, for a time-budgeted alpha-beta agent, the values its auto options take
// when it plays game (tempo, hist, cm, the selective-search depths, threat extensions,
// partial, imp and shallow when they are on, and margin when it is auto): a time budget has
// no fingerprint, and these defaults depend on the budget and the evaluation, so a record
// keeps them to show when the same spec came to play differently.
// Empty for every other agent, whose options a fingerprint pins or do not depend on the game.
func Resolved(a Agent, game string) (string, error) {
	ab, ok := a.(*AlphaBeta)
	if !ok || ab.Movetime <= 0 {
		return "", nil
	}
	pl, err := ab.NewPlayer(game)
	if err != nil {
		return "", err
	}
	p := pl.(*abPlayer)
	defer p.Close()
	r := fmt.Sprintf("tempo=%d,hist=%d,cm=%d,lmr=%d,rfp=%d,fut=%d,lmp=%d,ext=%d,partial=%d",
		p.tempo, p.hist, b2i(p.cm), p.sel.LMR, p.sel.RFP, p.sel.Fut, p.sel.LMP, b2i(p.ext), b2i(ab.Partial))
	if p.imp { // only when on, so that records made before the option existed still compare
		r += ",imp=1"
	}
	if ab.Margin == Auto { // only at auto: a given margin is in the spec, as before auto existed
		r += fmt.Sprintf(",margin=%d", p.margin)
	}
	if mb := ab.resolveShallow(game, p.nn != nil); mb > 0 { // only when on, as imp
		r += fmt.Sprintf(",shallow=%d", mb)
	}
	return r, nil
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
