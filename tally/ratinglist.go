package tally

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// ListRating is one entry of a rating list as another run uses it: which agent (its spec with
// every parameter and the fingerprint of its play) and its rating with the 95% interval.
// A run that quotes its levels' ratings from a list keeps these in its configuration, so the
// manifest says which entries, at which values, it used.
type ListRating struct {
	Game        string  `json:"game"`
	Entry       string  `json:"entry"`
	Spec        string  `json:"spec"`
	Fingerprint string  `json:"fingerprint"`
	Elo         float64 `json:"elo"`
	Low         float64 `json:"ci_low"`  // NaN (JSON null) without an interval
	High        float64 `json:"ci_high"` // NaN (JSON null) without an interval
}

// listColumns are the columns ReadRatingList needs; a rating list's ratings.csv (written by
// WriteRatingListCSV: `fairplay tournament` and `tournament -combine`) has them all.
var listColumns = []string{"elo", "ci_low", "ci_high", "game", "entry", "spec", "fingerprint"}

// ReadRatingList reads the entries of a rating list's ratings.csv (docs/formats.md), in file
// order. A file without the list's columns (a plain tournament's ratings.csv) or a row with a
// bad number is refused, naming the row; an empty ci_low or ci_high is NaN.
func ReadRatingList(r io.Reader) ([]ListRating, error) {
	cr := csv.NewReader(r)
	head, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("empty file: want a rating list's ratings.csv")
	} else if err != nil {
		return nil, err
	}
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	for _, c := range listColumns {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("no %s column: want a rating list's ratings.csv (fairplay tournament writes one; docs/ratings/ holds the project's)", c)
		}
	}
	cr.FieldsPerRecord = len(head)
	var out []ListRating
	for row := 2; ; row++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, err
		}
		e := ListRating{Game: rec[col["game"]], Entry: rec[col["entry"]], Spec: rec[col["spec"]], Fingerprint: rec[col["fingerprint"]]}
		for _, f := range []struct {
			name  string
			dst   *float64
			empty bool
		}{{"elo", &e.Elo, false}, {"ci_low", &e.Low, true}, {"ci_high", &e.High, true}} {
			v := rec[col[f.name]]
			if v == "" && f.empty {
				*f.dst = math.NaN()
				continue
			}
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
				return nil, fmt.Errorf("row %d: %s %q is not a number", row, f.name, v)
			}
			*f.dst = x
		}
		if e.Spec == "" {
			return nil, fmt.Errorf("row %d: empty spec", row)
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		return nil, errors.New("no entries")
	}
	return out, nil
}

// listRatingJSON is ListRating's JSON form: an interval bound that is NaN is null.
type listRatingJSON struct {
	Game        string   `json:"game"`
	Entry       string   `json:"entry"`
	Spec        string   `json:"spec"`
	Fingerprint string   `json:"fingerprint"`
	Elo         float64  `json:"elo"`
	Low         *float64 `json:"ci_low"`
	High        *float64 `json:"ci_high"`
}

// MarshalJSON writes a NaN interval bound as null (JSON has no NaN).
func (e ListRating) MarshalJSON() ([]byte, error) {
	bound := func(x float64) *float64 {
		if math.IsNaN(x) {
			return nil
		}
		return &x
	}
	return json.Marshal(listRatingJSON{e.Game, e.Entry, e.Spec, e.Fingerprint, e.Elo, bound(e.Low), bound(e.High)})
}

// UnmarshalJSON reads a null interval bound as NaN.
func (e *ListRating) UnmarshalJSON(b []byte) error {
	var j listRatingJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	bound := func(p *float64) float64 {
		if p == nil {
			return math.NaN()
		}
		return *p
	}
	*e = ListRating{j.Game, j.Entry, j.Spec, j.Fingerprint, j.Elo, bound(j.Low), bound(j.High)}
	return nil
}
