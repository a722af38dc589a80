package agents

import (
	"fmt"
	"math"
	"strconv"

	"github.com/fairplay-lab/fairplay/engine"
)

// Selective search: late-move reductions (lmr), reverse futility pruning (rfp), futility
// pruning (fut) and late-move pruning (lmp). Each is a parameter of alphabeta; docs/search.md
// gives what each measured.

// Selective holds the selective-search options of alphabeta: the lmr level and the greatest
// depths of reverse futility pruning (rfp), futility pruning (fut) and late-move pruning (lmp).
type Selective struct{ LMR, RFP, Fut, LMP int }

// Auto marks an option left to the game's default (the parameter value "auto").
const Auto = -1

// autoSelective are the defaults by game under a node or time budget: in Katarenga the four
// options together beat the standard reductions alone (docs/search.md); in Baran they were not
// measured, so Baran keeps the standard reductions without pruning. A fixed-depth search
// (depth=N alone) keeps the standard reductions without pruning in both games: depth=N stays
// the full-width search that depth ladders and studies were measured with, and its exact root
// scores keep self-play diverse (TestSelfPlayDistinct).
var autoSelective = map[string]Selective{
	"katarenga": {LMR: 3, RFP: 3, Fut: 2, LMP: 3},
	"baran":     {LMR: 1},
}

// parseSelective reads lmr (0..3), rfp, fut and lmp (0..8), each a number or "auto".
func parseSelective(p Params) (Selective, error) {
	var s Selective
	for _, f := range []struct {
		name string
		max  int
		dst  *int
	}{{"lmr", 3, &s.LMR}, {"rfp", 8, &s.RFP}, {"fut", 8, &s.Fut}, {"lmp", 8, &s.LMP}} {
		v, err := p.IntOrAuto(f.name, 0, f.max)
		if err != nil {
			return s, err
		}
		*f.dst = v
	}
	return s, nil
}

// resolve replaces every Auto option by the game's default under a budget (0, off, for a game
// without one), or by the fixed-depth default (lmr=1, no pruning) when budgeted is false.
func (s Selective) resolve(game string, budgeted bool) Selective {
	d := autoSelective[game]
	if !budgeted {
		d = Selective{LMR: 1}
	}
	for _, f := range [][2]*int{{&s.LMR, &d.LMR}, {&s.RFP, &d.RFP}, {&s.Fut, &d.Fut}, {&s.LMP, &d.LMP}} {
		if *f[0] == Auto {
			*f[0] = *f[1]
		}
	}
	return s
}

// lmrLog[d][i] is lmr=3's reduction of the i-th move (0-based) at depth d with the default
// divisor (lmrdiv=200): ⌊0.75 + ln d · ln i / 2⌋, the logarithmic form of modern chess engines.
var lmrLog = logReductions(defaultLMRDiv)

// defaultLMRDiv is lmrdiv's default, and defaultAspDelta aspd's.
const (
	defaultLMRDiv   = 200
	defaultAspDelta = 40
)

// logReductions is lmr=3's table of reductions for a divisor of div hundredths:
// ⌊0.75 + ln d · ln i / (div/100)⌋ for depth d and the i-th move (0-based).
func logReductions(div int) *[64][64]int8 {
	var t [64][64]int8
	for d := 1; d < 64; d++ {
		for i := 1; i < 64; i++ {
			t[d][i] = int8(0.75 + math.Log(float64(d))*math.Log(float64(i))/(float64(div)/100))
		}
	}
	return &t
}

