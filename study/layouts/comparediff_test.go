package layouts

import (
	"math"
	"testing"
)

// pairedDiffByLayout against a hand computation: three layouts of two boards, board
// differences (0.1, −0.1), (0.2, 0.1), (−0.1, 0); the layouts' sums 0, 0.3, −0.1, mean over the
// six boards 0.2/6; the sums' sample variance 0.086667/2 = 0.043333, times L/B² = 3/36, gives
// the variance 0.0036111, standard error 0.060093 (computed by hand, not with the code's
// formula), so the interval is 0.033333 ± 1.959964 × 0.060093.
func TestPairedDiffByLayout(t *testing.T) {
	x := []float64{0.6, 0.4, 0.7, 0.5, 0.5, 0.6}
	y := []float64{0.5, 0.5, 0.5, 0.4, 0.6, 0.6}
	layout := []int32{0, 0, 1, 1, 2, 2}
	iv := pairedDiffByLayout(x, y, layout, 3)
	if math.Abs(iv.Value-0.0333333) > 1e-6 || math.Abs(iv.Low-(-0.0844471)) > 1e-5 || math.Abs(iv.High-0.1511138) > 1e-5 ||
		iv.Method != MethodDiffByLayout {
		t.Errorf("pairedDiffByLayout = %+v, want 0.033333 [-0.084447, 0.151114]", iv)
	}
	// Swapping the sweeps negates the difference and mirrors the interval.
	if sw := pairedDiffByLayout(y, x, layout, 3); math.Abs(sw.Value+iv.Value) > 1e-12 || math.Abs(sw.Low+iv.High) > 1e-12 {
		t.Errorf("swapped: %+v against %+v", sw, iv)
	}
	// One layout: no interval; no boards: no value.
	if one := pairedDiffByLayout(x[:2], y[:2], layout[:2], 1); math.Abs(one.Value) > 1e-12 || !math.IsNaN(one.Low) {
		t.Errorf("one layout: %+v, want 0 without an interval", one)
	}
	if none := pairedDiffByLayout(nil, nil, nil, 0); !math.IsNaN(none.Value) {
		t.Errorf("no boards: %+v", none)
	}
}
