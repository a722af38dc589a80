package nnue

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/engine/katarenga"
)

// randomFloat is a network with weights large enough that every unit is sometimes clipped
// low, sometimes high and sometimes in between.
func randomFloat(t testing.TB, game string, h, l2 int, seed uint64) *Float {
	f, err := NewFloat(game, h, l2, 150)
	if err != nil {
		t.Fatal(err)
	}
	r := engine.NewRand(seed)
	u := func(a float64) float64 { return (2*r.Float64() - 1) * a }
	for i := range f.W1 {
		f.W1[i] = u(0.3)
	}
	for i := range f.B1 {
		f.B1[i] = u(1)
	}
	for i := range f.W2 {
		f.W2[i] = u(0.5)
	}
	for i := range f.B2 {
		f.B2[i] = u(0.5)
	}
	for i := range f.W3 {
		f.W3[i] = u(2)
	}
	f.B3 = u(0.5)
	return f
}

// variantRules lists, for a game, the published rules and every value of every switch.
func variantRules(t testing.TB, game string) []string {
	vs, err := games.Variants(game)
	if err != nil {
		t.Fatal(err)
	}
	out := []string{""}
	for _, v := range vs {
		vals := v.Values
		if vals == nil {
			vals = []string{"40"} // a short ply cap: games end by cap too
		}
		for _, x := range vals {
			if x != v.Default {
				out = append(out, v.Name+"="+x)
			}
		}
	}
	return out
}

// walk plays a random walk of n steps from s: mostly moves, sometimes undoing one or several,
// restarting when the game ends; visit is called after every step.
func walk(s engine.State, r *engine.Rand, n int, visit func()) {
	var buf []engine.Action
	depth := 0
	for i := 0; i < n; i++ {
		buf = s.Legal(buf[:0])
		switch {
		case depth > 0 && (len(buf) == 0 || r.IntN(4) == 0):
			for k := 1 + r.IntN(min(depth, 3)); k > 0; k-- {
				s.Undo()
				depth--
			}
		case len(buf) == 0:
			s.Reset()
		default:
			s.Apply(buf[r.IntN(len(buf))])
			depth++
		}
		visit()
	}
}

