package agents

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/baran"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// Weight is one named, documented weight of a heuristic, with the bounds tuning respects.
type Weight struct {
	Name     string
	Value    float64
	Min, Max float64
	Doc      string
}

// Weights are a game's heuristic weights, in a fixed order.
type Weights []Weight

// baranWeights: every feature is (own − opponent's), from the side to move's point of view.
var baranWeights = Weights{
	{"material", 118.9, 0, 400, "normal warriors"},
	{"fast", 172, 0, 500, "fast warriors"},
	{"king_distance", -64.7, -400, 0, "hex distance of the king to the enemy throne"},
	{"king_entry", 78, 0, 300, "cells next to the enemy throne not held by the enemy (the king must step from one)"},
	{"throne_guard", 55, 0, 200, "own pieces on the two cells next to the own throne"},
	{"mobility", 0, 0, 30, "empty cells next to own pieces"},
	{"threats", 27.3, 0, 200, "warriors that could capture with a forward jump"},
	{"removals", 52.9, 0, 300, "warriors the player to move may remove this turn"},
	{"king_race", 0, 0, 300, "steps the king is ahead of the nearest enemy warrior in the race to the enemy throne (0..6)"},
	{"linked", 0, 0, 50, "warriors next to another own piece (a chain is harder to jump)"},
}

var katarengaWeights = Weights{
	{"material", 206.1, 0, 400, "pawns on the board and in camps"},
	{"camps", 297.1, 0, 1000, "pawns in the enemy camps"},
	{"baseline", 96.6, 0, 400, "pawns on the enemy baseline (one move from a camp)"},
	{"advance", 0, 0, 50, "ranks advanced towards the enemy baseline, summed over pawns"},
	{"mobility", 2.6, 0, 30, "legal moves of all pawns"},
	{"on_red", 28.9, -50, 50, "pawns on red squares"},
	{"on_yellow", 16.2, -50, 50, "pawns on yellow squares"},
	{"on_green", 17.7, -50, 50, "pawns on green squares"},
	{"on_blue", 17.6, -50, 50, "pawns on blue squares"},
	{"attacked", -13.8, -200, 0, "own pawns an enemy pawn could take"},
	{"race", -50, -50, 0, "moves the pawns need to reach the enemy baseline under this layout's colour rules, summed"},
	{"lead", -24.1, -100, 0, "moves the closest pawn needs to reach the enemy baseline under this layout's colour rules"},
}

// DefaultWeights returns a copy of a game's default weights.
func DefaultWeights(game string) (Weights, error) {
	switch game {
	case "baran":
		return append(Weights(nil), baranWeights...), nil
	case "katarenga":
		return append(Weights(nil), katarengaWeights...), nil
	}
	return nil, fmt.Errorf("no heuristic for game %q", game)
}

// Index returns the position of a named weight, or -1.
func (w Weights) Index(name string) int {
	for i, x := range w {
		if x.Name == name {
			return i
		}
	}
	return -1
}

// Names lists the weight names.
func (w Weights) Names() []string {
	out := make([]string, len(w))
	for i, x := range w {
		out[i] = x.Name
	}
	return out
}

// MarshalJSON writes {"name": value, ...} in weight order.
func (w Weights) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteString("{")
	for i, x := range w {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q: %v", x.Name, x.Value)
	}
	b.WriteString("}")
	return []byte(b.String()), nil
}

// SetJSON overrides weights from a JSON object of name → value. Anything but one JSON object
// of numbers is an error, and so are an unknown or repeated name and a value outside the
// weight's declared bounds [Min, Max] (the range the evaluation and tuning are built for).
// On error w is unchanged.
func (w Weights) SetJSON(data []byte) error {
	m, err := decodeWeights(data)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		i := w.Index(k)
		if i < 0 {
			return fmt.Errorf("unknown weight %q (valid: %s)", k, strings.Join(w.Names(), ", "))
		}
		if v := m[k]; !(v >= w[i].Min && v <= w[i].Max) {
			return fmt.Errorf("%s=%v is outside its bounds %v..%v", k, v, w[i].Min, w[i].Max)
		}
	}
	for _, k := range names {
		w[w.Index(k)].Value = m[k]
	}
	return nil
}

// decodeWeights reads one JSON object of name → number, refusing repeated names, non-numbers
// and anything after the object. (JSON has no NaN or infinity; numbers too large for a float64
// are refused by the decoder.)
func decodeWeights(data []byte) (map[string]float64, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object of name: number")
	}
	m := map[string]float64{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("not valid JSON: %w", err)
		}
		k, _ := t.(string) // object keys are strings
		var n json.RawMessage
		if err := dec.Decode(&n); err != nil {
			return nil, fmt.Errorf("%q: want a number: %w", k, err)
		}
		v, err := strconv.ParseFloat(string(n), 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, fmt.Errorf("%q=%s: want a finite number", k, n)
		}
		if _, twice := m[k]; twice {
			return nil, fmt.Errorf("%q given twice", k)
		}
		m[k] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("unexpected data after the JSON object")
	}
	return m, nil
}

// LoadWeights reads a weights file over a game's defaults.
func LoadWeights(game, path string) (Weights, error) {
	w, err := DefaultWeights(game)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("weights file: %w", err) // the error names the path
	}
	if err := w.SetJSON(b); err != nil {
		return nil, fmt.Errorf("weights file %s: %w", path, err)
	}
	return w, nil
}

// SaveWeights writes weights as indented JSON.
func SaveWeights(path string, w Weights) error {
	var out strings.Builder
	out.WriteString("{\n")
	for i, x := range w {
		fmt.Fprintf(&out, "  %q: %v", x.Name, x.Value)
		if i < len(w)-1 {
			out.WriteString(",")
		}
		out.WriteString("\n")
	}
	out.WriteString("}\n")
	return os.WriteFile(path, []byte(out.String()), 0o644)
}

// Evaluate scores a position for the player to move (positive: good for him), in units where a
// warrior or pawn is about 100. Finished games are the search's business, not the evaluator's.
func Evaluate(s engine.State, w Weights) float64 {
	switch st := s.(type) {
	case *baran.State:
		return evalBaran(st, w)
	case *katarenga.State:
		return evalKatarenga(st, w)
	}
	return 0
}

func evalBaran(s *baran.State, w Weights) float64 {
	f := baranFeatures(s)
	v := 0.0
	for i := range f {
		v += f[i] * w[i].Value
	}
	return v
}

func evalKatarenga(s *katarenga.State, w Weights) float64 {
	return dotKatarenga(katarengaFeatures(s), w)
}

// dotKatarenga is the Katarenga evaluation of features f under weights w.
func dotKatarenga(f [12]float64, w Weights) float64 {
	v := 0.0
	for i := range f {
		v += f[i] * w[i].Value
	}
	return v
}
