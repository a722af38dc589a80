package agents

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
)

// TestEqualTime measures the time per move of two agents inside the same games, their moves
// interleaved, so that machine load slows both alike: set FAIRPLAY_EQUALTIME to
// "game;specA;specB;games" (e.g. "katarenga;mcts:playouts=100;alphabeta:depth=2;40"). Katarenga
// games start on random layouts after 2 random plies, Baran games after 4; colours alternate.
// It logs ms per move for each agent and their ratio; it fails only on an illegal move.
func TestEqualTime(t *testing.T) {
	spec := os.Getenv("FAIRPLAY_EQUALTIME")
	if spec == "" {
		t.Skip("set FAIRPLAY_EQUALTIME=game;specA;specB;games to measure")
	}
	parts := strings.Split(spec, ";")
	if len(parts) != 4 {
		t.Fatalf("FAIRPLAY_EQUALTIME=%q: want game;specA;specB;games", spec)
	}
	game := parts[0]
	nGames, err := strconv.Atoi(parts[3])
	if err != nil || nGames < 1 {
		t.Fatalf("games %q: want a positive count", parts[3])
	}
	var spent [2]time.Duration
	var moves [2]int
	for g := 0; g < nGames; g++ {
		r := engine.NewRand(engine.Derive(77, uint64(g/2)))
		layout := ""
		opening := 4
		if game == "katarenga" {
			layout, opening = strconv.Itoa(r.IntN(98304)), 2
		}
		gm, err := games.New(game, "", layout, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := gm.Start(gm.FirstColours()[0])
		for i := 0; i < opening; i++ {
			l := s.Legal(nil)
			s.Apply(l[r.IntN(len(l))])
		}
		var pl [2]Player
		for k, sp := range []string{parts[1], parts[2]} {
			pl[k], _ = mustAgent(t, sp).NewPlayer(game)
		}
		rr := engine.NewRand(engine.Derive(78, uint64(g)))
		for turn := g % 2; !s.Status().Over; turn ^= 1 {
			legal := s.Legal(nil)
			t0 := time.Now()
			a, err := pl[turn].Choose(s, legal, rr)
			spent[turn] += time.Since(t0)
			moves[turn]++
			if err != nil || !slices.Contains(legal, a) {
				t.Fatalf("game %d: %s played %v (err %v)", g, parts[1+turn], a, err)
			}
			s.Apply(a)
		}
	}
	ms := func(k int) float64 { return float64(spent[k]) / float64(time.Millisecond) / float64(moves[k]) }
	t.Logf("%s %d games: %s %.3f ms/move (%d moves), %s %.3f ms/move (%d moves), ratio A/B %.2f",
		game, nGames, parts[1], ms(0), moves[0], parts[2], ms(1), moves[1], ms(0)/ms(1))
}
