package tournament

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fairplay-lab/fairplay/internal/markdown"
	"github.com/fairplay-lab/fairplay/stats"
	"github.com/fairplay-lab/fairplay/tally"
)

// CurveKeys are the budgets a strength curve can run along, in the order they are tried.
var CurveKeys = []string{"movetime", "nodes", "playouts", "depth"}

// Curves finds the strength curves of a fitted tournament: for each budget key, the families
// of two or more agents whose canonical specs (specs) differ in that key alone, each with a
// positive budget that no other budget overrides (limitedElsewhere: nodes, playouts or depth
// beside a positive movetime, depth beside a node budget). Points are ordered by budget; each
// point's gain is its rating minus the previous point's, with the interval of the difference
// (stats.RatingTable.Gap), so the Elo a doubling of the budget buys is read off directly. The
// curves come key by key (CurveKeys' order), each key's in the order of their first agent.
// Labels name the agents as the user wrote them.
func Curves(specs, labels []string, tab *stats.RatingTable) []tally.Curve {
	var curves []tally.Curve
	for _, key := range CurveKeys {
		type member struct {
			agent  int
			value  string
			budget float64
		}
		var order []string
		families := map[string][]member{}
		for i, spec := range specs {
			rest, value, ok := cutParam(spec, key)
			if !ok {
				continue
			}
			budget, ok := budgetOf(key, value)
			if !ok || limitedElsewhere(spec, key) {
				continue
			}
			if _, seen := families[rest]; !seen {
				order = append(order, rest)
			}
			families[rest] = append(families[rest], member{i, value, budget})
		}
		for _, rest := range order {
			ms := families[rest]
			if len(ms) < 2 {
				continue
			}
			slices.SortStableFunc(ms, func(a, b member) int {
				switch {
				case a.budget < b.budget:
					return -1
				case a.budget > b.budget:
					return 1
				}
				return 0
			})
			c := tally.Curve{Family: familyLabel(labels[ms[0].agent], key), Key: key}
			for k, m := range ms {
				r := tab.Ratings[m.agent]
				p := tally.CurvePoint{Agent: labels[m.agent], Value: m.value, Budget: m.budget,
					Elo:       stats.Interval{Value: r.Elo, Low: r.Low, High: r.High},
					Doublings: math.NaN(), Gain: stats.Interval{Value: math.NaN(), Low: math.NaN(), High: math.NaN()}}
				p.FromFirst = p.Gain
				if r.Unbounded != 0 {
					p.Elo.Low, p.Elo.High = math.NaN(), math.NaN()
				}
				if !math.IsNaN(p.Elo.Low) && !math.IsNaN(p.Elo.High) {
					p.Elo.Method = stats.MethodBootstrapPercentile
				}
				if k > 0 {
					prev := ms[k-1]
					// A ply more is not a doubling of the effort; one budget written two ways
					// (nodes=020000, nodes=20000: two specs) is no step up at all.
					if key != "depth" && m.budget > prev.budget {
						p.Doublings = math.Log2(m.budget / prev.budget)
					}
					p.Gain = tab.Gap(m.agent, prev.agent)
					p.FromFirst = tab.Gap(m.agent, ms[0].agent)
				}
				c.Points = append(c.Points, p)
			}
			curves = append(curves, c)
		}
	}
	return curves
}

// cutParam splits a spec "kind:k=v,..." into the spec without the parameter key (its family)
// and the parameter's value; ok is false when the spec has no such parameter.
func cutParam(spec, key string) (rest, value string, ok bool) {
	kind, params, _ := strings.Cut(spec, ":")
	var kept []string
	for _, kv := range strings.Split(params, ",") {
		if v, found := strings.CutPrefix(kv, key+"="); found && !ok {
			value, ok = v, true
			continue
		}
		kept = append(kept, kv)
	}
	return kind + ":" + strings.Join(kept, ","), value, ok
}

// budgetOf reads a budget: a duration in milliseconds for movetime, else a count; ok only for
// a positive budget (0 means no limit).
func budgetOf(key, value string) (float64, bool) {
	if key == "movetime" {
		d, err := time.ParseDuration(value)
		if err != nil || d <= 0 {
			return 0, false
		}
		return float64(d) / float64(time.Millisecond), true
	}
	x, err := strconv.ParseFloat(value, 64)
	if err != nil || !(x > 0) || math.IsInf(x, 0) {
		return 0, false
	}
	return x, true
}

