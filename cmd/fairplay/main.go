// Command fairplay is the toolkit's one binary: rules tools (perft, moves, layout, show),
// speed (bench) and self-play experiments (play, merge). main only wires arguments, standard
// streams and signals into run, which tests call directly.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/gamefile"
)

// usageError is a bad command line: exit code 2. cause is the library's error it reports,
// if any (see usageErr).
type usageError struct {
	msg   string
	cause error
}

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{msg: fmt.Sprintf(format, a...)} }

// errInterrupted reports a run stopped by a signal: exit code 130.
var errInterrupted = errors.New("interrupted")

type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

var commands map[string]command

func init() {
	commands = map[string]command{
		"perft":    {"count action sequences to a depth (rules check)", runPerft},
		"moves":    {"list the legal actions of a position", runMoves},
		"layout":   {"identify a Katarenga layout: index, layout string, colour grid", runLayout},
		"show":     {"draw a position as text", runShow},
		"bench":    {"uniform random self-play speed: plies/s and games/s", runBench},
		"play":     {"play a match in colour-swapped pairs and report statistics", runPlay},
		"merge":    {"merge the shard directories of one run into a single run", runMerge},
		"agents":   {"list the agents, their parameters and the heuristic weights", runAgents},
		"layouts":  {"Katarenga layout fairness sweep: every board, both seatings", runLayouts},
		"ladder":   {"check a strength ladder of agents step by step (Elo, LOS)", runLadder},
		"variants": {"compare rule variants across a strength ladder: metrics, tests, plots", runVariants},
		"tune":     {"SPSA tuning of an agent's heuristic weights, then an SPRT of tuned vs start", runTune},
		"sprt":     {"sequential test (pentanomial GSPRT) of agent A against agent B", runSPRT},
		"plan":     {"how many games? sample size, power and detectable effect of a rate, variant or Elo test", runPlan},
		"replay":   {"replay one game of a run from its recorded moves, position by position", runReplay},
		"study":    {"run a study file's named list of runs into one directory with an index page", runStudy},
		"version":  {"print the module version, the source revision and the Go version", runVersion},

		"learn":      {"learn heuristic weights from self-play by logistic regression", runLearn},
		"tournament": {"play every pairing of several agents and fit joint Elo ratings", runTournament},
		"train":      {"train a learned evaluation (NNUE) from self-play: fairplay train -game G -save-net FILE", runTrain}, "serve": {"play an agent as a bot on the line protocol (docs/protocol.md)", runServe},
	}
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go onSignals(sigs, cancel, len(os.Args) > 1 && keepsGames(os.Args[1]), os.Stderr, os.Exit)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	signal.Stop(sigs)
	os.Exit(exitCode(err, os.Stderr))
}

// onSignals cancels the run at the first signal (games in flight are abandoned, finished ones
// written, the run left resumable) and exits at once, status 130, at the second: games
// finished before the last checkpoint are kept either way. keeps says whether the command
// keeps its finished games (a run directory); learn, bench and the rest keep nothing.
func onSignals(sigs <-chan os.Signal, cancel func(), keeps bool, stderr io.Writer, exit func(int)) {
	<-sigs
	if keeps {
		fmt.Fprintln(stderr, "fairplay: stopping (finished games are kept; press Ctrl-C again to exit at once)")
	} else {
		fmt.Fprintln(stderr, "fairplay: stopping (nothing is kept; press Ctrl-C again to exit at once)")
	}
	cancel()
	<-sigs
	if keeps {
		fmt.Fprintln(stderr, "fairplay: interrupted again: exiting now (resume with -resume)")
	} else {
		fmt.Fprintln(stderr, "fairplay: interrupted again: exiting now")
	}
	exit(130)
}

// keepsGames says whether a subcommand writes a run directory that keeps its finished games
// when interrupted (and is finished with -resume).
func keepsGames(cmd string) bool {
	switch cmd {
	case "play", "layouts", "ladder", "variants", "tune", "sprt", "tournament", "study":
		return true
	}
	return false
}

