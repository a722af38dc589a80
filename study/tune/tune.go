package tune

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fairplay-lab/fairplay/internal/durable"
	"github.com/fairplay-lab/fairplay/runner"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/report"
	"github.com/fairplay-lab/fairplay/stats"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/internal/config"
)

// TuneKind is the manifest kind of a tuning run.
const TuneKind = "tune"

// TuneConfig is everything that decides a tuning run; its canonical JSON goes into the
// manifest and a resumed run takes it from there.
type TuneConfig struct {
	Game              string    `json:"game"`
	Rules             string    `json:"rules"`
	Layout            string    `json:"layout"`
	Tiles             string    `json:"tiles"`
	Agent             string    `json:"agent"`  // canonical spec of the agent whose weights are tuned
	Params            []string  `json:"params"` // tuned weights, in the heuristic's order
	Start             []float64 `json:"start"`  // their starting values
	Iterations        int       `json:"iterations"`
	GamesPerIteration int64     `json:"games_per_iteration"` // even: colour-swapped pairs of θ+ vs θ−
	Seed              uint64    `json:"seed"`
	RandomOpening     int       `json:"random_opening"`
	C                 float64   `json:"c"`                        // c_end as a fraction of each weight's range
	REnd              float64   `json:"r_end"`                    // a_end / c_end²
	RandomLayouts     bool      `json:"random_layouts,omitempty"` // Katarenga: a random tile placement per pair
	// SPRT, when set, is the test of the tuned against the starting weights run afterwards,
	// capped at SPRTMaxPairs pairs.
	SPRT         *stats.SPRT `json:"sprt,omitempty"`
	SPRTMaxPairs int64       `json:"sprt_max_pairs,omitempty"`
}

// TuneOutcome is what a tuning run produced.
type TuneOutcome struct {
	Start, Tuned agents.Weights // the agent's whole weight set before and after
	Iterations   int            // iterations done (all of them unless interrupted)
	Trajectory   [][]float64    // tuned weights after each iteration, row 0 the start
	Interrupted  bool
	Manifest     *gamefile.Manifest
}

// NewTuneConfig fills in the tuned parameters (all of the agent's weights when params is
// empty) and their starting values from the agent's current weights.
func NewTuneConfig(cfg TuneConfig, params []string) (TuneConfig, error) {
	base, err := agents.Parse(cfg.Agent)
	if err != nil {
		return cfg, err
	}
	if err := agents.Check(base, cfg.Game); err != nil {
		return cfg, err
	}
	w, err := agents.HeuristicWeights(base, cfg.Game)
	if err != nil {
		return cfg, err
	}
	cfg.Agent = base.Spec()
	if len(params) == 0 {
		params = w.Names()
	}
	cfg.Params, cfg.Start = nil, nil
	seen := map[string]bool{}
	for _, p := range w.Names() { // keep the heuristic's order
		for _, q := range params {
			if q == p && !seen[p] {
				seen[p] = true
				cfg.Params = append(cfg.Params, p)
				cfg.Start = append(cfg.Start, w[w.Index(p)].Value)
			}
		}
	}
	for _, q := range params {
		if !seen[q] {
			return cfg, config.Errorf("Params", "", "unknown weight %q for %s (valid: %s)", q, cfg.Game, strings.Join(w.Names(), ", "))
		}
	}
	if cfg.GamesPerIteration <= 0 || cfg.GamesPerIteration%2 != 0 {
		return cfg, fmt.Errorf("games per iteration %d: want a positive even number (colour-swapped pairs)", cfg.GamesPerIteration)
	}
	return cfg, nil
}

// tuner holds a tuning run's fixed parts.
type tuner struct {
	cfg  TuneConfig
	gm   *games.Game
	base agents.Agent
	w    agents.Weights // the whole starting weight set
	idx  []int          // positions of the tuned weights in w
	spsa *SPSA
}

func newTuner(cfg TuneConfig, gm *games.Game) (*tuner, error) {
	base, err := agents.Parse(cfg.Agent)
	if err != nil {
		return nil, err
	}
	w, err := agents.HeuristicWeights(base, cfg.Game)
	if err != nil {
		return nil, err
	}
	w = append(agents.Weights(nil), w...)
	t := &tuner{cfg: cfg, gm: gm, base: base, w: w}
	if len(cfg.Params) != len(cfg.Start) || len(cfg.Params) == 0 {
		return nil, fmt.Errorf("tune: %d parameters with %d starting values", len(cfg.Params), len(cfg.Start))
	}
	var lo, hi []float64
	for i, p := range cfg.Params {
		j := w.Index(p)
		if j < 0 {
			return nil, fmt.Errorf("tune: unknown weight %q", p)
		}
		w[j].Value = cfg.Start[i]
		t.idx = append(t.idx, j)
		lo, hi = append(lo, w[j].Min), append(hi, w[j].Max)
	}
	if t.spsa, err = NewSPSA(cfg.Start, lo, hi, cfg.C, cfg.REnd, cfg.Iterations); err != nil {
		return nil, err
	}
	return t, nil
}

