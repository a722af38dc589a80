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
	if math.Abs(iv.Value-0.0333333) > 1e-6 || math.Abs(iv.Low-(-0.0844458)) > 1e-6 || math.Abs(iv.High-0.1511125) > 1e-6 ||
		iv.Method != MethodDiffByLayout {
		t.Errorf("pairedDiffByLayout = %+v, want 0.033333 [-0.084446, 0.151113]", iv)
	}
	// Unequal layouts: sums 0, 0.3 and 0.2 over 2, 2 and 3 boards. R = 0.5/7 = 0.0714286; the
	// residuals y − R·n are −0.142857, 0.157143 and −0.014286, their squares sum to 0.0453061,
	// times 3/2 over 7² gives the variance 0.00138692, standard error 0.0372414.
	x3 := append(append([]float64{}, x[:4]...), 0.5, 0.5, 0.3)
	y3 := append(append([]float64{}, y[:4]...), 0.4, 0.3, 0.4)
	uneq := pairedDiffByLayout(x3, y3, []int32{0, 0, 1, 1, 2, 2, 2}, 3)
	if half := 1.959964 * 0.0372414; math.Abs(uneq.Value-0.0714286) > 1e-6 || math.Abs(uneq.High-uneq.Value-half) > 1e-5 {
		t.Errorf("unequal layouts: %+v, want 0.071429 ± %.6f", uneq, half)
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
