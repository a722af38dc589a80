package stats

import (
	"math"
	"testing"
)

// RoundCI and FormatCI against values rounded by hand with Taylor's rule (the half-width to
// one significant digit, two when it is a 1; the estimate and the ends to its decimal place).
func TestFormatCI(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		iv   Interval
		want string
	}{
		{Interval{0.6123, 0.5811, 0.6435, ""}, "0.61 [0.58, 0.64]"},       // half-width 0.031
		{Interval{0.5083, 0.4495, 0.5671, ""}, "0.51 [0.45, 0.57]"},       // 0.059
		{Interval{0.1, 0.0466, 0.2015, ""}, "0.10 [0.05, 0.20]"},          // 0.077
		{Interval{374.2, 356.9, 391.5, ""}, "374 [357, 392]"},             // 17.3: a leading 1, two digits
		{Interval{31.8730, 30.6994, 33.0465, ""}, "31.9 [30.7, 33.0]"},    // 1.17: a leading 1
		{Interval{5.7911, -35.1975, 46.9423, ""}, "6 [-35, 47]"},          // 41
		{Interval{-0.0003, -0.0431, 0.0425, ""}, "0.00 [-0.04, 0.04]"},    // no negative zero
		{Interval{0.5, 0.5, 0.5, ""}, "0.5000 [0.5000, 0.5000]"},          // no width: FormatShort
		{Interval{0.25, nan, nan, ""}, "0.2500"},                          // no interval
		{Interval{3e-9, 1e-9, 5e-9, ""}, "3.00e-09 [1.00e-09, 5.00e-09]"}, // too narrow for fixed decimals
		{Interval{0.5, 0.4814, 0.5186, ""}, "0.500 [0.481, 0.519]"},       // 0.0186: 0.019, a leading 1
		{Interval{0.5, 0.4804, 0.5196, ""}, "0.50 [0.48, 0.52]"},          // 0.0196: 0.020 would start with a 2
		{Interval{0.5, 0.4904, 0.5096, ""}, "0.500 [0.490, 0.510]"},       // 0.0096: 0.010, a leading 1
		{Interval{10, 8.04, 11.96, ""}, "10 [8, 12]"},                     // 1.96
		{Interval{nan, 183.2, nan, ""}, "≥ 183.2 (one-sided 95%)"},
		{Interval{nan, nan, -34.4, ""}, "≤ -34.4000 (one-sided 95%)"},
	} {
		if got := FormatCI(c.iv); got != c.want {
			t.Errorf("FormatCI(%v) = %q, want %q", c.iv, got, c.want)
		}
	}
}

// Clip keeps an interval inside its parameter's range and leaves one inside it alone.
func TestClip(t *testing.T) {
	got := Interval{0.995, 0.9881, 1.0019, "pentanomial"}.Clip(0, 1)
	if got != (Interval{0.995, 0.9881, 1, "pentanomial"}) {
		t.Errorf("Clip: %v", got)
	}
	in := Interval{0.5, 0.4, 0.6, "x"}
	if in.Clip(0, 1) != in {
		t.Errorf("Clip changed %v", in)
	}
	if c := (Interval{math.NaN(), -0.2, math.NaN(), ""}).Clip(0, 1); !math.IsNaN(c.Value) || c.Low != 0 || !math.IsNaN(c.High) {
		t.Errorf("Clip of a bound: %v", c)
	}
}