// HeldOutSeed is the master seed of the test of tuned against starting weights: a stream of
// the tuning run's seed that no tuning iteration uses, so the weights are measured on games
// they were not selected on.
func HeldOutSeed(master uint64) uint64 { return engine.Derive(master, 0x48454c444f5554) } // "HELDOUT"

// with returns the whole weight set with the tuned weights set to theta.
func (t *tuner) with(theta []float64) agents.Weights {
	w := append(agents.Weights(nil), t.w...)
	for i, j := range t.idx {
		w[j].Value = theta[i]
	}
	return w
}

// iterate plays iteration k (θ+ as agent A against θ−) and returns θ+'s wins and losses; ok
// is false if ctx ended first.
func (t *tuner) iterate(ctx context.Context, k int, workers int) (wins, losses int64, delta []float64, ok bool, err error) {
	seed := engine.Derive(t.cfg.Seed, uint64(k))
	delta, plus, minus := t.spsa.Perturb(k, engine.NewRand(engine.Derive(seed, 0)))
	ap, err := agents.WithWeights(t.base, t.with(plus))
	if err != nil {
		return 0, 0, nil, false, err
	}
	am, err := agents.WithWeights(t.base, t.with(minus))
	if err != nil {
		return 0, 0, nil, false, err
	}
	m, err := runner.NewMatchWith(runner.MatchConfig{Game: t.cfg.Game, Rules: t.cfg.Rules, Layout: t.cfg.Layout,
		Games: t.cfg.GamesPerIteration, Seed: engine.Derive(seed, 1), RandomOpening: t.cfg.RandomOpening, RandomLayouts: t.cfg.RandomLayouts}, t.gm, ap, am)
	if err != nil {
		return 0, 0, nil, false, err
	}
	var n int64
	interrupted, err := runner.RunItems(ctx, m, runner.Plan{Start: 0, End: t.cfg.GamesPerIteration}, workers, nil, func(r *gamefile.Record) error {
		n++
		switch r.WinnerAgent() {
		case "a":
			wins++
		case "b":
			losses++
		}
		return nil
	}, func(r *gamefile.Record) int64 { return r.Game })
	if err != nil {
		return 0, 0, nil, false, err
	}
	return wins, losses, delta, !interrupted && n == t.cfg.GamesPerIteration, nil
}

