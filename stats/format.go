package stats

import (
	"math"
	"strconv"
	"strings"
)

func FormatFloat(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	if math.IsInf(x, 0) {
		if x > 0 {
			return "inf"
		}
		return "-inf"
	}
	return strconv.FormatFloat(x, 'g', 10, 64)
}

// FormatPValue prints a p-value for people (terminal tables, reports): below 1e-300 (where
// double precision no longer tells values apart from 0) it prints "<1e-300", never 0. Files
// for machines (CSV, JSON) hold the number itself (FormatFloat).
func FormatPValue(p float64) string {
	if p < 1e-300 {
		return "<1e-300"
	}
	return FormatFloat(p)
}

func FormatShort(x float64) string {
	switch {
	case math.IsNaN(x):
		return "-"
	case math.IsInf(x, 0):
		return FormatFloat(x)
	case x == math.Trunc(x) && math.Abs(x) < 1e12:
		return strconv.FormatFloat(x, 'f', 0, 64)
	case math.Abs(x) < 1e-4:
		return strconv.FormatFloat(x, 'e', 2, 64)
	case math.Abs(x) >= 100:
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
	return strconv.FormatFloat(x, 'f', 4, 64)
}

// maxCIDecimals is the most decimals FormatCI prints in fixed notation: a narrower interval
// (a rate of 1e-7, say) prints with FormatShort instead.
const maxCIDecimals = 6

// CIDecimals returns the decimals that an interval [lo, hi] supports, by the rule for
// reporting a measurement with its uncertainty (J. R. Taylor, An Introduction to Error
// Analysis, 2nd ed., 1997, §2.2 and §2.5): the uncertainty — here the half-width — to one
// significant digit, two when its leading digit is a 1, and the estimate and the bounds to the
// same decimal place. The leading digit is the one the half-width shows at two significant
// digits, so that the half-width as printed has two digits exactly when it starts with a 1:
// 0.0186 prints as 0.019 (3 decimals), 0.0196 as 0.02 (2: at two digits it would be 0.020,
// which starts with a 2), 0.0096 as 0.010 (3). So 0.6123 [0.5811, 0.6435] (half-width 0.031)
// has 2, and 374.2 [356.9, 391.5] (half-width 17) has 0. ok is false for an interval with no
// finite positive width (NaN or infinite ends, a single point) and for one narrower than
// maxCIDecimals decimals show.
func CIDecimals(lo, hi float64) (d int, ok bool) {
	half := (hi - lo) / 2
	if !(half > 0) || math.IsInf(half, 0) {
		return 0, false
	}
	// The half-width to two significant digits, "d.de±XX": its exponent places the first
	// digit (a 9.96 rounds up to 1.0 of the next decade), its first character is that digit.
	var buf [32]byte
	s := strconv.AppendFloat(buf[:0], half, 'e', 1, 64)
	e, _ := strconv.Atoi(string(s[4:]))
	d = -e
	if s[0] == '1' {
		d++
	}
	d = max(d, 0)
	return d, d <= maxCIDecimals
}

// FormatFixed prints x with d decimals, never as a negative zero ("-0.00" is "0.00").
func FormatFixed(x float64, d int) string {
	s := strconv.FormatFloat(x, 'f', d, 64)
	if strings.Trim(s, "-0.") == "" {
		s = strings.TrimPrefix(s, "-")
	}
	return s
}

// RoundCI prints an estimate and its interval's ends rounded to what the interval supports
// (CIDecimals): 0.6123 [0.5811, 0.6435] gives "0.61", "0.58", "0.64". An end that is not a
// number prints "-"; an interval without a usable width prints each number with FormatShort.
// Files for machines keep every digit (FormatFloat); this is for people.
func RoundCI(iv Interval) (value, low, high string) {
	d, ok := CIDecimals(iv.Low, iv.High)
	f := func(x float64) string {
		if !ok || math.IsNaN(x) || math.IsInf(x, 0) {
			return FormatShort(x)
		}
		return FormatFixed(x, d)
	}
	return f(iv.Value), f(iv.Low), f(iv.High)
}

// FormatCI prints an estimate with its 95% interval, rounded as RoundCI does: "0.61 [0.58,
// 0.64]"; the estimate alone when the interval has no ends, and a one-sided bound as such
// (FormatBound).
func FormatCI(iv Interval) string {
	if b, ok := FormatBound(iv, FormatShort); ok {
		return b
	}
	v, lo, hi := RoundCI(iv)
	if math.IsNaN(iv.Low) && math.IsNaN(iv.High) {
		return v
	}
	return v + " [" + lo + ", " + hi + "]"
}

// IsBound reports whether iv is a one-sided bound rather than an estimate: no value, and
// exactly one end (Penta.Elo's interval for a perfect score, say).
func IsBound(iv Interval) bool {
	return math.IsNaN(iv.Value) && math.IsNaN(iv.Low) != math.IsNaN(iv.High)
}

// FormatBound prints a one-sided bound as "≥ x (one-sided 95%)" or "≤ x (one-sided 95%)",
// the end printed by f; ok is false when iv is not a bound (IsBound).
func FormatBound(iv Interval, f func(float64) string) (string, bool) {
	switch {
	case !IsBound(iv):
		return "", false
	case math.IsNaN(iv.High):
		return "≥ " + f(iv.Low) + " (one-sided 95%)", true
	}
	return "≤ " + f(iv.High) + " (one-sided 95%)", true
}

// Clip cuts an interval to the parameter's range [lo, hi] (a score to [0, 1], say): a normal
// interval can reach past the range (0.9950 [0.9881, 1.0019]), and the part outside holds no
// possible value, so cutting it keeps the coverage (Mandelkern 2002, "Setting confidence
// intervals for bounded parameters", Statistical Science 17(2)). NaN ends stay NaN.
func (iv Interval) Clip(lo, hi float64) Interval {
	c := func(x float64) float64 {
		if math.IsNaN(x) {
			return x
		}
		return min(max(x, lo), hi)
	}
	iv.Value, iv.Low, iv.High = c(iv.Value), c(iv.Low), c(iv.High)
	return iv
}
