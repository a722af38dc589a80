package stats

import (
	"testing"

	"gonum.org/v1/gonum/mat"
)

// addGram adds a design row's outer product to the Gram matrix g.
func addGram(g *mat.SymDense, r *SparseRow) {
	for a, i := range r.Cols {
		for b, j := range r.Cols {
			if i <= j {
				g.SetSym(i, j, g.At(i, j)+r.Vals[a]*r.Vals[b])
			}
		}
	}
}

// GramRank: rows (1,0,1), (0,1,1), (1,1,2) — the third column the sum of the first two — have
// rank 2; the 3×3 identity rank 3.
func TestGramRank(t *testing.T) {
	g := mat.NewSymDense(3, nil)
	for _, r := range []SparseRow{{Cols: []int{0, 2}, Vals: []float64{1, 1}}, {Cols: []int{1, 2}, Vals: []float64{1, 1}}, {Cols: []int{0, 1, 2}, Vals: []float64{1, 1, 2}}} {
		addGram(g, &r)
	}
	if r := GramRank(g); r != 2 {
		t.Errorf("rank %d, want 2", r)
	}
	id := mat.NewSymDense(3, nil)
	for i := range 3 {
		addGram(id, &SparseRow{Cols: []int{i}, Vals: []float64{1}})
	}
	if r := GramRank(id); r != 3 {
		t.Errorf("identity rank %d, want 3", r)
	}
}
