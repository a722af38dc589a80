package tune

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/fairplay-lab/fairplay/stats"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
	"github.com/fairplay-lab/fairplay/internal/config"
)

// EvalScale converts a logistic coefficient into evaluation units: the learned evaluation v
// predicts the side to move's win probability as 1/(1+exp(-v/EvalScale)).
const EvalScale = 150

// LearnConfig configures learning heuristic weights from self-play.
type LearnConfig struct {
	Game          string
	Rules         string
	Layout        string // Katarenga layout ("" layout 0), unless RandomLayouts
	RandomLayouts bool   // Katarenga: each game on its own uniformly drawn tile placement
	Agent         string // the self-play agent that plays the games (it should be strong)
	Games         int
	RandomOpening int // uniformly random plies at the start of each game (for variety)
	Seed          uint64
	Workers       int
	HoldOut       int     // every HoldOut-th game is held out for testing (2..)
	L2            float64 // ridge penalty on the standardised coefficients
}

// LearnFit is a model's quality on a set of positions.
type LearnFit struct {
	Positions int
	LogLoss   float64 // mean negative log-likelihood (nats)
	Accuracy  float64 // share of positions whose winner the model predicts
}

// LearnResult is the outcome of Learn.
type LearnResult struct {
	Weights     agents.Weights // learned weights in evaluation units, clamped to their bounds
	Clamped     []string       // weights that hit a bound
	Train, Test LearnFit       // the learned model
	Current     LearnFit       // the current (start) weights on the test positions
	Games       int
	Draws       int // games without a winner (their positions are not used)
}

type position struct {
	x   []float64
	win bool
}

// Learn plays cfg.Games self-play games, labels every position after the opening with whether
// the side to move went on to win, and fits a logistic regression without intercept of the
// outcome on the heuristic's features (maximum likelihood with a small ridge penalty, L-BFGS).
// Games are split into training and held-out sets by index. The result is deterministic for a
// configuration and seed, whatever the number of workers.
func Learn(ctx context.Context, cfg LearnConfig) (*LearnResult, error) {
	if cfg.Games < 2 {
		return nil, fmt.Errorf("learn: games %d: want at least 2", cfg.Games)
	}
	if cfg.HoldOut < 2 {
		return nil, fmt.Errorf("learn: holdout %d: want at least 2 (every k-th game is held out)", cfg.HoldOut)
	}
	gm, err := games.New(cfg.Game, cfg.Rules, cfg.Layout, nil)
	if err != nil {
		return nil, err
	}
	if cfg.RandomLayouts {
		if _, ok := gm.KatarengaLayout(); !ok {
			return nil, fmt.Errorf("learn: random layouts: %s has no layouts", cfg.Game)
		}
	}
	ag, err := agents.Parse(cfg.Agent)
	if err != nil {
		return nil, err
	}
	if !ag.Reproducible() {
		return nil, fmt.Errorf("learn: agent %s is not reproducible (use a depth, node or playout budget)", ag.Spec())
	}
	start, err := agents.HeuristicWeights(ag, cfg.Game)
	if err != nil {
		start, err = agents.DefaultWeights(cfg.Game)
		if err != nil {
			return nil, err
		}
	}
	perGame := make([][]position, cfg.Games)
	draws := make([]bool, cfg.Games)
	errs := make([]error, cfg.Games)
	workers := max(cfg.Workers, 1)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				perGame[i], draws[i], errs[i] = learnGame(cfg, gm, ag, i)
			}
		}()
	}
	for i := 0; i < cfg.Games && ctx.Err() == nil; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, errInterrupted(err)
	}
	res := &LearnResult{Games: cfg.Games}
	var train, test []position
	for i := range perGame {
		if errs[i] != nil {
			return nil, fmt.Errorf("learn: game %d: %w", i, errs[i])
		}
		if draws[i] {
			res.Draws++
			continue
		}
		for _, s := range perGame[i] {
			if i%cfg.HoldOut == 0 {
				test = append(test, s)
			} else {
				train = append(train, s)
			}
		}
	}
	if len(train) == 0 || len(test) == 0 {
		return nil, fmt.Errorf("learn: no decisive positions to learn from (%d games, %d draws)", cfg.Games, res.Draws)
	}
	beta, err := fitLogistic(train, len(start), cfg.L2)
	if err != nil {
		return nil, fmt.Errorf("learn: %w", err)
	}
	res.Weights = append(agents.Weights(nil), start...)
	for k := range res.Weights {
		v := beta[k] * EvalScale
		w := &res.Weights[k]
		if v < w.Min || v > w.Max {
			v = math.Max(w.Min, math.Min(w.Max, v))
			res.Clamped = append(res.Clamped, w.Name)
		}
		w.Value = math.Round(v*10) / 10
	}
	coef := func(w agents.Weights) []float64 {
		c := make([]float64, len(w))
		for k := range w {
			c[k] = w[k].Value / EvalScale
		}
		return c
	}
	res.Train = fitQuality(train, coef(res.Weights))
	res.Test = fitQuality(test, coef(res.Weights))
	res.Current = fitQuality(test, coef(start))
	return res, nil
}

