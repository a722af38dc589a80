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

// baranFeatures are the Baran features, in baranWeights order, for the player to move.
func baranFeatures(s *baran.State) [10]float64 {
	me := s.ToMove()
	var f [10]float64
	occ := s.Warriors(0) | s.Warriors(1)
	for _, p := range [2]engine.Player{me, me.Other()} {
		sign := 1.0
		if p != me {
			sign = -1
		}
		war := s.Warriors(p)
		fast := war & s.Fast()
		f[0] += sign * float64(bits.OnesCount64(war&^fast))
		f[1] += sign * float64(bits.OnesCount64(fast))
		own, enemy := baran.RedThrone, baran.BlkThrone
		if p == 1 {
			own, enemy = enemy, own
		}
		king := s.King(p)
		allOcc := occ
		if king >= 0 {
			f[2] += sign * float64(baran.Distance(king, enemy))
			allOcc |= 1 << king
		}
		if k := s.King(p.Other()); k >= 0 {
			allOcc |= 1 << k
		}
		enemyPieces := s.Warriors(p.Other())
		if k := s.King(p.Other()); k >= 0 {
			enemyPieces |= 1 << k
		}
		ownPieces := war
		if king >= 0 {
			ownPieces |= 1 << king
		}
		for _, c := range baran.ThroneEntries(enemy) {
			if enemyPieces&(1<<c) == 0 {
				f[3] += sign
			}
		}
		for _, c := range baran.ThroneEntries(own) {
			if ownPieces&(1<<c) != 0 {
				f[4] += sign
			}
		}
		f[5] += sign * float64(bits.OnesCount64(baran.Around(ownPieces)&^allOcc))
		f[6] += sign * float64(bits.OnesCount64(s.Capturers(p)))
		if king >= 0 {
			// The race: how many steps the king is ahead of the closest enemy warrior to the
			// enemy throne (a defender must get there first).
			near := 7
			for m := s.Warriors(p.Other()); m != 0; m &= m - 1 {
				near = min(near, baran.Distance(bits.TrailingZeros64(m), enemy))
			}
			f[8] += sign * float64(max(0, min(6, near-baran.Distance(king, enemy))))
		}
		for m := war; m != 0; m &= m - 1 {
			if baran.Around(1<<bits.TrailingZeros64(m))&ownPieces != 0 {
				f[9] += sign
			}
		}
	}
	f[7] = float64(bits.OnesCount64(s.Huff()))
	return f
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
