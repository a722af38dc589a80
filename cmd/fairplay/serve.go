package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
)

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", "-agent SPEC [-seed S]",
		"fairplay serve -agent alphabeta:movetime=100ms,net=builtin",
		"fairplay play -game katarenga -a 'ext:cmd=fairplay serve -agent alphabeta:depth=3' -b alphabeta:depth=3 -games 20   # the served spec must not contain commas (ext's own separator)")
	spec := fs.String("agent", "alphabeta", "the agent to serve (see 'fairplay agents')")
	seed := fs.Uint64("seed", 1, "seed of the agent's random source (ties between equal moves)")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	ag, err := agents.Parse(*spec)
	if err != nil {
		return usagef("serve: -agent: %v", err)
	}
	return serve(ctx, ag, *seed, os.Stdin, stdout)
}

// serve speaks the bot side of the line protocol (docs/protocol.md) on in and out: it greets,
// then answers each "go" with the agent's move in the position and legal list sent before it,
// until "quit" or the end of the input. Offered protocol 2, it plays in persistent mode: each
// "newgame" starts the agent afresh (a new player, the random source seeded again with seed),
// so that a game is the same whether or not the process played others before it, and each
// "ping N" is answered "pong N".
func serve(ctx context.Context, ag agents.Agent, seed uint64, in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	w := bufio.NewWriter(out)
	say := func(format string, a ...any) error {
		fmt.Fprintf(w, format+"\n", a...)
		return w.Flush()
	}
	var (
		game, rules, pos string
		legal            []string
		gm               *games.Game
		pl               agents.Player
		played           bool // pl has chosen a move since it was made
		err              error
	)
	r := engine.NewRand(seed)
	closePl := func() {
		if c, ok := pl.(agents.Closer); ok {
			c.Close()
		}
		pl = nil
	}
	defer closePl()
	for sc.Scan() {
		if ctx.Err() != nil {
			return errInterrupted
		}
		word, rest, _ := strings.Cut(strings.TrimSpace(sc.Text()), " ")
		switch word {
		case "hello":
			f := strings.Fields(rest)
			version, verr := 0, error(nil)
			if len(f) == 3 {
				version, verr = strconv.Atoi(f[1])
			}
			if len(f) != 3 || f[0] != "fairplay" || verr != nil || version < 1 {
				return fmt.Errorf("serve: unsupported greeting %q (want hello fairplay VERSION GAME)", sc.Text())
			}
			if !slices.Contains(games.Names, f[2]) {
				err := fmt.Errorf("unknown game %q (want %s)", f[2], strings.Join(games.Names, " or "))
				say("info error %v", err)
				return fmt.Errorf("serve: %v", err)
			}
			game = f[2]
			closePl()
			if pl, err = ag.NewPlayer(game); err != nil {
				return fmt.Errorf("serve: %v", err)
			}
			if version >= 2 { // a later version offered: answer in the highest this side speaks
				if err := say("feature persistent=1"); err != nil {
					return err
				}
			}
			if err := say("ready fairplay %s", ag.Spec()); err != nil {
				return err
			}
		case "newgame":
			if pl == nil {
				return fmt.Errorf("serve: newgame before hello")
			}
			if played { // the first game's player is fresh from hello
				closePl()
				if pl, err = ag.NewPlayer(game); err != nil {
					return fmt.Errorf("serve: %v", err)
				}
				played = false
			}
			r.Seed(seed)
		case "ping":
			if err := say("pong %s", rest); err != nil {
				return err
			}
		case "rules":
			if rest != rules || gm == nil {
				rules = rest
				if gm, err = games.New(game, rules, "", nil); err != nil {
					return fmt.Errorf("serve: rules %q: %v", rest, err)
				}
			}
		case "position":
			pos = rest
		case "legal":
			n, err := strconv.Atoi(rest)
			if err != nil || n < 0 || n > engine.MaxActions {
				return fmt.Errorf("serve: legal %q: want a count 0..%d", rest, engine.MaxActions)
			}
			legal = legal[:0]
			for i := 0; i < n && sc.Scan(); i++ {
				legal = append(legal, strings.TrimSpace(sc.Text()))
			}
		case "go":
			mv, err := choose(gm, pl, pos, legal, r)
			if err != nil {
				say("info error %v", err)
				return fmt.Errorf("serve: %v", err)
			}
			played = true
			if err := say("move %s", mv); err != nil {
				return err
			}
		case "time": // the served agent's own budget applies
		case "quit":
			return nil
		case "":
		default: // answered on a line every client skips: later versions may add messages
			if err := say("info error unknown message %q", word); err != nil {
				return err
			}
		}
	}
	return sc.Err()
}

// choose parses the position and the legal list and asks the player.
func choose(gm *games.Game, pl agents.Player, pos string, names []string, r *engine.Rand) (string, error) {
	if gm == nil || pl == nil {
		return "", fmt.Errorf("go before hello and rules")
	}
	s, err := gm.ParsePosition(pos)
	if err != nil {
		return "", fmt.Errorf("position %q: %v", pos, err)
	}
	legal := make([]engine.Action, 0, len(names))
	for _, n := range names {
		a, err := s.ParseAction(n)
		if err != nil {
			return "", fmt.Errorf("legal action %q: %v", n, err)
		}
		legal = append(legal, a)
	}
	if len(legal) == 0 {
		return "", fmt.Errorf("go with no legal action")
	}
	a, err := pl.Choose(s, legal, r)
	if err != nil {
		return "", err
	}
	return s.FormatAction(a), nil
}
