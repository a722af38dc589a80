package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/agents/fingerprint"
	"github.com/fairplay-lab/fairplay/engine/games"
)

func runAgents(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("agents", "[-fingerprint SPEC [-game G] [-json] [-workers W]]", "fairplay agents",
		"fairplay agents -fingerprint alphabeta:depth=2 -game baran          # what a run's manifest records of the agent",
		"fairplay agents -fingerprint 'mcts:playouts=1000' -game katarenga -json   # with the move chosen in each position",
		"fairplay play -a alphabeta:depth=2 -b greedy -games 200")
	spec := fs.String("fingerprint", "", "print this agent's record: its spec with every parameter, the fingerprint of its play (the moves it chooses in a fixed, versioned set of positions of the game) and the SHA-256 of the files it reads")
	game := fs.String("game", "katarenga", "game: baran or katarenga")
	asJSON := fs.Bool("json", false, "with -fingerprint: print the record as JSON, with the moves and the search work")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "with -fingerprint: parallel workers (the fingerprint does not depend on them)")
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if *spec != "" {
		if !slices.Contains(games.Names, *game) {
			return usagef("-game %q: want %s", *game, strings.Join(games.Names, " or "))
		}
		if err := checkWorkers(*workers); err != nil {
			return err
		}
		return printFingerprint(*game, *spec, *asJSON, *workers, stdout)
	}
	if name := givenOf(fs, "game", "json", "workers"); name != "" {
		return usagef("-%s goes with -fingerprint SPEC", name)
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

// printFingerprint prints an agent's record (fingerprint.Play) as text or JSON.
func printFingerprint(game, spec string, asJSON bool, workers int, stdout io.Writer) error {
	rec, err := fingerprint.Play(game, spec, workers)
	if err != nil {
		return usagef("-fingerprint %s: %v", spec, err)
	}
	if asJSON {
		b, err := json.MarshalIndent(rec, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", b)
		return err
	}
	fmt.Fprintf(stdout, "game         %s\nspec         %s\nexpanded     %s\n", rec.Game, rec.Spec, rec.Expanded)
	if rec.Fingerprint != "" {
		fmt.Fprintf(stdout, "fingerprint  %s\npositions    %d (set v%d)\n", rec.Fingerprint, len(rec.Moves), fingerprint.Version)
		if rec.WorkUnit != "" {
			fmt.Fprintf(stdout, "work         %d %s\n", rec.Work, rec.WorkUnit)
		}
	} else {
		fmt.Fprintf(stdout, "fingerprint  none: %s\n", rec.Unpinned)
		if rec.Resolved != "" {
			fmt.Fprintf(stdout, "resolved     %s\n", rec.Resolved)
		}
	}
	for _, k := range []string{"weights", "net"} {
		if sum, ok := rec.Files[k]; ok {
			fmt.Fprintf(stdout, "%-12s sha256 %s\n", k, sum)
		}
	}
	return nil
}
