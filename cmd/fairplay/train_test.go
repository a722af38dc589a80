package main

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/agents/nnue"
	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
)

// fairplay train writes a network that loads and plays, reports the loss curve, refuses to
// overwrite, and rejects bad flags as usage errors naming the value.
func TestTrainCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "k.nnue")
	data := filepath.Join(dir, "k.gob")
	stdout, _, err := runCmd(t, "train", "-game", "katarenga", "-agent", "alphabeta:depth=1", "-games", "8", "-epochs", "2",
		"-hidden", "8", "-hidden2", "0", "-holdout", "4", "-save-data", data, "-curve", filepath.Join(dir, "c.csv"), "-save-net", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "validation loss") || !strings.Contains(stdout, "hand-written") {
		t.Errorf("report lacks the losses:\n%s", stdout)
	}
	n, err := nnue.Load(out)
	if err != nil || n.Game != "katarenga" || n.H != 8 || !strings.Contains(n.Meta, "fairplay train") {
		t.Fatalf("network: %v %+v", err, n)
	}
	if _, err := agents.Parse("alphabeta:depth=2,net=" + out); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, "train", "-game", "katarenga", "-data", data, "-epochs", "2", "-lr-end", "0.0001", "-holdout", "4", "-save-net", out+"2"); err != nil {
		t.Fatalf("fit from saved data: %v", err)
	}
	for _, c := range []struct{ args []string }{
		{[]string{"train", "-game", "katarenga", "-games", "4", "-save-net", out}},
		{[]string{"train", "-game", "katarenga", "-games", "4"}},
		{[]string{"train", "-game", "chess", "-save-net", out + "3"}},
		{[]string{"train", "-hidden", "0", "-save-net", out + "4"}},
		{[]string{"train", "-hidden2", "-1", "-save-net", out + "5"}},
		{[]string{"train", "-lambda", "2", "-save-net", out + "6"}},
		{[]string{"train", "-lr", "0.001", "-lr-end", "0.002", "-save-net", out + "9"}},
		{[]string{"train", "-lr-end", "-1", "-save-net", out + "10"}},
		{[]string{"train", "-agent", "wizard", "-games", "4", "-save-net", out + "7"}},
		{[]string{"train", "-game", "baran", "-data", data, "-save-net", out + "8"}},
	} {
		_, _, err := runCmd(t, c.args...)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: err %v, want a usage error", c.args, err)
		}
	}
	for _, bad := range []string{"0.002", "-1", "NaN"} {
		_, _, err := runCmd(t, "train", "-lr", "0.001", "-lr-end", bad, "-save-net", out+"11")
		if err == nil || !strings.Contains(err.Error(), "-lr-end "+bad) {
			t.Errorf("-lr-end %s: err %v, want one naming the value", bad, err)
		}
	}
}

// fairplay serve speaks the bot side of the protocol: an agent served plays legal moves
// through the ext client's messages.
func TestServe(t *testing.T) {
	for _, game := range []string{"katarenga", "baran"} {
		gm, _ := games.New(game, "", "", nil)
		s := gm.Start(0)
		var in strings.Builder
		in.WriteString("hello fairplay 1 " + game + "\n")
		legal := s.Legal(nil)
		in.WriteString("rules " + s.Rules() + "\nposition " + s.String() + "\n")
		in.WriteString("legal " + strconv.Itoa(len(legal)) + "\n")
		for _, a := range legal {
			in.WriteString(s.FormatAction(a) + "\n")
		}
		in.WriteString("go\nquit\n")
		var out strings.Builder
		ag, _ := agents.Parse("alphabeta:depth=2,net=builtin")
		if err := serve(context.Background(), ag, 1, strings.NewReader(in.String()), &out); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[0], "ready ") || !strings.HasPrefix(lines[1], "move ") {
			t.Fatalf("%s: answers %q", game, lines)
		}
		a, err := s.ParseAction(strings.TrimPrefix(lines[1], "move "))
		if err != nil || !containsAct(legal, a) {
			t.Fatalf("%s: %q is not legal: %v", game, lines[1], err)
		}
	}
	var out strings.Builder
	ag, _ := agents.Parse("random")
	if err := serve(context.Background(), ag, 1, strings.NewReader("hello fairplay 1 katarenga\ngo\n"), &out); err == nil {
		t.Error("go before rules and position was accepted")
	}
	if _, _, err := runCmd(t, "serve", "-agent", "wizard"); !errors.As(err, new(usageError)) {
		t.Errorf("serve -agent wizard: %v, want a usage error", err)
	}
}

func containsAct(l []engine.Action, a engine.Action) bool {
	for _, x := range l {
		if x == a {
			return true
		}
	}
	return false
}