// errInterrupted wraps a context error so the CLI can exit 130.
func errInterrupted(err error) error { return fmt.Errorf("learn interrupted: %w", err) }

// learnGame plays game i and returns its labelled positions and whether it was drawn.
func learnGame(cfg LearnConfig, gm *games.Game, ag agents.Agent, i int) ([]position, bool, error) {
	seed := engine.Derive(cfg.Seed, uint64(i))
	g := gm
	if cfg.RandomLayouts {
		var err error
		if g, err = gm.WithLayoutIndex(int(engine.Derive(seed, 4) % katarenga.NumPlacements)); err != nil {
			return nil, false, err
		}
	}
	firsts := g.FirstColours()
	s := g.Start(firsts[i%len(firsts)])
	r := engine.NewRand(seed)
	var pl [2]agents.Player
	for k := range pl {
		p, err := ag.NewPlayer(cfg.Game)
		if err != nil {
			return nil, false, err
		}
		pl[k] = p
		if c, ok := p.(agents.Closer); ok {
			defer c.Close()
		}
	}
	var xs [][]float64
	var movers []engine.Player
	for ply := 0; ; ply++ {
		legal := s.Legal(nil)
		if len(legal) == 0 {
			break
		}
		var a engine.Action
		if ply < cfg.RandomOpening {
			a = legal[r.IntN(len(legal))]
		} else {
			xs = append(xs, agents.Features(s, nil))
			movers = append(movers, s.ToMove())
			var err error
			if a, err = pl[s.ToMove()].Choose(s, legal, r); err != nil {
				return nil, false, err
			}
		}
		s.Apply(a)
	}
	winner := s.Status().Winner
	if winner == engine.NoPlayer {
		return nil, true, nil
	}
	out := make([]position, len(xs))
	for k := range xs {
		out[k] = position{x: xs[k], win: movers[k] == winner}
	}
	return out, false, nil
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// fitQuality is the mean log-loss and accuracy of coefficients c on samples.
func fitQuality(ss []position, c []float64) LearnFit {
	f := LearnFit{Positions: len(ss)}
	right := 0
	for _, s := range ss {
		z := 0.0
		for k, x := range s.x {
			z += c[k] * x
		}
		p := math.Min(math.Max(sigmoid(z), 1e-12), 1-1e-12)
		if s.win {
			f.LogLoss -= math.Log(p)
		} else {
			f.LogLoss -= math.Log(1 - p)
		}
		if (p > 0.5) == s.win && p != 0.5 {
			right++
		}
	}
	f.LogLoss /= float64(len(ss))
	f.Accuracy = float64(right) / float64(len(ss))
	return f
}

// fitLogistic maximises the logistic likelihood of the samples (no intercept) on features
// standardised by their root mean square, with ridge penalty l2 on the mean log-loss
// ((1/m)·Σ log-loss + (l2/2)·Σβ²), through stats.LogisticRows (Newton's method with step
// halving, an error when it does not converge), and returns the coefficients on the original
// scale.
func fitLogistic(ss []position, n int, l2 float64) ([]float64, error) {
	scale := make([]float64, n)
	for _, s := range ss {
		for k, x := range s.x {
			scale[k] += x * x
		}
	}
	for k := range scale {
		scale[k] = math.Sqrt(scale[k] / float64(len(ss)))
		if scale[k] == 0 {
			scale[k] = 1
		}
	}
	wins, ones := make([]float64, len(ss)), make([]float64, len(ss))
	for i, s := range ss {
		ones[i] = 1
		if s.win {
			wins[i] = 1
		}
	}
	var penalty []float64
	if l2 > 0 { // LogisticRows penalises the summed log-loss: scale the mean's penalty by m
		penalty = make([]float64, n)
		for k := range penalty {
			penalty[k] = l2 * float64(len(ss))
		}
	}
	fit, err := stats.LogisticRows(len(ss), n, func(i int, r *stats.SparseRow) {
		for k, x := range ss[i].x {
			if x != 0 {
				r.Cols, r.Vals = append(r.Cols, k), append(r.Vals, x/scale[k])
			}
		}
	}, wins, ones, penalty)
	if err != nil {
		return nil, config.Errorf("", "", "%v (use a larger {L2})", err)
	}
	out := make([]float64, n)
	for k := range out {
		out[k] = fit.Beta[k] / scale[k]
	}
	return out, nil
}
