package agents

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairplay-lab/fairplay/engine"
	"github.com/fairplay-lab/fairplay/engine/games"
)

// Bad specs are refused with an error naming the bad value.
func TestParseRefuses(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{"alphabeta:depth=2,depth=3", "depth given twice"},
		{"mcts:c=NaN", `c="NaN"`},
		{"mcts:c=Inf", `c="Inf"`},
		{"mcts:c=-1", `c="-1"`},
		{"mcts:eps=+Inf", `eps="+Inf"`},
		{"mcts:playouts=-5", `playouts="-5"`},
		{"alphabeta:depth=0", `depth="0"`},
		{"alphabeta:nodes=-1", `nodes="-1"`},
		{"ext:cmd=x,timeout=-1s", `timeout="-1s"`},
		{"greedy:weights=a.json,weights=b.json", "weights given twice"},
		{"alphabeta:depth", "want name=value"},
		{"random:x=1", "takes no parameters"},
	} {
		_, err := Parse(c.spec)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q): %v, want an error mentioning %q", c.spec, err, c.want)
		}
	}
}

// Weights files that are not JSON objects of known, finite, in-bounds numbers are refused,
// and a refused file leaves the weights unchanged.
func TestSetJSONRefuses(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{"", "not a JSON object"},
		{"not json", "not a JSON object"},
		{"[1, 2]", "not a JSON object"},
		{`{"material": 100`, "not valid JSON"},
		{`{"materiel": 100}`, `unknown weight "materiel"`},
		{`{"material": NaN}`, "material"},
		{`{"material": 1e999}`, "material"},
		{`{"material": "100"}`, "material"},
		{`{"material": null}`, "material"},
		{`{"material": 100000}`, "outside its bounds"},
		{`{"king_distance": 5}`, "outside its bounds"},
		{`{"material": 1, "material": 2}`, "given twice"},
		{`{"material": 1} {}`, "after the JSON object"},
		{`{"material": 1, "king_distance": 5}`, "outside its bounds"}, // a good weight before a bad one
	} {
		w, _ := DefaultWeights("baran")
		err := w.SetJSON([]byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("SetJSON(%q): %v, want an error mentioning %q", c.data, err, c.want)
		}
		if d, _ := DefaultWeights("baran"); !reflect.DeepEqual(w, d) {
			t.Errorf("SetJSON(%q) changed the weights after an error", c.data)
		}
	}
	w, _ := DefaultWeights("baran")
	if err := w.SetJSON([]byte(` {"material": 120, "king_distance": -10.5} `)); err != nil || w[0].Value != 120 || w[2].Value != -10.5 {
		t.Errorf("a good object: %v %v", err, w)
	}
}

// The committed tuned weights are within bounds.
func TestStudyWeightsLoad(t *testing.T) {
	for _, g := range []string{"baran", "katarenga"} {
		if _, err := LoadWeights(g, filepath.Join("..", "docs", "studies", g+"-alphabeta2-tuned.json")); err != nil {
			t.Error(err)
		}
	}
}

