package baran

import (
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairplay-lab/fairplay/engine"
)

// The loops of random play compared by BenchmarkRecordedLoop and TestRecordedLoopSpeed, each a
// function that plays one game from s's current position and returns its plies:
//   - PlayRandom: `fairplay bench`'s loop (RandomAction's draws, an undo history);
//   - NoHist: the same without the history (pickUniform and applyWith alone), in either draw
//     order (Sample: RandomAction's; else PickLegal's, with its count);
//   - Notation: PlayRecorded writing the notation, as a run's worker does without deferral.
type recordedLoop struct {
	name string
	play func(s *State, r0, r1 *engine.Rand, buf []byte) (int, []byte)
}

func recordedLoops() []recordedLoop {
	noHist := func(sample bool) func(s *State, r0, r1 *engine.Rand, buf []byte) (int, []byte) {
		return func(s *State, r0, r1 *engine.Rand, buf []byte) (int, []byte) {
			start := s.ply
			rs := [2]*engine.Rand{r0, r1}
			for {
				a, _, ok := s.pickUniform(rs[s.side&1], !sample)
				if !ok {
					return int(s.ply - start), buf
				}
				s.applyWith(a, s.moves.capturers)
			}
		}
	}
	recorded := func(sample bool) func(s *State, r0, r1 *engine.Rand, buf []byte) (int, []byte) {
		return func(s *State, r0, r1 *engine.Rand, buf []byte) (int, []byte) {
			start := s.ply
			g := engine.RecordedGame{Rand: [2]*engine.Rand{r0, r1}, Opening: r0, Sample: sample, Moves: buf[:0]}
			s.PlayRecorded(&g)
			return int(s.ply - start), g.Moves
		}
	}
	return []recordedLoop{
		{"PlayRandom", func(s *State, r0, _ *engine.Rand, buf []byte) (int, []byte) { return s.PlayRandom(r0), buf }},
		{"NoHist/Sample", noHist(true)},
		{"NoHist/Legal", noHist(false)},
		{"Notation/Sample", recorded(true)},
		{"Notation/Legal", recorded(false)},
	}
}

// BenchmarkRecordedLoop measures the loops of recordedLoops on random games from the start
// (default rules, Red first); one op is one ply. Compare PlayRandom (bench) with
// Notation/Sample and Notation/Legal (play's worker without deferral).
func BenchmarkRecordedLoop(b *testing.B) {
	for _, l := range recordedLoops() {
		b.Run(l.name, func(b *testing.B) {
			s := New(DefaultRules, 0)
			r0, r1 := engine.NewRand(1), engine.NewRand(2)
			buf := make([]byte, 0, 1<<14)
			b.ReportAllocs()
			b.ResetTimer()
			for plies := 0; plies < b.N; {
				s.Reset()
				var n int
				n, buf = l.play(s, r0, r1, buf)
				plies += n
			}
		})
	}
}

// TestRecordedLoopSpeed (run with FAIRPLAY_LOOPS=1, best with GOMAXPROCS=1 and -v) times the
// loops of recordedLoops in one process, interleaved: 21 rounds (FAIRPLAY_LOOPS=n: n rounds),
// each timing every loop on the same 400 games (the same seeds per round), and logs each
// loop's median ns/ply with its quartiles, and the median and quartiles of its per-round ratio
// to PlayRandom. Interleaving spreads the machine's other load over all loops alike. It fails
// if the loops of one draw order did not play the same plies in a round (not the same games).
func TestRecordedLoopSpeed(t *testing.T) {
	if os.Getenv("FAIRPLAY_LOOPS") == "" {
		t.Skip("set FAIRPLAY_LOOPS=1 to time the loops")
	}
	timeLoops(t, recordedLoops())
}

