package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// Variant describes one rule switch of a game.
type Variant struct {
	Name    string
	Values  []string // the allowed values; nil means "a positive integer"
	Default string
	Doc     string
	// ZeroByRule lists, for a value, the game's counters (CounterNames, without a colour
	// suffix) that the rule keeps at zero under it: no report states such a zero as a finding.
	ZeroByRule map[string][]string
}

// ZeroByRule returns the counters (without a colour suffix) that the rules spec keeps at zero
// under the switches vs, in switch order.
func ZeroByRule(spec string, vs []Variant) ([]string, error) {
	vals, err := ParseSwitches(spec, vs)
	if err != nil {
		return nil, err
	}
	var out []string
	for i, v := range vs {
		out = append(out, v.ZeroByRule[vals[i]]...)
	}
	return out, nil
}

// Allowed describes the allowed values for error messages and help texts.
func (v Variant) Allowed() string {
	if v.Values == nil {
		return "a positive integer"
	}
	return strings.Join(v.Values, ", ")
}

func (v Variant) check(val string) error {
	if v.Values == nil {
		n, err := strconv.Atoi(val)
		if err != nil || n <= 0 || n > 1_000_000 {
			return fmt.Errorf("rule %s=%q: want a positive integer up to 1000000", v.Name, val)
		}
		return nil
	}
	for _, a := range v.Values {
		if a == val {
			return nil
		}
	}
	return fmt.Errorf("rule %s=%q: want one of %s", v.Name, val, v.Allowed())
}

// ParseSwitches reads "name=value,name=value" against the variants vs and returns the value of
// every variant in the order of vs (defaults for those not named). Spaces around items are
// ignored; an empty spec gives all defaults. Unknown names, bad values and repeats are errors
// that list what is valid.
func ParseSwitches(spec string, vs []Variant) ([]string, error) {
	vals := make([]string, len(vs))
	set := make([]bool, len(vs))
	for i, v := range vs {
		vals[i] = v.Default
	}
	spec = strings.TrimSpace(spec)
	if spec == "" || spec == "default" {
		return vals, nil
	}
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		name, val, ok := strings.Cut(item, "=")
		if !ok {
			return nil, fmt.Errorf("rule %q: want name=value (names: %s)", item, names(vs))
		}
		name, val = strings.TrimSpace(name), strings.TrimSpace(val)
		idx := -1
		for i, v := range vs {
			if v.Name == name {
				idx = i
			}
		}
		if idx < 0 {
			return nil, fmt.Errorf("unknown rule %q (valid rules: %s)", name, names(vs))
		}
		if set[idx] {
			return nil, fmt.Errorf("rule %q given twice", name)
		}
		if err := vs[idx].check(val); err != nil {
			return nil, err
		}
		if vs[idx].Values == nil {
			n, _ := strconv.Atoi(val)
			val = strconv.Itoa(n) // canonical: no leading zeros or sign
		}
		set[idx] = true
		vals[idx] = val
	}
	return vals, nil
}

// FormatSwitches prints values (in the order of vs) in canonical "name=value,..." form,
// listing every switch.
func FormatSwitches(vals []string, vs []Variant) string {
	var b strings.Builder
	for i, v := range vs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(v.Name)
		b.WriteByte('=')
		b.WriteString(vals[i])
	}
	return b.String()
}

func names(vs []Variant) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = v.Name
	}
	return strings.Join(s, ", ")
}
