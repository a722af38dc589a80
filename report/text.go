package report

import (
	"fmt"
	"math"
	"strconv"
)

func RulesText(rules string) string {
	if rules == "" {
		return "published defaults"
	}
	return rules
}

func EloText(x float64) string {
	switch {
	case math.IsNaN(x):
		return "-"
	case x > 1e6:
		return "+inf"
	case x < -1e6:
		return "-inf"
	}
	return fmt.Sprintf("%+.1f", x)
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

// pText prints a p-value as "= 0.0125", or "< 1e-300" for one that underflowed to zero.
func PText(p float64) string {
	if p == 0 {
		return "< 1e-300"
	}
	return fmt.Sprintf("= %.3g", p)
}
