package tally

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"

	"github.com/fairplay-lab/fairplay/engine"
)

// Coverage on correlated pairs. Each of 100 pairs is, with probability ρ = 0.74, one game
// played twice (both games share the outcome, as in issue 11's 74 of 100 identical pairs) and
// otherwise two independent games; the first player wins with probability ½. The
// pair-clustered interval must reach its nominal 95% within ±2 points (4,000 replicates, Monte
// Carlo standard error 0.35 points); the Wilson interval that treats the 200 games as
// independent must not (design effect 1 + ρ: expected coverage ≈ 2Φ(1.96/√1.74) − 1 ≈ 86%).
func TestClusteredCoverage(t *testing.T) {
	const pairs, rho, p = 100, 0.74, 0.5
	reps := 4000
	if testing.Short() {
		reps = 1000
	}
	r := engine.NewRand(20261123)
	cl, naive, wider := 0, 0, 0
	for rep := 0; rep < reps; rep++ {
		s := NewSummary(nil)
		for k := int64(0); k < pairs; k++ {
			w0 := r.Float64() < p
			w1 := w0
			if r.Float64() >= rho {
				w1 = r.Float64() < p
			}
			for g, w := range []bool{w0, w1} {
				rc := &gamefile.Record{Game: 2*k + int64(g), Pair: k, GameName: "katarenga", FirstIs: "a", Winner: "second", Reason: engine.Camps, Plies: 10}
				if w {
					rc.Winner = "first"
				}
				s.Add(rc)
			}
		}
		st := map[string]Stat{}
		for _, x := range s.Stats() {
			st[x.Name] = x
		}
		c, w := st["first_win_rate"], st["first_win_rate_wilson_iid"]
		if c.Method != stats.MethodClusterPairs {
			t.Fatalf("first_win_rate method %q", c.Method)
		}
		if c.Low <= p && p <= c.High {
			cl++
		}
		if w.Low <= p && p <= w.High {
			naive++
		}
		if c.High-c.Low >= w.High-w.Low-1e-12 {
			wider++
		}
	}
	fc, fn := float64(cl)/float64(reps), float64(naive)/float64(reps)
	t.Logf("coverage: pair-clustered %.3f, naive Wilson %.3f", fc, fn)
	if math.Abs(fc-0.95) > 0.02 {
		t.Errorf("pair-clustered coverage %.3f, want 0.95 ± 0.02", fc)
	}
	if fn > 0.90 {
		t.Errorf("naive Wilson coverage %.3f: want below 0.90 on correlated pairs", fn)
	}
	if wider != reps {
		t.Errorf("clustered interval narrower than Wilson in %d of %d replicates", reps-wider, reps)
	}
}

// The cluster-robust variance of a ratio against a direct computation.
func TestClusterRatioSE(t *testing.T) {
	ys := []float64{1, 2, 0, 2, 1}
	ns := []float64{2, 2, 2, 2, 1}
	var c stats.ClusterRatio
	for i := range ys {
		c.Add(ys[i], ns[i])
	}
	R := 6.0 / 9
	ss := 0.0
	for i := range ys {
		ss += (ys[i] - R*ns[i]) * (ys[i] - R*ns[i])
	}
	want := math.Sqrt(ss*5/4) / 9
	approx(t, "ratio", c.Ratio(), R, 1e-15)
	approx(t, "se", c.SE(), want, 1e-15)
}

