package agents

import (
	"bufio"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// maxLine bounds a line read from a bot: a longer line is a protocol error (the rest of the
// bot's output is not buffered).
const maxLine = 64 << 10

// botLine is one line from a bot, or the error that ended its output.
type botLine struct {
	text string
	err  error
}

// botProc is one running bot program: its process (in a group of its own, marked with a
// token), the writer of its standard input and the lines of its standard output.
type botProc struct {
	cmd     *exec.Cmd
	token   string // marks the bot's processes (botEnv)
	stdin   io.WriteCloser
	w       *bufio.Writer
	lines   chan botLine
	timeout time.Duration
	name    string // what the bot said after "ready"
	// persistent: the bot offered persistent mode (protocol 2, "feature persistent=1"): it is
	// kept between games, each announced by "newgame" and checked by "ping".
	persistent bool
	pings      int // the last ping's number
}

// start starts the program argv and greets it for game with protocol version (1 or 2): the
// bot answers "ready [name]", under version 2 after any "feature k=v ..." lines.
func (b *botProc) start(argv []string, game string, version int) error {
	b.cmd = exec.Command(argv[0], argv[1:]...)
	ownGroup(b.cmd)
	b.token = botEnv(b.cmd)
	var err error
	if b.stdin, err = b.cmd.StdinPipe(); err != nil {
		return forfeitf(ForfeitOther, "ext: %v", err)
	}
	out, err := b.cmd.StdoutPipe()
	if err != nil {
		return forfeitf(ForfeitOther, "ext: %v", err)
	}
	if err := startBot(b.cmd); err != nil {
		b.cmd = nil
		return forfeitf(ForfeitExit, "ext: cannot start %s: %w", argv[0], err)
	}
	b.w = bufio.NewWriter(b.stdin)
	b.lines = make(chan botLine, 16)
	go readLines(out, b.lines)
	if err := b.send("hello fairplay " + strconv.Itoa(version) + " " + game); err != nil {
		return err
	}
	deadline := time.NewTimer(b.timeout)
	defer deadline.Stop()
	for {
		ln, err := b.next("ready", deadline.C)
		if err != nil {
			return err
		}
		word, rest, _ := strings.Cut(ln, " ")
		switch {
		case word == "ready":
			b.name = strings.TrimSpace(rest)
			return nil
		case word == "feature" && version >= 2:
			for _, f := range strings.Fields(rest) {
				if k, v, _ := strings.Cut(f, "="); k == "persistent" {
					b.persistent = v == "1"
				} // other features are for later versions: ignored
			}
		default:
			return forfeitf(ForfeitProtocol, "ext: the bot said %q, want %q", clip(ln), "ready")
		}
	}
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

func (b *botProc) send(lines ...string) error {
	for _, l := range lines {
		b.w.WriteString(l)
		b.w.WriteByte('\n')
	}
	if err := b.w.Flush(); err != nil {
		return forfeitf(ForfeitExit, "ext: the bot stopped reading: %w", err)
	}
	return nil
}

// next returns the bot's next line that is not an "info" line, waiting for it until deadline
// fires; want names what is awaited in errors.
func (b *botProc) next(want string, deadline <-chan time.Time) (string, error) {
	for {
		select {
		case ln, ok := <-b.lines:
			if !ok {
				return "", forfeitf(ForfeitExit, "ext: the bot exited (waiting for %q)", want)
			}
			if ln.err != nil {
				return "", ln.err
			}
			if strings.HasPrefix(ln.text, "info") {
				continue
			}
			return ln.text, nil
		case <-deadline:
			return "", forfeitf(ForfeitTimeout, "ext: no %q within %v", want, b.timeout)
		}
	}
}

// expect waits for a line starting with word (skipping "info" lines) within the timeout.
func (b *botProc) expect(word string) (string, error) {
	deadline := time.NewTimer(b.timeout)
	defer deadline.Stop()
	ln, err := b.next(word, deadline.C)
	if err != nil {
		return "", err
	}
	if ln == word || strings.HasPrefix(ln, word+" ") {
		return ln, nil
	}
	return "", forfeitf(ForfeitProtocol, "ext: the bot said %q, want %q", clip(ln), word)
}

// newGame announces a game to a persistent bot and checks that it answers: "newgame", then
// "ping N" (N counts up), which it must answer "pong N" within the timeout.
func (b *botProc) newGame() error {
	b.pings++
	n := strconv.Itoa(b.pings)
	if err := b.send("newgame", "ping "+n); err != nil {
		return err
	}
	ln, err := b.expect("pong")
	if err != nil {
		return err
	}
	if got := strings.TrimSpace(strings.TrimPrefix(ln, "pong")); got != n {
		return forfeitf(ForfeitProtocol, "ext: the bot answered ping %s with %q", n, clip(ln))
	}
	return nil
}

// close says quit and ends the program: it may exit on its own within the timeout (at most a
// second), then its whole process group is killed, so that no program it started outlives it;
// on Linux also the programs it started that left its group (sweepBot).
func (b *botProc) close() {
	if b.cmd == nil || b.cmd.Process == nil {
		return
	}
	b.send("quit")
	b.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- b.cmd.Wait() }()
	select {
	case <-done:
		sweepBot(b.cmd.Process.Pid, b.token, false)
		killGroup(b.cmd) // children that outlived the bot
	case <-time.After(min(b.timeout, time.Second)):
		sweepBot(b.cmd.Process.Pid, b.token, true) // the bot still runs: its descendants are found by parent
		killGroup(b.cmd)
		<-done
	}
	botEnded(b.cmd.Process.Pid)
	for range b.lines { // drain
	}
	b.cmd = nil
}
