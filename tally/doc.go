// Package tally accumulates finished games into what a run reports: the streaming summary of a
// match (rates, means, pair-clustered intervals, pentanomial counts, distinct-game sets), per-board
// results of a layout sweep, variant and strength tallies, and the ratings and pairings tables.
package tally
