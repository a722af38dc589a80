// Package agents holds the players: each sees only the engine contract (engine.State), gets a
// per-game random source, and keeps its mutable state per game so concurrent games never share
// anything mutable. Agents are named by spec strings such as "random" or "alphabeta:depth=4".
package agents

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fairplay-lab/fairplay/engine"
)

// Player chooses actions in one game. A Player is used by one goroutine only.
type Player interface {
	// Choose returns one of legal (the non-empty list of legal actions of s). An error makes the
	// player forfeit the game (for example an external program that crashed).
	Choose(s engine.State, legal []engine.Action, r *engine.Rand) (engine.Action, error)
}

// Closer is implemented by players that hold resources (external programs).
type Closer interface{ Close() error }

// Agent is a configured kind of player: it makes a fresh Player for each game.
type Agent interface {
	// Spec is the canonical spec string, parameters included.
	Spec() string
	// NewPlayer makes a player for one game of the named game.
	NewPlayer(game string) (Player, error)
	// Reproducible reports whether the agent's choices depend only on the position and the
	// random source (false for wall-clock budgets and external programs).
	Reproducible() bool
}

// Param documents one parameter of an agent.
type Param struct{ Name, Default, Doc string }

// Kind documents an agent kind and builds agents from parameters.
type Kind struct {
	Name   string
	Doc    string
	Params []Param
	// Late names parameters added after specs were recorded in runs: they are left out of the
	// canonical spec while at their default, so that older runs' specs stay what they were.
	Late []string
	// Quiet names late parameters that Expand also leaves out at their default: ones whose
	// default plays every reproducible budget (nodes, depth, playouts) exactly as before the
	// parameter existed, so the records of such play stay what they were (a time-budgeted
	// agent's play, which no record pins, may change with them as with any change of speed).
	Quiet []string
	build func(p Params) (Agent, error)
}

var kinds = map[string]Kind{}

func register(k Kind) { kinds[k.Name] = k }

