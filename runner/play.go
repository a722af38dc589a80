package runner

import (
	"errors"
	"strconv"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
	"github.com/fairplay-lab/fairplay/gamefile"
)

// Play plays game i. It returns ok false if stop reported true before the game ended (the game
// is then abandoned, not recorded): stop is polled between moves and handed to players that
// implement agents.Stopper, whose ErrStopped abandons the game too. Any other error of a
// player forfeits the game, with agents.ForfeitReason as the record's Forfeit.
func (m *Match) Play(w *Worker, i int64, stop func() bool) (gamefile.Record, bool) {
	var rec gamefile.Record
	ok := m.PlayInto(w, i, stop, &rec)
	return rec, ok
}

// PlayInto is Play writing game i's record into *rec, which it overwrites whole: a run puts it
// straight into its chunk's slot, where Play's record (~250 bytes) was built on play's stack,
// returned and appended, three copies a game. When it returns false, *rec is undefined.
func (m *Match) PlayInto(w *Worker, i int64, stop func() bool, rec *gamefile.Record) bool {
	ok := m.play(w, i, stop, rec)
	if ok && !w.batch {
		rec.Moves = string(w.moves)
		rec.Counters = append([]int64(nil), rec.Counters...)
	}
	return ok
}

// PlayView is Play without a copy of the game's moves and counters, for a caller that tallies
// games and keeps no record (a layout sweep: no allocation per game): rec.Moves is empty, and
// moves (the game's actions in notation, space-separated) and rec.Counters are w's buffers,
// valid until w's next game. w is a NewWorker's.
func (m *Match) PlayView(w *Worker, i int64, stop func() bool) (rec gamefile.Record, moves []byte, ok bool) {
	if w.batch {
		panic("runner: PlayView: a chunk worker")
	}
	ok = m.play(w, i, stop, &rec)
	return rec, w.moves, ok
}

// play is Play into *rec, leaving a NewWorker's game in w.moves and w.cnt (rec.Counters is
// w.cnt). Random against random with the game's fast path is played by playWhole, a small
// frame; other agents by playAgents.
func (m *Match) play(w *Worker, i int64, stop func() bool, rec *gamefile.Record) bool {
	pair := i / 2
	seed := engine.Derive(m.Cfg.Seed, uint64(pair))
	if m.SelfPlay() {
		// Self-play: the two games of a pair are independent draws, each with its own seed
		// material (and its own random layout); sharing it would play one game twice.
		seed = engine.Derive(seed, 5+uint64(i%2))
	}
	aFirst := i%2 == 0
	sk, firstColour := m.startOf(w, pair)
	layout, start := m.Cfg.Layout, ""
	if m.Cfg.RandomLayouts {
		idx := int(engine.Derive(seed, 4) % katarenga.NumPlacements)
		if g, err := m.game.WithLayoutIndex(idx); err == nil { // idx < NumPlacements: cannot fail
			rk := m.kitOf(g.Start(firstColour))
			sk, layout = &rk, strconv.Itoa(idx)
		}
	}
	if n := int64(len(w.openings)); n > 0 {
		start, layout = m.Cfg.Openings[pair%n], boardName(sk.s, layout)
	}
	s := sk.s
	s.Reset()
	startPly := s.Ply()
	if !w.batch {
		w.moves = w.moves[:0]
	}
	w.mstart = len(w.moves)
	// Field by field: a composite literal would be built on the stack and copied.
	*rec = gamefile.Record{}
	rec.Game, rec.Pair, rec.Seed = i, pair, seed
	rec.GameName, rec.Layout, rec.Rules, rec.Start = m.Cfg.Game, layout, m.Cfg.Rules, start
	rec.FirstColour = m.game.ColourNames()[firstColour]
	rec.FirstAgent, rec.SecondAgent, rec.FirstIs = m.Cfg.A, m.Cfg.B, "a"
	if !aFirst {
		rec.FirstAgent, rec.SecondAgent, rec.FirstIs = m.Cfg.B, m.Cfg.A, "b"
	}
	// Each agent draws from its own stream of the pair's seed material, the same stream in both
	// games of the pair (for A ≠ B: the colour swap then removes the colour bias).
	w.rng[0].Seed(engine.Derive(seed, 1))
	w.rng[1].Seed(engine.Derive(seed, 2))
	w.rng[2].Seed(engine.Derive(seed, 3))
	forfeit := -1 // the mover index (0 first, 1 second) that forfeited
	if m.randomBoth && sk.fast != nil {
		if !m.playWhole(w, sk, rec, firstColour, aFirst, startPly, stop) {
			return false
		}
	} else {
		var ok bool
		if forfeit, ok = m.playAgents(w, sk, rec, firstColour, aFirst, startPly, stop); !ok {
			return false
		}
	}
	rec.Plies = s.Ply()
	if m.Cfg.NoBranching {
		rec.LegalTotal = gamefile.NotCounted
	}
	if forfeit >= 0 {
		rec.Reason = engine.Forfeit
		rec.Winner = []string{"second", "first"}[forfeit]
	} else {
		st := s.Status()
		rec.Reason = st.Reason
		switch st.Winner {
		case engine.NoPlayer:
			rec.Winner = "draw"
		case firstColour:
			rec.Winner = "first"
		default:
			rec.Winner = "second"
		}
	}
	if w.batch {
		sp := span{m0: w.mstart, m1: len(w.moves), c0: len(w.cnts)}
		if c := sk.stats; c != nil {
			w.cnt = c.Counters(w.cnt[:0]) // Counters overwrites from dst[:0]
			w.cnts = append(w.cnts, w.cnt...)
		}
		sp.c1 = len(w.cnts)
		w.spans = append(w.spans, sp)
		return true
	}
	if c := sk.stats; c != nil {
		w.cnt = c.Counters(w.cnt[:0])
		rec.Counters = w.cnt
	}
	return true
}