// exitCode prints err (if any) and maps it to the exit status: 0 ok, 2 usage, 130 interrupted,
// 1 any other failure.
func exitCode(err error, stderr io.Writer) int {
	var ue usageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errInterrupted):
		fmt.Fprintln(stderr, "fairplay: interrupted")
		return 130
	case errors.As(err, &ue), errors.Is(err, gamefile.ErrDamaged), errors.Is(err, gamefile.ErrSymlink):
		fmt.Fprintln(stderr, "fairplay:", err)
		return 2
	default:
		fmt.Fprintln(stderr, "fairplay:", err)
		return 1
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) >= 2 && args[0] == "help" { // help CMD is CMD -h
		if len(args) > 2 {
			return usagef("help: want one subcommand, got %q", strings.Join(args[1:], " "))
		}
		if _, ok := commands[args[1]]; !ok {
			return usagef("help: unknown subcommand %q (run 'fairplay help' for the list)", args[1])
		}
		args = []string{args[1], "-h"}
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		printUsage(stdout)
		if len(args) == 0 {
			return usagef("missing subcommand")
		}
		return nil
	}
	c, ok := commands[args[0]]
	if !ok {
		return usagef("unknown subcommand %q (run 'fairplay help' for the list)", args[0])
	}
	stopProfiles, err := startProfiles(os.Getenv)
	if err != nil {
		return err
	}
	// One line clock for the process: a study's runs (run again, under this ctx) and a
	// ladder's levels print their plain progress lines at one pace.
	err = c.run(withLineClock(ctx), args[1:], stdout, stderr)
	if perr := stopProfiles(); err == nil {
		err = perr
	}
	return withFlagNames(err, args[0])
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "fairplay: self-play research toolkit for Baran and Katarenga")
	fmt.Fprintln(w, "\nUsage: fairplay <subcommand> [flags]   (fairplay help <subcommand>, or <subcommand> -h, for its flags and examples)")
	fmt.Fprintln(w, "\nSubcommands:")
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
}

// runVersion prints what a bug report needs: the toolkit's version, the module and its
// version as the build recorded it ("(devel)" for a build in a checkout), the source revision
// (as manifests record it: see gamefile.NewManifest) and the Go release that built it.
func runVersion(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("version", "(no flags)", "fairplay version")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	module, modVersion := "github.com/fairplay-lab/fairplay", "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Path != "" {
		module, modVersion = bi.Main.Path, bi.Main.Version
	}
	m := gamefile.NewManifest("version", nil)
	fmt.Fprintf(stdout, "fairplay %s\nmodule   %s %s\nrevision %s\ngo       %s\n",
		m.ToolVersion, module, modVersion, m.VCSRevision, m.GoVersion)
	return nil
}

// newFlags makes a flag set whose -h prints the usage line, the flags and examples.
func newFlags(name, usage string, examples ...string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: fairplay %s %s\n\nFlags:\n", name, usage)
		printFlags(fs)
		if len(examples) > 0 {
			fmt.Fprintf(w, "\nExamples:\n  %s\n", strings.Join(examples, "\n  "))
		}
	}
	return fs
}

// flagErr maps a flag parsing error: -h stays flag.ErrHelp, the rest are usage errors.
func flagErr(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	return usageError{msg: err.Error()}
}

// maxGames bounds every count of games or pairs given on the command line (10^15): products
// of counts (games × cells, games of a shard) stay far from overflow.
const maxGames = 1e15

// nonEmptyFlags are the flags that name a directory, a file, a position or agents: given with
// an empty value (a shell variable unset, -resume "") they are refused instead of being taken as
// left out (play -resume ” started a fresh run).
var nonEmptyFlags = map[string]bool{"resume": true, "out": true, "tiles": true, "pilot": true, "openings": true,
	"pos": true, "compare": true, "report": true, "a": true, "b": true, "agent": true, "agents": true, "steps": true,
	"ladder": true, "layouts": true, "penta": true, "save-weights": true, "save-net": true}

// katarengaOnly are the flags that have a meaning for Katarenga only (layouts and tiles).
var katarengaOnly = []string{"layout", "tiles", "random-layouts", "fixed-layout"}

