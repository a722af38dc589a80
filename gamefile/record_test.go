package gamefile

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/engine"
	"gonum.org/v1/gonum/stat/distuv"
)

// games.csv written before the start_position and moves columns still reads (fields empty);
// the new columns must come last.
func TestCSVReaderOldAndNewHeaders(t *testing.T) {
	old := "game,pair,seed,game_name,layout,rules,first_agent,second_agent,first_is,first_colour,winner,winner_agent,reason,plies,legal_actions_total,c1\n" +
		"0,0,00000000000000ff,baran,,x=y,random,random,a,red,first,a,throne,12,99,3\n"
	r, err := NewCSVReader(strings.NewReader(old))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := r.Read()
	if err != nil || rec.Moves != "" || rec.Start != "" || len(rec.Counters) != 1 || rec.Counters[0] != 3 {
		t.Fatalf("old file: %+v, %v", rec, err)
	}
	if _, err := r.Read(); err != io.EOF {
		t.Errorf("want EOF, got %v", err)
	}
	bad := strings.Replace(old, "legal_actions_total,c1", "legal_actions_total,moves,c1", 1)
	if _, err := NewCSVReader(strings.NewReader(bad)); err == nil {
		t.Error("moves before a counter column accepted")
	}
}

// Empirical-Bayes shrinkage: boards of one true rate shrink to near the pooled rate; boards
// of very different true rates barely shrink; intervals contain their estimates.
func TestShrinkRates(t *testing.T) {
	same := make([]BoardResult, 50)
	spread := make([]BoardResult, 50)
	for i := range same {
		same[i] = BoardResult{N: 100, WhiteWins: int64(45 + i%11)} // 0.45–0.55: binomial noise only
		spread[i] = BoardResult{N: 100, WhiteWins: int64(5 + 90*(i%2))}
	}
	for i, iv := range ShrinkRates(same) {
		if math.Abs(iv.Value-0.4982) > 0.02 || iv.Low > iv.Value || iv.High < iv.Value || iv.Method != MethodEB {
			t.Errorf("same rates, board %d: %+v", i, iv)
		}
	}
	for i, iv := range ShrinkRates(spread) {
		raw := float64(spread[i].WhiteWins) / 100
		if math.Abs(iv.Value-raw) > 0.02 {
			t.Errorf("spread rates, board %d: shrunk %g from %g", i, iv.Value, raw)
		}
	}
}

// CSVWriter writes byte for byte what encoding/csv writes, tricky fields included.
func TestCSVWriterMatchesEncodingCSV(t *testing.T) {
	tricky := []string{"", " x", "\tx", "a,b", `say "hi"`, "l1\nl2", "cr\rlf", `\.`, `\.x`, "\u00a0nbsp", "é", "x y", `"`, `""`,
		"\vx", "\fx", "\u0085nel", "\u2003em"}
	// The same around the short-field length (csvShortField), scanned the other way.
	for _, n := range []int{31, 32, 33, 100} {
		pad := strings.Repeat("m", n)
		for _, f := range []string{"a,b", `"q`, "l\n", "c\r", " s", "\u00a0"} {
			tricky = append(tricky, f+pad, pad+f)
		}
	}
	var got, want bytes.Buffer
	cw, _ := NewCSVWriter(&got, []string{"c,1", "c2"})
	ew := csv.NewWriter(&want)
	ew.Write(Header([]string{"c,1", "c2"}))
	for i, f := range tricky {
		reason := engine.Cap
		if f != "" {
			reason = engine.Forfeit
		}
		r := &Record{Game: int64(i), Pair: int64(i / 2), Seed: uint64(i) * 0x9e3779b97f4a7c15, GameName: f, Layout: f,
			Rules: "a=1,b=2", FirstAgent: f, SecondAgent: "random", FirstIs: "a", FirstColour: f, Winner: "first",
			Reason: reason, Plies: i, LegalTotal: -int64(i), Counters: []int64{int64(i), -1}, Forfeit: f, Start: f, Moves: f}
		if err := cw.Write(r); err != nil {
			t.Fatal(err)
		}
		legal := strconv.FormatInt(r.LegalTotal, 10)
		if r.LegalTotal == NotCounted { // written empty
			legal = ""
		}
		ew.Write([]string{strconv.FormatInt(r.Game, 10), strconv.FormatInt(r.Pair, 10), fmt.Sprintf("%016x", r.Seed),
			f, f, r.Rules, f, r.SecondAgent, r.FirstIs, f, r.Winner, r.WinnerAgent(), r.Reason.String(),
			strconv.Itoa(r.Plies), legal, f, strconv.Itoa(i), "-1", f, f})
	}
	cw.Flush()
	ew.Flush()
	if got.String() != want.String() {
		t.Errorf("CSVWriter wrote\n%q\nencoding/csv\n%q", got.String(), want.String())
	}
	back, err := NewCSVReader(&got)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range tricky {
		r, err := back.Read()
		if err != nil || r.Moves != f || r.Layout != f {
			t.Fatalf("read back %+v, %v; want moves %q", r, err, f)
		}
	}
}