// familyLabel is an agent's label without its budget parameter: "alphabeta:movetime=25ms,net=none"
// is the family "alphabeta:net=none", and "mcts:movetime=25ms" is "mcts".
func familyLabel(label, key string) string {
	rest, _, _ := cutParam(label, key)
	return strings.TrimSuffix(rest, ":")
}

// curveSection is report.md's table of the strength curves.
func curveSection(curves []tally.Curve) string {
	var b strings.Builder
	b.WriteString("Strength curves: agents that differ only in one budget, by budget. The gain is the rating over the previous budget's, with the 95% bootstrap interval of the difference itself (the two ratings' shared noise cancels); per doubling divides it by log2 of the budgets' ratio (none for depth). A family's last row gives its whole curve: the last budget's rating over the first's, and that gain per doubling on average. An interval is missing where the games do not measure the gap (one of the two swept the other, directly or through others: the prior sets it).\n\n")
	t := markdown.NewTable("family", "budget", "Elo", "95% interval", "gain", "95% interval", "per doubling").Right(2, 4, 6)
	for _, c := range curves {
		for k, p := range c.Points {
			gain, giv, per := "", "", ""
			if k > 0 {
				gain, giv = fmt.Sprintf("%+.0f", p.Gain.Value), intervalText(p.Gain)
				if d := p.PerDoubling(); !math.IsNaN(d.Value) {
					per = fmt.Sprintf("%+.0f %s", d.Value, intervalText(d))
				}
			}
			t.Row(markdown.Code(c.Family), c.Key+"="+p.Value, fmt.Sprintf("%+.0f", p.Elo.Value), intervalText(p.Elo), gain, giv, per)
		}
		if len(c.Points) > 2 {
			gain, avg := c.Whole()
			per := ""
			if !math.IsNaN(avg.Value) {
				per = fmt.Sprintf("%+.0f %s on average", avg.Value, intervalText(avg))
			}
			t.Row(markdown.Code(c.Family), "whole curve", "", "", fmt.Sprintf("%+.0f", gain.Value), intervalText(gain), per)
		}
	}
	b.WriteString(t.String())
	return b.String()
}

// intervalText is "[low, high]" in whole Elo, or "—" when there is no interval.
func intervalText(iv stats.Interval) string {
	if math.IsNaN(iv.Low) || math.IsNaN(iv.High) {
		return "—"
	}
	return fmt.Sprintf("[%+.0f, %+.0f]", iv.Low, iv.High)
}

// curveFinding is a curve in one line for the report page: the family's gain from its first
// budget to its last, and per doubling on average (not for depth).
func curveFinding(c tally.Curve) string {
	first, last := c.Points[0], c.Points[len(c.Points)-1]
	gain, avg := c.Whole()
	s := fmt.Sprintf("strength curve %s, %s %s → %s: %+.0f %s Elo", c.Family, c.Key, first.Value, last.Value, gain.Value, intervalText(gain))
	if !math.IsNaN(avg.Value) {
		s += fmt.Sprintf(" over %.3g doublings, %+.0f", math.Log2(last.Budget/first.Budget), avg.Value)
		if !math.IsNaN(avg.Low) {
			s += " " + intervalText(avg)
		}
		s += " a doubling on average"
	}
	return s + " (bootstrap over pairs; curve.csv)"
}

// limitedElsewhere says whether another budget limits an agent too, so that key's value is not
// its budget: a positive movetime under nodes, playouts or depth (with movetime set, MCTS's
// playouts and alpha-beta's depth hold stand-ins for "no limit"), and a node budget under depth
// (alpha-beta then deepens to the stand-in depth 64).
func limitedElsewhere(spec, key string) bool {
	if key == "movetime" {
		return false
	}
	if _, v, ok := cutParam(spec, "movetime"); ok {
		if _, limited := budgetOf("movetime", v); limited {
			return true
		}
	}
	if key == "depth" {
		if _, v, ok := cutParam(spec, "nodes"); ok {
			if _, limited := budgetOf("nodes", v); limited {
				return true
			}
		}
	}
	return false
}
