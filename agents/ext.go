package agents

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fairplay-lab/fairplay/engine"
)

func errorf(format string, a ...any) error { return fmt.Errorf(format, a...) }

// External is a bot in another program, spoken to over a line protocol on its standard input
// and output (see docs/protocol.md). A bot that crashes, times out or answers anything but one
// of the listed actions forfeits the game.
type External struct {
	spec    string
	Cmd     []string
	Timeout time.Duration
}

func init() {
	register(Kind{Name: "ext", Doc: "an external program speaking the fairplay line protocol (docs/protocol.md)",
		Params: []Param{
			{"cmd", "", "the program and its arguments, separated by spaces"},
			{"timeout", "2s", "how long the bot may take for an answer"},
		},
		build: func(p Params) (Agent, error) {
			e := &External{Cmd: strings.Fields(p.String("cmd"))}
			if len(e.Cmd) == 0 {
				return nil, errorf("agent ext: cmd is missing (ext:cmd=./mybot)")
			}
			d, err := time.ParseDuration(p.String("timeout"))
			if err != nil || d <= 0 || d > maxExtTimeout {
				return nil, errorf("agent ext: timeout=%q: want a duration like 500ms or 2s, at most %v", p.String("timeout"), maxExtTimeout)
			}
			e.Timeout = d
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

// NewPlayer starts the program for one game and greets it. A program that cannot start or
// greet makes its player forfeit when it is first asked to move.
func (e *External) NewPlayer(game string) (Player, error) {
	p := &extPlayer{timeout: e.Timeout}
	p.err = p.start(e.Cmd, game)
	return p, nil
}

// maxLine bounds a line read from a bot: a longer line is a protocol error (the rest of the
// bot's output is not buffered).
const maxLine = 64 << 10

// botLine is one line from a bot, or the error that ended its output.
type botLine struct {
	text string
	err  error
}

type extPlayer struct {
	cmd     *exec.Cmd
	token   string // marks the bot's processes (botEnv)
	stdin   io.WriteCloser
	lines   chan botLine
	timeout time.Duration
	err     error
	Name    string
	w       *bufio.Writer
}

func (p *extPlayer) start(argv []string, game string) error {
	p.cmd = exec.Command(argv[0], argv[1:]...)
	ownGroup(p.cmd)
	p.token = botEnv(p.cmd)
	var err error
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		return forfeitf(ForfeitOther, "ext: %v", err)
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		return forfeitf(ForfeitOther, "ext: %v", err)
	}
	if err := startBot(p.cmd); err != nil {
		p.cmd = nil
		return forfeitf(ForfeitExit, "ext: cannot start %s: %w", argv[0], err)
	}
	p.w = bufio.NewWriter(p.stdin)
	p.lines = make(chan botLine, 16)
	go readLines(out, p.lines)
	if err := p.send("hello fairplay 1 " + game); err != nil {
		return err
	}
	ln, err := p.expect("ready")
	if err != nil {
		return err
	}
	p.Name = strings.TrimSpace(strings.TrimPrefix(ln, "ready"))
	return nil
}

// readLines sends the lines of r to lines (then closes it): at most maxLine bytes each, valid
// UTF-8 text without control characters; the first bad line ends the stream with an error.
func readLines(r io.Reader, lines chan<- botLine) {
	defer close(lines)
	br := bufio.NewReaderSize(r, 4096)
	var buf []byte
	for {
		frag, err := br.ReadSlice('\n')
		buf = append(buf, frag...)
		if len(buf) > maxLine {
			lines <- botLine{err: forfeitf(ForfeitProtocol, "ext: the bot wrote a line longer than %d bytes", maxLine)}
			return
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil { // the rest of an unterminated line is dropped
			return
		}
		text := strings.TrimRight(string(buf), "\r\n")
		buf = buf[:0]
		if !utf8.ValidString(text) || strings.ContainsFunc(text, func(c rune) bool { return c < ' ' && c != '\t' }) {
			lines <- botLine{err: forfeitf(ForfeitProtocol, "ext: the bot wrote binary data (%q)", clip(text))}
			return
		}
		lines <- botLine{text: text}
	}
}

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

func (p *extPlayer) send(lines ...string) error {
	for _, l := range lines {
		p.w.WriteString(l)
		p.w.WriteByte('\n')
	}
	if err := p.w.Flush(); err != nil {
		return forfeitf(ForfeitExit, "ext: the bot stopped reading: %w", err)
	}
	return nil
}

// expect waits for a line starting with word (skipping "info" lines) within the timeout.
func (p *extPlayer) expect(word string) (string, error) {
	deadline := time.NewTimer(p.timeout)
	defer deadline.Stop()
	for {
		select {
		case ln, ok := <-p.lines:
			if !ok {
				return "", forfeitf(ForfeitExit, "ext: the bot exited (waiting for %q)", word)
			}
			if ln.err != nil {
				return "", ln.err
			}
			if strings.HasPrefix(ln.text, "info") {
				continue
			}
			if ln.text == word || strings.HasPrefix(ln.text, word+" ") {
				return ln.text, nil
			}
			return "", forfeitf(ForfeitProtocol, "ext: the bot said %q, want %q", clip(ln.text), word)
		case <-deadline.C:
			return "", forfeitf(ForfeitTimeout, "ext: no %q within %v", word, p.timeout)
		}
	}
}

func (p *extPlayer) Choose(s engine.State, legal []engine.Action, _ *engine.Rand) (engine.Action, error) {
	if p.err != nil {
		return 0, p.err
	}
	lines := []string{"rules " + s.Rules(), "position " + s.String(), fmt.Sprintf("legal %d", len(legal))}
	names := make([]string, len(legal))
	for i, a := range legal {
		names[i] = s.FormatAction(a)
		lines = append(lines, names[i])
	}
	lines = append(lines, "go")
	if err := p.send(lines...); err != nil {
		p.err = err
		return 0, err
	}
	ln, err := p.expect("move")
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

// Close says quit and ends the program: it may exit on its own within the timeout (at most a
// second), then its whole process group is killed, so that no program it started outlives it;
// on Linux also the programs it started that left its group (sweepBot).
func (p *extPlayer) Close() error {
	if p.cmd == nil || p.cmd.Process == nil {
		return nil
	}
	p.send("quit")
	p.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case <-done:
		sweepBot(p.cmd.Process.Pid, p.token, false)
		killGroup(p.cmd) // children that outlived the bot
	case <-time.After(min(p.timeout, time.Second)):
		sweepBot(p.cmd.Process.Pid, p.token, true) // the bot still runs: its descendants are found by parent
		killGroup(p.cmd)
		<-done
	}
	botEnded(p.cmd.Process.Pid)
	for range p.lines { // drain
	}
	p.cmd = nil
	return nil
}
