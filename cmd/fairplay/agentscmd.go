package main

import (
	"context"
	"fmt"
	"io"

	"github.com/fairplay-lab/fairplay/agents"
)

func runAgents(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("agents", "", "fairplay agents", "fairplay play -a alphabeta:depth=2 -b greedy -games 200")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "Agents are given as kind[:name=value,...], e.g. alphabeta:depth=4 or mcts:playouts=2000,c=1.4")
	for _, k := range agents.Kinds() {
		fmt.Fprintf(stdout, "\n%s\n    %s\n", k.Name, k.Doc)
		for _, p := range k.Params {
			def := p.Default
			if def == "" {
				def = `""`
			}
			fmt.Fprintf(stdout, "    %-9s default %-8s %s\n", p.Name, def, p.Doc)
		}
	}
	for _, game := range []string{"baran", "katarenga"} {
		w, _ := agents.DefaultWeights(game)
		fmt.Fprintf(stdout, "\nheuristic weights for %s (weights=FILE overrides them, JSON {\"name\": value}):\n", game)
		for _, x := range w {
			fmt.Fprintf(stdout, "    %-14s %7g  [%g, %g]  %s\n", x.Name, x.Value, x.Min, x.Max, x.Doc)
		}
	}
	return nil
}