// RunTune runs SPSA on the agent's weights into s.Dir: trajectory.csv (one row per iteration,
// written as it finishes), start.json and tuned.json (the agent's whole weight set before and
// after), trajectory.png/.svg and manifest.json. Iteration k depends only on (configuration,
// seed, k) and the weights after iteration k−1, so a resumed run continues exactly where the
// interrupted one stopped.
func RunTune(ctx context.Context, cfg TuneConfig, gm *games.Game, s runner.Session) (*TuneOutcome, error) {
	t, err := newTuner(cfg, gm)
	if err != nil {
		return nil, err
	}
	unlock, err := durable.LockDir(s.Dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	man, err := runner.NewManifest(s, TuneKind, cfg, cfg.Seed, "iterations", int64(cfg.Iterations))
	if err != nil {
		return nil, err
	}
	if err := runner.PinAgents(man, s, cfg.Game, cfg.Agent); err != nil {
		return nil, err
	}
	manPath := filepath.Join(s.Dir, "manifest.json")
	trajPath := filepath.Join(s.Dir, "trajectory.csv")

	traj := [][]float64{append([]float64(nil), cfg.Start...)}
	if s.Resume {
		if traj, err = readTrajectory(trajPath, cfg); err != nil {
			return nil, err
		}
		copy(t.spsa.Theta, traj[len(traj)-1])
	} else {
		header := "iteration,games,plus_wins,plus_losses,draws,result," + strings.Join(cfg.Params, ",") + "\n"
		if err := gamefile.WriteFileAtomic(trajPath, []byte(header+trajectoryRow(0, 0, 0, 0, cfg.Start))); err != nil {
			return nil, err
		}
	}
	if err := gamefile.WriteManifest(manPath, man); err != nil {
		return nil, err
	}
	f, err := gamefile.OpenNoFollow(trajPath, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()

	k0 := len(traj) - 1
	var done atomic.Int64
	stopProgress := s.StartProgress(int64(cfg.Iterations-k0), "iterations", done.Load)
	t0 := time.Now()
	interrupted := false
	for k := k0 + 1; k <= cfg.Iterations; k++ {
		if ctx.Err() != nil {
			interrupted = true
			break
		}
		wins, losses, delta, ok, err := t.iterate(ctx, k, s.Workers)
		if err != nil {
			stopProgress()
			return nil, err
		}
		if !ok {
			interrupted = true
			break
		}
		t.spsa.Update(k, delta, float64(wins-losses))
		row := trajectoryRow(k, cfg.GamesPerIteration, wins, losses, t.spsa.Theta)
		if _, err := f.WriteString(row); err != nil { // one write per row: a crash loses at most this row
			stopProgress()
			return nil, err
		}
		traj = append(traj, append([]float64(nil), t.spsa.Theta...))
		done.Add(1)
	}
	stopProgress()
	out := &TuneOutcome{Start: t.with(cfg.Start), Tuned: t.with(t.spsa.Theta), Iterations: len(traj) - 1,
		Trajectory: traj, Interrupted: interrupted, Manifest: man}
	man.Completed, man.Ended, man.Seconds = int64(out.Iterations), time.Now().UTC(), time.Since(t0).Seconds()
	man.GamesPerSecond = float64(done.Load()*cfg.GamesPerIteration) / max(man.Seconds, 1e-9)
	man.Outputs = []string{"trajectory.csv"}
	if !interrupted {
		man.Status = "complete"
		for _, x := range []struct {
			name string
			w    agents.Weights
		}{{"start.json", out.Start}, {"tuned.json", out.Tuned}} {
			if err := agents.SaveWeights(filepath.Join(s.Dir, x.name), x.w); err != nil {
				return nil, runner.ReportsFailed(s.Dir, err)
			}
			man.Outputs = append(man.Outputs, x.name)
		}
		title := tuneTitle(cfg)
		files, err := report.PlotTrajectory(s.Dir, "trajectory", title, cfg.Params, t.spsa.Lo, t.spsa.Hi, traj)
		if err != nil {
			return nil, runner.ReportsFailed(s.Dir, err)
		}
		man.Outputs = append(man.Outputs, files...)
		page, err := WriteTunePage(s.Dir, cfg, out)
		if err != nil {
			return nil, runner.ReportsFailed(s.Dir, err)
		}
		man.Outputs = append(man.Outputs, page)
	}
	man.PeakRSSBytes = gamefile.PeakRSS()
	if err := gamefile.WriteManifest(manPath, man); err != nil {
		if !interrupted {
			err = runner.ReportsFailed(s.Dir, err)
		}
		return nil, err
	}
	return out, nil
}

func trajectoryRow(k int, games, wins, losses int64, theta []float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d,%d,%d,%d,%d,%d", k, games, wins, losses, games-wins-losses, wins-losses)
	for _, x := range theta {
		b.WriteString(",")
		b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
	}
	b.WriteString("\n")
	return b.String()
}

// readTrajectory reads the rows of an interrupted run (a torn last line is dropped from the
// file) and checks them against the configuration.
func readTrajectory(path string, cfg TuneConfig) ([][]float64, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
		data = data[:i+1]
		if err := gamefile.WriteFileAtomic(path, data); err != nil {
			return nil, err
		}
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	want := "iteration,games,plus_wins,plus_losses,draws,result," + strings.Join(cfg.Params, ",")
	if len(lines) < 2 || lines[0] != want {
		return nil, fmt.Errorf("%s: not the trajectory of this run (its header is not %s)", path, want)
	}
	var traj [][]float64
	for k, line := range lines[1:] {
		f := strings.Split(line, ",")
		if len(f) != 6+len(cfg.Params) || f[0] != strconv.Itoa(k) {
			return nil, fmt.Errorf("%s: line %d is damaged", path, k+2)
		}
		row := make([]float64, len(cfg.Params))
		for i := range row {
			if row[i], err = strconv.ParseFloat(f[6+i], 64); err != nil {
				return nil, fmt.Errorf("%s: line %d: %v", path, k+2, err)
			}
		}
		traj = append(traj, row)
	}
	if len(traj)-1 > cfg.Iterations {
		return nil, fmt.Errorf("%s: %d iterations, the run plans %d", path, len(traj)-1, cfg.Iterations)
	}
	return traj, nil
}
