package tally

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/internal/config"
	"github.com/fairplay-lab/fairplay/stats"
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

// RateFromList rates the levels of a run (specs: their canonical specs, labels: as the user
// wrote them) from rating-list entries of game: for each level, the entry with the level's
// spec with every parameter and the fingerprint it plays with, as pinned in pins (the run's
// manifest). A level the list does not rate, or rates only in another version, is an error
// naming the level and its fingerprint (a config error on RatingList). The ratings' Agent is
// the entry's versioned name.
func RateFromList(list []ListRating, game string, specs, labels []string, pins []gamefile.AgentPin) ([]stats.Rating, error) {
	out := make([]stats.Rating, len(specs))
	for l, spec := range specs {
		var pin gamefile.AgentPin
		for _, p := range pins {
			if p.Spec == spec && p.Game == game {
				pin = p
			}
		}
		var other []string
		found := false
		for _, e := range list {
			if e.Game != game || e.Spec != pin.Expanded || pin.Expanded == "" {
				continue
			}
			if e.Fingerprint != pin.Fingerprint || pin.Fingerprint == "" {
				other = append(other, e.Entry)
				continue
			}
			out[l] = stats.Rating{Agent: e.Entry, Elo: e.Elo, Low: e.Low, High: e.High}
			found = true
			break
		}
		if !found {
			why := "the list has no entry for it"
			if len(other) > 0 {
				why = fmt.Sprintf("the list rates another version of it (%s): the agent plays differently now", strings.Join(other, ", "))
			}
			return nil, config.Errorf("RatingList", fmt.Sprintf("level %d (%s, fingerprint %s)", l+1, labels[l], shortFingerprint(pin.Fingerprint)), "%s", why)
		}
	}
	return out, nil
}

// shortFingerprint is a fingerprint's first 12 hex digits after "@", as list entries show it.
func shortFingerprint(fp string) string {
	if h, ok := strings.CutPrefix(fp, "v1:"); ok && len(h) >= 12 {
		return "@" + h[:12]
	}
	if fp == "" {
		return "none"
	}
	return fp
}
