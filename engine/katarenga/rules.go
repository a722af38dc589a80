package katarenga

import (
	"strconv"

	"github.com/fairplay-lab/fairplay/engine"
)

// Variants lists Katarenga's rule switches (RULES.md §2.6); the defaults are the published rules.
var Variants = []engine.Variant{
	{Name: "first-move-capture", Values: []string{"allowed", "banned"}, Default: "allowed",
		Doc:        "banned: no capture on each player's first move (plies 0 and 1), Parlett's later rules",
		ZeroByRule: map[string][]string{"banned": {"first_move_captures"}}},
	{Name: "no-move", Values: []string{"loss", "pass"}, Default: "loss",
		Doc: "a player with no legal move loses (loss) or passes (pass; two passes in a row draw)"},
	{Name: "ply-cap", Default: "400",
		Doc: "after this many plies without a result the game is a draw by cap"},
}

// Rules are the variant switches in force.
type Rules struct {
	FirstMoveCaptureBanned bool
	NoMovePass             bool
	PlyCap                 int
}

// DefaultRules are the published rules.
var DefaultRules = Rules{PlyCap: 400}

// ParseRules reads "name=value,..." (see Variants).
func ParseRules(spec string) (Rules, error) {
	v, err := engine.ParseSwitches(spec, Variants)
	if err != nil {
		return Rules{}, err
	}
	cap, _ := strconv.Atoi(v[2])
	return Rules{FirstMoveCaptureBanned: v[0] == "banned", NoMovePass: v[1] == "pass", PlyCap: cap}, nil
}

// String prints the rules in canonical form, every switch named.
func (r Rules) String() string {
	v := []string{"allowed", "loss", strconv.Itoa(r.PlyCap)}
	if r.FirstMoveCaptureBanned {
		v[0] = "banned"
	}
	if r.NoMovePass {
		v[1] = "pass"
	}
	return engine.FormatSwitches(v, Variants)
}
