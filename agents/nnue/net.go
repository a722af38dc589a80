// Package nnue is a small learned evaluation with an incrementally updated first layer, as
// NNUE in shogi and chess: sparse piece-square inputs (in Katarenga also the colour of every
// square, so the network sees the layout's move graph), one accumulator per perspective
// updated from the difference of two positions' bitboards, clipped ReLU, int16 and int8
// weights, integer inference that allocates nothing.
//
// Architecture: inputs → H (per perspective, shared weights) → concatenation of the side to
// move's and the opponent's accumulators (2H, clipped to [0, 1]) → L2 (clipped ReLU) → 1, or
// with L2 = 0 directly 2H → 1 (the cheapest: one multiply per accumulator entry). The output is a logit of the side to move's expected result; Scale converts it to the search's
// evaluation units.
package nnue

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
)

// Quantization: the accumulator and the first layer's weights are scaled by QA (an activation
// of 1.0 is QA), the second and third layers' weights by QB; biases of the second and third
// layers by QA·QB.
const (
	QA = 127
	QB = 64
)

// Bounds on the dimensions a file may declare.
const (
	MaxHidden = 1024
	MaxL2     = 256
	maxMeta   = 1 << 16
)

var magic = [8]byte{'F', 'P', 'N', 'N', 'U', 'E', '1', '\n'}

// Net is a quantized network of one game, immutable once built and shared by every player.
type Net struct {
	Game  string
	In    int   // input features (Inputs(Game))
	H     int   // accumulator width per perspective
	L2    int   // second hidden layer (0: none, W2 is then the output layer)
	Scale int32 // evaluation units per logit
	Meta  string
	W1    []int16 // In×H, feature-major
	B1    []int16 // H
	W2    []int8  // 2H×max(L2, 1), input-major (the side to move's H inputs first)
	B2    []int32 // L2
	W3    []int16 // L2
	B3    int32
	game  int
	w1p   []uint64    // W1 packed four int16 to a word, rows of H/4 words (Accumulator.V)
	b1p   []uint64    // B1 packed, each lane biased by 2^15 (an accumulator's start)
	w2p   [][2]uint64 // with L2 = 0, W2 packed for dot: two words per accumulator word
	w2s   []int16     // with L2 = 0, H a multiple of 8 and haveSIMD, W2 widened for dotLanes; else nil
}

// row returns feature f's packed first-layer row.
func (n *Net) row(f int) []uint64 { return n.w1p[f*n.H/4 : (f+1)*n.H/4] }

// pack packs src four values to a word, word i the integer Σ (src[4i+k]+bias)·2^16k modulo
// 2^64 (Accumulator.V).
func pack(src []int16, bias int64) []uint64 {
	out := make([]uint64, len(src)/4)
	for i := range out {
		for k := 0; k < 4; k++ {
			out[i] += uint64(int64(src[4*i+k])+bias) << (16 * k)
		}
	}
	return out
}

// packOut packs the output weights w (2H int8, L2 = 0) for dot: for the accumulator word of
// values 4i..4i+3, pair i is w[4i+2] + w[4i]·2^32 and w[4i+3] + w[4i+1]·2^32 (modulo 2^64).
func packOut(w []int8) [][2]uint64 {
	out := make([][2]uint64, len(w)/4)
	for i := range out {
		out[i] = [2]uint64{uint64(int64(w[4*i+2]) + int64(w[4*i])<<32), uint64(int64(w[4*i+3]) + int64(w[4*i+1])<<32)}
	}
	return out
}

