package agents

import (
	"slices"
	"sort"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
)

// selectionPicks returns the moves in the order the selection sort pickBest picks them by
// the scores sc, each with its score (the reference order).
func selectionPicks(moves []engine.Action, sc []int32) ([]engine.Action, []int32) {
	m, s := slices.Clone(moves), slices.Clone(sc)
	var got []int32
	for i := range m {
		got = append(got, pickBest(m, s, i))
	}
	return m, got
}

// keyPicks is selectionPicks by order's keys and pickKey.
func keyPicks(moves []engine.Action, sc []int32) ([]engine.Action, []int32) {
	m := slices.Clone(moves)
	keys := make([]int64, len(m))
	for j, v := range sc {
		keys[j] = orderKey(v, j)
	}
	var got []int32
	for i := range m {
		got = append(got, pickKey(m, keys, i))
	}
	return m, got
}

// sortPicks orders the moves by decreasing score with sort (stable or not): a plain sort
// does not keep the selection sort's order of equal scores.
func sortPicks(stable bool) func([]engine.Action, []int32) ([]engine.Action, []int32) {
	return func(moves []engine.Action, sc []int32) ([]engine.Action, []int32) {
		idx := make([]int, len(moves))
		for j := range idx {
			idx[j] = j
		}
		less := func(a, b int) bool { return sc[idx[a]] > sc[idx[b]] }
		if stable {
			sort.SliceStable(idx, less)
		} else {
			sort.Slice(idx, less)
		}
		m, s := make([]engine.Action, len(idx)), make([]int32, len(idx))
		for k, j := range idx {
			m[k], s[k] = moves[j], sc[j]
		}
		return m, s
	}
}

// pickMismatches counts the random move lists (many equal scores among them) on which pick
// orders the moves or their scores otherwise than the selection sort.
func pickMismatches(pick func([]engine.Action, []int32) ([]engine.Action, []int32)) int {
	r := engine.NewRand(42)
	bad := 0
	for n := range 3000 {
		moves, sc := make([]engine.Action, 1+r.IntN(90)), []int32(nil)
		for j := range moves {
			moves[j] = engine.Action(1000 + j)
			var v int32
			switch k := n % 4; {
			case k == 0: // few distinct scores: many ties
				v = int32(r.IntN(4))
			case k == 1: // the search's classes, history values of either sign among them
				v = []int32{orderTT, orderTactical + 1, orderTactical, orderKiller, orderKiller - 1,
					orderCounter, 0, 0, -7, 31}[r.IntN(10)]
			case k == 2: // the extremes of the scores
				v = []int32{-histMax, histMax, 0, orderTT, -1 << 31, 1<<31 - 1}[r.IntN(6)]
			default:
				v = int32(r.IntN(2*histMax+1) - histMax)
			}
			sc = append(sc, v)
		}
		wm, ws := selectionPicks(moves, sc)
		gm, gs := pick(moves, sc)
		if !slices.Equal(wm, gm) || !slices.Equal(ws, gs) {
			bad++
		}
	}
	return bad
}

// Picking by keys searches the moves in the selection sort's order, ties included, on lists
// where a plain sort, stable or not, orders equal scores otherwise.
func TestPickKeysOrder(t *testing.T) {
	if n := pickMismatches(keyPicks); n != 0 {
		t.Errorf("pickKey: %d lists of 3000 ordered otherwise than pickBest", n)
	}
	for _, stable := range []bool{false, true} {
		n := pickMismatches(sortPicks(stable))
		if n == 0 {
			t.Errorf("sort (stable %v) orders every list as pickBest: the lists do not test the order of ties", stable)
		}
		t.Logf("sort (stable %v): %d lists of 3000 ordered otherwise than pickBest", stable, n)
	}
}

// refOrder is order as it was before the keys: the scores of the moves at ply, for pickBest.
func (p *abPlayer) refOrder(moves []engine.Action, ply int, ttMove engine.Action, hasTT bool) []int32 {
	var sc []int32
	cmv := p.counter(ply)
	for _, a := range moves {
		v := p.history[histIndex(a)]
		if p.hist >= 1 {
			v = p.hist1[ply&1][histIndex(a)]
		}
		tac := p.tx.tactical(a)
		switch {
		case hasTT && a == ttMove:
			v = orderTT
		case tac:
			v = orderTactical
			if p.tx.capture(a) {
				v++
			}
		case a == p.killers[ply][0]:
			v = orderKiller
		case a == p.killers[ply][1]:
			v = orderKiller - 1
		case p.cm && a == cmv:
			v = orderCounter
		}
		sc = append(sc, v)
	}
	return sc
}

// order and pickNext search the moves of Katarenga and Baran positions in the order of the
// scores as they were (refOrder) and pickBest, with random history tables (many equal
// values), killers, countermoves and table moves, under each history option.
func TestOrderSameMoves(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		for _, spec := range []string{"alphabeta:depth=2", "alphabeta:depth=2,hist=1,cm=1"} {
			pl, _ := mustAgent(t, spec).NewPlayer(game)
			p := pl.(*abPlayer)
			r := engine.NewRand(7)
			var pos []engine.State
			if game == "katarenga" {
				for _, s := range katPositions(30) {
					pos = append(pos, s)
				}
			} else {
				gm, _ := games.New("baran", "", "", nil)
				for i := 0; len(pos) < 30; i++ {
					s := gm.Start(0)
					if len(randomPlies(s, 10+r.IntN(30), r)) > 0 {
						pos = append(pos, s)
					}
				}
			}
			for i, s := range pos {
				p.tx = newTactics(s)
				legal := s.Legal(nil)
				for trial := range 20 {
					for k := range p.history {
						p.history[k], p.hist1[0][k], p.hist1[1][k] = int32(r.IntN(3)), int32(r.IntN(5)-2), int32(r.IntN(2000)-1000)
					}
					ply := 1 + r.IntN(4)
					pick := func() engine.Action { return legal[r.IntN(len(legal))] }
					p.killers[ply] = [2]engine.Action{pick(), pick()}
					p.path[ply-1] = pick()
					p.cmTab[ply&1][histIndex(p.path[ply-1])] = pick()
					tt, hasTT := pick(), trial%3 != 0
					want, wantSc := selectionPicks(legal, p.refOrder(legal, ply, tt, hasTT))
					got := slices.Clone(legal)
					p.order(got, ply, tt, hasTT)
					for k := range got {
						if sc := p.pickNext(got, ply, k); sc != wantSc[k] || got[k] != want[k] {
							t.Fatalf("%s %s position %d trial %d: pick %d is %v (score %d), want %v (%d)",
								game, spec, i, trial, k, got[k], sc, want[k], wantSc[k])
						}
					}
				}
			}
			p.Close()
		}
	}
}

// orderKey is the key of the move of score v at index j, as katKeys and barKeys compute it
// (counting the index down in the low bits).
func orderKey(v int32, j int) int64 { return int64(v)<<keyShift | int64(keyPos-j) }
