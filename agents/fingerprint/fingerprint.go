// Package fingerprint identifies an agent by what it plays: the moves it chooses in a fixed,
// versioned set of positions of its game (positions-v1.txt: seeded random play from the start,
// in Katarenga on several layouts), each chosen by a fresh player with a random source seeded
// by the position's index, hashed with SHA-256. Two agents with the same fingerprint chose the
// same move in every one of those positions; an agent whose play changed (new defaults, new
// weights, a search change) almost surely has a new one. A run records, for each of its agents,
// the spec with every parameter (agents.Expand), the fingerprint and the SHA-256 of the files
// it reads (agents.Inputs), so that a published number names exactly what played.
//
// An agent with a time budget (movetime) plays by the clock: its moves depend on the machine
// and its load, so it has no fingerprint; its record says so (Unpinned) and still pins its spec
// and files. The same holds for external programs.
package fingerprint

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
)

// Version is the version of the position set and of the hash. A fingerprint is written
// "v1:" followed by 64 hex digits; a new position set is a new version, so fingerprints of
// two versions are never compared.
const Version = 1

// positionsV1 holds the positions, one per line: the game's name, a tab, the position in the
// game's notation. Never edit it: make positions-v2.txt and a new Version.
//
//go:embed positions-v1.txt
var positionsV1 string

// positionsV1SHA256 pins the file: a changed position set under an old version is an error
// of the program (TestPositionsPinned).
const positionsV1SHA256 = "0f051d60876e03ac9690861c53997c37cd83253b395c8eb05e00eacd50520161"

// seed derives each position's random source (engine.Derive(seed, index)).
const seed = 0x66696e6765727072 // "fingerpr"

// Pin is what a run records of one agent. It has the fields of gamefile.AgentPin, the
// manifest's type, and converts to it (this package sits beside the runner's chain and imports
// nothing of it).
type Pin struct {
	Game string `json:"game"`
	// Spec is the canonical spec, as in the run's configuration.
	Spec string `json:"spec"`
	// Expanded names every parameter of the agent's kind with its value (agents.Expand).
	Expanded string `json:"expanded"`
	// Fingerprint is "v1:" and the SHA-256 of the moves the agent chooses in the version's
	// positions of Game; empty when the agent has none (Unpinned says why).
	Fingerprint string `json:"fingerprint,omitempty"`
	// Unpinned says why an agent has no fingerprint (a time budget, an external program).
	Unpinned string `json:"unpinned,omitempty"`
	// Files are the SHA-256 of the files the agent reads whose content its spec does not pin,
	// by parameter: "weights", "net" (agents.Inputs).
	Files map[string]string `json:"files,omitempty"`
	// Resolved is, for a time-budgeted alpha-beta agent (no fingerprint), the values its auto
	// options take in Game (agents.Resolved): what shows that one spec came to play otherwise.
	Resolved string `json:"resolved,omitempty"`
}

// Record is a pin with the moves behind the fingerprint, one per position in the order of the
// position set, and the search work they took (nodes or playouts, when the agent counts
// them): the published studies' record keeps both, so a changed fingerprint can be traced to
// the positions where the play changed.
type Record struct {
	Pin
	Moves    []string `json:"moves,omitempty"`
	Work     int64    `json:"work,omitempty"`
	WorkUnit string   `json:"work_unit,omitempty"`
}

