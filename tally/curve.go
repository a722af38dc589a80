package tally

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/fairplay-lab/fairplay/stats"
)

// CurvePoint is one agent of a strength curve: its rating at one budget, and what the
// budget's step up from the previous point of its curve bought.
type CurvePoint struct {
	Agent  string  // the agent as the user wrote it
	Value  string  // the budget as written in the spec ("25ms", "20000")
	Budget float64 // the budget in its key's unit: milliseconds for movetime, else the count
	Elo    stats.Interval
	// Doublings is log2 of the budget over the previous point's (NaN for the first point,
	// for a step between two specs of one budget, and for depth, where a ply more is not a
	// doubling of the effort).
	Doublings float64
	// Gain is this point's rating minus the previous point's, with the interval of the
	// difference (stats.RatingTable.Gap; NaN for the first point, and an interval of NaN when
	// the games do not measure the gap).
	Gain stats.Interval
	// FromFirst is this point's rating minus the family's first point's, with the interval of
	// that difference (NaN for the first point); over FromFirst's doublings it is the average
	// Elo a doubling bought along the whole curve.
	FromFirst stats.Interval
}

// PerDoubling is the gain divided by the doublings (the Elo one doubling bought on this
// step), with its interval scaled alike.
func (p CurvePoint) PerDoubling() stats.Interval {
	d := p.Doublings
	return stats.Interval{Value: p.Gain.Value / d, Low: p.Gain.Low / d, High: p.Gain.High / d, Method: p.Gain.Method}
}

// Curve is one agent family's ratings at increasing budgets of one kind: agents whose specs
// differ only in Key.
type Curve struct {
	Family string // the family as written, without the budget ("alphabeta:net=none")
	Key    string // movetime, nodes, depth or playouts
	Points []CurvePoint
}

// WriteCurveCSV writes curve.csv, one row per point: family, key, value, budget, agent, elo,
// elo_low, elo_high, doublings, gain, gain_low, gain_high, gain_per_doubling,
// gain_per_doubling_low, gain_per_doubling_high, from_first, from_first_low, from_first_high
// (docs/formats.md). Missing values are empty.
func WriteCurveCSV(w io.Writer, curves []Curve) error {
	var b strings.Builder
	b.WriteString("family,key,value,budget,agent,elo,elo_low,elo_high,doublings,gain,gain_low,gain_high,gain_per_doubling,gain_per_doubling_low,gain_per_doubling_high,from_first,from_first_low,from_first_high\n")
	f := stats.FormatFloat
	for _, c := range curves {
		for _, p := range c.Points {
			d := p.PerDoubling()
			fmt.Fprintf(&b, "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", csvField(c.Family), c.Key, csvField(p.Value), f(p.Budget), csvField(p.Agent),
				f(p.Elo.Value), f(p.Elo.Low), f(p.Elo.High), f(p.Doublings), f(p.Gain.Value), f(p.Gain.Low), f(p.Gain.High), f(d.Value), f(d.Low), f(d.High),
				f(p.FromFirst.Value), f(p.FromFirst.Low), f(p.FromFirst.High))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Whole is the curve from its first point to its last: the gain with its interval, and that
// gain per doubling on average (NaN for depth, and when the budgets do not grow).
func (c Curve) Whole() (gain, perDoubling stats.Interval) {
	first, last := c.Points[0], c.Points[len(c.Points)-1]
	gain = last.FromFirst
	d := math.Log2(last.Budget / first.Budget)
	if c.Key == "depth" || !(d > 0) {
		d = math.NaN()
	}
	return gain, stats.Interval{Value: gain.Value / d, Low: gain.Low / d, High: gain.High / d, Method: gain.Method}
}
