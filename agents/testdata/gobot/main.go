// Command gobot is the example fairplay bot of docs/protocol.md: it plays a random legal action.
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
		case "hello":
			fmt.Println("ready gobot")
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
