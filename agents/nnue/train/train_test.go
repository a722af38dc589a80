package train

import (
	"bytes"
	"context"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func fitBytes(t *testing.T, d *Data, cfg FitConfig) []byte {
	t.Helper()
	res, err := Fit(context.Background(), d, cfg)
	if err != nil {
		t.Fatal(err)
	}
	n, err := res.Float.Quantize("")
	if err != nil {
		t.Fatal(err)
	}
	b, err := n.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Curve) != cfg.Epochs || !(res.Curve[len(res.Curve)-1].Validate > 0) {
		t.Fatalf("loss curve %v", res.Curve)
	}
	return b
}

// TestReproducible: the same configuration and seed give the same positions whatever the
// number of workers, and the same network bit for bit; another seed gives another network.
// The data survive a save and load.
func TestReproducible(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		g := GenConfig{Game: game, Agent: "alphabeta:depth=1", Games: 6, RandomOpening: 4,
			RandomLayouts: game == "katarenga", Seed: 3, Workers: 1}
		if game == "baran" {
			g.Rules = "ply-cap=60"
		}
		d1, err := Generate(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		g.Workers = 3
		d2, err := Generate(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(d1, d2) || len(d1.Samples) == 0 {
			t.Fatalf("%s: the data depend on the number of workers (%d positions)", game, len(d1.Samples))
		}
		path := filepath.Join(t.TempDir(), "d.gob")
		if err := d1.Save(path); err != nil {
			t.Fatal(err)
		}
		d3, err := LoadData(path)
		if err != nil || !reflect.DeepEqual(d1, d3) {
			t.Fatalf("%s: data changed by a save and load (%v)", game, err)
		}
		m := &Data{Game: d1.Game, Samples: append([]Sample(nil), d1.Samples...), Colours: append([][64]uint8(nil), d1.Colours...), Games: d1.Games}
		if err := m.Merge(d3); err != nil || m.Games != 2*d1.Games || len(m.Samples) != 2*len(d1.Samples) ||
			m.Samples[len(d1.Samples)].Game != d1.Samples[0].Game+int32(d1.Games) {
			t.Fatalf("%s: merge: %v", game, err)
		}
		if err := m.Merge(&Data{Game: "chess"}); err == nil {
			t.Fatal("merged another game's data")
		}
		for _, l2 := range []int{0, 4} {
			cfg := FitConfig{Hidden: 8, L2: l2, Scale: 150, Lambda: 0.5, Epochs: 3, Batch: 16, LR: 1e-3, HoldOut: 3, Seed: 9}
			a, b := fitBytes(t, d1, cfg), fitBytes(t, d1, cfg)
			if !bytes.Equal(a, b) {
				t.Fatalf("%s l2=%d: two fits with one seed differ", game, l2)
			}
			cfg.Seed = 10
			if bytes.Equal(a, fitBytes(t, d1, cfg)) {
				t.Fatalf("%s l2=%d: another seed gave the same network", game, l2)
			}
			cfg.Seed, cfg.LREnd = 9, 1e-4
			c, e := fitBytes(t, d1, cfg), fitBytes(t, d1, cfg)
			if !bytes.Equal(c, e) || bytes.Equal(a, c) {
				t.Fatalf("%s l2=%d: with a schedule, two fits with one seed differ (%v) or equal the fit without (%v)",
					game, l2, !bytes.Equal(c, e), bytes.Equal(a, c))
			}
		}
	}
}

// TestFitLearns: the optimiser works: the training loss falls to well under half its first
// epoch's (on so few games the validation loss says little; see docs/agents.md for real runs).
func TestFitLearns(t *testing.T) {
	g := GenConfig{Game: "katarenga", Agent: "alphabeta:depth=1", Games: 30, RandomOpening: 2, RandomLayouts: true, Seed: 1, Workers: 2}
	d, err := Generate(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Fit(context.Background(), d, FitConfig{Hidden: 16, L2: 0, Scale: 150, Lambda: 1, Epochs: 8, Batch: 32, LR: 3e-3, HoldOut: 5, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	last := res.Curve[len(res.Curve)-1]
	if !(last.Train < res.Curve[0].Train/2) {
		t.Fatalf("no learning: curve %v, constant %.4f", res.Curve, res.ValidateBaseline)
	}
}

// TestCosineStep: the schedule starts at lr, ends at end, passes their mean halfway and
// end + (lr−end)·(2+√2)/4 a quarter of the way (cos π/4 = √2/2), and never rises.
func TestCosineStep(t *testing.T) {
	const lr, end, n = 5e-4, 1e-5, 401
	near := func(got, want float64) bool { return math.Abs(got-want) <= 1e-15 }
	for _, c := range []struct {
		t    int
		want float64
	}{{0, lr}, {n - 1, end}, {200, (lr + end) / 2}, {100, end + (lr-end)*(2+math.Sqrt2)/4}} {
		if got := cosineStep(lr, end, c.t, n); !near(got, c.want) {
			t.Errorf("step %d of %d: %g, want %g", c.t, n, got, c.want)
		}
	}
	for i := 1; i < n; i++ {
		if cosineStep(lr, end, i, n) > cosineStep(lr, end, i-1, n) {
			t.Fatalf("the step size rises at step %d", i)
		}
	}
	if got := cosineStep(lr, end, 0, 1); got != lr {
		t.Errorf("a one-step fit: %g, want lr", got)
	}
	if _, err := Fit(context.Background(), &Data{}, FitConfig{Hidden: 8, Scale: 150, Epochs: 1, Batch: 1, LR: 1e-3, LREnd: 2e-3, HoldOut: 2}); err == nil || !strings.Contains(err.Error(), "bad configuration") {
		t.Error("a schedule that rises was accepted")
	}
}

// TestScheduleSpansTheFit: with LREnd the step size falls over the whole fit, not within each
// epoch: the first epoch ends above the schedule's midpoint, the second between, the last at
// LREnd exactly (cos π = −1); without it every epoch keeps LR.
func TestScheduleSpansTheFit(t *testing.T) {
	g := GenConfig{Game: "katarenga", Agent: "alphabeta:depth=1", Games: 6, RandomOpening: 2, RandomLayouts: true, Seed: 5, Workers: 1}
	d, err := Generate(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	const lr, end = 1e-3, 1e-5
	cfg := FitConfig{Hidden: 8, Scale: 150, Lambda: 1, Epochs: 3, Batch: 16, LR: lr, LREnd: end, HoldOut: 3, Seed: 2}
	res, err := Fit(context.Background(), d, cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Curve
	if !(c[0].LR > (lr+end)/2 && c[0].LR < lr) || !(c[1].LR < c[0].LR && c[1].LR > end) || c[2].LR != end {
		t.Errorf("step sizes at the epochs' ends %g, %g, %g: want above %g, then lower, then %g", c[0].LR, c[1].LR, c[2].LR, (lr+end)/2, end)
	}
	cfg.LREnd = 0
	if res, err = Fit(context.Background(), d, cfg); err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Curve {
		if e.LR != lr {
			t.Errorf("without a schedule epoch %d ends at step size %g, want %g", e.N, e.LR, lr)
		}
	}
	cfg.LREnd = math.NaN()
	if _, err := Fit(context.Background(), d, cfg); err == nil {
		t.Error("a NaN end of the schedule was accepted")
	}
}
