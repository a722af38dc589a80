package stats

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

// FoldChunks folds every chunk once, in chunk order, whatever the number of accumulators, and
// stops at the first error in chunk order.
func TestFoldChunks(t *testing.T) {
	for _, w := range []int{1, 2, 3, 8, 20} {
		accs := make([]int, w)
		var order []int
		err := FoldChunks(11, accs, func(a *int) { *a = -1 }, func(c int, a *int) error {
			if *a != -1 {
				return fmt.Errorf("chunk %d: accumulator not reset", c)
			}
			*a = c
			return nil
		}, func(a *int) error {
			order = append(order, *a)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for c, v := range order {
			if v != c {
				t.Fatalf("%d accumulators: folded %v, want 0 … 10 in order", w, order)
			}
		}
		if len(order) != 11 {
			t.Fatalf("%d accumulators: %d chunks folded, want 11", w, len(order))
		}
		bad := errors.New("chunk 5")
		folded := 0
		err = FoldChunks(11, accs, func(*int) {}, func(c int, a *int) error {
			if c == 5 || c == 9 {
				return fmt.Errorf("chunk %d", c)
			}
			return nil
		}, func(*int) error {
			folded++
			return nil
		})
		if err == nil || err.Error() != bad.Error() || folded != 5 {
			t.Errorf("%d accumulators: error %v after %d folds, want %v after 5", w, err, folded, bad)
		}
	}
}

// logisticData is a sparse design like a layout sweep's colour effects, smaller: an intercept
// and one of four indicators for each of 6 "squares", grouped binomial counts from known
// effects (fixed seed).
func logisticData(n int) (rows []SparseRow, succ, trials []float64) {
	var state uint64 = 11
	next := func() float64 {
		state = state*6364136223846793005 + 1442695040888963407
		return float64(state>>11) / (1 << 53)
	}
	for i := 0; i < n; i++ {
		r := SparseRow{Cols: []int{0}, Vals: []float64{1}}
		eta := -0.2
		for sq := 0; sq < 6; sq++ {
			c := int(next() * 4)
			r.Cols, r.Vals = append(r.Cols, 1+4*sq+c), append(r.Vals, 1)
			eta += 0.3 * float64(c-1) * float64(sq%3-1)
		}
		t := float64(2 + int(next()*20))
		s := 0.0
		for k := 0; k < int(t); k++ {
			if next() < 1/(1+math.Exp(-eta)) {
				s++
			}
		}
		rows, succ, trials = append(rows, r), append(succ, s), append(trials, t)
	}
	return rows, succ, trials
}

// LogisticChunks gives bit-for-bit the same fit at any number of workers, and the fit of the
// rows read in one pass (LogisticScan) to rounding.
func TestLogisticChunksWorkers(t *testing.T) {
	rows, succ, trials := logisticData(1000)
	const p, size = 25, 64
	penalty := make([]float64, p)
	for j := 1; j < p; j++ {
		penalty[j] = 0.5
	}
	chunks := (len(rows) + size - 1) / size
	scan := func(c int, visit func(r *SparseRow, s, t float64)) error {
		for i := c * size; i < min((c+1)*size, len(rows)); i++ {
			visit(&rows[i], succ[i], trials[i])
		}
		return nil
	}
	whole, err := LogisticScan(p, func(visit func(r *SparseRow, s, t float64)) error {
		for i := range rows {
			visit(&rows[i], succ[i], trials[i])
		}
		return nil
	}, penalty)
	if err != nil {
		t.Fatal(err)
	}
	var first *LogisticFit
	for _, w := range []int{1, 2, 5, 16, 40} {
		fit, err := LogisticChunks(p, chunks, w, scan, penalty)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = fit
		}
		for j := 0; j < p; j++ {
			if math.Float64bits(fit.Beta[j]) != math.Float64bits(first.Beta[j]) || math.Float64bits(fit.SE[j]) != math.Float64bits(first.SE[j]) {
				t.Fatalf("%d workers: beta[%d] = %v ± %v, one worker's %v ± %v", w, j, fit.Beta[j], fit.SE[j], first.Beta[j], first.SE[j])
			}
			if d := math.Abs(fit.Beta[j] - whole.Beta[j]); d > 1e-9*(1+math.Abs(whole.Beta[j])) {
				t.Errorf("beta[%d]: chunked %v, one pass %v", j, fit.Beta[j], whole.Beta[j])
			}
		}
		if fit.Deviance != first.Deviance || fit.Iterations != first.Iterations {
			t.Errorf("%d workers: deviance %v in %d iterations, one worker's %v in %d", w, fit.Deviance, fit.Iterations, first.Deviance, first.Iterations)
		}
	}
	if whole.Iterations < 3 {
		t.Errorf("%d iterations: the test wants a fit of several passes", whole.Iterations)
	}
}

// Rows whose columns do not ascend take the general path of the information's upper triangle:
// the same fit as the rows sorted, to rounding.
func TestLogisticUnsortedColumns(t *testing.T) {
	rows, succ, trials := logisticData(400)
	rev := make([]SparseRow, len(rows))
	for i, r := range rows {
		for k := len(r.Cols) - 1; k >= 0; k-- {
			rev[i].Cols, rev[i].Vals = append(rev[i].Cols, r.Cols[k]), append(rev[i].Vals, r.Vals[k])
		}
	}
	penalty := make([]float64, 25)
	for j := 1; j < 25; j++ {
		penalty[j] = 0.5
	}
	fit := func(rs []SparseRow) *LogisticFit {
		f, err := LogisticRows(len(rs), 25, func(i int, r *SparseRow) {
			r.Cols, r.Vals = append(r.Cols, rs[i].Cols...), append(r.Vals, rs[i].Vals...)
		}, succ, trials, penalty)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	a, b := fit(rows), fit(rev)
	for j := range a.Beta {
		if d := math.Abs(a.Beta[j] - b.Beta[j]); d > 1e-9*(1+math.Abs(a.Beta[j])) || math.Abs(a.SE[j]-b.SE[j]) > 1e-9*a.SE[j] {
			t.Errorf("beta[%d]: %v ± %v sorted, %v ± %v reversed", j, a.Beta[j], a.SE[j], b.Beta[j], b.SE[j])
		}
	}
}
