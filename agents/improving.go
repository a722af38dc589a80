package agents

// The improving flag (imp=1), as strong chess engines use it: a node is *improving* when its
// static evaluation (the side to move's view, tempo included) is above that of the node two
// plies up the path, where the same side was to move. An improving node's reverse-futility
// margin is one ply smaller (margin·(depth − 1)) and its late-move pruning keeps 3 + 2·depth²
// moves; a node that is not improving keeps half as many. With imp=1 every interior node
// evaluates statically (the root too), so the node two plies up always has a value; the
// root's children have none above them and are not improving. Katarenga and Baran have no
// check, and a finished game returns before the flag is needed.

const impDoc = "improving flag: a node whose static evaluation is above the one two plies earlier on the path is improving: its reverse-futility margin is margin·(depth−1) and late-move pruning keeps 3+2·depth² moves, else margin·depth and half as many: 1 on, 0 off; auto = 0 (docs/search.md)"

// autoNetImp is imp=auto by game under movetime with a network evaluating; a game not listed
// (every game, until it is measured) keeps 0, as do node and depth budgets, whose play
// records pin.
var autoNetImp = map[string]int{}

// parseImproving reads imp: 0, 1 or "auto" (Auto).
func parseImproving(p Params) (int, error) { return p.IntOrAuto("imp", 0, 1) }

// resolveImp is the improving flag's option for game: as given, or at auto autoNetImp under
// movetime with a network (net says whether one evaluates), else off.
func (a *AlphaBeta) resolveImp(game string, net bool) bool {
	return resolveAuto(a.Imp, a.Movetime > 0 && net, autoNetImp[game])
}

// improving records static as the static evaluation at ply and returns 1 when it is above
// the one two plies up, else 0 (imp=1 only).
func (p *abPlayer) improving(static int32, ply int) int {
	p.stat[ply] = static
	if ply >= 2 && static > p.stat[ply-2] {
		return 1
	}
	return 0
}

// lmpLimit is the number of moves late-move pruning searches at depth (lmp ≥ depth): 3 + 2d²,
// or with imp=1 that when improving (imp 1) and half of it when not.
func (p *abPlayer) lmpLimit(depth, imp int) int {
	n := 3 + 2*depth*depth
	if p.imp && imp == 0 {
		return n / 2
	}
	return n
}
