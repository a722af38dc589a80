package stats

import (
	"math"
	"strconv"
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
