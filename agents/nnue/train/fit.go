package train

import (
	"context"
	"fmt"
	"math"

	"github.com/fairplay-lab/fairplay/agents/nnue"
	"github.com/fairplay-lab/fairplay/engine"
)

// FitConfig configures the optimiser.
type FitConfig struct {
	Hidden, L2 int
	Scale      float64 // evaluation units per logit (the search's units)
	Lambda     float64 // weight of the search score in the label (the rest is the result)
	Epochs     int
	Batch      int
	LR         float64 // Adam's step size (the first step's, with LREnd)
	// LREnd, when positive, is the last step's size: from LR it falls along a half cosine
	// over every step of the fit (Loshchilov & Hutter 2017, SGDR, one cycle without
	// restarts). 0: LR throughout.
	LREnd   float64
	HoldOut int // every HoldOut-th game is the validation set
	Seed    uint64
	// Decay is a decoupled weight decay (AdamW) on the first layer's weights, per step and
	// relative to the step size (LR, or the schedule's with LREnd): positions of one game
	// share their layout and their result, which the layout inputs could otherwise memorise.
	Decay float64
	// Last keeps the last epoch's network instead of the one of least validation loss.
	Last bool
	// Progress, when set, is called after every epoch.
	Progress func(Epoch)
}

// Epoch is one point of the loss curve: mean squared error of sigmoid(output) against the
// label, on the training and validation positions.
type Epoch struct {
	N               int
	Train, Validate float64
	LR              float64 // the step size of the epoch's last step
}

// Result is a fitted network and its loss curve.
type Result struct {
	Float            *nnue.Float
	Best             int // the epoch whose network Float is (the least validation loss unless Last)
	Curve            []Epoch
	TrainN, ValN     int
	HeuristicVal     float64 // the hand-written evaluation's validation loss, for reference
	QuantizedVal     float64 // the quantized network's validation loss (integer inference)
	ValidateBaseline float64 // the loss of predicting the mean label
}

// encoded is a sample's active inputs of both perspectives and its label.
type encoded struct {
	act    [2][]int16
	stm    int
	target float64
}

// Fit trains a network on d. It is single-threaded and deterministic: the same data,
// configuration and seed give the same network bit for bit.
func Fit(ctx context.Context, d *Data, cfg FitConfig) (*Result, error) {
	if cfg.HoldOut < 2 || cfg.Batch < 1 || cfg.Epochs < 1 || !(cfg.LR > 0) || !(cfg.Scale > 0) || cfg.Lambda < 0 || cfg.Lambda > 1 ||
		!(cfg.LREnd >= 0 && cfg.LREnd <= cfg.LR) {
		return nil, fmt.Errorf("fit: bad configuration %+v", cfg)
	}
	f, err := nnue.NewFloat(d.Game, cfg.Hidden, cfg.L2, cfg.Scale)
	if err != nil {
		return nil, err
	}
	var tr, va []encoded
	var m nnue.FeatureMap
	res := &Result{}
	var hv, mean float64
	for i := range d.Samples {
		s := &d.Samples[i]
		fm := d.featureMap(int(s.Game), &m)
		e := encoded{stm: int(s.STM), target: Target(s, cfg.Lambda, cfg.Scale)}
		for p := 0; p < 2; p++ {
			e.act[p] = fm.Active(&s.Planes, p, nil)
		}
		if int(s.Game)%cfg.HoldOut == 0 {
			va = append(va, e)
			hv += sq(sigmoid(float64(s.Heuristic)/cfg.Scale) - e.target)
			mean += e.target
		} else {
			tr = append(tr, e)
		}
	}
	if len(tr) == 0 || len(va) == 0 {
		return nil, fmt.Errorf("fit: %d training and %d validation positions: want some of each (more games)", len(tr), len(va))
	}
	res.TrainN, res.ValN = len(tr), len(va)
	res.HeuristicVal = hv / float64(len(va))
	mean /= float64(len(va))
	for _, e := range va {
		res.ValidateBaseline += sq(mean - e.target)
	}
	res.ValidateBaseline /= float64(len(va))

	r := engine.NewRand(cfg.Seed)
	initialise(f, r)
	opt := newAdam(f, cfg.LR, cfg.Decay)
	var best *nnue.Float
	g := newGrads(f)
	order := make([]int, len(tr))
	for i := range order {
		order[i] = i
	}
	steps := cfg.Epochs * ((len(order) + cfg.Batch - 1) / cfg.Batch)
	step := 0
	for ep := 1; ep <= cfg.Epochs; ep++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for i := len(order) - 1; i > 0; i-- {
			j := r.IntN(i + 1)
			order[i], order[j] = order[j], order[i]
		}
		loss := 0.0
		for b := 0; b < len(order); b += cfg.Batch {
			g.zero()
			end := min(b+cfg.Batch, len(order))
			for _, k := range order[b:end] {
				loss += g.backprop(f, &tr[k])
			}
			if cfg.LREnd > 0 {
				opt.lr = cosineStep(cfg.LR, cfg.LREnd, step, steps)
			}
			opt.step(f, g, float64(end-b))
			step++
		}
		e := Epoch{N: ep, Train: loss / float64(len(tr)), Validate: validate(f, va), LR: opt.lr}
		res.Curve = append(res.Curve, e)
		if cfg.Progress != nil {
			cfg.Progress(e)
		}
		if !cfg.Last && (best == nil || e.Validate < res.Curve[res.Best-1].Validate) {
			best, res.Best = f.Clone(), ep
		}
	}
	if cfg.Last || best == nil {
		best, res.Best = f, cfg.Epochs
	}
	f = best
	res.Float = f
	n, err := f.Quantize("")
	if err != nil {
		return nil, err
	}
	q := n.Dequantize()
	res.QuantizedVal = validate(q, va)
	return res, nil
}

// cosineStep is the step size of step t (0-based) of n: from lr at the first step to end at
// the last along a half cosine, lr at every step when n is 1.
func cosineStep(lr, end float64, t, n int) float64 {
	if n <= 1 {
		return lr
	}
	return end + (lr-end)*(1+math.Cos(math.Pi*float64(t)/float64(n-1)))/2
}

func sq(x float64) float64 { return x * x }

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// validate is the mean loss of f on samples.
func validate(f *nnue.Float, va []encoded) float64 {
	s := 0.0
	for i := range va {
		s += sq(sigmoid(f.Forward(&va[i].act, va[i].stm)) - va[i].target)
	}
	return s / float64(len(va))
}

// initialise draws the starting weights: small uniform first-layer rows (the accumulator
// starts inside the linear part of the clipped ReLU), fan-in scaled uniform later layers.
func initialise(f *nnue.Float, r *engine.Rand) {
	u := func(a float64) float64 { return (2*r.Float64() - 1) * a }
	for i := range f.W1 {
		f.W1[i] = u(0.05)
	}
	for i := range f.B1 {
		f.B1[i] = 0.5
	}
	a2 := 1 / math.Sqrt(float64(2*f.H))
	for i := range f.W2 {
		f.W2[i] = u(a2)
	}
	for i := range f.B2 {
		f.B2[i] = 0.5
	}
	a3 := 1 / math.Sqrt(float64(f.L2))
	for i := range f.W3 {
		f.W3[i] = u(a3)
	}
}
