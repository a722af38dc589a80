package train

import (
	"math"

	"github.com/fairplay-lab/fairplay/agents/nnue"
)

// grads holds a mini-batch's gradients (the same shapes as nnue.Float) and the scratch of one
// sample's forward pass.
type grads struct {
	g         *nnue.Float
	acc, dacc [2][]float64
	s2, h2    []float64
}

func newGrads(f *nnue.Float) *grads {
	g, _ := nnue.NewFloat(f.Game, f.H, f.L2, f.Scale)
	out := &grads{g: g, s2: make([]float64, f.L2), h2: make([]float64, f.L2)}
	for p := 0; p < 2; p++ {
		out.acc[p] = make([]float64, f.H)
		out.dacc[p] = make([]float64, f.H)
	}
	return out
}

func (g *grads) zero() {
	for _, v := range [][]float64{g.g.W1, g.g.B1, g.g.W2, g.g.B2, g.g.W3} {
		clear(v)
	}
	g.g.B3 = 0
}

// backprop adds the gradient of one sample's loss, (sigmoid(y) − target)², and returns the
// loss. The forward pass is nnue.Float.Forward's.
func (g *grads) backprop(f *nnue.Float, e *encoded) float64 {
	h, l2 := f.H, f.L2
	persp := [2]int{e.stm, e.stm ^ 1}
	for half, p := range persp {
		acc := g.acc[half]
		copy(acc, f.B1)
		for _, i := range e.act[p] {
			row := f.W1[int(i)*h : int(i)*h+h]
			for j := range acc {
				acc[j] += row[j]
			}
		}
	}
	y := f.B3
	if l2 == 0 {
		return g.backpropLinear(f, e, persp)
	}
	for k := 0; k < l2; k++ {
		s := f.B2[k]
		for half := 0; half < 2; half++ {
			w := f.W2[half*h*l2:]
			for i, a := range g.acc[half] {
				s += clip(a) * w[i*l2+k]
			}
		}
		g.s2[k] = s
		g.h2[k] = clip(s)
		y += g.h2[k] * f.W3[k]
	}
	sg := sigmoid(y)
	diff := sg - e.target
	dy := 2 * diff * sg * (1 - sg)
	G := g.g
	G.B3 += dy
	for half := 0; half < 2; half++ {
		clear(g.dacc[half])
	}
	for k := 0; k < l2; k++ {
		G.W3[k] += dy * g.h2[k]
		if s := g.s2[k]; s <= 0 || s >= 1 {
			continue
		}
		ds := dy * f.W3[k]
		G.B2[k] += ds
		for half := 0; half < 2; half++ {
			w := f.W2[half*h*l2:]
			gw := G.W2[half*h*l2:]
			for i, a := range g.acc[half] {
				if a <= 0 {
					continue
				}
				if a < 1 {
					g.dacc[half][i] += ds * w[i*l2+k]
					gw[i*l2+k] += ds * a
				} else {
					gw[i*l2+k] += ds
				}
			}
		}
	}
	for half, p := range persp {
		d := g.dacc[half]
		for j, v := range d {
			G.B1[j] += v
		}
		for _, i := range e.act[p] {
			row := G.W1[int(i)*h : int(i)*h+h]
			for j := range row {
				row[j] += d[j]
			}
		}
	}
	return diff * diff
}

// backpropLinear is backprop for a network without a second hidden layer (L2 = 0), the
// accumulators g.acc already computed.
func (g *grads) backpropLinear(f *nnue.Float, e *encoded, persp [2]int) float64 {
	h := f.H
	y := f.B3
	for half := 0; half < 2; half++ {
		for i, a := range g.acc[half] {
			y += clip(a) * f.W2[half*h+i]
		}
	}
	sg := sigmoid(y)
	diff := sg - e.target
	dy := 2 * diff * sg * (1 - sg)
	G := g.g
	G.B3 += dy
	for half, p := range persp {
		d := g.dacc[half]
		for i, a := range g.acc[half] {
			G.W2[half*h+i] += dy * clip(a)
			d[i] = 0
			if a > 0 && a < 1 {
				d[i] = dy * f.W2[half*h+i]
			}
		}
		for j, v := range d {
			G.B1[j] += v
		}
		for _, i := range e.act[p] {
			row := G.W1[int(i)*h : int(i)*h+h]
			for j := range row {
				row[j] += d[j]
			}
		}
	}
	return diff * diff
}

func clip(x float64) float64 { return min(max(x, 0), 1) }

// adam is the Adam optimiser's state for every parameter of a network.
type adam struct {
	lr   float64
	wd   float64 // decoupled weight decay of W1, relative to lr
	t    int
	m, v *nnue.Float
}

func newAdam(f *nnue.Float, lr, wd float64) *adam {
	m, _ := nnue.NewFloat(f.Game, f.H, f.L2, f.Scale)
	v, _ := nnue.NewFloat(f.Game, f.H, f.L2, f.Scale)
	return &adam{lr: lr, wd: wd, m: m, v: v}
}

// step applies the mean gradient of a batch of n samples, then clips the weights to the range
// that quantizes exactly.
func (o *adam) step(f *nnue.Float, g *grads, n float64) {
	const b1, b2, eps = 0.9, 0.999, 1e-8
	o.t++
	c1 := 1 - math.Pow(b1, float64(o.t))
	c2 := 1 - math.Pow(b2, float64(o.t))
	upd := func(w, gr, m, v []float64, lim float64) {
		for i := range w {
			gi := gr[i] / n
			m[i] = b1*m[i] + (1-b1)*gi
			v[i] = b2*v[i] + (1-b2)*gi*gi
			w[i] -= o.lr * (m[i] / c1) / (math.Sqrt(v[i]/c2) + eps)
			w[i] = min(max(w[i], -lim), lim)
		}
	}
	G := g.g
	if o.wd > 0 {
		k := 1 - o.lr*o.wd
		for i := range f.W1 {
			f.W1[i] *= k
		}
	}
	upd(f.W1, G.W1, o.m.W1, o.v.W1, nnue.MaxW1)
	upd(f.B1, G.B1, o.m.B1, o.v.B1, nnue.MaxW1)
	upd(f.W2, G.W2, o.m.W2, o.v.W2, nnue.MaxW2)
	upd(f.B2, G.B2, o.m.B2, o.v.B2, 64)
	upd(f.W3, G.W3, o.m.W3, o.v.W3, 64)
	b3, mb, vb := []float64{f.B3}, []float64{o.m.B3}, []float64{o.v.B3}
	upd(b3, []float64{G.B3}, mb, vb, 64)
	f.B3, o.m.B3, o.v.B3 = b3[0], mb[0], vb[0]
}
