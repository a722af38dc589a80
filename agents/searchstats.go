package agents

// SearchStats is implemented by players that count their search effort, for speed
// measurements (`fairplay bench -agent`). SearchWork returns the work done since the player
// was made and its unit: "nodes" (positions visited, quiescence included) or "playouts".
type SearchStats interface {
	SearchWork() (count int64, unit string)
}

// SearchWork returns the nodes this player has searched.
func (p *abPlayer) SearchWork() (int64, string) { return p.Nodes, "nodes" }

// SearchWork returns the playouts this player has run.
func (p *mctsPlayer) SearchWork() (int64, string) { return p.Playouts, "playouts" }

// SearchWork returns the nodes this player has searched.
func (p *classicPlayer) SearchWork() (int64, string) { return p.Nodes, "nodes" }
