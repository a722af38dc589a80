package nnue

import (
	"fmt"
	"math"
)

// Float is a network in floating point: what training updates, and the plain reference the
// quantized inference is tested against. Layouts are as in Net.
type Float struct {
	Game   string
	H, L2  int
	Scale  float64 // evaluation units per logit
	W1, B1 []float64
	W2, B2 []float64
	W3     []float64
	B3     float64
}

// NewFloat returns a zero network of a game's inputs.
func NewFloat(game string, h, l2 int, scale float64) (*Float, error) {
	in := Inputs(game)
	if in == 0 {
		return nil, fmt.Errorf("unknown game %q", game)
	}
	if h < 4 || h > MaxHidden || h%4 != 0 || l2 < 0 || l2 > MaxL2 {
		return nil, fmt.Errorf("dimensions %d×%d: want hidden a multiple of 4 in 4..%d and l2 0..%d", h, l2, MaxHidden, MaxL2)
	}
	return &Float{Game: game, H: h, L2: l2, Scale: scale,
		W1: make([]float64, in*h), B1: make([]float64, h),
		W2: make([]float64, 2*h*max(l2, 1)), B2: make([]float64, l2), W3: make([]float64, l2)}, nil
}

// Clone returns a deep copy.
func (f *Float) Clone() *Float {
	c := *f
	for _, p := range []*[]float64{&c.W1, &c.B1, &c.W2, &c.B2, &c.W3} {
		*p = append([]float64(nil), (*p)...)
	}
	return &c
}

// Limits of the float weights that quantize without clipping: W1 and B1 (QA per unit, int16
// accumulator over maxActive rows) and W2 (QB per unit, int8).
const (
	MaxW1 = 1.98
	MaxW2 = 127.0 / QB
)

// Forward is the plain float forward pass: the logit for the side to move stm, given the
// active inputs of each perspective.
func (f *Float) Forward(active *[2][]int16, stm int) float64 {
	h := f.H
	var acc [2][]float64
	for p := 0; p < 2; p++ {
		acc[p] = append([]float64(nil), f.B1...)
		for _, i := range active[p] {
			row := f.W1[int(i)*h : int(i)*h+h]
			for j := range row {
				acc[p][j] += row[j]
			}
		}
	}
	y := f.B3
	if f.L2 == 0 {
		for half, p := range [2]int{stm, stm ^ 1} {
			for i := 0; i < h; i++ {
				y += clip01(acc[p][i]) * f.W2[half*h+i]
			}
		}
		return y
	}
	for k := 0; k < f.L2; k++ {
		s := f.B2[k]
		for half, p := range [2]int{stm, stm ^ 1} {
			for i := 0; i < h; i++ {
				s += clip01(acc[p][i]) * f.W2[(half*h+i)*f.L2+k]
			}
		}
		y += clip01(s) * f.W3[k]
	}
	return y
}

func clip01(x float64) float64 { return min(max(x, 0), 1) }

func quant(x, scale, lo, hi float64) float64 {
	return min(max(math.Round(x*scale), lo), hi)
}

// Quantize rounds the network to the integer one (weights beyond the quantizable range are
// clipped), with metadata text meta.
func (f *Float) Quantize(meta string) (*Net, error) {
	in := Inputs(f.Game)
	n := &Net{Game: f.Game, In: in, H: f.H, L2: f.L2, Scale: int32(math.Round(f.Scale)), Meta: meta,
		W1: make([]int16, len(f.W1)), B1: make([]int16, len(f.B1)), W2: make([]int8, len(f.W2)),
		B2: make([]int32, len(f.B2)), W3: make([]int16, len(f.W3))}
	lim := float64(math.MaxInt16 / (maxActive[max(gameIndex(f.Game), 0)] + 1))
	for i, w := range f.W1 {
		n.W1[i] = int16(quant(w, QA, -lim, lim))
	}
	for i, w := range f.B1 {
		n.B1[i] = int16(quant(w, QA, -lim, lim))
	}
	for i, w := range f.W2 {
		n.W2[i] = int8(quant(w, QB, -127, 127))
	}
	for i, w := range f.B2 {
		n.B2[i] = int32(quant(w, QA*QB, -1<<24, 1<<24))
	}
	for i, w := range f.W3 {
		n.W3[i] = int16(quant(w, QB, math.MinInt16, math.MaxInt16))
	}
	n.B3 = int32(quant(f.B3, QA*QB, -1<<24, 1<<24))
	if err := n.check(); err != nil {
		return nil, err
	}
	return n, nil
}

// Dequantize returns the float network whose weights are exactly the quantized ones.
func (n *Net) Dequantize() *Float {
	f, _ := NewFloat(n.Game, n.H, n.L2, float64(n.Scale))
	for i, w := range n.W1 {
		f.W1[i] = float64(w) / QA
	}
	for i, w := range n.B1 {
		f.B1[i] = float64(w) / QA
	}
	for i, w := range n.W2 {
		f.W2[i] = float64(w) / QB
	}
	for i, w := range n.B2 {
		f.B2[i] = float64(w) / (QA * QB)
	}
	for i, w := range n.W3 {
		f.W3[i] = float64(w) / QB
	}
	f.B3 = float64(n.B3) / (QA * QB)
	return f
}