// Check refuses missing or bad weights files and bots that cannot start or greet, and
// accepts good ones.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	good := filepath.Join(dir, "good.json")
	os.WriteFile(bad, []byte(`{"material": -1}`), 0o644)
	os.WriteFile(good, []byte(`{"material": 90}`), 0o644)
	for _, c := range []struct{ spec, game, want string }{
		{"alphabeta:depth=1,weights=" + filepath.Join(dir, "missing.json"), "baran", "missing.json"},
		{"greedy:weights=" + bad, "baran", "outside its bounds"},
		{"mcts:weights=" + bad, "katarenga", "outside its bounds"},
		{"ext:cmd=/no/such/program", "baran", "/no/such/program"},
		{"ext:cmd=" + filepath.Join("testdata", "garbagebot.sh") + ",timeout=300ms", "baran", ""},
		{"ext:cmd=" + filepath.Join("testdata", "crashbot.sh"), "baran", ""},
		{"ext:cmd=" + filepath.Join("testdata", "README-missing"), "baran", "README-missing"},
	} {
		err := Check(mustAgent(t, c.spec), c.game)
		if c.want == "" {
			if err != nil {
				t.Errorf("Check(%s): %v", c.spec, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Check(%s): %v, want an error mentioning %q", c.spec, err, c.want)
		}
	}
	if err := Check(mustAgent(t, "ext:cmd=testdata/slowbot.sh,timeout=300ms"), "baran"); err != nil {
		t.Errorf("slowbot greets: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "mute.sh"), []byte("#!/bin/sh\nsleep 5\n"), 0o755)
	if err := Check(mustAgent(t, "ext:cmd="+filepath.Join(dir, "mute.sh")+",timeout=200ms"), "baran"); err == nil || !strings.Contains(err.Error(), "ready") {
		t.Errorf("a bot that never greets: %v", err)
	}
	if err := Check(mustAgent(t, "greedy:weights="+good), "baran"); err != nil {
		t.Error(err)
	}
}

// A bot's forfeit says why; oversized lines and binary noise are protocol errors.
func TestForfeitReasons(t *testing.T) {
	gm, _ := games.New("baran", "", "", nil)
	s := gm.Start(0)
	legal := s.Legal(nil)
	for _, c := range []struct{ bot, want string }{
		{"crashbot.sh", ForfeitExit},
		{"slowbot.sh,timeout=300ms", ForfeitTimeout},
		{"garbagebot.sh", ForfeitProtocol},
		{"illegalbot.sh", ForfeitIllegal},
		{"hugebot.sh", ForfeitProtocol},
		{"noisebot.sh", ForfeitProtocol},
		{"no-such-bot", ForfeitExit},
	} {
		p, err := mustAgent(t, "ext:cmd="+filepath.Join("testdata", c.bot)).NewPlayer("baran")
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Choose(s, legal, nil)
		if got := ForfeitReason(err); err == nil || got != c.want {
			t.Errorf("%s: %v (reason %q), want reason %q", c.bot, err, got, c.want)
		}
		p.(Closer).Close()
	}
	if ForfeitReason(errors.New("x")) != ForfeitOther {
		t.Error("a plain error is not reason error")
	}
}

// A bot that started a child and hangs leaves nothing running once its game ends.
func TestBotChildrenKilled(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	t.Setenv("FORKBOT_PIDFILE", pidFile)
	gm, _ := games.New("baran", "", "", nil)
	s := gm.Start(0)
	p, err := mustAgent(t, "ext:cmd=testdata/forkbot.sh,timeout=300ms").NewPlayer("baran")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Choose(s, s.Legal(nil), nil); ForfeitReason(err) != ForfeitTimeout {
		t.Errorf("forkbot: %v, want a timeout", err)
	}
	t0 := time.Now()
	p.(Closer).Close()
	if d := time.Since(t0); d > 3*time.Second {
		t.Errorf("Close took %v", d)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	deadline := time.Now().Add(2 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("the bot's child %d still runs after Close", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// alive reports whether process pid runs (a zombie, dead but not yet reaped, does not).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// Searches return ErrStopped soon after their stop function turns true.
func TestSearchStops(t *testing.T) {
	gm, _ := games.New("baran", "", "", nil)
	for _, spec := range []string{"alphabeta:depth=40,qs=1", "mcts:playouts=10000000"} {
		p, err := mustAgent(t, spec).NewPlayer("baran")
		if err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		p.(Stopper).SetStop(func() bool { return time.Since(t0) > 50*time.Millisecond })
		s := gm.Start(0)
		_, err = p.Choose(s, s.Legal(nil), engine.NewRand(1))
		if d := time.Since(t0); !errors.Is(err, ErrStopped) || d > 2*time.Second {
			t.Errorf("%s: %v after %v, want ErrStopped within 2s", spec, err, d)
		}
	}
}

func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"random", "alphabeta:depth=2,depth=3", "mcts:c=NaN", "greedy:weights=x.json",
		"alphabeta:nodes=100,tt=8,qs=0", "ext:cmd=bot,timeout=1s", "mcts:rollout=heuristic,eps=0.5", ":", "a:b=c=d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		a, err := Parse(spec)
		if err != nil {
			return
		}
		b, err := Parse(a.Spec())
		if err != nil || b.Spec() != a.Spec() {
			t.Fatalf("%q: canonical %q does not parse to itself: %v", spec, a.Spec(), err)
		}
	})
}

func FuzzLoadWeights(f *testing.F) {
	for _, s := range []string{`{"material": 100}`, `{}`, `{"material": 1e999}`, `[1]`, `{"a":1,"a":2}`, `{"mobility": 0} x`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		for _, g := range []string{"baran", "katarenga"} {
			w, _ := DefaultWeights(g)
			if err := w.SetJSON([]byte(data)); err != nil {
				continue
			}
			for _, x := range w {
				if !(x.Value >= x.Min && x.Value <= x.Max) {
					t.Fatalf("%q: %s=%v accepted outside %v..%v", data, x.Name, x.Value, x.Min, x.Max)
				}
			}
		}
	})
}

// classic:weights=FILE applies the file over 0.1's weights, not over today's defaults: a file
// naming one weight leaves every other weight of the yardstick as it was.
func TestClassicWeightsFileOverClassic(t *testing.T) {
	file := filepath.Join(t.TempDir(), "w.json")
	if err := os.WriteFile(file, []byte(`{"mobility": 4}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, game := range []string{"katarenga", "baran"} {
		a, err := Parse("classic:weights=" + file)
		if err != nil {
			t.Fatal(err)
		}
		got, err := HeuristicWeights(a, game)
		if err != nil {
			t.Fatal(err)
		}
		want := classicWeights(game)
		want[want.Index("mobility")].Value = 4
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, want 0.1's weights with mobility 4: %v", game, got, want)
		}
	}
}
