package baran

import (
	"strconv"

	"github.com/fairplay-lab/fairplay/engine"
)

// Variants lists Baran's rule switches (RULES.md §1.9); the defaults are the published rules.
var Variants = []engine.Variant{
	{Name: "capture", Values: []string{"huff", "strict", "free"}, Default: "huff",
		Doc: "forced capture: huff (a missed capture lets the opponent remove one capturer), strict (open play: only captures are legal when one exists), free (no obligation)",
		// Removals and missed captures (a capture not taken, which lets the opponent remove)
		// exist under huff alone.
		ZeroByRule: map[string][]string{"strict": {"removals", "missed_captures"}, "free": {"removals", "missed_captures"}}},
	{Name: "chain-capture", Values: []string{"whole", "per-jump"}, Default: "whole",
		Doc: "whole: a chain captures everything it jumped iff all jumps were forward over enemy warriors; per-jump: each forward-jumped enemy is captured unless an own piece was jumped"},
	{Name: "fast-row", Values: []string{"3", "4"}, Default: "3",
		Doc: "the row (counted from the own throne) of the 4 fast warriors; 4 puts them on the front row's non-middle cells"},
	{Name: "no-move", Values: []string{"loss", "pass"}, Default: "loss",
		Doc: "a player with no legal action loses (loss) or passes (pass; two passes in a row draw)"},
	{Name: "ply-cap", Default: "400",
		Doc: "after this many plies without a result the game is a draw by cap"},
}

// CaptureMode is the forced-capture rule.
type CaptureMode uint8

// The forced-capture modes.
const (
	Huff CaptureMode = iota
	Strict
	Free
)

// Rules are the variant switches in force.
type Rules struct {
	Capture    CaptureMode
	PerJump    bool // chain-capture=per-jump
	FastRow4   bool // fast-row=4
	NoMovePass bool
	PlyCap     int
}

// DefaultRules are the published rules.
var DefaultRules = Rules{PlyCap: 400}

// ParseRules reads "name=value,..." (see Variants).
func ParseRules(spec string) (Rules, error) {
	v, err := engine.ParseSwitches(spec, Variants)
	if err != nil {
		return Rules{}, err
	}
	r := Rules{PerJump: v[1] == "per-jump", FastRow4: v[2] == "4", NoMovePass: v[3] == "pass"}
	switch v[0] {
	case "strict":
		r.Capture = Strict
	case "free":
		r.Capture = Free
	}
	r.PlyCap, _ = strconv.Atoi(v[4])
	return r, nil
}

// String prints the rules in canonical form, every switch named.
func (r Rules) String() string {
	v := []string{[]string{"huff", "strict", "free"}[r.Capture], "whole", "3", "loss", strconv.Itoa(r.PlyCap)}
	if r.PerJump {
		v[1] = "per-jump"
	}
	if r.FastRow4 {
		v[2] = "4"
	}
	if r.NoMovePass {
		v[3] = "pass"
	}
	return engine.FormatSwitches(v, Variants)
}
