package agents

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// codeBlock returns the first fenced block of language lang in docs/protocol.md.
func codeBlock(t *testing.T, lang string) string {
	t.Helper()
	b, err := os.ReadFile("../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "```"+lang+"\n")
	block, _, closed := strings.Cut(rest, "```")
	if !ok || !closed {
		t.Fatalf("docs/protocol.md has no %s block", lang)
	}
	return block
}

// The bots of docs/protocol.md are the ones tested: the Go bot is testdata/gobot (played by
// TestExampleGoBot), and the Python bot plays in persistent mode and with protocol 1.
func TestProtocolDocBots(t *testing.T) {
	src, _ := os.ReadFile("testdata/gobot/main.go")
	if codeBlock(t, "go") != string(src) {
		t.Error("the Go bot of docs/protocol.md is not testdata/gobot/main.go")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	bot := filepath.Join(t.TempDir(), "bot.py")
	os.WriteFile(bot, []byte(codeBlock(t, "python")), 0o644)
	for _, persist := range []string{"on", "off"} {
		a := mustAgent(t, "ext:cmd="+py+" "+bot+",timeout=5s,persist="+persist)
		if err := Check(a, "baran"); err != nil {
			t.Fatalf("persist=%s: %v", persist, err)
		}
		for _, r := range playGames(t, a, 3) {
			if r != "" {
				t.Errorf("persist=%s: the Python bot forfeited (%s)", persist, r)
			}
		}
		Release(a)
	}
}