// Positions returns the version's positions of game, fresh states in the set's order.
func Positions(game string) ([]engine.State, error) {
	gm, err := games.New(game, "", "", nil)
	if err != nil {
		return nil, err
	}
	var out []engine.State
	for i, line := range strings.Split(strings.TrimSpace(positionsV1), "\n") {
		g, pos, ok := strings.Cut(line, "\t")
		if !ok {
			return nil, fmt.Errorf("positions-v1.txt line %d: want GAME<tab>POSITION", i+1)
		}
		if g != game {
			continue
		}
		s, err := gm.ParsePosition(pos)
		if err != nil {
			return nil, fmt.Errorf("positions-v1.txt line %d: %w", i+1, err)
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no fingerprint positions for game %q", game)
	}
	return out, nil
}

// Play fingerprints agent spec in game: it chooses a move in every position of the set, each
// with a fresh player (nothing carries over between positions) and the random source
// engine.Derive(seed, i), on up to workers goroutines; the result does not depend on workers.
func Play(game, spec string, workers int) (*Record, error) {
	return play(game, spec, -1, workers, nil)
}

// ErrStopped is returned when a fingerprint's stop function ended it before every position
// was searched (an interrupted run): there is no fingerprint, and nothing is cached.
var ErrStopped = errors.New("fingerprint: stopped")

// PlayFirst is Play on the set's first n positions of game only: the moves, without a
// fingerprint (a quick comparison with a record's first n moves).
func PlayFirst(game, spec string, n, workers int) (*Record, error) {
	if n < 1 {
		return nil, fmt.Errorf("PlayFirst: %d positions", n)
	}
	return play(game, spec, n, workers, nil)
}

// play is Play on the first n positions (all when n < 0); the fingerprint only when all.
func play(game, spec string, n, workers int, stop func() bool) (*Record, error) {
	a, err := agents.Parse(spec)
	if err != nil {
		return nil, err
	}
	rec := &Record{Pin: Pin{Game: game, Spec: a.Spec(), Expanded: agents.Expand(a)}}
	if rec.Files, err = agents.Inputs(a, game); err != nil {
		return nil, fmt.Errorf("agent %s: %w", a.Spec(), err)
	}
	if !a.Reproducible() { // before Check, which starts an external program
		rec.Unpinned = unpinned(rec.Expanded)
		if rec.Resolved, err = agents.Resolved(a, game); err != nil {
			return nil, fmt.Errorf("agent %s: %w", a.Spec(), err)
		}
		return rec, nil
	}
	if err := agents.Check(a, game); err != nil {
		return nil, err
	}
	states, err := Positions(game)
	if err != nil {
		return nil, err
	}
	all := n < 0 || n >= len(states)
	if !all {
		states = states[:n]
	}
	rec.Moves = make([]string, len(states))
	work := make([]int64, len(states))
	units := make([]string, len(states))
	errs := make([]error, len(states))
	var wg sync.WaitGroup
	next := make(chan int)
	for range max(1, min(workers, len(states))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if stop != nil && stop() {
					errs[i] = ErrStopped
					continue
				}
				rec.Moves[i], work[i], units[i], errs[i] = choose(a, states[i], i, stop)
			}
		}()
	}
	for i := range states {
		next <- i
	}
	close(next)
	wg.Wait()
	if stop != nil && stop() {
		return nil, ErrStopped
	}
	h := sha256.New()
	fmt.Fprintf(h, "fairplay agent fingerprint v%d %s\n", Version, game)
	for i, m := range rec.Moves {
		if errs[i] != nil {
			return nil, fmt.Errorf("agent %s, fingerprint position %d: %w", a.Spec(), i+1, errs[i])
		}
		fmt.Fprintf(h, "%s\n", m)
		rec.Work += work[i]
		if units[i] != "" {
			rec.WorkUnit = units[i]
		}
	}
	if all {
		rec.Fingerprint = fmt.Sprintf("v%d:%s", Version, hex.EncodeToString(h.Sum(nil)))
	}
	return rec, nil
}

// choose is the move a fresh player of a chooses in s (position index i), and its search work.
func choose(a agents.Agent, s engine.State, i int, stop func() bool) (string, int64, string, error) {
	p, err := a.NewPlayer(s.Game())
	if err != nil {
		return "", 0, "", err
	}
	if st, ok := p.(agents.Stopper); ok && stop != nil {
		st.SetStop(stop)
	}
	if c, ok := p.(agents.Closer); ok {
		defer c.Close()
	}
	s = s.Clone()
	legal := s.Legal(make([]engine.Action, 0, 64))
	act, err := p.Choose(s, legal, engine.NewRand(engine.Derive(seed, uint64(i))))
	if err != nil {
		return "", 0, "", err
	}
	var work int64
	var unit string
	if st, ok := p.(agents.SearchStats); ok {
		work, unit = st.SearchWork()
	}
	return s.FormatAction(act), work, unit, nil
}

// unpinned says why an agent that is not reproducible has no fingerprint.
func unpinned(expanded string) string {
	for _, item := range strings.Split(strings.TrimPrefix(expanded, strings.SplitN(expanded, ":", 2)[0]+":"), ",") {
		if v, ok := strings.CutPrefix(item, "movetime="); ok && v != "0" {
			return "time-budgeted (movetime=" + v + "): its moves depend on the machine's speed and load, so it has no fingerprint"
		}
	}
	if strings.HasPrefix(expanded, "ext:") {
		return "an external program: its moves are not the toolkit's to pin, so it has no fingerprint"
	}
	return "not reproducible, so it has no fingerprint"
}

type cacheKey struct{ game, spec string }

var (
	cacheMu sync.Mutex
	cache   = map[cacheKey]*cacheEntry{}
)

type cacheEntry struct {
	once sync.Once
	pin  Pin
	err  error
}

// Of is Play's pin, computed once per process for each game, canonical spec and content of
// the files the agent reads (a study's runs and a tournament's pairings share their agents).
func Of(game, spec string, workers int) (Pin, error) {
	return OfStop(game, spec, workers, nil)
}

// OfStop is Of ended early by stop (nil: never): then it returns ErrStopped and caches
// nothing, so that a later call fingerprints the agent afresh.
func OfStop(game, spec string, workers int, stop func() bool) (Pin, error) {
	a, err := agents.Parse(spec)
	if err != nil {
		return Pin{}, err
	}
	files, err := agents.Inputs(a, game)
	if err != nil {
		return Pin{}, fmt.Errorf("agent %s: %w", a.Spec(), err)
	}
	key := cacheKey{game, a.Spec() + "\x00" + fmt.Sprint(files)}
	cacheMu.Lock()
	e, ok := cache[key]
	if !ok {
		e = &cacheEntry{}
		cache[key] = e
	}
	cacheMu.Unlock()
	e.once.Do(func() {
		var rec *Record
		if rec, e.err = play(game, spec, -1, workers, stop); e.err == nil {
			e.pin = rec.Pin
		}
	})
	if errors.Is(e.err, ErrStopped) {
		cacheMu.Lock()
		if cache[key] == e {
			delete(cache, key)
		}
		cacheMu.Unlock()
	}
	return e.pin, e.err
}