// Kinds lists the agent kinds in name order.
func Kinds() []Kind {
	var out []Kind
	for _, k := range kinds {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Params are an agent's parameters after defaults, by name.
type Params struct {
	kind  string
	vals  map[string]string
	given map[string]string // the parameters the spec names, as given
}

// Given reports whether the spec named the parameter (rather than leaving it at its default).
func (p Params) Given(name string) bool {
	_, ok := p.given[name]
	return ok
}

// String returns the parameter as given or defaulted.
func (p Params) String(name string) string { return p.vals[name] }

// Int reads an integer parameter within [lo, hi].
func (p Params) Int(name string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(p.vals[name])
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("agent %s: %s=%q: want an integer %d..%d", p.kind, name, p.vals[name], lo, hi)
	}
	return n, nil
}

// IntOrAuto reads an integer parameter within [lo, hi] or "auto", which it returns as Auto.
func (p Params) IntOrAuto(name string, lo, hi int) (int, error) {
	if p.String(name) == "auto" {
		return Auto, nil
	}
	n, err := p.Int(name, lo, hi)
	if err != nil {
		return 0, fmt.Errorf("%w, or auto", err)
	}
	return n, nil
}

// resolveAuto resolves a 0/1/auto switch read by IntOrAuto: as given, or at auto def where the
// automatic choice applies (for the search options: movetime with a network), else off.
func resolveAuto(v int, applies bool, def int) bool {
	if v != Auto {
		return v == 1
	}
	return applies && def == 1
}

// Float reads a finite number parameter within [lo, hi] (NaN and infinities are refused).
func (p Params) Float(name string, lo, hi float64) (float64, error) {
	x, err := strconv.ParseFloat(p.vals[name], 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x < lo || x > hi {
		return 0, fmt.Errorf("agent %s: %s=%q: want a number from %g to %g", p.kind, name, p.vals[name], lo, hi)
	}
	return x, nil
}

// canonical prints kind:name=value,... with every parameter, in declaration order.
func (p Params) canonical(k Kind) string {
	if len(k.Params) == 0 {
		return k.Name
	}
	parts := make([]string, 0, len(k.Params))
	for _, d := range k.Params {
		if slices.Contains(k.Late, d.Name) && p.vals[d.Name] == d.Default {
			continue
		}
		parts = append(parts, d.Name+"="+p.vals[d.Name])
	}
	return k.Name + ":" + strings.Join(parts, ",")
}

// Parse reads an agent spec "kind[:name=value,...]".
func Parse(spec string) (Agent, error) {
	spec = strings.TrimSpace(spec)
	name, rest, _ := strings.Cut(spec, ":")
	k, ok := kinds[name]
	if !ok {
		var names []string
		for _, k := range Kinds() {
			names = append(names, k.Name)
		}
		return nil, fmt.Errorf("unknown agent %q (want one of %s; run 'fairplay agents')", name, strings.Join(names, ", "))
	}
	p := Params{kind: name, vals: map[string]string{}}
	for _, d := range k.Params {
		p.vals[d.Name] = d.Default
	}
	if rest != "" {
		given := map[string]string{}
		p.given = given
		for _, item := range strings.Split(rest, ",") {
			n, v, ok := strings.Cut(item, "=")
			if !ok {
				return nil, fmt.Errorf("agent %s: parameter %q: want name=value", name, item)
			}
			if _, known := p.vals[n]; !known {
				var valid []string
				for _, d := range k.Params {
					valid = append(valid, d.Name)
				}
				if len(valid) == 0 {
					return nil, fmt.Errorf("agent %s takes no parameters (got %q)", name, n)
				}
				return nil, fmt.Errorf("agent %s: unknown parameter %q (valid: %s)", name, n, strings.Join(valid, ", "))
			}
			if old, twice := given[n]; twice {
				return nil, fmt.Errorf("agent %s: parameter %s given twice (%s=%s and %s=%s)", name, n, n, old, n, v)
			}
			given[n] = v
			p.vals[n] = v
		}
	}
	return k.build(p)
}

// Random picks uniformly among the distinct legal actions.
type Random struct{}

func init() {
	register(Kind{Name: "random", Doc: "uniformly random among the distinct legal actions",
		build: func(Params) (Agent, error) { return Random{}, nil }})
}

// Spec returns "random".
func (Random) Spec() string { return "random" }

// NewPlayer returns the stateless random player.
func (Random) NewPlayer(string) (Player, error) { return Random{}, nil }

// Reproducible is true.
func (Random) Reproducible() bool { return true }

// Choose picks uniformly.
func (Random) Choose(_ engine.State, legal []engine.Action, r *engine.Rand) (engine.Action, error) {
	return legal[r.IntN(len(legal))], nil
}

// Searches reports whether the agent of a spec searches ahead: alpha-beta (classic included)
// or MCTS, as opposed to random play, one-ply greedy play or an external program (whose play
// the toolkit does not know).
func Searches(spec string) bool {
	name, _, _ := strings.Cut(strings.TrimSpace(spec), ":")
	return name == "alphabeta" || name == "classic" || name == "mcts"
}

// ShortSpec is a spec for people: the canonical spec without the parameters at their defaults
// ("alphabeta:depth=2" for "alphabeta:depth=2,nodes=0,movetime=0,..."), the kind's name alone
// when every parameter is at its default. A default whose absence would read otherwise is kept
// (alpha-beta's margin=150 under movetime, where a spec without margin has auto), so that the
// short spec parses to the same agent. A spec it cannot read (an unknown kind, a value with a
// comma) is returned as it is.
func ShortSpec(spec string) string {
	name, rest, ok := strings.Cut(spec, ":")
	k, known := kinds[name]
	if !ok || !known || strings.ContainsAny(rest, `"'`) {
		return spec
	}
	def := map[string]string{}
	for _, d := range k.Params {
		def[d.Name] = d.Default
	}
	items := strings.Split(rest, ",")
	for _, item := range items {
		n, _, ok := strings.Cut(item, "=")
		if _, param := def[n]; !ok || !param {
			return spec
		}
	}
	short := func(keep map[string]bool) string {
		var kept []string
		for _, item := range items {
			n, v, _ := strings.Cut(item, "=")
			if v != def[n] || keep[n] {
				kept = append(kept, item)
			}
		}
		if len(kept) == 0 {
			return name
		}
		return name + ":" + strings.Join(kept, ",")
	}
	s := short(nil)
	a, err := Parse(spec)
	if err != nil || (a.Spec() != spec && Expand(a) != spec) {
		return s // neither a canonical nor an expanded spec: the plain rule
	}
	b, err := Parse(s)
	if err != nil || b.Spec() == a.Spec() {
		return s
	}
	_, got, _ := strings.Cut(Expand(b), ":")
	_, was, _ := strings.Cut(Expand(a), ":")
	keep := map[string]bool{}
	for _, item := range strings.Split(got, ",") {
		if !slices.Contains(strings.Split(was, ","), item) {
			n, _, _ := strings.Cut(item, "=")
			keep[n] = true // read otherwise without it: keep the spec's value
		}
	}
	if r := short(keep); r != s {
		if c, err := Parse(r); err == nil && c.Spec() == a.Spec() {
			return r
		}
		return a.Spec() // no short form reads the same: the whole spec
	}
	return s
}