// The delta-method SD interval brackets the sample SD, is reproducible, has the width the
// sampling theory predicts, and matches a direct two-pass computation of Σ z_c².
func TestClusterSD(t *testing.T) {
	run := func() stats.Interval {
		s := NewSummary(nil)
		r := engine.NewRand(5)
		for i := int64(0); i < 400; i++ {
			s.Add(&gamefile.Record{Game: i, Pair: i / 2, GameName: "baran", Winner: "draw", Reason: engine.Cap, Plies: 50 + r.IntN(100)})
		}
		for _, st := range s.Stats() {
			if st.Name == "duration_sd" {
				return st.Interval
			}
		}
		return stats.Interval{}
	}
	a, b := run(), run()
	if a != b || a.Method != stats.MethodDeltaSDPairs || !(a.Low < a.Value && a.Value < a.High) {
		t.Errorf("duration_sd %+v, again %+v", a, b)
	}
	// Uniform on 100 values: sd ≈ 28.9, SE(sd) ≈ sd·sqrt((κ−1)/(4n)) with kurtosis κ = 1.8:
	// ≈ 0.65 at n = 400, so the interval is about 2.5 wide.
	if a.High-a.Low > 3.5 || a.High-a.Low < 1.8 {
		t.Errorf("duration_sd interval [%g, %g]", a.Low, a.High)
	}

	// Direct computation on uneven clusters with a large common offset (cancellation check).
	r := engine.NewRand(9)
	var c stats.ClusterSD
	var ns, s1, s2 []float64
	var N, S1, S2 float64
	for k := 0; k < 300; k++ {
		n := float64(1 + r.IntN(3))
		var a, q float64
		for j := 0; j < int(n); j++ {
			x := 1e6 + float64(r.IntN(10)) + float64(k%7)
			a, q = a+x, q+x*x
		}
		c.Add(n, a, q)
		ns, s1, s2 = append(ns, n), append(s1, a), append(s2, q)
		N, S1, S2 = N+n, S1+a, S2+q
	}
	m1 := S1 / N
	var ssd float64
	for k := range ns { // Σ (x − m1)² per cluster, computed stably
		ssd += s2[k] - 2*m1*s1[k] + m1*m1*ns[k]
	}
	v := ssd / (N - 1)
	sd := math.Sqrt(v)
	m2c := ssd / N // the centred second moment
	zz := 0.0
	for k := range ns {
		z := s2[k] - 2*m1*s1[k] + m1*m1*ns[k] - m2c*ns[k]
		zz += z * z
	}
	K := float64(len(ns))
	want := N / (N - 1) * math.Sqrt(zz*K/(K-1)) / N / (2 * sd)
	got := c.Interval(sd)
	// The interval is sd·c·exp(±q·SE/sd) with q = t(299) 0.975 quantile ≈ 1.96793 (tables:
	// 1.96790 at 300 df): half its log width over q is SE/sd.
	se := (math.Log(got.High) - math.Log(got.Low)) / 2 / 1.96793 * sd
	approx(t, "delta-sd standard error", se, want, 1e-4*want) // the reference itself loses ~1e-5 to the offset
}

// summary.csv keys are unique; Baran lists only Baran reasons; tiny p-values print as <1e-300;
// distinct_games counts distinct move lists.
func TestSummaryRows(t *testing.T) {
	s := NewSummary(nil)
	for i := int64(0); i < 6; i++ {
		s.Add(&gamefile.Record{Game: i, Pair: i / 2, GameName: "baran", Winner: "first", Reason: engine.Throne, Plies: 3, Moves: []string{"a", "b", "a", "a", "c", "b"}[i]})
	}
	seen := map[string]bool{}
	for _, st := range s.Stats() {
		if seen[st.Name] {
			t.Errorf("statistic %s listed twice", st.Name)
		}
		seen[st.Name] = true
		if st.Name == "distinct_games" && (st.Value != 3 || st.N != 6) {
			t.Errorf("distinct_games %g of %d, want 3 of 6", st.Value, st.N)
		}
	}
	for _, name := range []string{"reason_camps_rate", "reason_material_rate", "decisiveness", "first_win_rate_wilson"} {
		if seen[name] {
			t.Errorf("Baran summary lists %s", name)
		}
	}
	for _, name := range []string{"completion", "reason_throne_rate", "distinct_games", "first_win_rate_clopper_pearson_iid"} {
		if !seen[name] {
			t.Errorf("summary lacks %s", name)
		}
	}
	if got := stats.FormatPValue(1e-320); got != "<1e-300" {
		t.Errorf("FormatPValue(1e-320) = %q", got)
	}
	if got := stats.FormatPValue(0); got != "<1e-300" {
		t.Errorf("FormatPValue(0) = %q", got)
	}
}

