// Command gobot is the example fairplay bot of docs/protocol.md: it plays a random legal action,
// in persistent mode when offered protocol 2 (one process for many games).
package main

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	var legal []string
	for in.Scan() {
		word, rest, _ := strings.Cut(in.Text(), " ")
		switch word {
		case "hello": // hello fairplay VERSION GAME
			if f := strings.Fields(rest); len(f) == 3 && f[1] != "1" {
				fmt.Println("feature persistent=1")
			}
			fmt.Println("ready gobot")
		case "newgame": // a new game starts: forget the last one (gobot keeps nothing)
		case "ping":
			fmt.Println("pong " + rest)
		case "legal":
			n, _ := strconv.Atoi(rest)
			legal = legal[:0]
			for i := 0; i < n && in.Scan(); i++ {
				legal = append(legal, in.Text())
			}
		case "go":
			fmt.Println("move " + legal[rand.Intn(len(legal))])
		case "quit":
			return
		}
	}
}
