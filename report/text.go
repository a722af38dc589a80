package report

import (
	"strconv"
)

func RulesText(rules string) string {
	if rules == "" {
		return "published defaults"
	}
	return rules
}

func Num(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// cmpBool orders true before false when used as cmpBool(b, a).
func CmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// PText prints a p-value for a sentence, to two significant digits as the terminal tables do:
// "= 0.012", or "< 1e-300" for one that underflowed to zero.
func PText(p float64) string {
	if p < 1e-300 {
		return "< 1e-300"
	}
	return "= " + strconv.FormatFloat(p, 'g', 2, 64)
}