// Rows encoded by AppendCSVRow and written with WriteRows, in batches of any size (below and
// above the writer's buffer), give the bytes Write gives, for csv and csv.gz (there through
// WriteRowsAt, a batch split where the members' blocks of games end).
func TestWriteRowsMatchesWrite(t *testing.T) {
	counters := []string{"c1", "c2", "c3"}
	recs := testRecords(3000, len(counters))
	for i, r := range recs {
		r.Moves += strings.Repeat(" a1-b2", i%200) // rows up to ~1.2 kB: batches cross csvFlushAt
	}
	for _, f := range []Format{CSV, CSVGzip} {
		var want, got bytes.Buffer
		w, _ := NewGamesWriter(&want, f, counters)
		for _, r := range recs {
			if err := w.Write(r); err != nil {
				t.Fatal(err)
			}
		}
		w.Close()
		gw, _ := NewGamesWriter(&got, f, counters)
		rw, ok := gw.(RowWriter)
		if !ok {
			t.Fatalf("%s: the games writer takes no rows", f)
		}
		var rows []byte
		for i, size := 0, 1; i < len(recs); i, size = i+size, size*2%97+1 {
			batch := recs[i:min(i+size, len(recs))]
			for len(batch) > 0 {
				n := len(batch)
				mw, gz := MemberWriterOf(gw)
				if gz {
					n = 1
					for n < len(batch) && batch[n].Game/MemberGames == batch[0].Game/MemberGames {
						n++
					}
				}
				rows = rows[:0]
				for _, r := range batch[:n] {
					rows = AppendCSVRow(rows, r)
				}
				var err error
				if gz {
					err = mw.WriteRowsAt(batch[0].Game, rows)
				} else {
					err = rw.WriteRows(rows)
				}
				if err != nil {
					t.Fatal(err)
				}
				batch = batch[n:]
			}
		}
		gw.Close()
		if !bytes.Equal(want.Bytes(), got.Bytes()) {
			t.Errorf("%s: WriteRows wrote %d bytes differing from Write's %d", f, got.Len(), want.Len())
		}
	}
}

