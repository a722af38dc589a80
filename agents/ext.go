package agents

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fairplay-lab/fairplay/engine"
)

func errorf(format string, a ...any) error { return fmt.Errorf(format, a...) }

// External is a bot in another program, spoken to over a line protocol on its standard input
// and output (see docs/protocol.md). A bot that crashes, times out or answers anything but one
// of the listed actions forfeits the game.
//
// A bot that offers persistent mode (protocol 2) is kept between games: a finished game returns
// its process to the agent's idle processes, from which the next game takes it, so that a run
// starts about one process per concurrent game. Release ends the idle processes.
type External struct {
	spec    string
	Cmd     []string
	Timeout time.Duration
	Persist string // "auto" (persistent when the bot offers it), "on" (required) or "off" (protocol 1)

	mu   sync.Mutex
	idle map[string][]*botProc // by game: persistent processes between games
}

func init() {
	register(Kind{Name: "ext", Doc: "an external program speaking the fairplay line protocol (docs/protocol.md)",
		Params: []Param{
			{"cmd", "", "the program and its arguments, separated by spaces"},
			{"timeout", "2s", "how long the bot may take for an answer"},
			{"persist", "auto", "keep the bot's process from game to game (one per worker): auto (when the bot offers it), on (required), off (protocol 1: one per game)"},
		},
		Late: []string{"persist"},
		build: func(p Params) (Agent, error) {
			e := &External{Cmd: strings.Fields(p.String("cmd")), Persist: p.String("persist")}
			if len(e.Cmd) == 0 {
				return nil, errorf("agent ext: cmd is missing (ext:cmd=./mybot)")
			}
			d, err := time.ParseDuration(p.String("timeout"))
			if err != nil || d <= 0 || d > maxExtTimeout {
				return nil, errorf("agent ext: timeout=%q: want a duration like 500ms or 2s, at most %v", p.String("timeout"), maxExtTimeout)
			}
			e.Timeout = d
			switch e.Persist {
			case "auto", "on", "off":
			default:
				return nil, errorf("agent ext: persist=%q: want auto, on or off", e.Persist)
			}
			e.spec = p.canonical(kinds["ext"])
			return e, nil
		}})
}

// maxExtTimeout bounds a bot's time per answer: a hung bot holds its worker (and a run's end)
// for the whole timeout, and 99999h is a mistake, not a budget.
const maxExtTimeout = time.Hour

// Spec returns the canonical spec.
func (e *External) Spec() string { return e.spec }

// Reproducible is false: the toolkit cannot vouch for another program.
func (e *External) Reproducible() bool { return false }

// NewPlayer readies a program for one game: an idle persistent process, told "newgame" and
// answering its ping, or else a newly started and greeted one. A program that cannot start or
// greet makes its player forfeit when it is first asked to move; an idle process that fails is
// replaced, so no game is forfeited for what a bot did before it began.
func (e *External) NewPlayer(game string) (Player, error) {
	p := &extPlayer{ext: e, game: game}
	if b := e.take(game); b != nil {
		if b.newGame() == nil {
			p.bot = b
			return p, nil
		}
		b.close()
	}
	p.bot, p.err = e.start(game)
	if p.err == nil && p.bot.persistent {
		p.err = p.bot.newGame()
	}
	return p, nil
}

// start starts and greets a program for game (see version and persistOK).
func (e *External) start(game string) (*botProc, error) {
	b := &botProc{timeout: e.Timeout}
	err := b.start(e.Cmd, game, e.version())
	if err == nil {
		err = e.persistOK(b)
	}
	return b, err
}

// version is the protocol version the bot is greeted with: 2, which offers persistent mode,
// unless persist=off.
func (e *External) version() int {
	if e.Persist == "off" {
		return 1
	}
	return 2
}

// persistOK refuses a greeted bot that did not offer persistent mode under persist=on.
func (e *External) persistOK(b *botProc) error {
	if e.Persist == "on" && !b.persistent {
		return forfeitf(ForfeitProtocol, "ext: persist=on, but the bot did not offer persistent mode (no \"feature persistent=1\" before \"ready\")")
	}
	return nil
}

// take returns an idle persistent process for game, or nil.
func (e *External) take(game string) *botProc {
	e.mu.Lock()
	defer e.mu.Unlock()
	l := e.idle[game]
	if len(l) == 0 {
		return nil
	}
	b := l[len(l)-1]
	e.idle[game] = l[:len(l)-1]
	return b
}

// put keeps a persistent process for a later game.
func (e *External) put(game string, b *botProc) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.idle == nil {
		e.idle = map[string][]*botProc{}
	}
	e.idle[game] = append(e.idle[game], b)
}

// Release ends the idle persistent processes (told "quit", then their process groups killed),
// all at once. Call it when no game of the agent is in progress, at the end of a run; the agent
// stays usable and later games start new processes.
func (e *External) Release() {
	e.mu.Lock()
	idle := e.idle
	e.idle = nil
	e.mu.Unlock()
	var wg sync.WaitGroup
	for _, l := range idle {
		for _, b := range l {
			wg.Add(1)
			go func() { defer wg.Done(); b.close() }()
		}
	}
	wg.Wait()
}

// extPlayer plays one game through a bot process.
type extPlayer struct {
	ext  *External
	game string
	bot  *botProc
	err  error // the error that forfeits the game (every later Choose returns it)
}

func (p *extPlayer) Choose(s engine.State, legal []engine.Action, _ *engine.Rand) (engine.Action, error) {
	if p.err != nil {
		return 0, p.err
	}
	lines := []string{"rules " + s.Rules(), "position " + s.String(), "legal " + strconv.Itoa(len(legal))}
	names := make([]string, len(legal))
	for i, a := range legal {
		names[i] = s.FormatAction(a)
		lines = append(lines, names[i])
	}
	if p.bot.persistent {
		lines = append(lines, "time "+strconv.FormatInt(p.bot.timeout.Milliseconds(), 10))
	}
	lines = append(lines, "go")
	if err := p.bot.send(lines...); err != nil {
		p.err = err
		return 0, err
	}
	ln, err := p.bot.expect("move")
	if err != nil {
		p.err = err
		return 0, err
	}
	mv := strings.TrimSpace(strings.TrimPrefix(ln, "move"))
	for i, n := range names {
		if n == mv {
			return legal[i], nil
		}
	}
	// Another spelling of a listed action (a different chain path) is accepted too.
	if a, err := s.ParseAction(mv); err == nil {
		for _, l := range legal {
			if l == a {
				return a, nil
			}
		}
	}
	p.err = forfeitf(ForfeitIllegal, "ext: illegal move %q", clip(mv))
	return 0, p.err
}

// Close ends the player's game: a persistent bot that played it without fault is kept for the
// next game; any other is told quit and ended with its whole process group (botProc.close).
func (p *extPlayer) Close() error {
	b := p.bot
	if b == nil {
		return nil
	}
	p.bot = nil
	if p.err == nil && b.persistent {
		p.ext.put(p.game, b)
		return nil
	}
	b.close()
	return nil
}
