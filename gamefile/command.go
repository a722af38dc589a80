package gamefile

import "strings"

// CommandLine joins a command's arguments into one line that a POSIX shell reads back as the
// same arguments: a word of only safe characters (letters, digits and @%+=:,./_-) as it is, any
// other in single quotes (a single quote inside written as quote, backslash, quote, quote), the
// empty word as a pair of single quotes. Manifests, reports and study listings record commands
// this way so that they paste.
func CommandLine(args []string) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(shellQuote(a))
	}
	return b.String()
}

func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./_-", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