// Coverage of the empirical-Bayes intervals (the share of boards whose true rate lies in its
// interval, averaged over runs: Morris 1983's EB coverage) at the size of the reported failure,
// 50 boards of 20 games, true rates 0.5 + τ·N(0,1). Measured (300 runs each, fixed seed): for
// τ = 0, 0.03, 0.06, 0.1, 0.15 the uncapped moment prior (weight 1e9 when τ̂² ≤ 0) covered
// 0.505, 0.588, 0.794, 0.913, 0.932; the capped prior with Morris's variance covers 1.000,
// 0.969, 0.929, 0.944, 0.955. Tolerance 0.92: 0.95 less 0.03 for 20-game boards' discreteness
// and the plug-in prior (EB intervals are approximate; boards of a run share μ̂ and τ̂).
func TestShrinkCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 4))
	const runs, k, n = 300, 50, 20
	for _, tau := range []float64{0, 0.03, 0.06, 0.1, 0.15} {
		covered, total := 0, 0
		boards := make([]BoardResult, k)
		truth := make([]float64, k)
		for range runs {
			for i := range boards {
				p := math.Min(0.99, math.Max(0.01, 0.5+tau*rng.NormFloat64()))
				truth[i] = p
				var w int64
				for range n {
					if rng.Float64() < p {
						w++
					}
				}
				boards[i] = BoardResult{N: n, WhiteWins: w}
			}
			for i, iv := range ShrinkRates(boards) {
				if iv.High-iv.Low < 0.01 {
					t.Fatalf("τ %g: interval %+v narrower than 0.01", tau, iv)
				}
				if iv.Low <= truth[i] && truth[i] <= iv.High {
					covered++
				}
				total++
			}
		}
		c := float64(covered) / float64(total)
		t.Logf("τ = %.2f: EB coverage %.3f", tau, c)
		if c < 0.92 {
			t.Errorf("τ = %.2f: coverage %.3f, want ≥ 0.92", tau, c)
		}
	}
}

// Moments by hand: five boards of 100 games with 40, 45, 50, 55, 60 White wins: pooled rate
// 0.5, rates' mean 0.5, Σ(p − p̄)² = 0.025, noise Σ 0.25/100 = 0.0125, so τ² = 0.025/(5−3) −
// 0.0125/5 = 0.01. Four boards at 0.5 exactly: no spread, τ² = 0. Three boards: not ok.
func TestShrinkMoments(t *testing.T) {
	fit := func(w []int64) (float64, float64, bool) {
		var f ShrinkFitter
		for _, x := range w {
			f.First(x, 100)
		}
		for _, x := range w {
			f.Second(x, 100)
		}
		return f.Moments()
	}
	mu, tau2, ok := fit([]int64{40, 45, 50, 55, 60})
	if !ok || math.Abs(mu-0.5) > 1e-12 || math.Abs(tau2-0.01) > 1e-12 {
		t.Errorf("moments %g %g %v, want 0.5 0.01", mu, tau2, ok)
	}
	if _, tau2, ok = fit([]int64{50, 50, 50, 50}); !ok || tau2 != 0 {
		t.Errorf("no spread: τ² %g %v, want 0", tau2, ok)
	}
	if _, _, ok = fit([]int64{50, 50, 50}); ok {
		t.Error("three boards: ok")
	}
}

