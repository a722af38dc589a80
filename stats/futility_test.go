package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// settles reports whether MixtureCS after m observations summing to s lies below, above or
// inside [low, high]: the sweep's rule.
func settles(s float64, m int64, low, high, alpha, rho float64) bool {
	iv := MixtureCS(s, m, alpha, rho)
	return iv.High < low || iv.Low > high || (iv.Low >= low && iv.High <= high)
}

// Futile against brute force: over many states (sum after n) of small designs, Futile says
// true exactly when no look m ahead settles for any sum in [sum, sum + m − n], tried on a grid
// of 200 sums and just inside the edges of each settling region. A wrong true would change a
// decision; a wrong false would only waste games.
func TestBandLooksFutile(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	futile, reachable := 0, 0
	for _, d := range []struct {
		low, high, alpha float64
		batch, cap       int64
	}{{0.45, 0.55, 0.05, 10, 100}, {0.4, 0.6, 0.05, 2, 30}, {0.45, 0.55, 0.0025, 20, 400}, {0, 0.3, 0.05, 5, 60}, {0.7, 1, 0.01, 4, 40}} {
		rho := RaceRho(d.batch, d.cap, d.alpha)
		b, err := NewBandLooks(d.low, d.high, d.alpha, rho, d.batch, d.cap)
		if err != nil {
			t.Fatal(err)
		}
		for range 400 {
			n := d.batch * (1 + rng.Int64N((d.cap-1)/d.batch))
			sum := math.Round(rng.Float64()*float64(n)*4) / 4
			possible := false
			for m := n + d.batch - n%d.batch; !possible; m += d.batch {
				m = min(m, d.cap)
				room := float64(m - n)
				r := mixtureRadius(m, d.alpha, rho)
				mf := float64(m)
				// a grid of 200 sums, and the edges of the settling regions just inside them
				xs := []float64{room, d.low*mf - r - 1e-7 - sum, d.high*mf + r + 1e-7 - sum, d.low*mf + r + 1e-7 - sum, d.high*mf - r - 1e-7 - sum}
				for i := range 200 {
					xs = append(xs, room*float64(i)/200)
				}
				for _, x := range xs {
					if x >= 0 && x <= room {
						possible = possible || settles(sum+x, m, d.low, d.high, d.alpha, rho)
					}
				}
				if m == d.cap {
					break
				}
			}
			got := b.Futile(sum, n)
			if got && possible {
				t.Errorf("%+v: sum %g after %d: futile, but a later look can settle", d, sum, n)
			}
			if !got && !possible {
				t.Errorf("%+v: sum %g after %d: not futile, but no later look settles on the grid", d, sum, n)
			}
			if got {
				futile++
			} else {
				reachable++
			}
		}
	}
	if futile < 100 || reachable < 100 {
		t.Errorf("%d futile and %d hopeful states: the test does not cover both", futile, reachable)
	}
	b, _ := NewBandLooks(0.45, 0.55, 0.05, 5, 10, 100)
	if b.Futile(50, 100) {
		t.Error("at the cap: nothing is futile (nothing is left to save)")
	}
	for _, bad := range [][6]float64{{0.55, 0.45, 0.05, 1, 10, 100}, {0.45, 0.55, 0, 1, 10, 100}, {0.45, 0.55, 0.05, 0, 10, 100}, {0.45, 0.55, 0.05, 1, 0, 100}} {
		if _, err := NewBandLooks(bad[0], bad[1], bad[2], bad[3], int64(bad[4]), int64(bad[5])); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

// A decision of more looks than maxBandLooks (a huge cap in small batches, which the layouts
// and variants commands accept) gets no futility stop instead of a radius table as long as its
// looks: NewBandLooks stays small and quick, and Futile is false (the boards run to the cap,
// every answer the same). Just under the limit the stop works.
func TestBandLooksManyLooks(t *testing.T) {
	b, err := NewBandLooks(0.45, 0.55, 0.05, 100, 2, 4_000_000)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.radius) != 0 || b.Futile(1000, 2000) || b.Futile(0, 3_999_998) {
		t.Errorf("2,000,000 looks: %d radii kept, futile %v", len(b.radius), b.Futile(1000, 2000))
	}
	b, _ = NewBandLooks(0.45, 0.55, 0.05, 100, 2, 2*maxBandLooks)
	// two games before the cap, at the band's edge: the sequence (±0.004 there) can neither lie
	// inside the band nor leave it
	if n := int64(2*maxBandLooks - 2); len(b.radius) != maxBandLooks || !b.Futile(0.45*float64(n), n) || b.Futile(0.5*float64(n), n) {
		t.Errorf("%d looks: %d radii; at the band's edge futile %v, at ½ %v", maxBandLooks, len(b.radius), b.Futile(0.45*float64(n), n), b.Futile(0.5*float64(n), n))
	}
}
