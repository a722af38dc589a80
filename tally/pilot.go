package tally

import (
	"io"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"
)

// ReadPenta counts the colour-swapped pairs of a games.csv (games 2p and 2p+1 of one pair, in
// any order) by A's pair score, as Summary does; a game whose partner is missing is skipped.
func ReadPenta(r io.Reader) (stats.Penta, error) {
	var p stats.Penta
	cr, err := gamefile.NewCSVReader(r)
	if err != nil {
		return p, err
	}
	half := map[int64]int{} // pair -> A's score in the game seen first
	for rec, err := range cr.All() {
		if err != nil {
			return p, err
		}
		if o, ok := half[rec.Pair]; ok {
			p[o+aScore(rec)]++
			delete(half, rec.Pair)
			continue
		}
		half[rec.Pair] = aScore(rec)
	}
	return p, nil
}
