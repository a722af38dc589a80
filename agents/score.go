package agents

// LastScore returns the score of the last completed iteration of the last search, for the
// player to move in the position searched (evaluation units; near ±Win a forced result), and
// its depth. Training-data generation labels positions with it.
func (p *abPlayer) LastScore() (score int32, depth int) { return p.Score, p.Depth }

// Scorer is implemented by players that report their last search's score (alpha-beta).
type Scorer interface {
	LastScore() (score int32, depth int)
}

var _ Scorer = (*abPlayer)(nil)