// gamesBytes is a games file in format f of testRecords(n, 3).
func gamesBytes(t *testing.T, f Format, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := must(NewGamesWriter(&buf, f, []string{"c0", "c1", "c2"}))
	for _, r := range testRecords(n, 3) {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A games file cut inside its last row's moves (a copy or a disk that stopped short) still
// parses as a row of fewer moves: the reader refuses a last row that no newline ends (every
// writer of games.csv ends its rows with one), in csv and csv.gz, so that a merge does not
// copy a torn game as a whole one. A file that ends with its newline reads to io.EOF.
func TestCSVReaderRefusesTornLastRow(t *testing.T) {
	whole := gamesBytes(t, CSV, 20)
	cut := whole[:bytes.LastIndexByte(whole[:len(whole)-1], ' ')] // inside the last row's moves
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		data []byte
		torn bool
	}{{"whole", whole, false}, {"cut", cut, true}} {
		for _, f := range []Format{CSV, CSVGzip} {
			data := c.data
			if f == CSVGzip {
				var z bytes.Buffer
				zw := gzip.NewWriter(&z)
				zw.Write(data)
				zw.Close()
				data = z.Bytes()
			}
			path := filepath.Join(dir, c.name+"."+string(f))
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			g := must(OpenGamesAs(path, f))
			var n int
			var err error
			for _, err = range All(g.Read) {
				if err != nil {
					break
				}
				n++
			}
			g.Close()
			switch {
			case c.torn && (err == nil || !strings.Contains(err.Error(), "ends inside")):
				t.Errorf("%s %s: %d rows read, err %v; want the torn last row refused", c.name, f, n, err)
			case !c.torn && (err != nil || n != 20):
				t.Errorf("%s %s: %d rows read, err %v; want 20 and no error", c.name, f, n, err)
			}
		}
	}
}

// Spread against hand computations. Four boards of 20 games with 10, 15, 5 and 10 White wins:
// μ = ½, the rates' variance 0.125/3, less the noise 0.25/20, is 0.0291667 (sd 0.170783); the
// k×2 table's Pearson χ² is 20·0.125/0.25 = 10 on 3 df, whose upper tail is erfc(√5) +
// √(20/π)·e^−5 = 0.0185659. At design effect 2 the χ² halves and the noise doubles.
func TestShrinkSpread(t *testing.T) {
	boards := [][2]int64{{10, 20}, {15, 20}, {5, 20}, {10, 20}}
	fit := func() *ShrinkFitter {
		var f ShrinkFitter
		for _, b := range boards {
			f.First(b[0], b[1])
		}
		for _, b := range boards {
			f.Second(b[0], b[1])
		}
		return &f
	}
	sp, ok := fit().SpreadDeff(1)
	if !ok || math.Abs(sp.SD-0.1707825) > 1e-6 || math.Abs(sp.Chi2-10) > 1e-9 || sp.DF != 3 || math.Abs(sp.P-0.0185659) > 1e-6 {
		t.Errorf("SpreadDeff(1) = %+v %v, want sd 0.170783, χ² 10 on 3 df, p 0.0185659", sp, ok)
	}
	// The same χ² from the table's cells, Σ (O − E)²/E over wins and non-wins.
	chi := 0.0
	for _, b := range boards {
		e := float64(b[1]) / 2
		chi += (float64(b[0])-e)*(float64(b[0])-e)/e + (float64(b[1]-b[0])-e)*(float64(b[1]-b[0])-e)/e
	}
	if math.Abs(chi-sp.Chi2) > 1e-9 {
		t.Errorf("χ² %v, the table's cells give %v", sp.Chi2, chi)
	}
	if sp2, _ := fit().SpreadDeff(2); math.Abs(sp2.Chi2-5) > 1e-9 || math.Abs(sp2.SD-math.Sqrt(0.125/3-0.025)) > 1e-9 {
		t.Errorf("SpreadDeff(2) = %+v, want χ² 5, sd √(0.125/3 − 0.025)", sp2)
	}
	// Equal rates: no spread; White winning everything: no test; three boards: too few.
	boards = [][2]int64{{10, 20}, {10, 20}, {10, 20}, {10, 20}}
	if sp, ok := fit().SpreadDeff(1); !ok || sp.SD != 0 || sp.Chi2 != 0 || sp.P != 1 {
		t.Errorf("equal rates: %+v %v", sp, ok)
	}
	boards = [][2]int64{{20, 20}, {20, 20}, {20, 20}, {20, 20}}
	if _, ok := fit().SpreadDeff(1); ok {
		t.Error("White won every game, yet a spread")
	}
	boards = boards[:3]
	if _, ok := fit().SpreadDeff(1); ok {
		t.Error("three boards, yet a spread")
	}
	// Many boards drawn from Beta(8, 4.6) (sd 0.13055), 10 games each, so that the noise (sd
	// about 0.15) is larger than the spread: the estimate comes out near the truth, far from the
	// raw sd of the rates (about 0.20), and the test rejects homogeneity; boards of one true
	// rate give a spread near 0 and no rejection (at this seed).
	rng := rand.New(rand.NewPCG(7, 7))
	truth := distuv.Beta{Alpha: 8, Beta: 4.6, Src: rng}
	draw := func(p func() float64) {
		boards = boards[:0]
		for range 4000 {
			q, w := p(), int64(0)
			for range 10 {
				if rng.Float64() < q {
					w++
				}
			}
			boards = append(boards, [2]int64{w, 10})
		}
	}
	draw(truth.Rand)
	if sp, ok := fit().SpreadDeff(1); !ok || math.Abs(sp.SD-0.13055) > 0.01 || sp.P > 1e-6 {
		t.Errorf("Beta(8, 4.6) boards: %+v, want sd 0.131 ± 0.01 and homogeneity rejected", sp)
	}
	draw(func() float64 { return 0.635 })
	if sp, ok := fit().SpreadDeff(1); !ok || sp.SD > 0.03 || sp.P < 0.05 {
		t.Errorf("boards of one rate: %+v, want sd near 0 and no rejection", sp)
	}
}

// priorMass is the fitted Beta prior's probability of a true rate in [lo, hi]: the share of
// boards inside a band that the empirical-Bayes model implies.
func priorMass(s Shrink, lo, hi float64) float64 {
	b := distuv.Beta{Alpha: s.a0, Beta: s.b0}
	return b.CDF(hi) - b.CDF(lo)
}

// Why a sweep reports the spread of true rates but no share of boards inside the band: under a
// two-mode truth (100 layouts, each one seating's true rate from Beta(16, 4), about 0.8, the
// other's from a normal around 0.5, sd 0.08; n games a board) the unimodal Beta prior fitted to
// the boards puts about 10 points fewer boards inside 45–55% than the truth holds (about 0.14
// for 0.24), at 24 games a board as at 100 (20 studies each), while the spread's sd stays
// within 0.02 of the truth's.
func TestPriorMassBimodal(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 29))
	high := distuv.Beta{Alpha: 16, Beta: 4, Src: rng}
	for _, c := range []struct {
		n        int64
		lo, high float64 // the mean bias expected
	}{{24, -0.15, -0.06}, {100, -0.15, -0.06}} {
		bias, sdErr := 0.0, 0.0
		const studies = 20
		for range studies {
			p := make([]float64, 0, 200)
			for range 100 {
				p = append(p, high.Rand(), math.Min(0.99, math.Max(0.01, 0.5+0.08*rng.NormFloat64())))
			}
			var f ShrinkFitter
			w := make([]int64, len(p))
			for i, q := range p {
				for range c.n {
					if rng.Float64() < q {
						w[i]++
					}
				}
				f.First(w[i], c.n)
			}
			inside := 0.0
			for i, q := range p {
				f.Second(w[i], c.n)
				if q >= 0.45 && q <= 0.55 {
					inside++
				}
			}
			bias += priorMass(f.Fit(), 0.45, 0.55) - inside/float64(len(p))
			sp, _ := f.SpreadDeff(1)
			sdErr += sp.SD - stdDev(p)
		}
		if sdErr /= studies; math.Abs(sdErr) > 0.02 {
			t.Errorf("%d games a board: the prior's sd is off by %+.3f on average", c.n, sdErr)
		}
		if bias /= studies; bias < c.lo || bias > c.high {
			t.Errorf("%d games a board: the prior's share inside the band is off by %+.3f on average, want within [%+.2f, %+.2f]", c.n, bias, c.lo, c.high)
		} else {
			t.Logf("%d games a board: bias %+.3f", c.n, bias)
		}
	}
}

func stdDev(x []float64) float64 {
	m, v := 0.0, 0.0
	for _, y := range x {
		m += y
	}
	m /= float64(len(x))
	for _, y := range x {
		v += (y - m) * (y - m)
	}
	return math.Sqrt(v / float64(len(x)-1))
}