// timeLoops times loops as TestRecordedLoopSpeed describes and logs the results.
func timeLoops(t *testing.T, loops []recordedLoop) {
	res := make([][]float64, len(loops))
	s := New(DefaultRules, 0)
	buf := make([]byte, 0, 1<<14)
	const games = 400
	rounds, err := strconv.Atoi(os.Getenv("FAIRPLAY_LOOPS"))
	if err != nil || rounds < 3 {
		rounds = 21
	}
	modePlies := map[string]int{} // per round: the plies of each draw order's loops (PlayRandom apart)
	for round := 0; round < rounds; round++ {
		for k, l := range loops {
			r0, r1 := engine.NewRand(uint64(round*10+1)), engine.NewRand(uint64(round*10+2))
			plies := 0
			t0 := time.Now()
			for i := 0; i < games; i++ {
				s.Reset()
				var n int
				n, buf = l.play(s, r0, r1, buf)
				plies += n
			}
			res[k] = append(res[k], float64(time.Since(t0).Nanoseconds())/float64(plies))
			if mode := l.name[strings.IndexByte(l.name, '/')+1:]; k > 0 {
				if p, ok := modePlies[mode]; ok && p != plies {
					t.Errorf("round %d: %s played %d plies, the other %s loops %d: not the same games", round, l.name, plies, mode, p)
				}
				modePlies[mode] = plies
			}
		}
		clear(modePlies)
	}
	// Each loop's ratio to PlayRandom in the same round, then the median of those ratios:
	// less sensitive to the machine's load drifting between rounds than a ratio of medians.
	for k, v := range res {
		ratios := make([]float64, len(v))
		for i := range v {
			ratios[i] = v[i] / res[0][i]
		}
		sort.Float64s(ratios)
		w := slices.Sorted(slices.Values(v))
		t.Logf("%-16s median %6.1f ns/ply (q1 %6.1f, q3 %6.1f); ÷ PlayRandom per round: median %.3f (q1 %.3f, q3 %.3f)",
			loops[k].name, w[len(w)/2], w[len(w)/4], w[3*len(w)/4], ratios[len(v)/2], ratios[len(v)/4], ratios[3*len(v)/4])
	}
}

// TestRecordedLoopGames checks that the timed loops play the same games: from the same seeds,
// every loop of a draw order (Sample or Legal) plays the same plies as the others, so their
// times per ply compare like with like. Run with FAIRPLAY_LOOP=<a loop's name>, e.g.
// Notation/Legal, and -v, it instead plays 200 games of that loop from the start and logs their
// plies, for counting the loop's instructions per ply under valgrind --tool=callgrind (the
// function recordedLoopGames collects them all).
func TestRecordedLoopGames(t *testing.T) {
	name := os.Getenv("FAIRPLAY_LOOP")
	if name == "" {
		plies := map[string]int{}
		for _, l := range recordedLoops()[1:] { // PlayRandom draws from one stream for both sides
			mode := l.name[strings.IndexByte(l.name, '/')+1:]
			n := recordedLoopGames(l, 30)
			if p, ok := plies[mode]; ok && p != n {
				t.Errorf("%s: %d plies in 30 games, the other %s loops %d", l.name, n, mode, p)
			}
			plies[mode] = n
		}
		if len(plies) != 2 {
			t.Errorf("draw orders %v, want Sample and Legal", plies)
		}
		return
	}
	for _, l := range recordedLoops() {
		if l.name == name {
			t.Logf("%s: 200 games, %d plies", name, recordedLoopGames(l, 200))
			return
		}
	}
	t.Fatalf("no loop %q", name)
}

// recordedLoopGames plays games games of loop l from the start, seeded by the game's index,
// and returns their plies.
func recordedLoopGames(l recordedLoop, games int) int {
	s := New(DefaultRules, 0)
	buf := make([]byte, 0, 1<<14)
	plies := 0
	for i := 0; i < games; i++ {
		s.Reset()
		var n int
		n, buf = l.play(s, engine.NewRand(uint64(2*i+1)), engine.NewRand(uint64(2*i+2)), buf)
		plies += n
	}
	return plies
}
