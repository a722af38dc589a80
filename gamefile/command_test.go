package gamefile

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

var commandCases = [][]string{
	{"fairplay", "play", "-a", "alphabeta:depth=2", "-games", "100"},
	{"fairplay", "tournament", "-agents", "random;greedy;alphabeta:depth=2"},
	{"fairplay", "play", "-a", `ext:cmd="./bot, x"`, "-pos", "6k/7/7/2w4/2W4/7/K6 r - 0"},
	{"fairplay", "study", "-out", "", "it's $HOME `x` \\ \n*"},
}

// CommandLine quotes exactly what needs quoting.
func TestCommandLine(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{commandCases[0], "fairplay play -a alphabeta:depth=2 -games 100"},
		{commandCases[1], "fairplay tournament -agents 'random;greedy;alphabeta:depth=2'"},
		{[]string{"a", "", "it's"}, `a '' 'it'\''s'`},
	} {
		if got := CommandLine(c.args); got != c.want {
			t.Errorf("%q: %s, want %s", c.args, got, c.want)
		}
	}
}

// A POSIX shell reads every CommandLine back as the same arguments.
func TestCommandLineRoundTrip(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	for _, args := range commandCases {
		// printf prints each argument on its own line, NUL-terminated.
		out, err := exec.Command(sh, "-c", `printf '%s\0' `+CommandLine(args)).Output()
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		if !slices.Equal(got, args) {
			t.Errorf("%q read back as %q", args, got)
		}
	}
}