// reduction is the late-move reduction of the i-th move (0-based) at depth, a quiet move that
// is not extended: none before depth 3 or for the first three moves.
func (p *abPlayer) reduction(depth, i int, pv bool) int {
	if depth < 3 || i < 3 {
		return 0
	}
	red := 0
	switch p.sel.LMR {
	case 1:
		red = 1
		if depth >= 6 && i >= 10 {
			red = 2
		}
	case 2:
		red = 1
		if depth >= 5 && i >= 6 {
			red = 2
		}
		if depth >= 7 && i >= 15 {
			red = 3
		}
	case 3:
		red = max(1, int(p.lmrLog[min(depth, 63)][min(i, 63)]))
		if pv && red > 1 {
			red-- // one ply less on the principal variation
		}
	}
	return max(0, min(red, depth-2)) // the reduced search keeps at least one ply
}

// inEval reports whether v is an evaluation-range bound (not a win or loss score), where the
// futility margins make sense.
func inEval(v int32) bool { return v > -evalBound && v < evalBound }

// defaultMargin is the futility margin per ply (margin) wherever autoNetMargin does not apply:
// every node and depth budget, and movetime without a network.
const defaultMargin = 150

// autoNetMargin is margin=auto by game under movetime with a network evaluating (any: net=auto
// plays one there). In Katarenga 75 beat 150 with the fourth network at 100,000 nodes, a
// fifth to a half of a 100 ms move's nodes (docs/search.md, "What each part is worth");
// measured with that network only. A game not listed keeps defaultMargin.
var autoNetMargin = map[string]int32{"katarenga": 75}

// parseMargin reads margin: 1..2000 or auto. A movetime search whose spec does not give it has
// auto, and its spec says so; every other spec keeps the parameter's default, 150 (auto there
// is 150 and reads so), so that node and depth budgets play and read as before.
func parseMargin(p Params, movetime bool) (int32, error) {
	if p.String("margin") == "auto" {
		if !movetime { // auto is 150 there: one canonical spelling of that agent
			p.vals["margin"] = strconv.Itoa(defaultMargin)
			return defaultMargin, nil
		}
		return Auto, nil
	}
	if movetime && !p.Given("margin") {
		p.vals["margin"] = "auto"
		return Auto, nil
	}
	m, err := p.Int("margin", 1, 2000)
	if err != nil {
		return 0, fmt.Errorf("%w, or auto", err)
	}
	return int32(m), nil
}

// resolveMargin is the futility margin for game: as given, or at auto autoNetMargin under
// movetime with a network (net reports one), else defaultMargin.
func (a *AlphaBeta) resolveMargin(game string, net bool) int32 {
	if a.Margin != Auto {
		return a.Margin
	}
	if m, ok := autoNetMargin[game]; ok && a.Movetime > 0 && net {
		return m
	}
	return defaultMargin
}

const ttEvalDoc = "the static evaluation the pruning reads (rfp, fut, null, imp) is refined by the table: the score of an entry that does not decide the node replaces it where it is a lower bound above the evaluation, an upper bound below it, or exact: 1 on, 0 off (docs/search.md)"

// staticEval is s's evaluation for the pruning decisions of a node whose table probe found e
// (ok), refined by it with tteval=1 (refineStatic).
func (p *abPlayer) staticEval(s engine.State, e ttEntry, ok bool, ply int) int32 {
	v := p.eval(s)
	if p.corr != nil {
		v = min(max(v+p.correction(s), -evalBound), evalBound)
	}
	if !p.cfg.TTEval || !ok {
		return v
	}
	return refineStatic(v, e, ply)
}

// refineStatic is the evaluation v of the node at ply refined by its table entry e: e's score
// replaces v where e's bound says the true value lies on that side (a lower bound above v, an
// upper bound below it, or an exact score); a win or loss score does not. Stockfish's search
// does so for its reverse futility and null move ("ttValue can be used as a better position
// evaluation"); here every pruning decision that reads the static evaluation gets it.
func refineStatic(v int32, e ttEntry, ply int) int32 {
	t := fromTT(e.score, ply)
	if !inEval(t) {
		return v
	}
	if e.flag == ttExact || (e.flag == ttLower && t > v) || (e.flag == ttUpper && t < v) {
		return t
	}
	return v
}
