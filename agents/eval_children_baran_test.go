package agents

import (
	"math/bits"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/baran"
	"github.com/fairplay-lab/fairplay/engine/games"
)

// baranFeaturesRef is the reference definition of baranFeatures (the loop over the pieces it
// replaced): baranFeatures must return exactly its values.
func baranFeaturesRef(s *baran.State) [10]float64 {
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

// baranFeatures equals its reference definition in every position of 300 random games under
// each rule variant that changes the pieces' moves (a king pushed off its throne, kings on
// the throne entries and huff removals included), and baranAround equals baran.Around.
func TestBaranFeaturesExact(t *testing.T) {
	for _, rules := range []string{"", "fast-row=4", "chain-capture=per-jump", "capture=strict"} {
		gm, err := games.New("baran", rules, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		for g := 0; g < 300; g++ {
			s := gm.Start(0).(*baran.State)
			r := engine.NewRand(uint64(g) + 7)
			for {
				if got, want := baranFeatures(s), baranFeaturesRef(s); got != want {
					t.Fatalf("%q game %d ply %d:\n%s\nfeatures %v, want %v", rules, g, s.Ply(), s, got, want)
				}
				for _, set := range []uint64{s.Warriors(0), s.Warriors(1), s.Huff(), r.Uint64() & (1<<49 - 1)} {
					if got, want := baranAround(set), baran.Around(set); got != want {
						t.Fatalf("baranAround(%x) = %x, want %x", set, got, want)
					}
				}
				a, ok := s.RandomAction(r)
				if !ok {
					break
				}
				s.Apply(a)
			}
		}
	}
}

// tactics.tactical and threat on Baran actions equal their definitions (a capture, a huff
// removal, or the king of the side to move stepping onto the enemy throne or an entry of it) on
// every legal action of the positions of 100 random games.
func TestBaranTacticalExact(t *testing.T) {
	gm, _ := games.New("baran", "", "", nil)
	for g := 0; g < 100; g++ {
		s := gm.Start(0).(*baran.State)
		r := engine.NewRand(uint64(g) + 11)
		for {
			legal := s.Legal(nil)
			if len(legal) == 0 {
				break
			}
			tx := newTactics(s)
			me := s.ToMove()
			throne := baran.BlkThrone
			if me == 1 {
				throne = baran.RedThrone
			}
			e := baran.ThroneEntries(throne)
			for _, a := range legal {
				from, to := int(a>>45&63), int(a>>51&63)
				threat := s.King(me) == from && (to == throne || to == e[0] || to == e[1])
				want := s.IsCapture(a) || a>>57&63 != 0 || threat
				if tx.threat(a) != threat || tx.tactical(a) != want {
					t.Fatalf("game %d ply %d %s: threat %v tactical %v, want %v %v", g, s.Ply(), s.FormatAction(a),
						tx.threat(a), tx.tactical(a), threat, want)
				}
			}
			s.Apply(legal[r.IntN(len(legal))])
		}
	}
}