// playWhole plays a game of two uniform random movers inside the engine (sk.fast's
// PlayRecorded), with the same draws, actions and notation as playAgents's loop
// (TestWholeRandomGameMatchesLoop), no interface call or undo history per ply; stop is polled
// every 64 plies. The first mover draws from w.rng[0] when A moves first (aFirst), else from
// w.rng[1]; the random opening from w.rng[2]. It returns false when stopped (w.moves then
// holds none of the game).
func (m *Match) playWhole(w *Worker, sk *kit, rec *gamefile.Record, firstColour engine.Player, aFirst bool, startPly int, stop func() bool) bool {
	first, second := &w.rng[0], &w.rng[1]
	if !aFirst {
		first, second = second, first
	}
	g := &w.rg
	g.Rand[firstColour&1], g.Rand[(firstColour^1)&1] = first, second
	g.Opening, g.OpeningPlies, g.Stop, g.Sample = &w.rng[2], startPly+m.Cfg.RandomOpening, stop, m.Cfg.NoBranching
	g.Moves, g.Legal = w.moves, 0
	ended := sk.fast.PlayRecorded(g)
	w.moves, rec.LegalTotal = g.Moves, g.Legal
	g.Moves, g.Stop = nil, nil
	if !ended {
		w.moves = w.moves[:w.mstart]
	}
	return ended
}

// playAgents plays the game of play's other agents: their players, move by move (or
// playWhole when both turn out uniform random movers). It returns the forfeiting mover
// (−1: none) and false when stopped.
func (m *Match) playAgents(w *Worker, sk *kit, rec *gamefile.Record, firstColour engine.Player, aFirst bool, startPly int, stop func() bool) (forfeit int, ok bool) {
	var pa, pb agents.Player
	var errA, errB error
	if m.randomBoth {
		pa, pb = agents.Random{}, agents.Random{} // what their NewPlayer returns
	} else {
		pa, errA = m.a.NewPlayer(m.Cfg.Game)
		pb, errB = m.b.NewPlayer(m.Cfg.Game)
		defer closePlayer(pa)
		defer closePlayer(pb)
		for _, p := range [2]agents.Player{pa, pb} {
			if st, ok := p.(agents.Stopper); ok {
				st.SetStop(stop)
			}
		}
	}
	players := [2]agents.Player{pa, pb}
	rands := [2]*engine.Rand{&w.rng[0], &w.rng[1]}
	opening := &w.rng[2]
	errs := [2]error{errA, errB}
	seat := [2]int{0, 1} // seat[k]: agent index (0 A, 1 B) of the k-th mover
	if !aFirst {
		seat = [2]int{1, 0}
	}
	forfeit = -1
	// Uniform picks (the random opening, the random agent) skip building the legal list when
	// the game has the fast path: the same action from the same draw.
	fast := sk.fast
	var uniform [2]bool
	for i, p := range players {
		_, uniform[i] = p.(agents.Random)
	}
	if fast != nil && uniform[0] && uniform[1] && errs[0] == nil && errs[1] == nil {
		return forfeit, m.playWhole(w, sk, rec, firstColour, aFirst, startPly, stop)
	}
	s := sk.s
	for {
		if stop() {
			w.moves = w.moves[:w.mstart]
			return forfeit, false
		}
		if fast != nil {
			var r *engine.Rand
			if s.Ply()-startPly < m.Cfg.RandomOpening {
				r = opening
			} else if ag := seat[b2i(s.ToMove() != firstColour)]; uniform[ag] && errs[ag] == nil {
				r = rands[ag]
			}
			if r != nil {
				a, n, ok := m.pick(fast, r)
				if !ok {
					break
				}
				rec.LegalTotal += int64(n)
				w.apply(s, a)
				continue
			}
		}
		w.buf = s.Legal(w.buf[:0])
		if len(w.buf) == 0 {
			break
		}
		rec.LegalTotal += int64(len(w.buf))
		k := 0
		if s.ToMove() != firstColour {
			k = 1
		}
		if s.Ply()-startPly < m.Cfg.RandomOpening {
			w.apply(s, w.buf[opening.IntN(len(w.buf))])
			continue
		}
		ag := seat[k]
		if errs[ag] != nil {
			forfeit, rec.Forfeit = k, agents.ForfeitReason(errs[ag])
			break
		}
		act, err := players[ag].Choose(s, w.buf, rands[ag])
		if errors.Is(err, agents.ErrStopped) {
			w.moves = w.moves[:w.mstart]
			return forfeit, false // abandoned: not recorded, replayed on resume
		}
		if err != nil {
			forfeit, rec.Forfeit = k, agents.ForfeitReason(err)
			break
		}
		w.apply(s, act)
	}
	return forfeit, true
}

// pick draws a uniformly random legal action through the fast path f and returns it with the
// legal count: PickLegal's, or with NoBranching RandomAction's, with a count of 0.
func (m *Match) pick(f engine.Fast, r *engine.Rand) (engine.Action, int, bool) {
	if m.Cfg.NoBranching {
		a, ok := f.RandomAction(r)
		return a, 0, ok
	}
	return f.PickLegal(r)
}

// apply plays a on s and appends it, in the game's notation, to the move list.
func (w *Worker) apply(s engine.State, a engine.Action) {
	if len(w.moves) > w.mstart {
		w.moves = append(w.moves, ' ')
	}
	w.moves = engine.AppendAction(s, w.moves, a)
	s.Apply(a)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func closePlayer(p agents.Player) {
	if c, ok := p.(agents.Closer); ok {
		c.Close()
	}
}