// check validates dimensions and that no accumulator can overflow int16.
func (n *Net) check() error {
	g := gameIndex(n.Game)
	if g < 0 {
		return fmt.Errorf("unknown game %q", n.Game)
	}
	n.game = g
	if n.In != Inputs(n.Game) {
		return fmt.Errorf("%s network with %d inputs: want %d", n.Game, n.In, Inputs(n.Game))
	}
	if n.H < 4 || n.H > MaxHidden || n.H%4 != 0 || n.L2 < 0 || n.L2 > MaxL2 {
		return fmt.Errorf("dimensions %d×%d: want hidden a multiple of 4 in 4..%d and l2 0..%d", n.H, n.L2, MaxHidden, MaxL2)
	}
	if n.Scale < 1 || n.Scale > 10000 {
		return fmt.Errorf("scale %d: want 1..10000", n.Scale)
	}
	if len(n.W1) != n.In*n.H || len(n.B1) != n.H || len(n.W2) != 2*n.H*max(n.L2, 1) || len(n.B2) != n.L2 || len(n.W3) != n.L2 {
		return errors.New("weight arrays do not match the dimensions")
	}
	// The accumulator sums the bias and at most maxActive rows: bound it by the largest rows.
	for j := 0; j < n.H; j++ {
		big := 0
		for f := 0; f < n.In; f++ {
			big = max(big, abs(int(n.W1[f*n.H+j])))
		}
		if abs(int(n.B1[j]))+maxActive[g]*big > math.MaxInt16 {
			return fmt.Errorf("hidden unit %d may overflow the int16 accumulator", j)
		}
	}
	// The second layer's sums stay far inside int32: 2H·QA·128 + |bias| < 2^31 when the bias is
	// bounded as here; the output layer likewise.
	for _, b := range n.B2 {
		if abs(int(b)) > 1<<24 {
			return fmt.Errorf("second-layer bias %d out of range", b)
		}
	}
	if abs(int(n.B3)) > 1<<24 {
		return fmt.Errorf("output bias %d out of range", n.B3)
	}
	n.w1p, n.b1p = pack(n.W1, 0), pack(n.B1, 1<<15)
	n.w2p, n.w2s = nil, nil
	if n.L2 == 0 {
		n.w2p = packOut(n.W2)
		if haveSIMD && n.H%8 == 0 {
			n.w2s = make([]int16, len(n.W2))
			for i, w := range n.W2 {
				n.w2s[i] = int16(w)
			}
		}
	}
	return nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// MarshalBinary writes the network file: magic, game, dimensions, scale, metadata text,
// weights (little-endian), then a CRC-32 (IEEE) of everything before it.
func (n *Net) MarshalBinary() ([]byte, error) {
	if err := n.check(); err != nil {
		return nil, err
	}
	if len(n.Meta) > maxMeta {
		return nil, fmt.Errorf("metadata of %d bytes: at most %d", len(n.Meta), maxMeta)
	}
	var b bytes.Buffer
	b.Write(magic[:])
	w := func(v any) { binary.Write(&b, binary.LittleEndian, v) } // a bytes.Buffer never fails
	w(uint8(len(n.Game)))
	b.WriteString(n.Game)
	w([4]uint32{uint32(n.In), uint32(n.H), uint32(n.L2), uint32(n.Scale)})
	w(uint32(len(n.Meta)))
	b.WriteString(n.Meta)
	w(n.W1)
	w(n.B1)
	w(n.W2)
	w(n.B2)
	w(n.W3)
	w(n.B3)
	w(crc32.ChecksumIEEE(b.Bytes()))
	return b.Bytes(), nil
}

// Unmarshal reads a network file, refusing anything malformed: a wrong magic, game or
// dimensions, a truncated or overlong file, a bad checksum, weights that could overflow.
func Unmarshal(data []byte) (*Net, error) {
	if len(data) < len(magic)+4 || !bytes.Equal(data[:len(magic)], magic[:]) {
		return nil, errors.New("not a fairplay network file (bad magic)")
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, errors.New("checksum mismatch (file damaged)")
	}
	r := bytes.NewReader(body[len(magic):])
	rd := func(v any) error { return binary.Read(r, binary.LittleEndian, v) }
	var gl uint8
	if err := rd(&gl); err != nil {
		return nil, errTrunc
	}
	gb := make([]byte, gl)
	if _, err := io.ReadFull(r, gb); err != nil {
		return nil, errTrunc
	}
	var dims [4]uint32
	var ml uint32
	if rd(&dims) != nil || rd(&ml) != nil {
		return nil, errTrunc
	}
	n := &Net{Game: string(gb)}
	if gameIndex(n.Game) < 0 {
		return nil, fmt.Errorf("unknown game %q", n.Game)
	}
	if dims[0] != uint32(Inputs(n.Game)) || dims[1] < 4 || dims[1] > MaxHidden || dims[1]%4 != 0 || dims[2] > MaxL2 || ml > maxMeta {
		return nil, fmt.Errorf("bad header: inputs %d, hidden %d, l2 %d, metadata %d bytes", dims[0], dims[1], dims[2], ml)
	}
	n.In, n.H, n.L2, n.Scale = int(dims[0]), int(dims[1]), int(dims[2]), int32(min(dims[3], 1<<30))
	want := int(ml) + 2*n.In*n.H + 2*n.H + 2*n.H*max(n.L2, 1) + 4*n.L2 + 2*n.L2 + 4
	if r.Len() != want {
		return nil, fmt.Errorf("file size does not match its header (%d bytes of body, want %d)", r.Len(), want)
	}
	mb := make([]byte, ml)
	io.ReadFull(r, mb)
	n.Meta = string(mb)
	n.W1 = make([]int16, n.In*n.H)
	n.B1 = make([]int16, n.H)
	n.W2 = make([]int8, 2*n.H*max(n.L2, 1))
	n.B2 = make([]int32, n.L2)
	n.W3 = make([]int16, n.L2)
	for _, v := range []any{n.W1, n.B1, n.W2, n.B2, n.W3, &n.B3} {
		if err := rd(v); err != nil {
			return nil, errTrunc
		}
	}
	if err := n.check(); err != nil {
		return nil, err
	}
	return n, nil
}

var errTrunc = errors.New("truncated network file")

// Load reads a network file.
func Load(path string) (*Net, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("network file: %w", err)
	}
	n, err := Unmarshal(b)
	if err != nil {
		return nil, fmt.Errorf("network file %s: %w", path, err)
	}
	return n, nil
}

// Save writes a network file.
func (n *Net) Save(path string) error {
	b, err := n.MarshalBinary()
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
