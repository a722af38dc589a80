// Command yardstick serves this revision's agents on the line protocol (version 1), so that later
// builds can play against them as a frozen yardstick: yardstick -agent alphabeta:movetime=100ms.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
)

func main() {
	spec := flag.String("agent", "alphabeta:movetime=100ms", "agent spec")
	seed := flag.Uint64("seed", 1, "seed")
	flag.Parse()
	ag, err := agents.Parse(*spec)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := serve(ag, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "yardstick:", err)
		os.Exit(1)
	}
}

func serve(ag agents.Agent, seed uint64) error {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	w := bufio.NewWriter(os.Stdout)
	say := func(format string, a ...any) error {
		fmt.Fprintf(w, format+"\n", a...)
		return w.Flush()
	}
	var (
		game, rules, pos string
		legal            []string
		gm               *games.Game
		pl               agents.Player
		err              error
	)
	r := engine.NewRand(seed)
	for sc.Scan() {
		word, rest, _ := strings.Cut(strings.TrimSpace(sc.Text()), " ")
		switch word {
		case "hello":
			f := strings.Fields(rest)
			if len(f) != 3 || f[0] != "fairplay" {
				return fmt.Errorf("unsupported greeting %q", sc.Text())
			}
			game = f[2]
			if pl, err = ag.NewPlayer(game); err != nil {
				return err
			}
			if err := say("ready yardstick-6e90d44 %s", ag.Spec()); err != nil {
				return err
			}
		case "rules":
			if rest != rules || gm == nil {
				rules = rest
				if gm, err = games.New(game, rules, "", nil); err != nil {
					return fmt.Errorf("rules %q: %v", rest, err)
				}
			}
		case "position":
			pos = rest
		case "legal":
			n, err := strconv.Atoi(rest)
			if err != nil || n < 0 || n > 4096 {
				return fmt.Errorf("legal %q", rest)
			}
			legal = legal[:0]
			for i := 0; i < n && sc.Scan(); i++ {
				legal = append(legal, strings.TrimSpace(sc.Text()))
			}
		case "go":
			if gm == nil || pl == nil {
				return fmt.Errorf("go before hello and rules")
			}
			s, err := gm.ParsePosition(pos)
			if err != nil {
				return fmt.Errorf("position %q: %v", pos, err)
			}
			acts := make([]engine.Action, 0, len(legal))
			for _, n := range legal {
				a, err := s.ParseAction(n)
				if err != nil {
					return fmt.Errorf("legal action %q: %v", n, err)
				}
				acts = append(acts, a)
			}
			a, err := pl.Choose(s, acts, r)
			if err != nil {
				return err
			}
			if err := say("move %s", s.FormatAction(a)); err != nil {
				return err
			}
		case "quit":
			return nil
		}
	}
	return sc.Err()
}
