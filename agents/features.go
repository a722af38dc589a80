package agents

import (
	"math/bits"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/baran"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// Features appends the heuristic's features of s, for the player to move and in the order of
// the game's weights, to dst: Evaluate is their dot product with the weights' values.
func Features(s engine.State, dst []float64) []float64 {
	switch st := s.(type) {
	case *baran.State:
		f := baranFeatures(st)
		return append(dst, f[:]...)
	case *katarenga.State:
		f := katarengaFeatures(st)
		return append(dst, f[:]...)
	}
	return dst
}

// baranFeatures are the Baran features, in baranWeights order, for the player to move. Every
// feature is a sum of small integers, counted on bitboards and tables (baranTab); the
// reference definition, a loop over the pieces, is in the tests (baranFeaturesRef).
func baranFeatures(s *baran.State) [10]float64 {
	me := s.ToMove()
	var n [10]int
	kings := [2]int{s.King(0), s.King(1)}
	war := [2]uint64{s.Warriors(0), s.Warriors(1)}
	var pieces [2]uint64 // warriors and king
	for p := range pieces {
		pieces[p] = war[p]
		if kings[p] >= 0 {
			pieces[p] |= 1 << kings[p]
		}
	}
	allOcc := pieces[0] | pieces[1]
	fastAll := s.Fast()
	for _, p := range [2]engine.Player{me, me.Other()} {
		sign := 1
		if p != me {
			sign = -1
		}
		o := p.Other()
		fast := war[p] & fastAll
		n[0] += sign * bits.OnesCount64(war[p]&^fast)
		n[1] += sign * bits.OnesCount64(fast)
		king := kings[p]
		if king >= 0 {
			n[2] += sign * int(baranTab.toThrone[o][king])
		}
		// Entries of the enemy throne the enemy does not hold; own pieces on the own throne's.
		n[3] += sign * (2 - bits.OnesCount64(baranTab.entries[o]&pieces[o]))
		n[4] += sign * bits.OnesCount64(baranTab.entries[p]&pieces[p])
		around := baranAround(pieces[p])
		n[5] += sign * bits.OnesCount64(around&^allOcc)
		n[6] += sign * bits.OnesCount64(s.Capturers(p))
		if king >= 0 {
			// The race: how many steps the king is ahead of the closest enemy warrior to the
			// enemy throne (a defender must get there first).
			near := 7
			for d := 0; d < 7; d++ {
				if war[o]&baranTab.ring[o][d] != 0 {
					near = d
					break
				}
			}
			n[8] += sign * max(0, min(6, near-int(baranTab.toThrone[o][king])))
		}
		// A warrior is linked when a neighbour holds an own piece (never itself).
		n[9] += sign * bits.OnesCount64(war[p]&around)
	}
	n[7] = bits.OnesCount64(s.Huff())
	var f [10]float64
	for i, v := range n {
		f[i] = float64(v)
	}
	return f
}

// baranTables are the Baran evaluation's tables, indexed by the player whose throne counts
// (0 Red: a1, 1 Black: g7).
type baranTables struct {
	toThrone [2][baran.NumCells]int8 // hex distance of a cell to the throne
	ring     [2][7]uint64            // the cells at distance d of the throne
	entries  [2]uint64               // the two cells next to the throne (baran.ThroneEntries)
	nbrSrc   [6]uint64               // the cells whose neighbour in direction d is on the board
	// threatZone[p]: the enemy throne of player p (to move) and its entries (tactics.threat).
	threatZone [2]uint64
}

var baranTab = func() (t baranTables) {
	for p, th := range [2]int{baran.RedThrone, baran.BlkThrone} {
		for sq := 0; sq < baran.NumCells; sq++ {
			d := baran.Distance(sq, th)
			t.toThrone[p][sq] = int8(d)
			if d < 7 {
				t.ring[p][d] |= 1 << sq
			}
		}
		for _, c := range baran.ThroneEntries(th) {
			t.entries[p] |= 1 << c
		}
		t.threatZone[1-p] = t.entries[p] | 1<<th
	}
	// Directions 0..5 step by (q, r) += (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1): the
	// cell index by +1, +7, +6, -1, -7, -6 (cells are q + 7r).
	dq := [6]int{1, 0, -1, -1, 0, 1}
	dr := [6]int{0, 1, 1, 0, -1, -1}
	for sq := 0; sq < baran.NumCells; sq++ {
		q, r := sq%7, sq/7
		for d := range dq {
			if qq, rr := q+dq[d], r+dr[d]; qq >= 0 && qq < 7 && rr >= 0 && rr < 7 {
				t.nbrSrc[d] |= 1 << sq
			}
		}
	}
	return t
}()

// baranAround is baran.Around(set) by six shifts: every cell next to some cell of set.
func baranAround(set uint64) uint64 {
	src := &baranTab.nbrSrc
	return (set&src[0])<<1 | (set&src[1])<<7 | (set&src[2])<<6 |
		(set&src[3])>>1 | (set&src[4])>>7 | (set&src[5])>>6
}

// katarengaFeatures are the Katarenga features, in katarengaWeights order, for the player to
// move.
func katarengaFeatures(s *katarenga.State) [12]float64 {
	f, _ := katFeatures(s, layoutOf(s))
	return f
}

// katFeatures are katarengaFeatures with the layout features of s's board given, and the
// squares the side to move reaches (katarenga.State.Reach). Every feature is a sum of small
// integers, counted on bitboards.
func katFeatures(s *katarenga.State, lay *katLayout) (f [12]float64, reachMe uint64) {
	var reach [2]uint64
	var moves [2]int
	reach[0], moves[0] = s.Reach(0)
	reach[1], moves[1] = s.Reach(1)
	return katFeaturesOf(s, lay, &reach, &moves), reach[s.ToMove()]
}

// katFeaturesOf are the features of katFeatures given each player's Reach (squares, moves).
func katFeaturesOf(s *katarenga.State, lay *katLayout, reach *[2]uint64, moves *[2]int) (f [12]float64) {
	me := s.ToMove()
	for _, p := range [2]engine.Player{me, me.Other()} {
		sign := 1.0
		if p != me {
			sign = -1
		}
		pawns := s.Pawns(p)
		camps := s.Camps(p)
		f[0] += sign * float64(bits.OnesCount64(pawns)+camps)
		f[1] += sign * float64(camps)
		enemyBase := katRank8
		if p == 1 {
			enemyBase = katRank1
		}
		f[2] += sign * float64(bits.OnesCount64(pawns&enemyBase))
		adv := 0
		for k, m := range katAdvance[p] {
			adv += bits.OnesCount64(pawns&m) << k
		}
		f[3] += sign * float64(adv)
		for c, m := range lay.colour {
			f[5+c] += sign * float64(bits.OnesCount64(pawns&m))
		}
		f[4] += sign * float64(moves[p])
		f[9] += sign * float64(bits.OnesCount64(pawns&reach[p.Other()]))
		sum, least := lay.katRace(pawns, int(p))
		f[10] += sign * float64(sum)
		f[11] += sign * float64(least)
	}
	return f
}
