package agents

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
)

func TestDiagMoves(t *testing.T) {
	spec := os.Getenv("FAIRPLAY_DIAG")
	if spec == "" {
		t.Skip()
	}
	parts := strings.Split(spec, ";")
	game := parts[0]
	nGames, _ := strconv.Atoi(parts[3])
	ref := mustAgent(t, parts[4])
	refScore := func(s engine.State, a engine.Action) int32 {
		s.Apply(a)
		defer s.Undo()
		if st := s.Status(); st.Over {
			if st.Winner == engine.NoPlayer {
				return 0
			}
			return 30000
		}
		pl, _ := ref.NewPlayer(game)
		ab := pl.(*abPlayer)
		if _, err := ab.Choose(s, s.Legal(nil), engine.NewRand(1)); err != nil {
			t.Fatal(err)
		}
		return -ab.Score
	}
	var n, diff, blunA, blunB int
	var lossA, lossB int64
	kinds := map[string]int{}
	for g := 0; g < nGames; g++ {
		r := engine.NewRand(engine.Derive(97, uint64(g/2)))
		layout, opening := "", 4
		if game == "katarenga" {
			layout, opening = strconv.Itoa(r.IntN(98304)), 2
		}
		gm, _ := games.New(game, "", layout, nil)
		s := gm.Start(gm.FirstColours()[0])
		for i := 0; i < opening; i++ {
			l := s.Legal(nil)
			s.Apply(l[r.IntN(len(l))])
		}
		var pl [2]Player
		for k, sp := range []string{parts[1], parts[2]} {
			pl[k], _ = mustAgent(t, sp).NewPlayer(game)
		}
		rr := engine.NewRand(engine.Derive(98, uint64(g)))
		for turn := g % 2; !s.Status().Over; turn ^= 1 {
			legal := s.Legal(nil)
			a, _ := pl[turn].Choose(s, legal, rr)
			if turn == 0 {
				bp, _ := mustAgent(t, parts[2]).NewPlayer(game)
				b, _ := bp.Choose(s, legal, rr)
				n++
				if a != b {
					diff++
					sa, sb := refScore(s, a), refScore(s, b)
					if sb-sa > 150 {
						blunA++
						lossA += int64(min(sb-sa, 2000))
						tx := newTactics(s)
						k := "A:" + kind(&tx, a) + "/B:" + kind(&tx, b)
						kinds[k]++
						if os.Getenv("FAIRPLAY_DIAGV") != "" {
							mp := pl[0].(*mctsPlayer)
							var info string
							root := mp.nodes[0]
							for c := root.first; c < root.first+root.n; c++ {
								nd := mp.nodes[c]
								if nd.action == a || nd.action == b {
									info += " [" + s.FormatAction(nd.action) + " v=" + strconv.Itoa(int(nd.visits)) + " q=" + strconv.FormatFloat(float64(mp.q(&nd)), 'f', 3, 32) + " q0=" + strconv.FormatFloat(float64(nd.q0), 'f', 3, 32) + " qv=" + strconv.FormatFloat(float64(nd.qv), 'f', 3, 32) + " pr=" + strconv.FormatFloat(float64(nd.prior), 'f', 3, 32) + "]"
								}
							}
							t.Logf("ply %d %s A=%s (%d) B=%s (%d) %s", s.Ply(), k, s.FormatAction(a), sa, s.FormatAction(b), sb, info)
						}
					}
					if sa-sb > 150 {
						blunB++
						lossB += int64(min(sa-sb, 2000))
					}
				}
			}
			s.Apply(a)
		}
	}
	t.Logf("%d positions, %d differ; A worse by >150: %d (loss %d), B worse: %d (loss %d); kinds %v", n, diff, blunA, lossA, blunB, lossB, kinds)
}

func kind(tx *tactics, a engine.Action) string {
	switch {
	case tx.capture(a):
		return "cap"
	case tx.threat(a):
		return "thr"
	case tx.removal(a):
		return "rem"
	}
	return "quiet"
}
