package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/fairplay-lab/fairplay/study/layouts"
)

// raceFlags are layouts' flags for racing, screening by cheap play and the control variate.
type raceFlags struct {
	race, screen, control string
	tolerance             float64
	keep                  int
	set                   map[string]bool
	fs                    *flag.FlagSet
}

func (x *raceFlags) register(fs *flag.FlagSet) {
	x.fs = fs
	fs.StringVar(&x.race, "race", "", "fair: which boards are fair (inside -band), every answer right with probability 0.95 at once; fairest: which board is closest to 0.5. Plays in batches (-batch, up to -games-per-board) and stops each board once its answer is settled")
	fs.Float64Var(&x.tolerance, "race-tolerance", 0, "with -race fairest: stop once the leader is within this of every other board's |White rate - 0.5| (0: the single fairest, or the boards left at the cap)")
	fs.StringVar(&x.screen, "screen", "", "a cheap-play sweep's directory holding every board: keep the -screen-keep layouts whose rates there lie nearest the band (a heuristic ordering; what the run finds on the layouts kept stays valid)")
	fs.IntVar(&x.keep, "screen-keep", 0, "with -screen: the number of layouts to keep")
	fs.StringVar(&x.control, "control", "", "a cheap-play sweep's directory: this sweep's mean White rate over that sweep's boards, with the cheap-play rate as control variate (this sweep's boards must be a random sample of them)")
}

func (x *raceFlags) visited() map[string]bool {
	if x.set == nil {
		x.set = map[string]bool{}
		x.fs.Visit(func(f *flag.Flag) { x.set[f.Name] = true })
	}
	return x.set
}

// notWith refuses every flag of the group with another mode.
func (x *raceFlags) notWith(mode string) error {
	for _, name := range []string{"race", "race-tolerance", "screen", "screen-keep", "control"} {
		if x.visited()[name] {
			return usagef("-%s: not with %s", name, mode)
		}
	}
	return nil
}

// onlyControl refuses every flag of the group but -control with another mode.
func (x *raceFlags) onlyControl(mode string) error {
	for _, name := range []string{"race", "race-tolerance", "screen", "screen-keep"} {
		if x.visited()[name] {
			return usagef("-%s: not with %s", name, mode)
		}
	}
	return nil
}

// check validates the group for a new sweep or a resumed one.
func (x *raceFlags) check(adaptive bool) error {
	set := x.visited()
	switch {
	case set["race"] && x.race != "fair" && x.race != "fairest":
		return usagef("-race %q: want fair or fairest", x.race)
	case set["race-tolerance"] && x.race != "fairest":
		return usagef("-race-tolerance: only with -race fairest")
	case set["screen-keep"] != set["screen"]:
		return usagef("-screen DIR and -screen-keep M go together")
	case set["screen-keep"] && x.keep < 1:
		return usagef("-screen-keep %d: want at least 1 layout", x.keep)
	case set["batch"] && !adaptive && x.race == "" && !set["resume"]: // -resume names what it refuses
		return usagef("-batch: only with -adaptive or -race (a fixed-n sweep plays every board's games in one go)")
	case set["control"] && (adaptive || x.race != ""):
		return usagef("-control: not with -adaptive or -race (a board's rate after stopping early is biased; the control variate needs fixed-n rates)")
	}
	for _, f := range []struct{ name, dir string }{{"-screen", x.screen}, {"-control", x.control}} {
		if f.dir != "" {
			if err := checkSweepDir(f.name, f.dir); err != nil {
				return err
			}
		}
	}
	return nil
}

// screenSweep keeps the sweep's layouts nearest the band under the screen's cheap play.
func screenSweep(sw *layouts.Sweep, cfg layouts.LayoutsConfig, x *raceFlags, stderr io.Writer) (*layouts.Sweep, error) {
	list, sc, err := layouts.ScreenLayouts(sw, filepath.Join(x.screen, "boards.csv"), x.keep)
	if err != nil {
		return nil, usagef("-screen %s: %v", x.screen, err)
	}
	cfg.SetList(list)
	fmt.Fprintf(stderr, "screened by %s: %d of %d layouts kept, cheap-play rates at most %.4f from the band (a heuristic ordering, no guarantee)\n", x.screen, sc.Kept, sc.Of, sc.Farthest)
	return layouts.NewSweep(cfg)
}

// controlVariate prints the mean White rate over the cheap sweep's boards, estimated from this
// sweep's boards with cheap play as the control variate.
func controlVariate(w io.Writer, dir, cheap string) error {
	cv, pop, err := layouts.ControlVariate(filepath.Join(dir, "boards.csv"), filepath.Join(cheap, "boards.csv"))
	if err != nil {
		return fmt.Errorf("-control %s: %w", cheap, err)
	}
	e, p := cv.Estimate, cv.Plain
	fmt.Fprintf(w, "mean White rate over the %d boards of %s, from %d boards played here: %.4f [%.4f, %.4f] (%s, beta %.3f, correlation %.3f); without the control variate %.4f [%.4f, %.4f] (%s): interval width %.0f%%\n",
		pop, cheap, cv.N, e.Value, e.Low, e.High, e.Method, cv.Beta, cv.Rho, p.Value, p.Low, p.High, p.Method, 100*(e.High-e.Low)/(p.High-p.Low))
	return nil
}