// checkGameFlags refuses, once flags are parsed, the Katarenga-only flags given with
// -game baran (they were ignored, or failed after the run's directory was written), and a
// -layout the game does not have (variants -layout 99999 wrote a manifest first).
func checkGameFlags(fs *flag.FlagSet) error {
	g := fs.Lookup("game")
	if g == nil {
		return nil
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if g.Value.String() == "baran" {
		for _, name := range katarengaOnly {
			if set[name] {
				return usagef("-%s: Katarenga only (Baran has no layouts or tiles)", name)
			}
		}
	}
	if l := fs.Lookup("layout"); l != nil && set["layout"] && l.Value.String() != "" && l.Value.String() != layoutRandom && !set["tiles"] {
		if _, err := games.New(g.Value.String(), "", l.Value.String(), nil); err != nil {
			return usagef("-layout %s: %v", l.Value.String(), err)
		}
	}
	return nil
}

// parseFlags parses args; errors become usage errors; -h returns flag.ErrHelp.
// parseInterleaved parses fs's flags wherever they stand among the positional arguments
// (merge -out M part0 part1 -format parquet), as users of other tools expect; "--" ends the
// flags. It returns the positional arguments in order.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, flagErr(err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" { // Parse stopped at "--"
			return append(pos, rest...), nil
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
}

func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return flagErr(err)
	}
	if err := checkParsed(fs); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("%s: unexpected argument %q", fs.Name(), fs.Arg(0))
	}
	return nil
}

// checkParsed checks the flags given, whatever the command: finite numbers, counts of games
// within maxGames, Katarenga-only flags (checkGameFlags), and no empty value for a flag that
// names something (nonEmptyFlags).
func checkParsed(fs *flag.FlagSet) error {
	var bad error
	fs.Visit(func(f *flag.Flag) {
		if bad != nil {
			return
		}
		g, ok := f.Value.(flag.Getter)
		if !ok {
			return
		}
		switch v := g.Get().(type) {
		case float64: // a NaN or an infinity is never a useful number
			if math.IsNaN(v) || math.IsInf(v, 0) {
				bad = usagef("-%s %v: want a finite number", f.Name, v)
			}
		case int, int64: // counts of games beyond any run overflow what is computed from them
			n, _ := strconv.ParseInt(fmt.Sprint(v), 10, 64)
			if (strings.Contains(f.Name, "games") || strings.Contains(f.Name, "pairs")) && n > maxGames {
				bad = usagef("-%s %d: want at most %d (more than any run can play)", f.Name, n, int64(maxGames))
			}
		case string: // a flag that names something, given empty, is a mistake
			if nonEmptyFlags[f.Name] && v == "" {
				bad = usagef("-%s '': want a value (leave the flag out for its default)", f.Name)
			}
		}
	})
	if bad != nil {
		return bad
	}
	if err := noteDeprecated(fs); err != nil {
		return err
	}
	return checkGameFlags(fs)
}

// Profiling any subcommand (diagnostics): FAIRPLAY_CPUPROFILE=FILE writes a CPU profile of the
// whole subcommand to FILE, FAIRPLAY_MEMPROFILE=FILE a heap profile (allocations since the
// start, in use at the end) once it has returned; read them with `go tool pprof fairplay FILE`.
const (
	cpuProfileEnv = "FAIRPLAY_CPUPROFILE"
	memProfileEnv = "FAIRPLAY_MEMPROFILE"
)

// startProfiles starts the profiles that getenv asks for and returns the function that ends
// them and writes their files. An unwritable file is an error naming it, before any work.
func startProfiles(getenv func(string) string) (stop func() error, err error) {
	cpuPath, memPath := getenv(cpuProfileEnv), getenv(memProfileEnv)
	var cpu, mem *os.File
	if cpuPath != "" {
		if cpu, err = os.Create(cpuPath); err != nil {
			return nil, fmt.Errorf("%s=%s: %w", cpuProfileEnv, cpuPath, err)
		}
		if err = pprof.StartCPUProfile(cpu); err != nil {
			cpu.Close()
			return nil, fmt.Errorf("%s=%s: %w", cpuProfileEnv, cpuPath, err)
		}
	}
	if memPath != "" {
		if mem, err = os.Create(memPath); err != nil {
			if cpu != nil {
				pprof.StopCPUProfile()
				cpu.Close()
			}
			return nil, fmt.Errorf("%s=%s: %w", memProfileEnv, memPath, err)
		}
	}
	return func() error {
		var errs []error
		if cpu != nil {
			pprof.StopCPUProfile()
			if err := cpu.Close(); err != nil {
				errs = append(errs, fmt.Errorf("%s=%s: %w", cpuProfileEnv, cpuPath, err))
			}
		}
		if mem != nil {
			runtime.GC() // the heap profile's in-use figures are as of the last collection
			err := pprof.Lookup("allocs").WriteTo(mem, 0)
			if cerr := mem.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("%s=%s: %w", memProfileEnv, memPath, err))
			}
		}
		return errors.Join(errs...)
	}, nil
}