func newGame(t testing.TB, game, rules string, layout int) engine.State {
	lay := ""
	if game == "katarenga" {
		lay = fmt.Sprint(layout)
	}
	g, err := games.New(game, rules, lay, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g.Start(g.FirstColours()[layout%len(g.FirstColours())])
}

// lanePaths are the accumulator paths of this build: packed rows, and the SIMD lanes where
// the build has them.
func lanePaths() []bool {
	if haveSIMD {
		return []bool{false, true}
	}
	return []bool{false}
}

// avx2Default is useAVX2 as the package chose it: whether this machine runs the AVX2 forms.
var avx2Default = useAVX2

// eachSIMDForm runs f once with the SSE2 forms of the lane routines and, where the machine has
// AVX2, once more with the AVX2 forms (useAVX2), restoring the package's choice after.
func eachSIMDForm(t *testing.T, f func()) {
	t.Helper()
	defer func() { useAVX2 = avx2Default }()
	useAVX2 = false
	f()
	if avx2Default {
		useAVX2 = true
		f()
	}
}

// newEvaluator is NewEvaluator with the accumulator path chosen.
func newEvaluator(n *Net, lanes bool) *Evaluator {
	defer func(u bool) { useLanes = u }(useLanes)
	useLanes = lanes
	e := NewEvaluator(n)
	if e.lanes != lanes {
		panic("nnue: the evaluator ignored useLanes")
	}
	return e
}

// TestIncrementalEqualsRefresh: after every step of long random apply/undo walks, under every
// rule variant of both games (Katarenga on several layouts), the incrementally updated
// accumulator equals a full recomputation, and so does the evaluation. Where the build has
// the SIMD lanes, one path is updated and the other refreshed, both ways round, with the SSE2
// and (where the machine has it) the AVX2 forms of the lane routines.
func TestIncrementalEqualsRefresh(t *testing.T) {
	eachSIMDForm(t, func() { incrementalEqualsRefresh(t) })
}

func incrementalEqualsRefresh(t *testing.T) {
	paths := lanePaths()
	for gi, game := range []string{"baran", "katarenga", "baran", "katarenga"} {
		n, err := randomFloat(t, game, 16, 8*(1-gi/2), 1).Quantize("")
		if err != nil {
			t.Fatal(err)
		}
		for vi, rules := range variantRules(t, game) {
			for layout := 0; layout < 3; layout++ {
				s := newGame(t, game, rules, layout*7919+vi)
				lanes := paths[layout%len(paths)]
				inc, ref := newEvaluator(n, lanes), newEvaluator(n, paths[len(paths)-1-layout%len(paths)])
				r := engine.NewRand(uint64(vi*10 + layout))
				steps := 0
				walk(s, r, 3000, func() {
					steps++
					v := inc.Evaluate(s)
					ref.Acc.valid = false
					w := ref.Evaluate(s)
					for p := 0; p < 2; p++ {
						if !equal16(inc.Acc.V[p], ref.Acc.V[p]) {
							t.Fatalf("%s %q layout %d step %d: perspective %d accumulator differs from a refresh", game, rules, layout, steps, p)
						}
					}
					if v != w {
						t.Fatalf("%s %q step %d: evaluation %d, refreshed %d", game, rules, steps, v, w)
					}
				})
				if inc.Updates == 0 {
					t.Errorf("%s %q: no incremental update happened", game, rules)
				}
			}
		}
	}
}

func equal16(a, b []uint64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// quantTolerance is the stated bound on |quantized − float| in evaluation units for a network
// whose weights are exactly representable (Dequantize): the only rounding is the second
// layer's division by QB, at most 1/QA per hidden unit of the second layer, times |W3|.
func quantTolerance(n *Net) float64 {
	if n.L2 == 0 {
		return 1 // exact but for the final truncation to whole units
	}
	s := 0.0
	for _, w := range n.W3 {
		s += math.Abs(float64(w)) / QB
	}
	return (s/QA + 1.0/(QA*QB)) * float64(n.Scale)
}

// TestQuantizedMatchesFloat: the integer forward pass equals the plain float forward pass of
// the same (dequantized) weights within quantTolerance, and the float network before
// rounding within that bound plus 2% of a logit per second-layer unit (at least 10%).
func TestQuantizedMatchesFloat(t *testing.T) {
	for _, c := range []struct {
		game string
		l2   int
	}{{"baran", 16}, {"katarenga", 16}, {"baran", 0}, {"katarenga", 0}} {
		game := c.game
		f := randomFloat(t, game, 32, c.l2, 7)
		n, err := f.Quantize("")
		if err != nil {
			t.Fatal(err)
		}
		dq := n.Dequantize()
		tol := quantTolerance(n)
		e := NewEvaluator(n)
		var m FeatureMap
		worst, worstF := 0.0, 0.0
		s := newGame(t, game, "", 5)
		walk(s, engine.NewRand(3), 2000, func() {
			stm, _ := e.Update(s)
			q := float64(e.Forward(stm))
			fm := BaranMap()
			if game == "katarenga" {
				fm = &m
				c := e.board
				cols := Colours(c)
				KatarengaMap(fm, &cols)
			}
			var act [2][]int16
			for p := 0; p < 2; p++ {
				act[p] = fm.Active(&e.Acc.Planes, p, nil)
			}
			ref := dq.Forward(&act, stm) * float64(n.Scale)
			worst = math.Max(worst, math.Abs(q-ref))
			worstF = math.Max(worstF, math.Abs(q-f.Forward(&act, stm)*f.Scale))
		})
		if worst > tol {
			t.Errorf("%s l2=%d: quantized differs from float by %.2f units, tolerance %.2f", game, c.l2, worst, tol)
		}
		// Rounding the weights moves the output by a random walk of small steps: a loose bound.
		if worstF > tol+0.02*f.Scale*float64(max(len(n.W3), 5)) {
			t.Errorf("%s l2=%d: quantized differs from the unrounded float network by %.2f units", game, c.l2, worstF)
		}
		t.Logf("%s l2=%d: max |quantized − float| %.2f units (tolerance %.2f); vs unrounded weights %.2f", game, c.l2, worst, tol, worstF)
	}
}

// TestFileRoundTrip: a network written and read back is the same network, and every
// truncation and every flipped byte is refused.
func TestFileRoundTrip(t *testing.T) {
	for _, game := range []string{"baran", "katarenga"} {
		n, err := randomFloat(t, game, 8, 4, 2).Quantize("made by a test")
		if err != nil {
			t.Fatal(err)
		}
		b, err := n.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		m, err := Unmarshal(b)
		if err != nil {
			t.Fatal(err)
		}
		b2, _ := m.MarshalBinary()
		if !bytes.Equal(b, b2) || m.Meta != "made by a test" || m.H != 8 || m.L2 != 4 {
			t.Fatalf("%s: round trip changed the network", game)
		}
		for cut := 0; cut < len(b); cut += 1 + cut/8 {
			if _, err := Unmarshal(b[:cut]); err == nil {
				t.Fatalf("%s: a file cut at %d bytes was accepted", game, cut)
			}
		}
		for i := 0; i < len(b); i += 1 + i/16 {
			c := bytes.Clone(b)
			c[i] ^= 0x41
			if _, err := Unmarshal(c); err == nil {
				t.Fatalf("%s: byte %d flipped was accepted", game, i)
			}
		}
	}
	// A well-formed file whose weights could overflow the accumulator is refused.
	n, _ := randomFloat(t, "baran", 4, 2, 3).Quantize("")
	n.W1[0] = math.MaxInt16
	if _, err := n.MarshalBinary(); err == nil {
		t.Fatal("a network that may overflow int16 was written")
	}
}

func FuzzUnmarshal(f *testing.F) {
	for _, game := range []string{"baran", "katarenga"} {
		n, _ := randomFloat(f, game, 4, 2, 5).Quantize("seed")
		b, _ := n.MarshalBinary()
		f.Add(b)
	}
	f.Add([]byte("FPNNUE1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// Half the inputs get a correct checksum, so that the checks after it (header, sizes,
		// weights) are fuzzed too; the other half test the checksum itself.
		if len(data) > 4 && data[len(data)-1]&1 == 0 {
			data = binary.LittleEndian.AppendUint32(append([]byte(nil), data[:len(data)-4]...), crc32.ChecksumIEEE(data[:len(data)-4]))
		}
		n, err := Unmarshal(data)
		if err != nil {
			return
		}
		// Whatever loads must evaluate without panicking and write back the same bytes.
		e := NewEvaluator(n)
		s := newGame(t, n.Game, "", 1)
		e.Evaluate(s)
		b, err := n.MarshalBinary()
		if err != nil || !bytes.Equal(b, data) {
			t.Fatalf("a loaded file does not write back the same (%v)", err)
		}
	})
}

// TestNoAllocation: an evaluation, incremental or refreshed, allocates nothing, with and
// without a second layer (without one, on amd64, the SSE2 output layer), on every
// accumulator path.
func TestNoAllocation(t *testing.T) {
	for c := 0; c < 4; c++ {
		game := []string{"baran", "katarenga"}[c%2]
		n, _ := randomFloat(t, game, 32, 16*(c/2), 9).Quantize("")
		e := newEvaluator(n, lanePaths()[c/2%len(lanePaths())])
		s := newGame(t, game, "", 2)
		var buf []engine.Action
		buf = s.Legal(buf)
		e.Evaluate(s)
		i := 0
		allocs := testing.AllocsPerRun(200, func() {
			s.Apply(buf[i%len(buf)])
			e.Evaluate(s)
			s.Undo()
			e.Evaluate(s)
			i++
		})
		if allocs != 0 {
			t.Errorf("%s l2=%d lanes=%v: %v allocations per evaluation", game, n.L2, e.lanes, allocs)
		}
	}
}

func TestBuiltin(t *testing.T) {
	for _, game := range []string{"baran", "katarenga"} {
		n, err := Builtin(game)
		if err != nil || n.Game != game {
			t.Fatalf("%s: %v", game, err)
		}
	}
	if _, err := Builtin("chess"); err == nil {
		t.Fatal("a built-in network for chess")
	}
}

// TestKatDistances: the layout distances agree with the engine's move generation: a lone pawn
// on an empty board reaches exactly emptyMoves, and distance 0 is the baseline.
func TestKatDistances(t *testing.T) {
	for _, layout := range []int{0, 1, 4242, 98303} {
		g, err := games.New("katarenga", "", fmt.Sprint(layout), nil)
		if err != nil {
			t.Fatal(err)
		}
		s := g.Start(0).(*katarenga.State)
		b := s.Board()
		cols := Colours(b)
		for sq := 0; sq < 64; sq++ {
			if got, want := emptyMoves(&cols, sq), b.Targets(sq, 1<<sq); got != want {
				t.Fatalf("layout %d square %d: moves %x, engine %x", layout, sq, got, want)
			}
		}
		d := katDistances(&cols)
		for sq := 0; sq < 64; sq++ {
			if (d[0][sq] == 0) != (sq >= 56) || (d[1][sq] == 0) != (sq < 8) {
				t.Fatalf("layout %d: baseline distances wrong at %d", layout, sq)
			}
		}
	}
}

// TestClamp4: the four-lane clamp equals clamp lane by lane, for every int16 value in every
// lane (the other lanes holding values from both ends and the middle).
func TestClamp4(t *testing.T) {
	others := []uint16{0, 1, QA, QA + 1, 0x7FFF, 0x8000, 0xFFFF, 0x0080, 0xFF7F}
	for v := 0; v < 1<<16; v++ {
		for k := 0; k < 4; k++ {
			o := others[v%len(others)]
			var u uint64
			for j := 0; j < 4; j++ {
				x := o
				if j == k {
					x = uint16(v)
				}
				u |= uint64(x) << (16 * j)
			}
			got := clamp4(u)
			for j := 0; j < 4; j++ {
				if want := clamp(u >> (16 * j)); int32(uint16(got>>(16*j))) != want {
					t.Fatalf("clamp4(%016x) lane %d = %d, want %d", u, j, uint16(got>>(16*j)), want)
				}
			}
		}
	}
}

// forwardRef is Evaluator.Forward written plainly from the accumulator's values and the
// unpacked weights, one multiply per value (the reference of TestForwardExact).
func forwardRef(e *Evaluator, stm int) int32 {
	n := e.Net
	act := func(half, j int) int32 {
		return int32(min(max(e.Acc.Value(stm^half, j), 0), QA))
	}
	out := n.B3
	if n.L2 == 0 {
		for half := 0; half < 2; half++ {
			for j := 0; j < n.H; j++ {
				out += act(half, j) * int32(n.W2[half*n.H+j])
			}
		}
		return int32(int64(out) * int64(n.Scale) / (QA * QB))
	}
	for k := 0; k < n.L2; k++ {
		h := n.B2[k]
		for half := 0; half < 2; half++ {
			for j := 0; j < n.H; j++ {
				h += act(half, j) * int32(n.W2[(half*n.H+j)*n.L2+k])
			}
		}
		out += min(max(h/QB, 0), QA) * int32(n.W3[k])
	}
	return int32(int64(out) * int64(n.Scale) / (QA * QB))
}

// TestForwardExact: the packed accumulator's values are the sums of the active inputs' rows,
// and the forward pass equals forwardRef exactly, after every step of random walks, in both
// games, with and without a second layer, with output weights drawn over all of int8 (the
// bounds included) and large first-layer weights, so that accumulator values fall below 0,
// inside 0..QA and above QA (all three are required to happen). Without a second layer both
// output paths are checked: dotLanes (H = 32, on amd64, in its SSE2 and, where the machine has
// it, AVX2 form) and the packed dot (H = 12, and H = 32 with the SIMD weights taken away).
func TestForwardExact(t *testing.T) {
	eachSIMDForm(t, func() {
		for _, lanes := range lanePaths() {
			forwardExact(t, lanes)
		}
	})
}

func forwardExact(t *testing.T, lanes bool) {
	for _, game := range []string{"baran", "katarenga"} {
		for _, d := range [][2]int{{32, 0}, {12, 0}, {32, 8}} {
			h, l2 := d[0], d[1]
			f := randomFloat(t, game, h, l2, 11)
			for i := range f.W1 {
				f.W1[i] *= 2
			}
			n, err := f.Quantize("")
			if err != nil {
				t.Fatal(err)
			}
			r := engine.NewRand(5)
			for i := range n.W2 {
				n.W2[i] = int8(r.IntN(256) - 128)
			}
			n.W2[0], n.W2[len(n.W2)-1] = -128, 127
			if err := n.check(); err != nil {
				t.Fatal(err)
			}
			if want := haveSIMD && l2 == 0 && h%8 == 0; (n.w2s != nil) != want {
				t.Fatalf("%s h=%d l2=%d: SIMD output weights %v, want %v", game, h, l2, n.w2s != nil, want)
			}
			e := newEvaluator(n, lanes)
			var seen [3]int // values below 0, in 0..QA, above QA
			s := newGame(t, game, "", 3)
			walk(s, r, 2000, func() {
				stm, _ := e.Update(s)
				want := forwardRef(e, stm)
				if got := e.Forward(stm); got != want {
					t.Fatalf("%s h=%d l2=%d: Forward %d, reference %d", game, h, l2, got, want)
				}
				if w2s := n.w2s; w2s != nil {
					n.w2s = nil
					got := e.Forward(stm)
					n.w2s = w2s
					if got != want {
						t.Fatalf("%s h=%d l2=%d: packed Forward %d, reference %d", game, h, l2, got, want)
					}
				}
				checkSums(t, e, fmt.Sprintf("%s h=%d l2=%d", game, h, l2))
				for p := 0; p < 2; p++ {
					for j := 0; j < n.H; j++ {
						switch v := e.Acc.Value(p, j); {
						case v < 0:
							seen[0]++
						case v <= QA:
							seen[1]++
						default:
							seen[2]++
						}
					}
				}
			})
			if seen[0] == 0 || seen[1] == 0 || seen[2] == 0 {
				t.Errorf("%s h=%d l2=%d: accumulator values below 0, in range, above QA seen %v times: want all", game, h, l2, seen)
			}
		}
	}
}
