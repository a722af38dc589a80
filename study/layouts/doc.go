// Package layouts is the Katarenga layout fairness study: sweeps of board placements under one pair
// of agents, their reports (imbalance, held-out choices, effects of the colours), comparisons of
// sweeps, and the same sweep at every level of a rated strength ladder.
package layouts