// A metric constant in both variants (zero by rule) is not tested and stays out of the Holm
// family; variant rates carry pair-clustered standard errors.
func TestVariantsHolmFamily(t *testing.T) {
	cell := func(firstEvery int64) VariantCell {
		s := NewSummary([]string{"first_move_captures"})
		for i := int64(0); i < 40; i++ {
			w := "second"
			if i%firstEvery == 0 {
				w = "first"
			}
			s.Add(&gamefile.Record{Game: i, Pair: i / 2, GameName: "katarenga", FirstIs: "a", Winner: w, Reason: engine.Camps, Plies: 10 + int(i%7), Counters: []int64{0}})
		}
		return VariantCell{Level: 0, Agent: "x", Variant: "v" + string(rune('0'+firstEvery)), Summary: s}
	}
	diffs := CompareVariants([]VariantCell{cell(2), cell(3)})
	tested, found := 0, false
	for _, d := range diffs {
		if d.Metric == "first_move_captures_mean" {
			found = true
			if d.Tested() || d.Method != "not-tested-constant" {
				t.Errorf("constant metric tested: %+v", d)
			}
		}
		if d.Tested() {
			tested++
		}
	}
	if !found || tested == 0 || tested == len(diffs) {
		t.Errorf("found %v, %d of %d differences tested", found, tested, len(diffs))
	}
}

// summary.csv is for machines: every value and bound is a number or empty (pandas reads the
// columns as float), also for a p-value that underflowed to 0 (one player won 2,000 of 2,000).
func TestSummaryCSVNumeric(t *testing.T) {
	s := NewSummary(nil)
	for i := int64(0); i < 2000; i++ {
		s.Add(&gamefile.Record{Game: i, Pair: i / 2, GameName: "katarenga", FirstIs: []string{"a", "b"}[i%2], Winner: "first", Reason: engine.Camps, Plies: 40 + int(i%7), Moves: fmt.Sprint(i)})
	}
	var b bytes.Buffer
	if err := WriteSummaryCSV(&b, s.Stats()); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	underflow := false
	for _, row := range rows[1:] {
		for _, f := range row[1:4] {
			if f == "" {
				continue
			}
			if _, err := strconv.ParseFloat(f, 64); err != nil {
				t.Errorf("%s: %q is not a number", row[0], f)
			}
		}
		if strings.Contains(row[0], "p_value") && row[1] == "0" {
			underflow = true
		}
	}
	if !underflow {
		t.Error("no p-value underflowed: the test misses the case it is for")
	}
}

// One pair per cell (2 games) gives no variance estimate: nothing but the outcome table is
// tested, nothing is significant (the normal reference gave an infinite statistic and
// "p < 1e-300" on five metrics). A metric constant within each cell but different between
// them is tested, exactly, by permutation over pairs.
func TestVariantsFewPairs(t *testing.T) {
	cell := func(name string, games int64, winner string, plies int) VariantCell {
		s := NewSummary([]string{"first_move_captures"})
		for i := int64(0); i < games; i++ {
			s.Add(&gamefile.Record{Game: i, Pair: i / 2, GameName: "katarenga", FirstIs: "a", Winner: winner, Reason: engine.Camps, Plies: plies, Counters: []int64{0}})
		}
		return VariantCell{Level: 0, Agent: "x", Variant: name, Summary: s}
	}
	for _, d := range CompareVariants([]VariantCell{cell("a", 2, "first", 10), cell("b", 2, "second", 30)}) {
		if d.Metric == "outcomes" {
			continue
		}
		if d.Tested() || d.Significant() || d.Method != MethodNotTestedFewPairs || !math.IsNaN(d.Statistic) {
			t.Errorf("one pair a cell: %s tested (%s, statistic %v, p %v)", d.Metric, d.Method, d.Statistic, d.P)
		}
	}
	found := false
	for _, d := range CompareVariants([]VariantCell{cell("a", 12, "first", 10), cell("b", 12, "first", 30)}) {
		if d.Metric != "duration_mean" {
			continue
		}
		found = true
		// 6 pairs a side, constant 10 against constant 30: p = 2/C(12, 6) = 2/924.
		if d.Method != stats.MethodPermutationConstant || math.Abs(d.P-2.0/924) > 1e-12 || !d.Tested() {
			t.Errorf("constant per cell, different: %s p %v, want %s p %v", d.Method, d.P, stats.MethodPermutationConstant, 2.0/924)
		}
	}
	if !found {
		t.Error("no duration_mean difference")
	}
}
