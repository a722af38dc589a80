// Package train makes the networks of package nnue: it generates positions by self-play
// (random opening plies, random Katarenga layouts), labels each with a blend of the searcher's
// score and the game's result, and fits a network with a seeded Adam optimiser on a
// train/validation split by game. Everything is a pure function of the configuration and the
// seed: the same seed gives the same network, bit for bit, whatever the number of workers.
package train

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/agents/nnue"
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// Sample is one labelled position.
type Sample struct {
	Planes    nnue.Planes
	STM       uint8
	Game      int32   // index of the game it comes from (its board, its split)
	Score     float32 // the searcher's score for the side to move, evaluation units
	Result    float32 // the game's result for the side to move: 1, 0.5, 0
	Heuristic float32 // the hand-written evaluation (a reference for the loss)
}

// Data is the positions of a set of self-play games.
type Data struct {
	Game    string
	Samples []Sample
	Colours [][64]uint8 // per game (Katarenga), the board's square colours
	Games   int
}

// GenConfig configures the self-play.
type GenConfig struct {
	Game, Rules   string
	Agent         string // a reproducible alpha-beta spec: its score labels the positions
	Games         int
	RandomOpening int  // uniformly random plies at the start of each game (not recorded)
	RandomLayouts bool // Katarenga: each game on its own uniformly drawn layout
	Layout        string
	Seed          uint64
	Workers       int
	// Progress, when set, is called with the number of games finished (from one goroutine at
	// a time, in no particular order of games).
	Progress func(done int)
}

// Generate plays the games and collects their positions, in game order.
func Generate(ctx context.Context, cfg GenConfig) (*Data, error) {
	gm, err := games.New(cfg.Game, cfg.Rules, cfg.Layout, nil)
	if err != nil {
		return nil, err
	}
	ag, err := agents.Parse(cfg.Agent)
	if err != nil {
		return nil, err
	}
	if !ag.Reproducible() {
		return nil, fmt.Errorf("agent %s is not reproducible (use a depth or node budget)", ag.Spec())
	}
	per := make([][]Sample, cfg.Games)
	cols := make([][64]uint8, cfg.Games)
	errs := make([]error, cfg.Games)
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < max(cfg.Workers, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				per[i], cols[i], errs[i] = playGame(cfg, gm, ag, i)
				if cfg.Progress != nil {
					mu.Lock()
					done++
					cfg.Progress(done)
					mu.Unlock()
				}
			}
		}()
	}
	for i := 0; i < cfg.Games && ctx.Err() == nil; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d := &Data{Game: cfg.Game, Colours: cols, Games: cfg.Games}
	for i := range per {
		if errs[i] != nil {
			return nil, fmt.Errorf("game %d: %w", i, errs[i])
		}
		d.Samples = append(d.Samples, per[i]...)
	}
	return d, nil
}

// playGame plays game i and returns its labelled positions and its board's colours.
func playGame(cfg GenConfig, gm *games.Game, ag agents.Agent, i int) ([]Sample, [64]uint8, error) {
	seed := engine.Derive(cfg.Seed, uint64(i))
	g := gm
	var cols [64]uint8
	if cfg.RandomLayouts {
		var err error
		if g, err = gm.WithLayoutIndex(int(engine.Derive(seed, 4) % katarenga.NumPlacements)); err != nil {
			return nil, cols, err
		}
	}
	firsts := g.FirstColours()
	s := g.Start(firsts[i%len(firsts)])
	if k, ok := s.(*katarenga.State); ok {
		cols = nnue.Colours(k.Board())
	}
	r := engine.NewRand(seed)
	w, err := agents.DefaultWeights(cfg.Game)
	if err != nil {
		return nil, cols, err
	}
	var pl [2]agents.Player
	for k := range pl {
		p, err := ag.NewPlayer(cfg.Game)
		if err != nil {
			return nil, cols, err
		}
		pl[k] = p
		if c, ok := p.(agents.Closer); ok {
			defer c.Close()
		}
	}
	var out []Sample
	var buf []engine.Action
	for ply := 0; ; ply++ {
		buf = s.Legal(buf[:0])
		if len(buf) == 0 {
			break
		}
		var a engine.Action
		if ply < cfg.RandomOpening {
			a = buf[r.IntN(len(buf))]
		} else {
			p := pl[s.ToMove()]
			if a, err = p.Choose(s, buf, r); err != nil {
				return nil, cols, err
			}
			sc, ok := p.(agents.Scorer)
			if !ok {
				return nil, cols, fmt.Errorf("agent %s reports no search score (use alphabeta)", ag.Spec())
			}
			score, _ := sc.LastScore()
			smp := Sample{STM: uint8(s.ToMove()), Game: int32(i), Score: float32(score),
				Heuristic: float32(agents.Evaluate(s, w))}
			nnue.Read(s, &smp.Planes)
			out = append(out, smp)
		}
		s.Apply(a)
	}
	winner := s.Status().Winner
	for k := range out {
		switch {
		case winner == engine.NoPlayer:
			out[k].Result = 0.5
		case engine.Player(out[k].STM) == winner:
			out[k].Result = 1
		}
	}
	return out, cols, nil
}

// Target is the training label of a sample: lambda·sigmoid(score/scale) + (1−lambda)·result.
func Target(s *Sample, lambda, scale float64) float64 {
	z := math.Max(-20, math.Min(20, float64(s.Score)/scale))
	return lambda/(1+math.Exp(-z)) + (1-lambda)*float64(s.Result)
}

// maps returns the feature map of each game of d (Baran: one shared map).
func (d *Data) featureMap(game int, m *nnue.FeatureMap) *nnue.FeatureMap {
	if d.Game == "baran" {
		return nnue.BaranMap()
	}
	nnue.KatarengaMap(m, &d.Colours[game])
	return m
}
